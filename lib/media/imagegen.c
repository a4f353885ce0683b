/* SPDX-License-Identifier: Apache-2.0 */
/* Synthetic images as the original's ImageGenerator: shipped source pictures resized to sampled sizes, as data: URLs. */
#include <glob.h>

#include "media/dataurl.h"
#include "media/image.h"
#include "media/imagegen.h"
#include "util.h"

int
imagegen_format_of(const char *s)
{
	return !strcmp(s, "png") ? IMAGEGEN_PNG : !strcmp(s, "jpeg") ? IMAGEGEN_JPEG :
	       !strcmp(s, "random") ? IMAGEGEN_RANDOM : -1;
}

void
imagegen_init(struct imagegen *g, const struct imagegen_opts *o,
	      const char *dir, uint64_t root)
{
	char pat[4096], err[512];
	glob_t gl;

	memset(g, 0, sizeof(*g));
	g->o = *o;
	rng_derive(&g->dims, root, "dataset.image.dimensions");
	rng_derive(&g->format, root, "dataset.image.format");
	rng_derive(&g->source, root, "dataset.image.source");
	snprintf(pat, sizeof(pat), "%s/images/source-*.png", dir);
	if (glob(pat, 0, NULL, &gl) != 0 || gl.gl_pathc == 0)
		die("no source images '%s' (set AIPERF_DATA_DIR to the data "
		    "folder holding images/source-*.png)", pat);
	g->src = xcalloc(gl.gl_pathc, sizeof(*g->src));
	for (size_t i = 0; i < gl.gl_pathc; i++)
		if (image_read_png(gl.gl_pathv[i], &g->src[g->nsrc++], err,
				   sizeof(err)) < 0)
			die("source image %s", err);
	globfree(&gl);
}

char *
imagegen_next(struct imagegen *g, int *w, int *h)
{
	int f = g->o.format;
	long long iw, ih;
	const char *why;
	struct image out;
	unsigned char *file;
	size_t n;
	char *url;

	if (f == IMAGEGEN_RANDOM)
		f = (int)rng_below(&g->format, 2);
	iw = rng_pos_normal_int(&g->dims, g->o.width_mean, g->o.width_stddev);
	ih = rng_pos_normal_int(&g->dims, g->o.height_mean, g->o.height_stddev);
	if ((why = image_size_check(iw, ih)))
		die("synthetic image of %lldx%lld pixels: %s", iw, ih, why);
	image_resize(&g->src[rng_below(&g->source, g->nsrc)], &out, (int)iw, (int)ih);
	file = image_encode(&out, f == IMAGEGEN_JPEG ? IMAGE_JPEG : IMAGE_PNG, &n);
	url = dataurl_encode(image_mime(f == IMAGEGEN_JPEG ? IMAGE_JPEG : IMAGE_PNG),
			     file, n);
	g->made++;
	g->bytes += n;
	free(file);
	image_release(&out);
	if (w)
		*w = (int)iw;
	if (h)
		*h = (int)ih;
	return url;
}

void
imagegen_release(struct imagegen *g)
{
	for (size_t i = 0; i < g->nsrc; i++)
		image_release(&g->src[i]);
	free(g->src);
	memset(g, 0, sizeof(*g));
}
