/* SPDX-License-Identifier: Apache-2.0 */
/* Python str semantics on UTF-8 bytes (the graders, the config file's values): code points, \w, \s, \d, strip(), float(), int(). */
#include "pytext.h"

#include <stdlib.h>
#include <strings.h>

#include <utf8proc.h>

/* CPython's default sys.get_int_max_str_digits() (3.11+). */
#define INT_MAX_DIGITS 4300

size_t
pytext_next(const char *s, size_t n, size_t i, int32_t *cp)
{
	utf8proc_ssize_t k;
	unsigned char c = (unsigned char)s[i];

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	k = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
			     (utf8proc_ssize_t)(n - i), cp);
	if (k <= 0) {
		*cp = 0xFFFD;
		return 1;
	}
	return (size_t)k;
}

size_t
pytext_prev(const char *s, size_t i)
{
	size_t j = i - 1;
	int32_t cp;

	if ((unsigned char)s[j] < 0x80)
		return j;
	while (j > 0 && i - j < 4 && ((unsigned char)s[j] & 0xC0) == 0x80)
		j--;
	if (pytext_next(s, i, j, &cp) == i - j)
		return j;
	return i - 1;
}

bool
pytext_isword(int32_t cp)
{
	if (cp < 0x80)
		return (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') ||
		       (cp >= 'A' && cp <= 'Z') || cp == '_';
	switch (utf8proc_category(cp)) {
	case UTF8PROC_CATEGORY_LU:
	case UTF8PROC_CATEGORY_LL:
	case UTF8PROC_CATEGORY_LT:
	case UTF8PROC_CATEGORY_LM:
	case UTF8PROC_CATEGORY_LO:
	case UTF8PROC_CATEGORY_ND:
	case UTF8PROC_CATEGORY_NL:
	case UTF8PROC_CATEGORY_NO:
		return true;
	default:
		return false;
	}
}

bool
pytext_isspace(int32_t cp)
{
	const utf8proc_property_t *p;

	if (cp < 0x80)
		return cp == ' ' || (cp >= '\t' && cp <= '\r') ||
		       (cp >= 0x1C && cp <= 0x1F);
	if (cp == 0xFFFD)
		return false;
	/* CPython: bidirectional class WS, B or S, or category Zs */
	p = utf8proc_get_property(cp);
	return p->category == UTF8PROC_CATEGORY_ZS ||
	       p->bidi_class == UTF8PROC_BIDI_CLASS_WS ||
	       p->bidi_class == UTF8PROC_BIDI_CLASS_B ||
	       p->bidi_class == UTF8PROC_BIDI_CLASS_S;
}

bool
pytext_isdigit(int32_t cp)
{
	if (cp < 0x80)
		return cp >= '0' && cp <= '9';
	return utf8proc_category(cp) == UTF8PROC_CATEGORY_ND;
}

/* Unicode encodes each decimal digit set as a run 0..9 (a stability
 * policy), so a digit's value is its place in its run of Nd, modulo 10. */
static int
digit_value(int32_t cp)
{
	int k = 0;

	if (cp < 0x80)
		return cp >= '0' && cp <= '9' ? cp - '0' : -1;
	if (!pytext_isdigit(cp))
		return -1;
	while (k < 100 && pytext_isdigit(cp - 1 - k))
		k++;
	return k % 10;
}

bool
pytext_word_at(const char *s, size_t n, size_t i)
{
	int32_t cp;

	if (i >= n)
		return false;
	pytext_next(s, n, i, &cp);
	return pytext_isword(cp);
}

bool
pytext_word_before(const char *s, size_t i)
{
	int32_t cp;
	size_t j;

	if (i == 0)
		return false;
	j = pytext_prev(s, i);
	pytext_next(s, i, j, &cp);
	return pytext_isword(cp);
}

bool
pytext_digit_at(const char *s, size_t n, size_t i)
{
	int32_t cp;

	if (i >= n)
		return false;
	pytext_next(s, n, i, &cp);
	return pytext_isdigit(cp);
}

bool
pytext_digit_before(const char *s, size_t i)
{
	int32_t cp;
	size_t j;

	if (i == 0)
		return false;
	j = pytext_prev(s, i);
	pytext_next(s, i, j, &cp);
	return pytext_isdigit(cp);
}

void
pytext_strip(const char **s, size_t *n)
{
	const char *p = *s;
	size_t i = 0, j = *n;
	int32_t cp;

	while (i < j) {
		size_t k = pytext_next(p, j, i, &cp);

		if (!pytext_isspace(cp))
			break;
		i += k;
	}
	while (j > i) {
		size_t k = pytext_prev(p, j);

		pytext_next(p, j, k, &cp);
		if (!pytext_isspace(cp))
			break;
		j = k;
	}
	*s = p + i;
	*n = j - i;
}

bool
pytext_ieq(const char *a, size_t an, const char *b, size_t bn)
{
	size_t i = 0, j = 0;

	while (i < an && j < bn) {
		int32_t x, y;

		i += pytext_next(a, an, i, &x);
		j += pytext_next(b, bn, j, &y);
		if (x != y && utf8proc_tolower(x) != utf8proc_tolower(y))
			return false;
	}
	return i == an && j == bn;
}

/*
 * The ASCII form of a stripped number: Unicode digits made ASCII (as
 * CPython does first), each '_' dropped when it stands between two
 * digits, and false for any other '_'. *ndig counts the digits.
 */
static bool
ascii_number(const char *s, size_t n, struct buf *a, size_t *ndig)
{
	size_t i = 0;
	int prev_digit = 0;

	*ndig = 0;
	while (i < n) {
		int32_t cp;
		size_t k = pytext_next(s, n, i, &cp);
		int v = digit_value(cp);

		if (cp == '_') {
			/* only between two digits */
			if (!prev_digit || !(i + 1 < n && pytext_digit_at(s, n, i + 1)))
				return false;
			prev_digit = 0;
		} else if (v >= 0) {
			buf_addch(a, '0' + v);
			(*ndig)++;
			prev_digit = 1;
		} else if (cp < 0x80 && cp != 0) {
			buf_addch(a, (int)cp);
			prev_digit = 0;
		} else {
			return false;
		}
		i += k;
	}
	return true;
}

static size_t
skip_digits(const char *s, size_t i)
{
	while (s[i] >= '0' && s[i] <= '9')
		i++;
	return i;
}

/* Python's float grammar on the ASCII form (sign already allowed). */
static bool
float_syntax(const char *s)
{
	size_t i = 0, m;

	if (*s == '+' || *s == '-')
		i++;
	if (!strcasecmp(s + i, "inf") || !strcasecmp(s + i, "infinity") ||
	    !strcasecmp(s + i, "nan"))
		return true;
	m = skip_digits(s, i);
	if (s[m] == '.') {
		size_t f = skip_digits(s, m + 1);

		if (f == m + 1 && m == i)
			return false;
		m = f;
	} else if (m == i) {
		return false;
	}
	if (s[m] == 'e' || s[m] == 'E') {
		size_t e = m + 1;

		if (s[e] == '+' || s[e] == '-')
			e++;
		m = skip_digits(s, e);
		if (m == e)
			return false;
	}
	return s[m] == '\0';
}

bool
pytext_float(const char *s, size_t n, double *out)
{
	struct buf a = BUF_INIT(BUF_NOMAX);
	size_t ndig;
	bool ok;

	pytext_strip(&s, &n);
	ok = n > 0 && ascii_number(s, n, &a, &ndig) && float_syntax(buf_str(&a));
	if (ok) {
		const char *t = buf_str(&a);

		/* strtod would take "infinity" too, but also hex: the syntax
		 * check above has refused that already */
		*out = strtod(t, NULL);
	}
	buf_release(&a);
	return ok;
}

bool
pytext_int(const char *s, size_t n, struct buf *out)
{
	struct buf a = BUF_INIT(BUF_NOMAX);
	size_t ndig, i = 0;
	const char *t;
	bool ok;

	pytext_strip(&s, &n);
	ok = n > 0 && ascii_number(s, n, &a, &ndig) && ndig <= INT_MAX_DIGITS;
	t = buf_str(&a);
	if (ok && (t[0] == '+' || t[0] == '-'))
		i++;
	ok = ok && t[i] && skip_digits(t, i) == a.len;
	if (ok) {
		size_t z = i;

		while (t[z] == '0' && t[z + 1])
			z++;
		if (t[0] == '-' && t[z] != '0')
			buf_addch(out, '-');
		buf_add(out, t + z, a.len - z);
	}
	buf_release(&a);
	return ok;
}

size_t
pytext_digits_end(const char *s, size_t n, size_t i)
{
	int32_t cp;

	while (i < n) {
		size_t k = pytext_next(s, n, i, &cp);

		if (!pytext_isdigit(cp))
			break;
		i += k;
	}
	return i;
}
