/* SPDX-License-Identifier: Apache-2.0 */
/* --public-dataset mmstar, vision_arena, llava_onevision, mmvu and the ASR sets: media cells into turns, and their loaders' conversions. */
#include "hfmedia.h"

#include <string.h>

#include "gen.h"
#include "hfpub.h"
#include "hub/rowmedia.h"
#include "hub/rows.h"
#include "json/json.h"
#include "media/dataurl.h"
#include "media/hfmedia.h"
#include "media/image.h"
#include "pytext.h"
#include "util.h"

#define ASR_PROMPT "Transcribe this audio."
#define ASR_MAX_SECONDS 30.0
#define WARN_MAX 5

/* The audio and video strings the turns point at (av.c's rule). */
static struct {
	char **v;
	size_t n;
} store;

static const char *
keep(char *s)
{
	store.v = xreallocarray(store.v, store.n + 1, sizeof(*store.v));
	return store.v[store.n++] = s;
}

/* A skipped cell, said the first WARN_MAX times. */
static void
skipped(const char *column, const char *why, const char *what)
{
	static unsigned n;

	if (n++ < WARN_MAX)
		warn("--public-dataset: column '%s': %s; %s%s", column, why, what,
		     n == WARN_MAX ? " (no more such warnings)" : "");
}

static int
offline(void)
{
	return util_env_true("HF_HUB_OFFLINE") || util_env_true("HF_DATASETS_OFFLINE");
}

/* A cell's bytes: inline ones decoded, a {"src"} URL fetched. 0, or -1
 * with the reason in err. */
static int
cell_bytes(const struct rowmedia_cell *c, unsigned char **p, size_t *n,
	   char *err, size_t errlen)
{
	char *url;
	int rc;

	if (c->kind != ROWMEDIA_SRC)
		return rowmedia_bytes(c, p, n, err, errlen);
	if (offline())
		return util_seterr(err, errlen, "a {\"src\": URL} cell and the hub is "
				   "off limits (offline): store the rows from the hub "
				   "once with the network");
	url = xstrndup(c->src, c->srclen);
	rc = rowmedia_http_fetch(NULL, url, p, n, err, errlen);
	free(url);
	return rc;
}

static void
add_image(struct turn *t, char *url)
{
	t->images = xreallocarray(t->images, t->nimages + 1, sizeof(*t->images));
	t->images[t->nimages++] = url;
}

/* One image item: 1 when added, 0 when passed over, -1 on error. */
static int
image_item(struct turn *t, const struct json *v, const char *column, char *err,
	   size_t errlen)
{
	struct rowmedia_cell c;
	unsigned char *p;
	size_t n;
	char why[512], *url;
	int status;

	rowmedia_cell_of(v, &c);
	if (c.kind != ROWMEDIA_BYTES && c.kind != ROWMEDIA_SRC)
		return 0;	/* a path-only dict, a string, null: none */
	if (cell_bytes(&c, &p, &n, why, sizeof(why)) < 0)
		return util_seterr(err, errlen, "column '%s': %s", column, why);
	url = hfmedia_image_url(p, n, &status, why, sizeof(why));
	free(p);
	if (url) {
		add_image(t, url);
		return 1;
	}
	if (status == IMAGE_UNSUPPORTED)
		return util_seterr(err, errlen, "column '%s': %s", column, why);
	skipped(column, why, "the row goes without it");
	return 0;
}

int
hfmedia_image(struct turn *t, const struct json *row, const char *column,
	      char *err, size_t errlen)
{
	const struct json *v = json_get(row, column);
	int rc;

	if (v && v->type == JSON_ARRAY) {
		for (const struct json *e = v->child; e; e = e->next)
			if ((rc = image_item(t, e, column, err, errlen)) != 0)
				return rc < 0 ? -1 : 0;
		return 0;
	}
	return image_item(t, v, column, err, errlen) < 0 ? -1 : 0;
}

static void
add_video(struct turn *t, char *s)
{
	t->videos = xreallocarray(t->videos, t->nvideos + 1, sizeof(*t->videos));
	t->videos[t->nvideos++] = keep(s);
}

static void
add_audio(struct turn *t, char *s)
{
	t->audios = xreallocarray(t->audios, t->naudios + 1, sizeof(*t->audios));
	t->audios[t->naudios++] = keep(s);
}

int
hfmedia_video(struct turn *t, const struct json *row, const char *column,
	      char *err, size_t errlen)
{
	struct rowmedia_cell c;
	unsigned char *p;
	size_t n;
	char why[512], *path, *prefix;

	switch (rowmedia_cell_of(json_get(row, column), &c)) {
	case ROWMEDIA_STRING:
		if (strlen(c.src) != c.srclen)
			return util_seterr(err, errlen, "column '%s': a URL with a "
					   "NUL byte", column);
		if (strstr(c.src, "://") || !strncmp(c.src, "data:", 5))
			add_video(t, xstrdup(c.src));
		else
			add_video(t, xstrfmt("file://%s", c.src));
		return 0;
	case ROWMEDIA_SRC:	/* the viewer's: a URL */
		add_video(t, xstrndup(c.src, c.srclen));
		return 0;
	case ROWMEDIA_BYTES:
		break;
	default:
		return 0;
	}
	if (rowmedia_bytes(&c, &p, &n, why, sizeof(why)) < 0)
		return util_seterr(err, errlen, "column '%s': %s", column, why);
	path = c.path ? xstrdup(c.path) : NULL;
	prefix = xstrfmt("data:%s;base64,", hfmedia_video_mime(path));
	add_video(t, dataurl_b64(prefix, p, n));
	free(prefix);
	free(path);
	free(p);
	return 0;
}

/* pcm as "wav,<b64>". */
static char *
wav_string(const struct hfmedia_pcm *pcm)
{
	size_t n;
	unsigned char *wav = hfmedia_wav_write(pcm, &n);
	char *s = dataurl_b64("wav,", wav, n);

	free(wav);
	return s;
}

/* {"array": [...], "sampling_rate": N} into pcm: 1, 0 when v is not
 * that, -1 with err when its values are not numbers or out of bounds. */
static int
array_pcm(const struct json *v, struct hfmedia_pcm *pcm, char *err, size_t errlen)
{
	const struct json *a = json_get(v, "array"), *sr = json_get(v, "sampling_rate");
	int64_t rate;
	size_t i = 0;

	if (!a || !sr || a->type == JSON_NULL || sr->type == JSON_NULL)
		return 0;
	if (a->type != JSON_ARRAY || json_int64(sr, &rate) < 0 || rate < 1 ||
	    rate > HFMEDIA_MAX_RATE || a->len > ROWMEDIA_ASSET_MAX / 2)
		return util_seterr(err, errlen, "not an array of samples at a rate");
	*pcm = (struct hfmedia_pcm){ .rate = (int)rate, .channels = 1, .frames = a->len };
	pcm->s = xcalloc(a->len ? a->len : 1, sizeof(*pcm->s));
	for (const struct json *e = a->child; e; e = e->next, i++) {
		double x;

		if (json_double(e, &x) < 0) {
			hfmedia_pcm_release(pcm);
			return util_seterr(err, errlen, "sample %zu is not a number", i);
		}
		x = x * 32768.0;
		pcm->s[i] = (int16_t)(x >= 32767.0 ? 32767 : x <= -32768.0 ? -32768 :
				      (x < 0 ? x - 0.5 : x + 0.5));
	}
	return 1;
}

/* An audio cell's samples: 1, 0 when it holds none (not a dict, no
 * bytes), -1 with err when they do not decode. */
static int
cell_pcm(const struct json *v, struct hfmedia_pcm *pcm, char *err, size_t errlen)
{
	struct rowmedia_cell c;
	unsigned char *p;
	size_t n;
	int rc;

	if (v && v->type == JSON_ARRAY && v->child)	/* the viewer's sources */
		v = v->child;
	if ((rc = array_pcm(v, pcm, err, errlen)) != 0)
		return rc;
	rowmedia_cell_of(v, &c);
	if (c.kind != ROWMEDIA_BYTES && c.kind != ROWMEDIA_SRC)
		return 0;
	if (cell_bytes(&c, &p, &n, err, errlen) < 0)
		return -1;
	rc = hfmedia_audio_decode(p, n, util_env("AIPERF_FFMPEG"), pcm, err, errlen);
	free(p);
	return rc < 0 ? -1 : 1;
}

int
hfmedia_audio(struct turn *t, const struct json *row, const char *column,
	      char *err, size_t errlen)
{
	struct hfmedia_pcm pcm;
	char why[512];
	int rc = cell_pcm(json_get(row, column), &pcm, why, sizeof(why));

	if (rc < 0)
		skipped(column, why, "the row goes without it");
	if (rc <= 0)
		return 0;
	add_audio(t, wav_string(&pcm));
	hfmedia_pcm_release(&pcm);
	(void)err;
	(void)errlen;
	return 0;
}

/* ---- the builders ---- */

/* Row i parsed into doc, or NULL with a message. */
static const struct json *
row_at(struct json_doc *doc, const struct rows *rows, size_t i, char *err,
       size_t errlen)
{
	const struct json *v;
	char e[256];

	json_doc_reset(doc);
	v = json_parse(doc, rows->v[i], rows->len[i], e, sizeof(e));
	if (!v || v->type != JSON_OBJECT) {
		util_seterr(err, errlen, "row %zu: %s", i, v ? "not a JSON object" : e);
		return NULL;
	}
	return v;
}

/* err prefixed with "row i: ". */
static int
row_error(size_t i, char *err, size_t errlen)
{
	char *e = xstrdup(err);

	util_seterr(err, errlen, "row %zu: %s", i, e);
	free(e);
	return -1;
}

/* _text_from_message_dict: the content key's string with "<image>"
 * removed, stripped; 0 when none or empty. */
static int
message_text(const struct json *msg, const char *key, struct buf *out)
{
	size_t n;
	const char *s = json_str(json_get(msg, key), &n), *t;

	buf_reset(out);
	if (!s)
		return 0;
	for (size_t i = 0; i < n;) {
		if (n - i >= 7 && !memcmp(s + i, "<image>", 7)) {
			i += 7;
			continue;
		}
		buf_addch(out, s[i++]);
	}
	t = buf_str(out);
	n = out->len;
	pytext_strip(&t, &n);
	if (n && t != out->s)
		memmove(out->s, t, n);
	out->len = n;
	if (out->s)
		out->s[n] = '\0';
	return n > 0;
}

/* (msg.get("role") or msg.get("from") or "").lower() in user, human. */
static int
is_user(const struct json *msg)
{
	const struct json *r = json_get(msg, "role");
	size_t n;
	const char *s;

	if (!json_truthy(r))
		r = json_get(msg, "from");
	if (!(s = json_str(r, &n)))
		return 0;
	return pytext_ieq(s, n, "user", 4) || pytext_ieq(s, n, "human", 5);
}

/* _normalize_messages: an item, or a list item's first element, when it
 * is a non-empty dict. */
static const struct json *
normalized(const struct json *item)
{
	if (item->type == JSON_ARRAY && item->child)
		item = item->child;
	return item->type == JSON_OBJECT && item->child ? item : NULL;
}

/* _extract_first_message into out: 1, or 0 when there is none. */
static int
first_message(const struct json *msgs, const char *key, struct buf *out)
{
	const struct json *first = NULL;

	if (!msgs || msgs->type != JSON_ARRAY)
		return 0;
	for (const struct json *e = msgs->child; e; e = e->next) {
		const struct json *m = normalized(e);

		if (!m)
			continue;
		if (!first)
			first = m;
		if (is_user(m))
			return message_text(m, key, out);
	}
	return first ? message_text(first, key, out) : 0;
}

int
hfmedia_build_conversation(struct dataset *d, const struct gen_opts *o,
			   const struct hfpub_ds *ds, struct rows *rows,
			   char *err, size_t errlen)
{
	struct json_doc *doc = json_doc_new();
	struct buf p = BUF_INIT(BUF_NOMAX);
	size_t max = hfpub_max_convs(o, ds);
	const char *key = ds->message_content_key ? ds->message_content_key : "content";
	int rc = 0;

	for (size_t i = 0; i < rows->n && !rc && (!max || d->n < max); i++) {
		const struct json *row = row_at(doc, rows, i, err, errlen);
		struct turn one = { 0 }, *u;

		if (!row) {
			rc = -1;
			break;
		}
		if (ds->image_column &&
		    hfmedia_image(&one, row, ds->image_column, err, errlen) < 0) {
			rc = row_error(i, err, errlen);
			break;
		}
		if (!first_message(json_get(row, ds->conversation_column), key, &p)) {
			gen_images_free(&one);
			continue;
		}
		u = &hfpub_conv_add(d, 1)->turns[0];
		hfpub_turn_text(u, p.s, p.len);
		u->images = one.images;
		u->nimages = one.nimages;
	}
	buf_release(&p);
	json_doc_free(doc);
	return rc;
}

/* str(v) in an f-string, for the values a dataset holds. */
static void
py_format(const struct json *v, struct buf *out)
{
	struct jw w;

	switch (v->type) {
	case JSON_STRING:
	case JSON_NUMBER:
		buf_add(out, v->str, v->len);
		break;
	case JSON_TRUE:
		buf_addstr(out, "True");
		break;
	default:	/* a list or a dict: JSON's text, not Python's */
		jw_init(&w, out, 0);
		jw_value(&w, v);
		break;
	}
}

/* _format_prompt: the question, then "K.V" for each truthy choice. */
static void
mmvu_prompt(const struct json *row, struct buf *out)
{
	const struct json *c = json_get(row, "choices");
	struct buf ch = BUF_INIT(BUF_NOMAX);
	size_t n = 0;
	const char *q = json_str(json_get(row, "question"), &n);

	buf_reset(out);
	if (q)
		pytext_strip(&q, &n);
	for (const struct json *m = c && c->type == JSON_OBJECT ? c->child : NULL;
	     m; m = m->next) {
		if (!json_truthy(m))
			continue;
		if (ch.len)
			buf_addch(&ch, ' ');
		buf_add(&ch, m->key, m->keylen);
		buf_addch(&ch, '.');
		py_format(m, &ch);
	}
	if (n)
		buf_add(out, q, n);
	if (n && ch.len)
		buf_addch(out, ' ');
	buf_add(out, ch.s ? ch.s : "", ch.len);
	buf_release(&ch);
}

int
hfmedia_build_mmvu(struct dataset *d, const struct gen_opts *o,
		   const struct hfpub_ds *ds, struct rows *rows, char *err,
		   size_t errlen)
{
	struct json_doc *doc = json_doc_new();
	struct buf p = BUF_INIT(BUF_NOMAX);
	size_t max = hfpub_max_convs(o, ds), skip = 0;
	const char *col = ds->video_column ? ds->video_column : "video";
	int rc = 0;

	for (size_t i = 0; i < rows->n && (!max || d->n < max); i++) {
		const struct json *row = row_at(doc, rows, i, err, errlen);
		struct turn one = { 0 }, *u;

		if (!row) {
			rc = -1;
			break;
		}
		mmvu_prompt(row, &p);
		if (!p.len) {
			skip++;
			continue;
		}
		if (hfmedia_video(&one, row, col, err, errlen) < 0) {
			rc = row_error(i, err, errlen);
			break;
		}
		if (!one.nvideos) {
			warn("Row has no video in column '%s' \xe2\x80\x94 skipping.", col);
			skip++;
			continue;
		}
		u = &hfpub_conv_add(d, 1)->turns[0];
		hfpub_turn_text(u, p.s, p.len);
		u->videos = one.videos;
		u->nvideos = one.nvideos;
	}
	if (!rc && skip && !d->n)
		warn("All %zu rows were skipped \xe2\x80\x94 no conversations loaded.", skip);
	buf_release(&p);
	json_doc_free(doc);
	return rc;
}

int
hfmedia_build_asr(struct dataset *d, const struct gen_opts *o,
		  const struct hfpub_ds *ds, struct rows *rows, char *err,
		  size_t errlen)
{
	struct json_doc *doc = json_doc_new();
	size_t max = hfpub_max_convs(o, ds), skip = 0;
	const char *col = ds->audio_column ? ds->audio_column : "audio";
	int rc = 0;

	for (size_t i = 0; i < rows->n && (!max || d->n < max); i++) {
		const struct json *row = row_at(doc, rows, i, err, errlen), *v;
		struct hfmedia_pcm pcm;
		struct turn *u;
		char why[512];
		int got;

		if (!row) {
			rc = -1;
			break;
		}
		v = json_get(row, col);
		if (v && v->type == JSON_ARRAY && v->child)
			v = v->child;
		if (!v || v->type != JSON_OBJECT ||
		    (got = cell_pcm(v, &pcm, why, sizeof(why))) == 0) {
			skip++;
			continue;
		}
		if (got < 0) {
			skipped(col, why, "the row is skipped");
			skip++;
			continue;
		}
		if (hfmedia_pcm_seconds(&pcm) > ASR_MAX_SECONDS) {
			hfmedia_pcm_release(&pcm);
			skip++;
			continue;
		}
		u = &hfpub_conv_add(d, 1)->turns[0];
		hfpub_turn_text(u, ASR_PROMPT, strlen(ASR_PROMPT));
		add_audio(u, wav_string(&pcm));
		hfmedia_pcm_release(&pcm);
	}
	if (!rc && skip && !d->n)
		warn("All %zu rows were skipped \xe2\x80\x94 no conversations loaded. "
		     "Check that '%s' contains valid audio data.", skip, col);
	json_doc_free(doc);
	return rc;
}

const char *const *
hfmedia_columns(const struct hfpub_ds *ds)
{
	static const char *cols[4];
	size_t n = 0;

	if (ds->image_column)
		cols[n++] = ds->image_column;
	if (ds->video_column)
		cols[n++] = ds->video_column;
	if (ds->audio_column)
		cols[n++] = ds->audio_column;
	if (ds->kind == HFPUB_ASR && !ds->audio_column)
		cols[n++] = "audio";
	cols[n] = NULL;
	return n ? cols : NULL;
}
