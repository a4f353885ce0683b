/* SPDX-License-Identifier: Apache-2.0 */
/* Images in turns: synthetic ones (lib/media/imagegen) and dataset image fields (issue #17). */
#include "gen.h"
#include "media/dataurl.h"
#include "tok/toksrc.h"
#include "util.h"

int gen_keep_media;

static struct imagegen gen;
static int started;

int
gen_images_enabled(const struct gen_opts *o)
{
	return o->img.width_mean > 0 && o->img.height_mean > 0 && o->image_batch > 0;
}

void
gen_images_init(const struct gen_opts *o, uint64_t root)
{
	if (!gen_images_enabled(o) || started)
		return;
	imagegen_init(&gen, &o->img, toksrc_datadir(), root);
	started = 1;
}

static void
add(struct turn *t, char *url)
{
	t->images = xreallocarray(t->images, t->nimages + 1, sizeof(*t->images));
	t->images[t->nimages++] = url;
}

/* Every image of every entry is made here, while the dataset is built:
 * before the first record is written, so never inside the measured
 * window; records of the same entry reuse its payload. */
void
gen_images_turn(const struct gen_opts *o, struct turn *t)
{
	if (!started)
		return;
	for (long long i = 0; i < o->image_batch; i++)
		add(t, imagegen_next(&gen, NULL, NULL));
}

void
gen_image_field(struct turn *t, const char *s, size_t n, const char *where)
{
	char err[4200], *path = xmalloc(n + 1), *url;

	memcpy(path, s, n);
	path[n] = '\0';
	if (!n || memchr(s, '\0', n))
		die("%simage: expected a file path or URL", where);
	url = dataurl_image_field(path, err, sizeof(err));
	free(path);
	if (!url)
		die("%s%s", where, err);
	add(t, url);
}

void
gen_images_free(struct turn *t)
{
	for (size_t i = 0; i < t->nimages; i++)
		free(t->images[i]);
	free(t->images);
	t->images = NULL;
	t->nimages = 0;
}

void
gen_images_done(void)
{
	if (started)
		imagegen_release(&gen);
	started = 0;
}
