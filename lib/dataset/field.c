/* SPDX-License-Identifier: Apache-2.0 */
/* A dataset field's value: the bounds every reader checks, and CSV text read as Python's int() and float(). */
#include "dataset/field.h"

#include <math.h>

#include "rand/pystr.h"
#include "util.h"

const char *
field_check(enum field_kind kind, double v)
{
	if (!isfinite(v))
		return "must be finite";
	if (v < 0)
		return "must not be negative";
	if (kind == FIELD_TOKENS && v > FIELD_MAX_TOKENS)
		return "must be at most 100000000";
	if (kind == FIELD_MS && v > FIELD_MAX_MS)
		return "must be at most 9000000000000 (ms, about 285 years)";
	if (kind == FIELD_SECONDS && v > FIELD_MAX_MS / 1000)
		return "must be at most 9000000000 (seconds, about 285 years)";
	return NULL;
}

/* s without the white space around it, copied into t[0..cap); -1 when
 * empty or too long for a number. */
static int
stripped(const char *s, char *t, size_t cap)
{
	size_t n = strlen(s);
	const char *p = pystr_strip(s, &n);

	if (!n || n >= cap || memchr(p, '\0', n))
		return -1;
	memcpy(t, p, n);
	t[n] = '\0';
	return 0;
}

int
field_int(const char *s, int64_t *out)
{
	char t[64];
	const char *d = t;
	int neg;
	uint64_t v = 0;

	if (stripped(s, t, sizeof(t)) < 0)
		return -1;
	neg = *d == '-';
	d += *d == '-' || *d == '+';
	if (!*d)
		return -1;
	for (; *d; d++) {
		unsigned k = (unsigned char)*d - '0';

		if (k > 9)
			return -1;
		v = v > ((uint64_t)1 << 63) / 10 ? (uint64_t)1 << 63 : v * 10 + k;
	}
	if (v > (uint64_t)INT64_MAX)
		*out = neg ? INT64_MIN : INT64_MAX;
	else
		*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

int
field_float(const char *s, double *out)
{
	char t[512], *end;

	if (stripped(s, t, sizeof(t)) < 0 || strpbrk(t, "xXpP("))
		return -1;	/* strtod's hex floats are none of Python's */
	errno = 0;
	*out = strtod(t, &end);
	return end == t || *end ? -1 : 0;
}
