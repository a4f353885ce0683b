/* SPDX-License-Identifier: Apache-2.0 */
/* Python's str() and repr() of JSON values. */
#include "json/pyval.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The shortest digits that read back as d (d finite, > 0), and the
 * exponent of the first: d = D[0].D[1..] x 10^exp. */
static void
short_digits(double d, char digits[32], int *exp)
{
	char t[48], *e;
	size_t n = 0;

	for (int p = 1; p <= 17; p++) {
		snprintf(t, sizeof(t), "%.*e", p - 1, d);
		if (strtod(t, NULL) == d)
			break;
	}
	e = strchr(t, 'e');
	*exp = (int)strtol(e + 1, NULL, 10);
	for (const char *c = t; c < e; c++)
		if (*c != '.')
			digits[n++] = *c;
	while (n > 1 && digits[n - 1] == '0')
		n--;
	digits[n] = '\0';
}

static void
zeros(struct buf *out, int n)
{
	while (n-- > 0)
		buf_addch(out, '0');
}

void
pyval_float(double d, struct buf *out)
{
	char dg[32];
	int exp, n;

	if (isnan(d) || isinf(d)) {
		buf_addstr(out, isnan(d) ? "nan" : d < 0 ? "-inf" : "inf");
		return;
	}
	if (signbit(d))
		buf_addch(out, '-');
	d = fabs(d);
	if (d == 0) {
		buf_addstr(out, "0.0");
		return;
	}
	short_digits(d, dg, &exp);
	n = (int)strlen(dg);
	if (exp < -4 || exp >= 16) {
		buf_addf(out, "%c%s%s", dg[0], n > 1 ? "." : "", dg + 1);
		buf_addf(out, "e%c%02d", exp < 0 ? '-' : '+', abs(exp));
	} else if (exp < 0) {
		buf_addstr(out, "0.");
		zeros(out, -exp - 1);
		buf_addstr(out, dg);
	} else if (exp + 1 < n) {
		buf_addf(out, "%.*s.%s", exp + 1, dg, dg + exp + 1);
	} else {
		buf_addstr(out, dg);
		zeros(out, exp + 1 - n);
		buf_addstr(out, ".0");
	}
}

int
pyval_str(const struct json *v, struct buf *out)
{
	double d;

	switch (v->type) {
	case JSON_STRING:
		buf_add(out, v->str, v->len);
		return 0;
	case JSON_NUMBER:
		if (!memchr(v->str, '.', v->len) && !memchr(v->str, 'e', v->len) &&
		    !memchr(v->str, 'E', v->len)) {
			if (v->len == 2 && !memcmp(v->str, "-0", 2))
				buf_addch(out, '0');
			else
				buf_add(out, v->str, v->len);
			return 0;
		}
		json_double(v, &d);
		pyval_float(d, out);
		return 0;
	case JSON_TRUE: buf_addstr(out, "True"); return 0;
	case JSON_FALSE: buf_addstr(out, "False"); return 0;
	case JSON_NULL: buf_addstr(out, "None"); return 0;
	default: return -1;
	}
}

void
pyval_repr(struct buf *out, const char *s, size_t n)
{
	char q = memchr(s, '\'', n) && !memchr(s, '"', n) ? '"' : '\'';

	buf_addch(out, q);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\\' || c == (unsigned char)q)
			buf_addf(out, "\\%c", c);
		else if (c == '\n')
			buf_addstr(out, "\\n");
		else if (c == '\t')
			buf_addstr(out, "\\t");
		else if (c == '\r')
			buf_addstr(out, "\\r");
		else if (c < 0x20 || c == 0x7f)
			buf_addf(out, "\\x%02x", c);
		else
			buf_addch(out, (char)c);
	}
	buf_addch(out, q);
}
