/* SPDX-License-Identifier: Apache-2.0 */
/* The math grader's answer comparison, the original's _math_equal, its sympy step by lib/accuracy/latexeq. */
#include "accuracy/matheq.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy/latexeq.h"
#include "pytext.h"
#include "util.h"

#define MAX_DEPTH 5
#define ABS_TOL 1e-4
#define REL_TOL 1e-9

struct span {
	const char *s;
	size_t n;
};

static enum matheq equal(struct span p, struct span r, int depth);

static enum matheq
or3(enum matheq a, enum matheq b)
{
	if (a == MATHEQ_YES || b == MATHEQ_YES)
		return MATHEQ_YES;
	return a == MATHEQ_SYMBOLIC || b == MATHEQ_SYMBOLIC ? MATHEQ_SYMBOLIC :
							      MATHEQ_NO;
}

static struct span
strip(struct span x)
{
	pytext_strip(&x.s, &x.n);
	return x;
}

static size_t
count(struct span x, char c)
{
	size_t k = 0;

	for (size_t i = 0; i < x.n; i++)
		k += x.s[i] == c;
	return k;
}

static bool
is_choice(struct span r)
{
	return r.n == 1 && r.s[0] >= 'A' && r.s[0] <= 'E';
}

static int
upper(char c)
{
	return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}

/* _handle_single_choice_prefix */
static bool
choice_letter(struct span p, struct span r)
{
	int last = 0;

	if (!is_choice(r))
		return false;
	/* .strip("\n").rstrip(".").rstrip("/").strip(" ").lstrip(":") */
	while (p.n && p.s[0] == '\n')
		p.s++, p.n--;
	while (p.n && p.s[p.n - 1] == '\n')
		p.n--;
	while (p.n && p.s[p.n - 1] == '.')
		p.n--;
	while (p.n && p.s[p.n - 1] == '/')
		p.n--;
	while (p.n && p.s[0] == ' ')
		p.s++, p.n--;
	while (p.n && p.s[p.n - 1] == ' ')
		p.n--;
	while (p.n && p.s[0] == ':')
		p.s++, p.n--;
	/* re.findall(r"\b(A|B|C|D|E)\b", cleaned.upper()) */
	for (size_t i = 0; i < p.n; i++) {
		int c = upper(p.s[i]);

		if (c >= 'A' && c <= 'E' && !pytext_word_before(p.s, i) &&
		    !pytext_word_at(p.s, p.n, i + 1))
			last = c;
	}
	return last == r.s[0];
}

/* _SINGLE_CHOICE_PATTERNS: the length of the one at p's start, or 0 */
static size_t
choice_prefix(struct span p)
{
	const char *s = p.s;

	if (p.n >= 3 && s[0] == '(' && s[1] >= 'A' && s[1] <= 'E' && s[2] == ')')
		return 3;
	if (p.n >= 2 && s[0] >= 'A' && s[0] <= 'E' && strchr(".):", s[1]) && s[1])
		return 2;
	if (p.n >= 5 && !memcmp(s, "**", 2) && s[2] >= 'A' && s[2] <= 'E' &&
	    !memcmp(s + 3, "**", 2))
		return 5;
	return 0;
}

static int
span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	int c = memcmp(x->s, y->s, x->n < y->n ? x->n : y->n);

	return c ? c : (x->n > y->n) - (x->n < y->n);
}

static struct span *
split_commas(struct span x, size_t *k)
{
	struct span *v;
	size_t i = 0, j = 0;

	*k = count(x, ',') + 1;
	v = xreallocarray(NULL, *k, sizeof(*v));
	for (const char *c; (c = memchr(x.s + j, ',', x.n - j));) {
		v[i++] = strip((struct span){ x.s + j, (size_t)(c - x.s) - j });
		j = (size_t)(c - x.s) + 1;
	}
	v[i] = strip((struct span){ x.s + j, x.n - j });
	qsort(v, *k, sizeof(*v), span_cmp);
	return v;
}

/* _compare_comma_list */
static enum matheq
comma_list(struct span p, struct span r, int depth)
{
	struct span *pv, *rv;
	size_t pk, rk;
	enum matheq res = MATHEQ_YES;

	if (!memchr(p.s, ',', p.n) || !memchr(r.s, ',', r.n))
		return MATHEQ_NO;
	pv = split_commas(p, &pk);
	rv = split_commas(r, &rk);
	if (pk != rk)
		res = MATHEQ_NO;
	for (size_t i = 0; i < pk && res != MATHEQ_NO; i++) {
		enum matheq e = equal(pv[i], rv[i], depth + 1);

		if (e != MATHEQ_YES)
			res = e;
	}
	free(pv);
	free(rv);
	return res;
}

/* _parse_digits: commas dropped, float(); else a trailing '%' (or "\%")
 * taken off and the value / 100. */
static bool
parse_digits(struct span x, double *v)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	bool ok;

	for (size_t i = 0; i < x.n; i++)
		if (x.s[i] != ',')
			buf_addch(&b, x.s[i]);
	ok = pytext_float(buf_str(&b), b.len, v);
	if (!ok && b.len > 0 && b.s[b.len - 1] == '%') {
		size_t k = b.len - 1;

		if (k > 0 && b.s[k - 1] == '\\')
			k--;
		if ((ok = pytext_float(b.s, k, v)))
			*v /= 100;
	}
	buf_release(&b);
	return ok;
}

/* math.isclose(a, b, abs_tol=1e-4) with its default rel_tol */
static bool
isclose(double a, double b)
{
	double d;

	if (a == b)
		return true;
	if (isinf(a) || isinf(b))
		return false;
	d = fabs(b - a);
	return d <= fabs(REL_TOL * b) || d <= fabs(REL_TOL * a) || d <= ABS_TOL;
}

/* _numeric_equality_with_percent: -1 when not both numbers */
static int
numeric(struct span p, struct span r)
{
	double pv, rv;

	if (!parse_digits(p, &pv) || !parse_digits(r, &rv))
		return -1;
	return isclose(pv, rv / 100) || isclose(pv, rv) || isclose(pv, rv * 100);
}

static bool
in_set(char c, const char *set)
{
	return c && strchr(set, c);
}

/* .strip(set) */
static struct span
strip_set(struct span x, const char *set)
{
	while (x.n && in_set(x.s[0], set))
		x.s++, x.n--;
	while (x.n && in_set(x.s[x.n - 1], set))
		x.n--;
	return x;
}

/* x without any of "{}()", into b */
static void
drop_brackets(struct span x, struct buf *b)
{
	for (size_t i = 0; i < x.n; i++)
		if (!in_set(x.s[i], "{}()"))
			buf_addch(b, x.s[i]);
}

/* _brace_paren_compare */
static bool
brace_paren(struct span p, struct span r)
{
	struct buf a = BUF_INIT(BUF_NOMAX), b = BUF_INIT(BUF_NOMAX);
	char open, close, ropen;
	bool eq;

	p = strip(p);
	r = strip(r);
	open = p.n ? p.s[0] : 0;
	close = p.n ? p.s[p.n - 1] : 0;
	ropen = r.n ? r.s[0] : 0;
	if ((open == '[' && close == ']' && ropen != '(') ||
	    (open == '(' && close == ')' && ropen != '[')) {
		p = strip_set(p, "[]()");
		r = strip_set(r, "[]()");
	}
	drop_brackets(p, &a);
	drop_brackets(r, &b);
	eq = pytext_ieq(buf_str(&a), a.len, buf_str(&b), b.len);
	buf_release(&a);
	buf_release(&b);
	return eq;
}

/* Whether x is "lhs=rhs" with lhs at most 2 code points once stripped;
 * *rhs is the rest after the '='. */
static bool
short_lhs(struct span x, struct span *rhs)
{
	const char *eq = memchr(x.s, '=', x.n);
	struct span l;
	size_t cps = 0;
	int32_t cp;

	if (!eq)
		return false;
	l = strip((struct span){ x.s, (size_t)(eq - x.s) });
	for (size_t i = 0; i < l.n && cps <= 2; cps++)
		i += pytext_next(l.s, l.n, i, &cp);
	*rhs = (struct span){ eq + 1, (size_t)(x.s + x.n - eq - 1) };
	return cps <= 2;
}

/*
 * Text sympy's parse_expr would read another way than LaTeX does, so
 * that its verdict is not ours to give: '^' (Python's xor, as in "2^3"
 * == 1) unless braced, a bare word of two letters or more ("sqrt(2)",
 * "pi"), and E I N O Q S, sympy's own names.
 */
static bool
python_text(struct span x)
{
	for (size_t i = 0; i < x.n; i++) {
		char c = x.s[i];
		size_t j = i;

		if (c == '^' && (i + 1 >= x.n || x.s[i + 1] != '{'))
			return true;
		if (!pytext_word_at(x.s, x.n, i) || (c >= '0' && c <= '9') || c == '_')
			continue;
		while (j < x.n && ((x.s[j] | 0x20) >= 'a' && (x.s[j] | 0x20) <= 'z'))
			j++;
		if (j > i && (i == 0 || x.s[i - 1] != '\\') &&
		    (j - i >= 2 || (j - i == 1 && strchr("EINOQS", c))))
			return true;
		i = j > i ? j - 1 : i;
	}
	return false;
}

/* x with "\\\\" made "\\", as _sympy_parse's first try, into b */
static void
unescape(struct span x, struct buf *b)
{
	for (size_t i = 0; i < x.n; i++) {
		buf_addch(b, x.s[i]);
		if (x.s[i] == '\\' && i + 1 < x.n && x.s[i + 1] == '\\')
			i++;
	}
}

/*
 * _symbolic_equal: what sympy would say (latexeq.h, with the original's
 * numeric fallback at 1e-4), SYMBOLIC where that cannot be told here.
 */
static enum matheq
symbolic(struct span p, struct span r)
{
	struct buf a = BUF_INIT(BUF_NOMAX), b = BUF_INIT(BUF_NOMAX);
	enum latexeq e = LATEXEQ_UNKNOWN;

	if (!python_text(p) && !python_text(r)) {
		unescape(p, &a);
		unescape(r, &b);
		e = latexeq_flags(buf_str(&a), a.len, buf_str(&b), b.len, LATEXEQ_MATH);
	}
	buf_release(&a);
	buf_release(&b);
	return e == LATEXEQ_YES ? MATHEQ_YES : e == LATEXEQ_NO ? MATHEQ_NO : MATHEQ_SYMBOLIC;
}

/* "lhs - (rhs)" of x's one '=', sides stripped, into b */
static struct span
lhs_minus_rhs(struct span x, struct buf *b)
{
	const char *eq = memchr(x.s, '=', x.n);
	struct span l = strip((struct span){ x.s, (size_t)(eq - x.s) });
	struct span r = strip((struct span){ eq + 1, (size_t)(x.s + x.n - eq - 1) });

	buf_add(b, l.s, l.n);
	buf_addstr(b, " - (");
	buf_add(b, r.s, r.n);
	buf_addch(b, ')');
	return (struct span){ buf_str(b), b->len };
}

/* _equation_rewrites */
static enum matheq
equations(struct span p, struct span r, int depth)
{
	size_t pc = count(p, '='), rc = count(r, '=');
	struct span rhs;

	if (pc == 1 && rc == 1) {
		struct buf a = BUF_INIT(BUF_NOMAX), b = BUF_INIT(BUF_NOMAX);
		enum matheq e = symbolic(lhs_minus_rhs(p, &a), lhs_minus_rhs(r, &b));

		buf_release(&a);
		buf_release(&b);
		return e;
	}
	if (pc == 1 && rc == 0 && short_lhs(p, &rhs))
		return equal(rhs, r, depth + 1);
	if (rc == 1 && pc == 0 && short_lhs(r, &rhs))
		return equal(p, rhs, depth + 1);
	return MATHEQ_NO;
}

static enum matheq
equal(struct span p, struct span r, int depth)
{
	struct span ps = strip(p), rs = strip(r);
	enum matheq res = MATHEQ_NO;
	size_t k;
	int num;

	if (depth > MAX_DEPTH)
		return MATHEQ_NO;
	if (pytext_ieq(ps.s, ps.n, rs.s, rs.n) || choice_letter(p, r))
		return MATHEQ_YES;
	if ((k = choice_prefix(p)))
		res = equal(strip((struct span){ p.s + k, p.n - k }), r, depth + 1);
	if (res != MATHEQ_YES)
		res = or3(res, comma_list(p, r, depth));
	if (res == MATHEQ_YES)
		return res;
	if ((num = numeric(p, r)) >= 0)
		return or3(res, num ? MATHEQ_YES : MATHEQ_NO);
	if (p.n == 0)
		return res;
	if (brace_paren(p, r))
		return MATHEQ_YES;
	res = or3(res, equations(p, r, depth));
	return res == MATHEQ_YES ? res : or3(res, symbolic(p, r));
}

enum matheq
matheq(const char *pred, size_t pn, const char *ref, size_t rn)
{
	return equal((struct span){ pred, pn }, (struct span){ ref, rn }, 0);
}
