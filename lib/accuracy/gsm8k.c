/* SPDX-License-Identifier: Apache-2.0 */
/* The original's lighteval_gsm8k grader: the number after "#### " (else the last number), compared numerically. */
#define _GNU_SOURCE	/* memmem */
#include "accuracy/gsm8k.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pytext.h"

#define ABS_TOL 1e-6

static bool
isdig(char c)
{
	return c >= '0' && c <= '9';
}

static void
add_nocomma(struct buf *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ',')
			buf_addch(out, s[i]);
}

static size_t
run_end(const char *s, size_t n, size_t i)
{
	while (i < n && (isdig(s[i]) || s[i] == '.' || s[i] == ','))
		i++;
	return i;
}

bool
gsm8k_normalize(const char *s, size_t n, struct buf *out)
{
	const char *p = s, *end = s + n;

	while ((p = memmem(p, (size_t)(end - p), "#### ", 5))) {
		size_t i = (size_t)(p - s) + 5, j;

		if (i < n && s[i] == '-' && run_end(s, n, i + 1) > i + 1)
			j = run_end(s, n, i + 1);
		else
			j = run_end(s, n, i);
		if (j > i) {
			/* the group's .strip() has nothing to strip here */
			add_nocomma(out, s + i, j - i);
			return true;
		}
		p++;
	}
	return false;
}

/* The last match of -?[0-9][0-9,]*(?:\.[0-9]+)? in s, found left to right
 * as re.findall does. */
static bool
last_number(const char *s, size_t n, size_t *at, size_t *len)
{
	bool found = false;
	size_t i = 0;

	while (i < n) {
		size_t b = i, j;

		if (s[i] == '-' && i + 1 < n && isdig(s[i + 1]))
			j = i + 1;
		else if (isdig(s[i]))
			j = i;
		else {
			i++;
			continue;
		}
		j++;
		while (j < n && (isdig(s[j]) || s[j] == ','))
			j++;
		if (j + 1 < n && s[j] == '.' && isdig(s[j + 1])) {
			j += 2;
			while (j < n && isdig(s[j]))
				j++;
		}
		*at = b;
		*len = j - b;
		found = true;
		i = j;
	}
	return found;
}

/* math.isclose(a, b, rel_tol=0, abs_tol=1e-6) */
static bool
numbers_match(const struct buf *gold, const struct buf *pred)
{
	double a, b;

	if (!pytext_float(gold->s, gold->len, &a) ||
	    !pytext_float(pred->s, pred->len, &b))
		return gold->len == pred->len && !memcmp(gold->s, pred->s, gold->len);
	if (a == b)
		return true;
	if (isinf(a) || isinf(b))
		return false;
	return fabs(a - b) <= ABS_TOL;
}

static void
extract(const char *reply, size_t n, struct buf *pred, bool *fallback,
	bool *parseable)
{
	size_t at, len;

	*fallback = false;
	*parseable = true;
	if (gsm8k_normalize(reply, n, pred))
		return;
	*fallback = true;
	if (last_number(reply, n, &at, &len)) {
		add_nocomma(pred, reply + at, len);
		return;
	}
	*parseable = false;
	buf_addstr(pred, GSM8K_INVALID);
}

int
gsm8k_grade(const char *reply, size_t n, const char *gold,
	    struct grade_result *r)
{
	struct buf g = BUF_INIT(BUF_NOMAX), p = BUF_INIT(BUF_NOMAX);
	const char *gs = gold;
	size_t gn = strlen(gold);
	bool fallback, parseable, gold_ok;

	if (grade_check_size(n, gold, r) < 0)
		return -1;
	pytext_strip(&gs, &gn);
	gold_ok = gsm8k_normalize(gs, gn, &g);
	if (!gold_ok)
		buf_addstr(&g, GSM8K_INVALID);
	pytext_strip(&reply, &n);
	extract(reply, n, &p, &fallback, &parseable);
	r->unparsed = fallback || !parseable;
	r->correct = parseable && gold_ok && numbers_match(&g, &p);
	grade_set_extracted(r, buf_str(&p), p.len);
	snprintf(r->reason, sizeof(r->reason), "gold '%.32s' vs pred '%.32s'%s",
		 buf_str(&g), buf_str(&p),
		 !parseable ? " (no number in response)" :
		 fallback ? " (no #### marker; last number)" : "");
	buf_release(&g);
	buf_release(&p);
	return 0;
}
