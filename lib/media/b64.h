/* SPDX-License-Identifier: Apache-2.0 */
/* Base64 of media bytes (OpenSSL's encoder) and data: URLs around it. */
#ifndef AIPERF_MEDIA_B64_H
#define AIPERF_MEDIA_B64_H

#include <stddef.h>

/* Standard base64 (with padding, no line breaks) of p[0..n), NUL-ended;
 * its length into *len when len is not NULL. The caller frees it. */
char *b64_encode(const void *p, size_t n, size_t *len);
/* prefix followed by the base64 of p[0..n): "data:video/webm;base64,"
 * gives a data: URL, "wav," the original's audio "format,b64" string.
 * The caller frees it. */
char *b64_with_prefix(const char *prefix, const void *p, size_t n);

#endif
