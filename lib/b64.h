/* SPDX-License-Identifier: Apache-2.0 */
/* Standard base64 decoding (RFC 4648's alphabet, padding optional): tiktoken files, media cells, capture records. */
#ifndef AIPERF_B64_H
#define AIPERF_B64_H

#include <stddef.h>

/* Skip ASCII white space (space, tab, CR, LF) wherever it stands. */
#define B64_SPACE 1u

/* The most bytes n base64 characters decode to: room for b64_decode(). */
#define B64_ROOM(n) ((n) / 4 * 3 + 3)

/*
 * Decode s[0..n) into out (B64_ROOM(n) bytes of room) and *outlen.
 * Padding is optional; when present it is one or two '=' at the end that
 * make the length a multiple of 4. Returns 0, or -1 with a message in err:
 * a character not of the alphabet (naming its offset), text after the
 * padding, a length no base64 has (4k + 1 characters).
 */
int b64_decode(const char *s, size_t n, unsigned flags, unsigned char *out,
	       size_t *outlen, char *err, size_t errlen);

#endif
