/* SPDX-License-Identifier: Apache-2.0 */
/* Standard base64 decoding. */
#include "b64.h"

#include "util.h"

/* The 6-bit value of base64 character c, or -1. */
static int
value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

static int
is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int
b64_decode(const char *s, size_t n, unsigned flags, unsigned char *out,
	   size_t *outlen, char *err, size_t errlen)
{
	size_t k = 0, m = 0, pad = 0;
	unsigned acc = 0;

	*outlen = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		int v;

		if ((flags & B64_SPACE) && is_space(c))
			continue;
		if (c == '=') {
			if (++pad > 2)
				return util_seterr(err, errlen, "base64: too much "
						   "padding at offset %zu", i);
			continue;
		}
		if (pad)
			return util_seterr(err, errlen, "base64: text after the "
					   "padding at offset %zu", i);
		if ((v = value(c)) < 0)
			return util_seterr(err, errlen, "base64: not a base64 "
					   "character at offset %zu", i);
		acc = (acc << 6) | (unsigned)v;
		if (++m % 4 == 0) {
			out[k++] = (unsigned char)(acc >> 16);
			out[k++] = (unsigned char)(acc >> 8);
			out[k++] = (unsigned char)acc;
			acc = 0;
		}
	}
	if (m % 4 == 1)
		return util_seterr(err, errlen, "base64: %zu characters is not a "
				   "valid length", m);
	if (pad && (m + pad) % 4)
		return util_seterr(err, errlen, "base64: padding in the wrong place");
	if (m % 4 == 2)
		out[k++] = (unsigned char)(acc >> 4);
	else if (m % 4 == 3) {
		out[k++] = (unsigned char)(acc >> 10);
		out[k++] = (unsigned char)(acc >> 2);
	}
	*outlen = k;
	return 0;
}
