/* SPDX-License-Identifier: Apache-2.0 */
/* Images in turns: synthetic ones (lib/media/imagegen) and dataset image fields (issue #17). */
#include "gen.h"
#include "hmap.h"
#include "media/dataurl.h"
#include "tok/toksrc.h"
#include "util.h"

int gen_keep_media;

static struct imagegen gen;
static int started;

/* Dataset image fields as sent, by content: each file is read and
 * encoded once however many turns name it; turns get copies. */
static struct {
	char **v;
	size_t n;
	struct hmap ix;	/* hash of the content -> index + 1 */
} fields;

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

/* The URL sent for content path (read and encoded on first use). */
static const char *
field_url(const char *path, const char *where)
{
	uint64_t h[2], *slot;
	char err[4200], *url;
	int created;

	if (!fields.ix.max)
		hmap_init(&fields.ix, (size_t)1 << 26);
	gen_str_hash(path, strlen(path), h);
	if (!(slot = hmap_put(&fields.ix, h[0], h[1], &created)))
		die("too many distinct images");
	if (!created)
		return fields.v[*slot - 1];
	if (!(url = dataurl_image_field(path, err, sizeof(err))))
		die("%s%s", where, err);
	fields.v = xreallocarray(fields.v, fields.n + 1, sizeof(*fields.v));
	fields.v[fields.n++] = url;
	*slot = fields.n;	/* no insertion since hmap_put: still valid */
	return url;
}

void
gen_image_field(struct turn *t, const char *s, size_t n, const char *where)
{
	char *path;

	if (!n || memchr(s, '\0', n))
		die("%simage: expected a file path or URL", where);
	path = xstrndup(s, n);
	add(t, xstrdup(field_url(path, where)));
	free(path);
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
	if (started && gen.skipped)
		warn("%llu unreadable source image files skipped (the last: %s)",
		     gen.skipped, gen.skip_why);
	if (started)
		imagegen_release(&gen);
	started = 0;
	for (size_t i = 0; i < fields.n; i++)
		free(fields.v[i]);
	free(fields.v);
	hmap_release(&fields.ix);
	memset(&fields, 0, sizeof(fields));
}
