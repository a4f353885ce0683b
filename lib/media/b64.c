/* SPDX-License-Identifier: Apache-2.0 */
#include "media/b64.h"

#include <string.h>

#include <openssl/evp.h>

#include "util.h"

/* EVP_EncodeBlock takes an int length: encode in slices of whole triples. */
#define SLICE ((size_t)3 << 28)

static size_t
encode_into(char *out, const unsigned char *in, size_t n)
{
	size_t w = 0;

	while (n) {
		size_t k = n < SLICE ? n : SLICE;

		w += (size_t)EVP_EncodeBlock((unsigned char *)out + w, in, (int)k);
		in += k;
		n -= k;
	}
	out[w] = '\0';
	return w;
}

char *
b64_with_prefix(const char *prefix, const void *p, size_t n)
{
	size_t plen = strlen(prefix), blocks = n / 3 + (n % 3 != 0);
	char *out;

	if (blocks > (SIZE_MAX - plen - 1) / 4)
		die("base64 of %zu bytes: too large", n);
	out = xmalloc(plen + blocks * 4 + 1);
	memcpy(out, prefix, plen);
	encode_into(out + plen, p, n);
	return out;
}

char *
b64_encode(const void *p, size_t n, size_t *len)
{
	char *s = b64_with_prefix("", p, n);

	if (len)
		*len = strlen(s);
	return s;
}
