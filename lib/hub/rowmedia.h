/* SPDX-License-Identifier: Apache-2.0 */
/* Media cells of hub rows: the viewer's {"src": URL} form, HF's undecoded {"bytes", "path"} form, and the first stored inline. */
#ifndef AIPERF_ROWMEDIA_H
#define AIPERF_ROWMEDIA_H

#include <stddef.h>

struct buf;
struct json;
struct rows;
struct rows_src;

/*
 * A media column's cell comes in one of these forms:
 *   hub viewer (GET /rows): an Image {"src": "https://...jpg?Expires=..",
 *     "height": H, "width": W}, an Audio [{"src": URL, "type":
 *     "audio/wav"}, ...], a Video a URL string or {"src": URL};
 *   HF's undecoded form (a local folder, the cache): {"bytes": "<base64>",
 *     "path": "<name>"}, bytes null for a path-only cell;
 *   a string (a URL or a path), or a list of any of these (Sequence).
 * The viewer's URLs are signed and expire, so rows stored from the hub
 * have each {"src"} object replaced by HF's form with the fetched bytes
 * (rowmedia_inline), and a cached split needs no network again.
 */
enum rowmedia_kind {
	ROWMEDIA_NONE,		/* none of the forms (null, a number, ...) */
	ROWMEDIA_BYTES,		/* {"bytes": "<base64>", "path": ...} */
	ROWMEDIA_PATH,		/* {"bytes": null|"", "path": "<name>"} */
	ROWMEDIA_SRC,		/* {"src": URL, ...} */
	ROWMEDIA_STRING,	/* a non-empty string */
};

/* One cell, its strings borrowed from the parsed row. */
struct rowmedia_cell {
	enum rowmedia_kind kind;
	const char *b64;	/* BYTES: the base64 text */
	size_t b64len;
	const char *path;	/* BYTES, PATH: "path" or NULL */
	const char *src;	/* SRC: the URL; STRING: the string */
	size_t srclen;
	const char *type;	/* SRC: "type" ("audio/wav") or NULL */
};

/* The most bytes one media asset may have (fetched or decoded). */
#define ROWMEDIA_ASSET_MAX ((size_t)64 << 20)

/* The form of cell v (NULL: none) into *c. Returns c->kind. */
enum rowmedia_kind rowmedia_cell_of(const struct json *v, struct rowmedia_cell *c);

/*
 * Decode standard base64 s[0..n) (padding optional, no white space) into
 * *out (malloc'd, the caller frees it) and *outlen. Returns 0, or -1 with
 * a message in err: a character not of the alphabet (naming its offset),
 * a bad length or padding, more than max decoded bytes.
 */
int rowmedia_b64_decode(const char *s, size_t n, size_t max, unsigned char **out,
			size_t *outlen, char *err, size_t errlen);

/* A cell's bytes: BYTES decoded (at most ROWMEDIA_ASSET_MAX); -1 with a
 * message in err for any other kind or bad base64. */
int rowmedia_bytes(const struct rowmedia_cell *c, unsigned char **out,
		   size_t *outlen, char *err, size_t errlen);

/*
 * How the bytes of a {"src": URL} cell are had: 0 with *out (malloc'd)
 * and *outlen, or -1 with why in err. rowmedia_http_fetch is the real one.
 */
typedef int (*rowmedia_fetch_fn)(void *ud, const char *url, unsigned char **out,
				 size_t *outlen, char *err, size_t errlen);
int rowmedia_http_fetch(void *ud, const char *url, unsigned char **out,
			size_t *outlen, char *err, size_t errlen);

/*
 * Row s[0..n) (a JSON object's text) into out, rewritten: in each member
 * named in cols (NULL-terminated), every {"src": URL} object (the cell or
 * the items of a list cell, a list of lists too) becomes {"bytes":
 * "<base64 of the fetched bytes>", "path": "<the URL's last path
 * component, without its query>"}; an audio cell's list of sources
 * ({"type": "audio/..."}) becomes the first one's object alone, as HF
 * holds an Audio cell. The other members are copied as they are (the
 * writer's form: compact). Returns 1 when rewritten, 0 when nothing was
 * to fetch (out untouched), -1 with a message in err naming the column
 * and the URL (never its query: signed URLs hold keys).
 */
int rowmedia_rewrite(const char *s, size_t n, const char *const *cols,
		     rowmedia_fetch_fn fetch, void *ud, struct buf *out,
		     char *err, size_t errlen);

/*
 * Every row of r rewritten by rowmedia_rewrite() with src->media as the
 * columns and rowmedia_http_fetch (src->media NULL: nothing done).
 * Returns 0, or -1 with a message in err naming the row (from 0); r is
 * then as it was, but for the rows already rewritten.
 */
int rowmedia_inline(const struct rows_src *src, struct rows *r, char *err,
		    size_t errlen);

#endif
