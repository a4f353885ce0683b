/* SPDX-License-Identifier: Apache-2.0 */
/* Synthetic images as the original's ImageGenerator: source pictures (shipped, or a directory's) resized to sampled sizes, or noise, as data: URLs. */
#include <dirent.h>
#include <sys/stat.h>

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

int
imagegen_sampling_of(const char *s)
{
	static const char *const names[] = { "random-with-replacement", "shuffle-cycle",
					     "sequential-cycle" };

	for (int i = 0; i < 3; i++) {
		size_t k = 0;

		while (names[i][k] && (s[k] == names[i][k] ||
				       (s[k] == '_' && names[i][k] == '-')))
			k++;
		if (!names[i][k] && !s[k])
			return i;
	}
	return -1;
}

static int
is_assets(const struct imagegen_opts *o)
{
	return !o->source || !strcmp(o->source, "assets");
}

static int
is_noise(const struct imagegen_opts *o)
{
	return o->source && !strcmp(o->source, "noise");
}

/* The suffixes read (Pillow's registered extensions for PNG and JPEG),
 * compared without case. */
static int
image_name(const char *name)
{
	static const char *const ext[] = { ".png", ".jpg", ".jpeg", ".jpe", ".jfif" };
	const char *dot = strrchr(name, '.');

	if (!dot || dot == name)
		return 0;
	for (size_t i = 0; i < sizeof(ext) / sizeof(*ext); i++) {
		size_t k = 0;

		while (ext[i][k] && (dot[k] | 0x20) == ext[i][k])
			k++;
		if (!ext[i][k] && !dot[k])
			return 1;
	}
	return 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* glob(dir/ "*") sorted, those with an image suffix, as paths into *out
 * (n of them, at most IMAGEGEN_DIR_MAX); -1 with the original's message. */
static int
index_dir(const char *dir, const char *prefix, char ***out, size_t *n,
	  char *err, size_t errlen)
{
	struct stat st;
	struct dirent *e;
	DIR *d;

	*out = NULL;
	*n = 0;
	if (stat(dir, &st) < 0)
		return util_seterr(err, errlen, "The directory '%s' does not exist.", dir);
	if (!S_ISDIR(st.st_mode))
		return util_seterr(err, errlen, "The path '%s' is not a directory.", dir);
	if (!(d = opendir(dir)))
		return util_seterr(err, errlen, "cannot read the directory '%s': %s", dir,
				   util_strerror(errno));
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !image_name(e->d_name) ||
		    (prefix && strncmp(e->d_name, prefix, strlen(prefix))))
			continue;
		if (*n == IMAGEGEN_DIR_MAX) {
			closedir(d);
			return util_seterr(err, errlen, "'%s': more than %d images", dir,
					   IMAGEGEN_DIR_MAX);
		}
		*out = xreallocarray(*out, *n + 1, sizeof(**out));
		(*out)[(*n)++] = xstrfmt("%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_str);
	else
		return util_seterr(err, errlen, "No source images found in '%s'. Please "
				   "ensure the directory contains at least one image file.", dir);
	return 0;
}

static void
free_paths(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int
imagegen_check(const struct imagegen_opts *o, char *err, size_t errlen)
{
	char **v;
	size_t n;

	if (is_noise(o))
		return o->sampling == IMAGEGEN_RANDOM_WITH_REPLACEMENT ? 0 :
		       util_seterr(err, errlen, "images.source_sampling requires image "
				   "source 'assets' or a directory path unless it is "
				   "'random-with-replacement'; noise has no finite source pool");
	if (is_assets(o))
		return 0;
	if (!*o->source)
		return util_seterr(err, errlen, "The directory '' does not exist.");
	if (index_dir(o->source, NULL, &v, &n, err, errlen) < 0)
		return -1;
	free_paths(v, n);
	return 0;
}

void
imagegen_init(struct imagegen *g, const struct imagegen_opts *o,
	      const char *datadir, uint64_t root)
{
	char err[4200], *assets = NULL;

	memset(g, 0, sizeof(*g));
	g->o = *o;
	rng_derive(&g->dims, root, "dataset.image.dimensions");
	rng_derive(&g->format, root, "dataset.image.format");
	if ((g->is_noise = is_noise(o))) {
		nprand_seed(&g->noise, rng_child_seed(root, "dataset.image.noise"));
		return;
	}
	rng_derive(&g->source, root, "dataset.image.source");
	nprand_seed(&g->shuffle, rng_child_seed(root, "dataset.image.source"));
	if (is_assets(o)) {
		assets = xstrfmt("%s/images", datadir);
		if (index_dir(assets, "source-", &g->paths, &g->nsrc, err, sizeof(err)) < 0)
			die("no source images '%s/source-*.png' (set AIPERF_DATA_DIR "
			    "to the data folder holding images/source-*.png)", assets);
		g->dir = assets;
	} else {
		if (index_dir(o->source, NULL, &g->paths, &g->nsrc, err, sizeof(err)) < 0)
			die("%s", err);
		g->dir = xstrdup(o->source);
	}
	g->src = xcalloc(g->nsrc, sizeof(*g->src));
	g->avail = xcalloc(g->nsrc, sizeof(*g->avail));
	g->cycle = xcalloc(g->nsrc, sizeof(*g->cycle));
	for (size_t i = 0; i < g->nsrc; i++)
		g->avail[i] = i;
	g->navail = g->nsrc;
}

/* _next_source_image_path: an index still available. */
static size_t
next_index(struct imagegen *g)
{
	if (g->o.sampling == IMAGEGEN_SHUFFLE_CYCLE) {
		if (!g->ncycle) {
			memcpy(g->cycle, g->avail, g->navail * sizeof(*g->cycle));
			g->ncycle = g->navail;
			nprand_shuffle(&g->shuffle, g->cycle, g->ncycle);
		}
		return g->cycle[--g->ncycle];
	}
	if (g->o.sampling == IMAGEGEN_SEQUENTIAL_CYCLE)
		for (;;) {
			size_t i = g->next;

			g->next = (g->next + 1) % g->nsrc;
			for (size_t k = 0; k < g->navail; k++)
				if (g->avail[k] == i)
					return i;
		}
	return g->avail[rng_below(&g->source, g->navail)];
}

static void
retire(struct imagegen *g, size_t ix, const char *why)
{
	size_t k = 0;

	snprintf(g->skip_why, sizeof(g->skip_why), "%.500s", why);
	g->skipped++;
	for (size_t i = 0; i < g->navail; i++)
		if (g->avail[i] != ix)
			g->avail[k++] = g->avail[i];
	g->navail = k;
	k = 0;
	for (size_t i = 0; i < g->ncycle; i++)
		if (g->cycle[i] != ix)
			g->cycle[k++] = g->cycle[i];
	g->ncycle = k;
}

/* _create_from_source_images: a drawn source picture resized to w x h. */
static void
from_source(struct imagegen *g, struct image *out, int w, int h)
{
	char err[4200];

	while (g->navail) {
		size_t ix = next_index(g);
		struct image tmp, *im = &g->src[ix];

		if (im->rgb) {
			image_resize(im, out, w, h);
			return;
		}
		if (image_read(g->paths[ix], &tmp, err, sizeof(err)) < 0) {
			retire(g, ix, err);
			continue;
		}
		image_resize(&tmp, out, w, h);
		if (g->cached + (size_t)tmp.w * (size_t)tmp.h * 3 <= IMAGEGEN_CACHE_MAX) {
			g->cached += (size_t)tmp.w * (size_t)tmp.h * 3;
			*im = tmp;
		} else {
			image_release(&tmp);
		}
		return;
	}
	die("No readable source images found in '%s'. Please ensure the directory "
	    "contains at least one readable image file.", g->dir);
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
	if (g->is_noise) {
		/* _create_from_noise: integers(0, 256, (h, w, 3), uint8) */
		out.w = (int)iw;
		out.h = (int)ih;
		out.rgb = xmalloc((size_t)iw * (size_t)ih * 3);
		nprand_fill_u8(&g->noise, out.rgb, (size_t)iw * (size_t)ih * 3);
	} else {
		from_source(g, &out, (int)iw, (int)ih);
	}
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
	free_paths(g->paths, g->nsrc);
	free(g->avail);
	free(g->cycle);
	free((char *)g->dir);
	memset(g, 0, sizeof(*g));
}
