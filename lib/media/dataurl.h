/* SPDX-License-Identifier: Apache-2.0 */
/* data: URLs: base64 (OpenSSL's EVP_EncodeBlock), media type sniffed from content, URL-or-path inputs. */
#ifndef AIPERF_DATAURL_H
#define AIPERF_DATAURL_H

#include <stddef.h>
#include <stdint.h>

/* prefix followed by the standard base64 (padded, no line breaks) of
 * bytes[0..n), NUL-terminated, malloc'd: "data:video/webm;base64,"
 * gives a data: URL, "wav," the original's audio "format,b64" string,
 * "" the bare base64. */
char *dataurl_b64(const char *prefix, const void *bytes, size_t n);
/* "data:<mime>;base64,<b64 of p[0..n)>", NUL-terminated, malloc'd. */
char *dataurl_encode(const char *mime, const unsigned char *p, size_t n);
/* The image media type of p[0..n) from its first bytes (PNG, JPEG, GIF,
 * WebP, BMP, TIFF), or NULL when it is none of these. */
const char *dataurl_image_mime(const unsigned char *p, size_t n);
/* Whether s is sent as is: an http(s) URL or already a data: URL. */
int dataurl_is_url(const char *s);
/* Files read for media fields are at most this many bytes. */
#define DATAURL_FILE_MAX ((size_t)64 << 20)
/* Image dataset field s: returned as is (a copy) when a URL, else file s
 * read and encoded with its sniffed type; NULL with the reason in err
 * (missing file, too large, not an image). */
char *dataurl_image_field(const char *s, char *err, size_t errlen);

/* JSON text s[0..n) into out with every string that is a base64 data:
 * URL longer than min bytes replaced by
 * "data:<mime>;base64,<elided: N base64 chars, sha256 HEX>" (HEX of the
 * decoded bytes' SHA-256, as `base64 -d | sha256sum` gives), and every
 * bare base64 string longer than min that is the value of a "data" key
 * (input_audio parts) by "<elided: N base64 chars, sha256 HEX>". */
struct buf;
void dataurl_elide_json(struct buf *out, const char *s, size_t n, size_t min);

/*
 * The markers of the last DATAURL_MEMO_N distinct base64 strings elided,
 * keyed by length and a fast 128-bit fingerprint of the text, so that a
 * payload sent again (the same dataset entry, the same file) costs one
 * pass over its bytes instead of a decode and a SHA-256. Zero it to start
 * (= { 0 }); dataurl_memo_release() frees its markers.
 */
#define DATAURL_MEMO_N 64
struct dataurl_memo_entry {
	size_t len;
	uint64_t h[2];
	char *marker;
};
struct dataurl_memo {
	struct dataurl_memo_entry e[DATAURL_MEMO_N];
	size_t next;
	uint64_t hits;		/* markers given again */
};
void dataurl_memo_release(struct dataurl_memo *m);
/* dataurl_elide_json() through memo m (NULL: none). */
void dataurl_elide_json_memo(struct buf *out, const char *s, size_t n,
			     size_t min, struct dataurl_memo *m);

#endif
