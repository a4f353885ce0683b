/* SPDX-License-Identifier: Apache-2.0 */
/* The original's math grader (AIME): the last \boxed{} answer, else an answer phrase, else the last number. */
#define _GNU_SOURCE	/* memmem */
#include "accuracy/mathans.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "accuracy/matheq.h"
#include "accuracy/mathstrip.h"
#include "pytext.h"

#define BOXED "\\boxed{"

/* _extract_last_boxed: the last "\boxed{" and its brace-balanced body */
static bool
last_boxed(const char *s, size_t n, const char **b, size_t *bn)
{
	const char *p = NULL, *q = s;
	int depth = 0;

	while ((q = memmem(q, (size_t)(s + n - q), BOXED, 7)))
		p = q++;
	if (!p)
		return false;
	p += 7;
	for (const char *c = p; c < s + n; c++) {
		if (*c == '{') {
			depth++;
		} else if (*c == '}') {
			if (depth == 0) {
				*b = p;
				*bn = (size_t)(c - p);
				return true;
			}
			depth--;
		}
	}
	return false;
}

/* _format_response_tail */
static void
format_tail(const char *s, size_t n, struct buf *out)
{
	size_t start = out->len, i = 0;
	int32_t cp;

	while (i < n) {
		if (s[i] != '\n') {
			buf_addch(out, s[i++]);
			continue;
		}
		/* re.sub(r"\n\s*", "") */
		i++;
		while (i < n) {
			size_t k = pytext_next(s, n, i, &cp);

			if (!pytext_isspace(cp))
				break;
			i += k;
		}
	}
	if (out->len > start && out->s[start] == ':') {
		memmove(out->s + start, out->s + start + 1, out->len - start);
		out->len--;
	}
	if (out->len > start && out->s[out->len - 1] == '.')
		out->s[--out->len] = '\0';
	if (out->len > start && out->s[out->len - 1] == '/')
		out->s[--out->len] = '\0';
}

/* _extract_last_number: the last -?\d+(?:\.\d+)?(?:/\d+)? */
static bool
last_number(const char *s, size_t n, const char **a, size_t *an)
{
	bool found = false;
	size_t i = 0;

	while (i < n) {
		size_t b = i, j = i, e;
		int32_t cp;

		if (s[i] == '-' && pytext_digit_at(s, n, i + 1))
			j++;
		e = pytext_digits_end(s, n, j);
		if (e == j) {
			i += pytext_next(s, n, i, &cp);
			continue;
		}
		if (e + 1 < n && s[e] == '.' && pytext_digits_end(s, n, e + 1) > e + 1)
			e = pytext_digits_end(s, n, e + 1);
		if (e + 1 < n && s[e] == '/' && pytext_digits_end(s, n, e + 1) > e + 1)
			e = pytext_digits_end(s, n, e + 1);
		*a = s + b;
		*an = e - b;
		found = true;
		i = e;
	}
	return found;
}

static size_t
spaces(const char *s, size_t n, size_t i)
{
	int32_t cp;

	while (i < n) {
		size_t k = pytext_next(s, n, i, &cp);

		if (!pytext_isspace(cp))
			break;
		i += k;
	}
	return i;
}

/* word (any case) at s[i]: its end, or 0 */
static size_t
word(const char *s, size_t n, size_t i, const char *w)
{
	size_t l = strlen(w);

	return l <= n - i && !strncasecmp(s + i, w, l) ? i + l : 0;
}

/* \s+ then w after e (a match's end, 0 for none): its end, or 0 */
static size_t
then_word(const char *s, size_t n, size_t e, const char *w)
{
	size_t f;

	if (!e || (f = spaces(s, n, e)) == e)
		return 0;
	return word(s, n, f, w);
}

/*
 * Where the lazy (.+?) of \s*[:=]?\s*(.+?) begins after the prefix that
 * ends at q, as re backtracks it: after the greedy \s* (to a), past a
 * ':' or '=' and its spaces when there is one; and when that runs to the
 * end, the last position before it that is no '\n' (.+? needs one
 * character that is not a newline). False when there is none.
 */
static bool
group_start(const char *s, size_t n, size_t q, size_t *g)
{
	size_t a = spaces(s, n, q), lo = q, i;

	if (a < n && (s[a] == ':' || s[a] == '=')) {
		size_t b = spaces(s, n, a + 1);

		*g = a;
		if (b < n) {
			*g = b;
			return true;
		}
		lo = a + 1;
		a = b;
	} else if (a < n) {
		*g = a;
		return true;
	}
	for (i = a; i > lo;) {
		i = pytext_prev(s, i);
		if (s[i] != '\n') {
			*g = i;
			return true;
		}
	}
	return lo > q;
}

/* The group's end: the first (?<!\d)\.(?!\d), '\n' or the end past g;
 * *next is where findall goes on. */
static size_t
group_end(const char *s, size_t n, size_t g, size_t *next)
{
	int32_t cp;
	size_t p = g + pytext_next(s, n, g, &cp);

	for (; p < n; p++) {
		if (s[p] == '\n' || (s[p] == '.' && !pytext_digit_before(s, p) &&
				     !pytext_digit_at(s, n, p + 1))) {
			*next = p + 1;
			return p;
		}
	}
	*next = n;
	return n;
}

/*
 * The last group of re.findall over
 * (?:final\s+answer|the\s+answer\s+is|answer\s*[:=]|answer\s+is)\s*[:=]?\s*(.+?)(?:(?<!\d)\.(?!\d)|\n|$)
 * with re.IGNORECASE (ASCII case only).
 */
static bool
last_phrase(const char *s, size_t n, const char **t, size_t *tn)
{
	bool found = false;
	size_t i = 0;

	while (i < n) {
		size_t ends[4], e, sp, g = 0, next;
		bool ok = false;

		e = word(s, n, i, "answer");
		sp = e ? spaces(s, n, e) : 0;
		ends[0] = then_word(s, n, word(s, n, i, "final"), "answer");
		ends[1] = then_word(s, n,
				    then_word(s, n, word(s, n, i, "the"), "answer"),
				    "is");
		ends[2] = e && sp < n && (s[sp] == ':' || s[sp] == '=') ? sp + 1 : 0;
		ends[3] = then_word(s, n, e, "is");
		for (int k = 0; k < 4 && !ok; k++)
			ok = ends[k] && group_start(s, n, ends[k], &g);
		if (!ok) {
			i++;
			continue;
		}
		e = group_end(s, n, g, &next);
		*t = s + g;
		*tn = e - g;
		found = true;
		i = next;
	}
	return found;
}

/* The answer phrase's tail, as _extract_with_flag treats it. */
static void
from_tail(const char *t, size_t tn, struct buf *out)
{
	const char *b;
	size_t bn;

	pytext_strip(&t, &tn);
	if (last_boxed(t, tn, &b, &bn))
		format_tail(b, bn, out);
	else if (memchr(t, '\\', tn) || memchr(t, '{', tn) || memchr(t, '}', tn))
		buf_add(out, t, tn);
	else if (last_number(t, tn, &b, &bn))
		buf_add(out, b, bn);
	else
		buf_add(out, t, tn);
}

bool
mathans_extract(const char *reply, size_t n, struct buf *out)
{
	const char *b;
	size_t bn;

	if (n == 0)
		return true;
	if (last_boxed(reply, n, &b, &bn)) {
		format_tail(b, bn, out);
		return false;
	}
	if (last_phrase(reply, n, &b, &bn))
		from_tail(b, bn, out);
	else if (last_number(reply, n, &b, &bn))
		buf_add(out, b, bn);
	else {
		pytext_strip(&reply, &n);
		buf_add(out, reply, n);
	}
	return true;
}

int
mathans_grade(const char *reply, size_t n, const char *gold,
	      struct grade_result *r)
{
	struct buf a = BUF_INIT(BUF_NOMAX), ps = BUF_INIT(BUF_NOMAX),
		   gs = BUF_INIT(BUF_NOMAX);
	enum matheq eq;

	if (grade_check_size(n, gold, r) < 0)
		return -1;
	r->unparsed = mathans_extract(reply, n, &a);
	mathstrip(buf_str(&a), a.len, &ps);
	mathstrip(gold, strlen(gold), &gs);
	eq = matheq(buf_str(&ps), ps.len, buf_str(&gs), gs.len);
	r->correct = eq == MATHEQ_YES;
	r->needs_symbolic = eq == MATHEQ_SYMBOLIC;
	grade_set_extracted(r, buf_str(&a), a.len);
	snprintf(r->reason, sizeof(r->reason), "stripped '%.24s' vs gold '%.24s'%s%s",
		 buf_str(&ps), buf_str(&gs),
		 eq == MATHEQ_SYMBOLIC ? " (symbolic check undecided)" : "",
		 r->unparsed ? " (regex fallback)" : "");
	buf_release(&a);
	buf_release(&ps);
	buf_release(&gs);
	return 0;
}
