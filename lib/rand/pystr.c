/* SPDX-License-Identifier: Apache-2.0 */
/* Python str semantics over UTF-8 bytes: strip() and len(). */
#include "rand/pystr.h"

/* Length of the UTF-8 whitespace character at s (as str.isspace), or 0. */
static size_t
space_len(const unsigned char *s, size_t n)
{
	if (n >= 1 && ((s[0] >= 0x09 && s[0] <= 0x0d) || s[0] == ' ' ||
		       (s[0] >= 0x1c && s[0] <= 0x1f)))
		return 1;
	if (n >= 2 && s[0] == 0xc2 && (s[1] == 0x85 || s[1] == 0xa0))
		return 2;
	if (n < 3)
		return 0;
	if (s[0] == 0xe1 && s[1] == 0x9a && s[2] == 0x80)
		return 3;
	if (s[0] == 0xe2 && s[1] == 0x80 &&
	    ((s[2] >= 0x80 && s[2] <= 0x8a) || s[2] == 0xa8 || s[2] == 0xa9 || s[2] == 0xaf))
		return 3;
	if (s[0] == 0xe2 && s[1] == 0x81 && s[2] == 0x9f)
		return 3;
	if (s[0] == 0xe3 && s[1] == 0x80 && s[2] == 0x80)
		return 3;
	return 0;
}

/* Length of a whitespace character ending at s[n-1], or 0. */
static size_t
space_len_back(const unsigned char *s, size_t n)
{
	for (size_t k = 1; k <= 3 && k <= n; k++)
		if (space_len(s + n - k, k) == k)
			return k;
	return 0;
}

const char *
pystr_strip(const char *s, size_t *n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = *n, k;

	while (len && (k = space_len(u, len))) {
		u += k;
		len -= k;
	}
	while (len && (k = space_len_back(u, len)))
		len -= k;
	*n = len;
	return (const char *)u;
}

int
pystr_isblank(const char *s, size_t n)
{
	pystr_strip(s, &n);
	return n == 0;
}

size_t
pystr_len(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}
