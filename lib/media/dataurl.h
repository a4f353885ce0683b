/* SPDX-License-Identifier: Apache-2.0 */
/* data: URLs: base64 (OpenSSL's EVP_EncodeBlock), media type sniffed from content, URL-or-path inputs. */
#ifndef AIPERF_DATAURL_H
#define AIPERF_DATAURL_H

#include <stddef.h>

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

#endif
