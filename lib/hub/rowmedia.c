/* SPDX-License-Identifier: Apache-2.0 */
/* Media cells of hub rows: their forms, base64, and the viewer's URLs fetched into the rows stored. */
#include "hub/rowmedia.h"

#include <curl/curl.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "hub/rows.h"
#include "json/json.h"
#include "media/dataurl.h"
#include "b64.h"
#include "util.h"

static const char *
str_member(const struct json *v, const char *key, size_t *len)
{
	size_t n;
	const char *s = json_str(json_get(v, key), &n);

	if (len)
		*len = s ? n : 0;
	return s;
}

enum rowmedia_kind
rowmedia_cell_of(const struct json *v, struct rowmedia_cell *c)
{
	const struct json *bytes = json_get(v, "bytes");

	memset(c, 0, sizeof(*c));
	if (v && v->type == JSON_STRING && v->len) {
		c->src = v->str;
		c->srclen = v->len;
		return c->kind = ROWMEDIA_STRING;
	}
	if (!v || v->type != JSON_OBJECT)
		return c->kind = ROWMEDIA_NONE;
	if ((c->src = str_member(v, "src", &c->srclen)) && c->srclen) {
		c->type = str_member(v, "type", NULL);
		return c->kind = ROWMEDIA_SRC;
	}
	c->src = NULL;
	c->path = str_member(v, "path", NULL);
	if (bytes && bytes->type == JSON_STRING && bytes->len) {
		c->b64 = bytes->str;
		c->b64len = bytes->len;
		return c->kind = ROWMEDIA_BYTES;
	}
	if (c->path && *c->path && (!bytes || bytes->type == JSON_NULL ||
				    bytes->type == JSON_STRING))
		return c->kind = ROWMEDIA_PATH;
	c->path = NULL;
	return c->kind = ROWMEDIA_NONE;
}

int
rowmedia_b64_decode(const char *s, size_t n, size_t max, unsigned char **out,
		    size_t *outlen, char *err, size_t errlen)
{
	unsigned char *p;

	*out = NULL;
	*outlen = 0;
	if (n / 4 * 3 > max + 2)	/* B64_ROOM(n) - 3 .. decoded length */
		return util_seterr(err, errlen, "base64: more than %zu bytes", max);
	p = xmalloc(B64_ROOM(n));
	if (b64_decode(s, n, 0, p, outlen, err, errlen) < 0 || *outlen > max) {
		if (*outlen > max)
			util_seterr(err, errlen, "base64: more than %zu bytes", max);
		free(p);
		*outlen = 0;
		return -1;
	}
	*out = p;
	return 0;
}

int
rowmedia_bytes(const struct rowmedia_cell *c, unsigned char **out,
	       size_t *outlen, char *err, size_t errlen)
{
	*out = NULL;
	*outlen = 0;
	if (c->kind != ROWMEDIA_BYTES)
		return util_seterr(err, errlen, "no inline bytes");
	return rowmedia_b64_decode(c->b64, c->b64len, ROWMEDIA_ASSET_MAX, out,
				   outlen, err, errlen);
}

/* url up to its query or fragment, with at most 200 bytes, for messages. */
static void
url_shown(const char *url, char *out, size_t cap)
{
	size_t k = 0;

	for (; url[k] && url[k] != '?' && url[k] != '#' && k + 1 < cap && k < 200; k++)
		out[k] = (unsigned char)url[k] >= 0x20 ? url[k] : ' ';
	out[k] = '\0';
}

static size_t
cb_write(char *p, size_t size, size_t n, void *ud)
{
	struct buf *b = ud;

	n *= size;
	return buf_tryadd(b, p, n) < 0 ? 0 : n;
}

int
rowmedia_http_fetch(void *ud, const char *url, unsigned char **out,
		    size_t *outlen, char *err, size_t errlen)
{
	struct buf b = BUF_INIT(ROWMEDIA_ASSET_MAX);
	CURL *c = curl_easy_init();
	CURLcode rc;
	long status = 0;
	char shown[256];

	(void)ud;
	url_shown(url, shown, sizeof(shown));
	if (!c)
		return util_seterr(err, errlen, "'%s': libcurl failed to start", shown);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 30L);
	curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)ROWMEDIA_ASSET_MAX);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "aiperf/" AIPERF_VERSION);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, cb_write);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &b);
	rc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_cleanup(c);
	if (rc == CURLE_WRITE_ERROR || rc == CURLE_FILESIZE_EXCEEDED)
		util_seterr(err, errlen, "'%s': more than %zu MiB", shown,
			    ROWMEDIA_ASSET_MAX >> 20);
	else if (rc != CURLE_OK)
		util_seterr(err, errlen, "'%s': %s", shown, curl_easy_strerror(rc));
	else if (status != 200)
		util_seterr(err, errlen, "'%s': HTTP %ld", shown, status);
	if (rc != CURLE_OK || status != 200) {
		buf_release(&b);
		return -1;
	}
	*out = (unsigned char *)buf_detach(&b, outlen);
	return 0;
}

struct rewrite {
	rowmedia_fetch_fn fetch;
	void *ud;
	const char *col;
	int changed;
	char *err;
	size_t errlen;
};

/* The last path component of url, without query or fragment. */
static void
url_name(struct jw *w, const char *url)
{
	size_t end = strcspn(url, "?#"), start = end;

	while (start > 0 && url[start - 1] != '/')
		start--;
	jw_strn(w, url + start, end - start);
}

/* {"src": URL} fetched, written as {"bytes", "path"}. */
static int
write_fetched(struct rewrite *R, struct jw *w, const struct rowmedia_cell *c)
{
	unsigned char *p;
	size_t n;
	char *url = xstrndup(c->src, c->srclen), *b64, why[512], shown[256];

	if (strlen(url) != c->srclen || R->fetch(R->ud, url, &p, &n, why, sizeof(why)) < 0) {
		if (strlen(url) != c->srclen)
			util_seterr(why, sizeof(why), "a URL with a NUL byte");
		url_shown(url, shown, sizeof(shown));
		free(url);
		return util_seterr(R->err, R->errlen, "column '%s': cannot fetch "
				   "'%s': %s", R->col, shown, why);
	}
	b64 = dataurl_b64("", p, n);
	free(p);
	jw_obj(w);
	jw_key(w, "bytes");
	jw_str(w, b64);
	jw_key(w, "path");
	url_name(w, url);
	jw_obj_end(w);
	free(b64);
	free(url);
	R->changed = 1;
	return 0;
}

/* An audio cell: a list of {"src", "type": "audio/..."} sources. */
static int
is_audio_sources(const struct json *v)
{
	struct rowmedia_cell c;

	if (!v || v->type != JSON_ARRAY || !v->child)
		return 0;
	for (const struct json *e = v->child; e; e = e->next)
		if (rowmedia_cell_of(e, &c) != ROWMEDIA_SRC || !c.type ||
		    strncmp(c.type, "audio/", 6))
			return 0;
	return 1;
}

static int
write_cell(struct rewrite *R, struct jw *w, const struct json *v, int depth)
{
	struct rowmedia_cell c;

	if (rowmedia_cell_of(v, &c) == ROWMEDIA_SRC)
		return write_fetched(R, w, &c);
	if (depth < 2 && is_audio_sources(v))
		return write_cell(R, w, v->child, depth + 1);
	if (!v) {
		jw_null(w);
		return 0;
	}
	if (depth >= 2 || v->type != JSON_ARRAY) {
		jw_value(w, v);
		return 0;
	}
	jw_arr(w);
	for (const struct json *e = v->child; e; e = e->next)
		if (write_cell(R, w, e, depth + 1) < 0)
			return -1;
	jw_arr_end(w);
	return 0;
}

static int
is_col(const char *const *cols, const struct json *m)
{
	for (; *cols; cols++)
		if (strlen(*cols) == m->keylen && !memcmp(*cols, m->key, m->keylen))
			return 1;
	return 0;
}

int
rowmedia_rewrite(const char *s, size_t n, const char *const *cols,
		 rowmedia_fetch_fn fetch, void *ud, struct buf *out,
		 char *err, size_t errlen)
{
	struct json_doc *doc = json_doc_new();
	struct rewrite R = { fetch, ud, NULL, 0, err, errlen };
	struct buf b = BUF_INIT(BUF_NOMAX);
	const struct json *v = json_parse(doc, s, n, err, errlen);
	struct jw w;
	int rc = 0;

	if (!v || v->type != JSON_OBJECT) {
		if (v)
			util_seterr(err, errlen, "a row must be a JSON object");
		json_doc_free(doc);
		return -1;
	}
	jw_init(&w, &b, 0);
	jw_obj(&w);
	for (const struct json *m = v->child; m && rc == 0; m = m->next) {
		jw_keyn(&w, m->key, m->keylen);
		R.col = m->key;
		if (is_col(cols, m))
			rc = write_cell(&R, &w, m, 0);
		else
			jw_value(&w, m);
	}
	jw_obj_end(&w);
	json_doc_free(doc);
	if (rc == 0 && R.changed) {
		buf_add(out, b.s, b.len);
		rc = 1;
	}
	buf_release(&b);
	return rc;
}

int
rowmedia_inline(const struct rows_src *src, struct rows *r, char *err,
		size_t errlen)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	char why[1024];

	if (!src->media || !*src->media)
		return 0;
	for (size_t i = 0; i < r->n; i++) {
		int rc;

		buf_reset(&b);
		rc = rowmedia_rewrite(r->v[i], r->len[i], src->media,
				      rowmedia_http_fetch, NULL, &b, why, sizeof(why));
		if (rc < 0) {
			buf_release(&b);
			return util_seterr(err, errlen, "row %zu: %s", i, why);
		}
		if (rc == 0)
			continue;
		free(r->v[i]);
		r->v[i] = buf_detach(&b, &r->len[i]);
	}
	buf_release(&b);
	return 0;
}
