/* SPDX-License-Identifier: Apache-2.0 */
/* The original's lighteval graders (AIME, MATH-500, GPQA): lighteval's extractive match, its regexes by hand. */
#include "accuracy/lighteval.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy/latexeq.h"
#include "buf.h"
#include "pytext.h"
#include "util.h"

/* bounds: candidates kept per priority, an expression's character run,
 * "(?:...)?" groups after the first LaTeX one (lighteval's five) */
#define MAX_CANDS 4096
#define MAX_RUN 256
#define MAX_PARTS 6

enum ckind { C_LATEX, C_EXPR, C_NUMBER };

struct span {
	size_t b, e;
};

struct cand {
	size_t mb, me;			/* the whole match, for the order */
	enum ckind k;
	int nparts;
	struct span part[MAX_PARTS];	/* LaTeX contents; or the expr; or int, decimal */
	bool pct[MAX_PARTS];
	bool boxed;			/* first_latexBoxed: \boxed{} taken "last" */
	int idx;			/* the order found, for a stable sort */
};

struct cands {
	int n;
	struct cand c[MAX_CANDS];
};

/* which patterns a side's extraction has, and the boxed one's priority */
struct target {
	bool latex, expr;
	int boxed_prio;
};

static const struct target gold_expr = { false, true, -1 };
static const struct target gold_latex = { true, false, 55 };
static const struct target pred_both = { true, true, 0 };

/* the first occurrence at or after a position, remembered (the starts
 * only grow, so a search is linear over the whole text) */
struct finder {
	size_t from, at;
	bool valid;
};

struct text {
	const char *s;
	size_t n;
	struct finder dd, brk, par, dol, nl;
};

static bool
sp(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static bool
dig(const struct text *t, size_t i)
{
	return i < t->n && t->s[i] >= '0' && t->s[i] <= '9';
}

static bool
at(const struct text *t, size_t i, const char *w)
{
	size_t l = strlen(w);

	return i <= t->n && l <= t->n - i && !memcmp(t->s + i, w, l);
}

static bool
ci_at(const struct text *t, size_t i, const char *w)
{
	size_t l = strlen(w);

	if (i > t->n || l > t->n - i)
		return false;
	for (size_t k = 0; k < l; k++) {
		char c = t->s[i + k];

		if ((c >= 'A' && c <= 'Z' ? c + 32 : c) != w[k])
			return false;
	}
	return true;
}

/* first i >= from where w starts and the byte before is no backslash */
static size_t
find_unescaped(const struct text *t, struct finder *f, size_t from, const char *w)
{
	size_t i;

	if (f->valid && from >= f->from && from <= f->at)
		return f->at;
	for (i = from; i < t->n; i++)
		if (at(t, i, w) && (i == 0 || t->s[i - 1] != '\\'))
			break;
	*f = (struct finder){ from, i, true };
	return i;
}

static size_t
find_nl(struct text *t, size_t from)
{
	struct finder *f = &t->nl;
	const char *p;

	if (f->valid && from >= f->from && from <= f->at)
		return f->at;
	p = from < t->n ? memchr(t->s + from, '\n', t->n - from) : NULL;
	*f = (struct finder){ from, p ? (size_t)(p - t->s) : t->n, true };
	return f->at;
}

/* -?\d+(?:[.,]\d+)? at i: its end, or 0 */
static size_t
simple_number(const struct text *t, size_t i)
{
	size_t j = i + (i < t->n && t->s[i] == '-');

	if (!dig(t, j))
		return 0;
	while (dig(t, j))
		j++;
	if (j < t->n && (t->s[j] == '.' || t->s[j] == ',') && dig(t, j + 1))
		for (j++; dig(t, j);)
			j++;
	return j;
}

/* (?P<latexFraction>-?\\frac{N}{N}) */
static size_t
frac_env(const struct text *t, size_t i, struct span *c)
{
	size_t j = i + (i < t->n && t->s[i] == '-'), e;

	if (!at(t, j, "\\frac{") || !(e = simple_number(t, j + 6)) || !at(t, e, "}{"))
		return 0;
	if (!(e = simple_number(t, e + 2)) || !at(t, e, "}"))
		return 0;
	*c = (struct span){ i, e + 1 };
	return e + 1;
}

/* one LaTeX environment (make_latex_env_pattern, plain) at i: its end or 0 */
static size_t
env1(struct text *t, size_t i, struct span *c)
{
	bool esc = i > 0 && t->s[i - 1] == '\\';
	size_t j;

	if (!esc && at(t, i, "$$")) {
		j = find_unescaped(t, &t->dd, i + 3, "$$");
		/* a "$$" right after the opening, or escaped, closes nothing */
		if (j < t->n && !(j > i + 2 && at(t, j - 1, "$$"))) {
			*c = (struct span){ i + 2, j };
			return j + 2;
		}
	}
	if (!esc && at(t, i, "\\[") && (j = find_unescaped(t, &t->brk, i + 3, "\\]")) < t->n) {
		*c = (struct span){ i + 2, j };
		return j + 2;
	}
	if (!esc && !(i > 0 && t->s[i - 1] >= '0' && t->s[i - 1] <= '9') && at(t, i, "$") &&
	    i + 1 < t->n && t->s[i + 1] != '$' && t->s[i + 1] != '\n' &&
	    !(t->s[i + 1] == '\\' && i + 2 < t->n && t->s[i + 2] == '$' && i + 3 >= t->n)) {
		j = find_unescaped(t, &t->dol, i + 2, "$");
		if (j < t->n && j < find_nl(t, i + 1)) {
			*c = (struct span){ i + 1, j };
			return j + 1;
		}
	}
	if (!esc && at(t, i, "\\(") && (j = find_unescaped(t, &t->par, i + 3, "\\)")) < t->n &&
	    j < find_nl(t, i + 2)) {
		*c = (struct span){ i + 2, j };
		return j + 2;
	}
	if (i + 1 < t->n && sp(t->s[i]) && t->s[i + 1] == '[') {
		for (j = i + 2; j < t->n && !strchr("\n][", t->s[j]); j++)
			;
		if (j > i + 2 && j + 1 < t->n && t->s[j] == ']' && sp(t->s[j + 1])) {
			*c = (struct span){ i + 2, j };
			return j + 2;
		}
	}
	return frac_env(t, i, c);
}

/* \s*(?:\\?%|[Pp]ercent|[Pp]ercentage|[Pp]ct) at i: its end, or 0 */
static size_t
percent_at(const struct text *t, size_t i)
{
	while (i < t->n && sp(t->s[i]))
		i++;
	if (at(t, i, "%"))
		return i + 1;
	if (at(t, i, "\\%"))
		return i + 2;
	if (at(t, i, "percent") || at(t, i, "Percent"))
		return i + 7;
	if (at(t, i, "pct") || at(t, i, "Pct"))
		return i + 3;
	return 0;
}

/* the LaTeX environments joined by "and", "or", "," at i, into c */
static size_t
envs_at(struct text *t, size_t i, struct cand *c)
{
	size_t e = env1(t, i, &c->part[0]), p;

	if (!e)
		return 0;
	c->k = C_LATEX;
	c->boxed = false;
	c->nparts = 1;
	if ((p = percent_at(t, e)))
		e = p;
	c->pct[0] = p != 0;
	while (c->nparts < MAX_PARTS) {
		size_t j = e, f;

		while (j < t->n && sp(t->s[j]))
			j++;
		if (at(t, j, "and"))
			j += 3;
		else if (at(t, j, "or") || at(t, j, ","))
			j += at(t, j, ",") ? 1 : 2;
		else
			break;
		while (j < t->n && sp(t->s[j]))
			j++;
		if (!(f = env1(t, j, &c->part[c->nparts])))
			break;
		if ((p = percent_at(t, f)))
			f = p;
		c->pct[c->nparts++] = p != 0;
		e = f;
	}
	return e;
}

/* the number_re of lazy_expr_regex at i, into c: its end, or 0 */
static size_t
number_at(const struct text *t, size_t i, struct cand *c)
{
	size_t j = i + (i < t->n && t->s[i] == '-'), d = j, e, p;

	while (dig(t, d))
		d++;
	c->k = C_NUMBER;
	c->nparts = 2;
	c->part[1] = (struct span){ 0, 0 };
	if (d > j && d - j <= 3 && d + 3 < t->n + 0 && (t->s[d] == ' ' || t->s[d] == ',') &&
	    dig(t, d + 1) && dig(t, d + 2) && dig(t, d + 3)) {
		/* integer1: 1,234 or 1 234, then decimal1 */
		for (e = d; e + 3 < t->n && (t->s[e] == ' ' || t->s[e] == ',') && dig(t, e + 1) &&
			    dig(t, e + 2) && dig(t, e + 3);)
			e += 4;
		c->part[0] = (struct span){ i, e };
		if (e < t->n && t->s[e] == '.' && dig(t, e + 1)) {
			for (p = e + 1; dig(t, p);)
				p++;
			c->part[1] = (struct span){ e, p };
			e = p;
		}
	} else if (d > j && d < t->n && (t->s[d] == '.' || t->s[d] == ',') && dig(t, d + 1)) {
		for (e = d + 1; dig(t, e);)
			e++;
		c->part[0] = (struct span){ i, d };
		c->part[1] = (struct span){ d, e };
	} else if (d > j) {
		e = d;
		c->part[0] = (struct span){ i, d };
	} else if (at(t, i, ".") && dig(t, i + 1)) {
		for (e = i + 1; dig(t, e);)
			e++;
		c->part[0] = (struct span){ i, i };
		c->part[1] = (struct span){ i, e };
	} else {
		return 0;
	}
	/* (?P<percent>\s*(?:%|[Pp]ercent|\s*[Pp]ercentage|\s*[Pp]ct))? */
	c->pct[0] = false;
	p = e;
	while (p < t->n && sp(t->s[p]))
		p++;
	if (at(t, p, "%") || at(t, p, "percent") || at(t, p, "Percent") || at(t, p, "pct") ||
	    at(t, p, "Pct")) {
		c->pct[0] = true;
		e = p + (t->s[p] == '%' ? 1 : at(t, p + 1, "ct") ? 3 : 7);
	}
	return e;
}

/* (?:\*\*)?(?:[.]|[,]|\s?[:]|\s|\)|\$|$) at i */
static bool
suffix_at(const struct text *t, size_t i)
{
	for (int k = 0; k < 2; k++, i += 2) {
		if (i == t->n || (i + 1 == t->n && t->s[i] == '\n'))
			return true;
		if (i < t->n && strchr(".,:)$", t->s[i]))
			return true;
		if (i < t->n && sp(t->s[i]))
			return true;
		if (!at(t, i, "**"))
			return false;
	}
	return false;
}

/* a unit of [\d\.\s+\-*×/^()÷] at i: its length, 0 for none; *op when an operator */
static size_t
expr_unit(const struct text *t, size_t i, bool *op)
{
	unsigned char c = i < t->n ? (unsigned char)t->s[i] : 0;

	*op = c && strchr("+-*/^()", (char)c);
	if (*op)
		return 1;
	if (c == 0xC3 && i + 1 < t->n &&
	    ((unsigned char)t->s[i + 1] == 0x97 || (unsigned char)t->s[i + 1] == 0xB7)) {
		*op = true;
		return 2;
	}
	return c && (dig(t, i) || c == '.' || sp((char)c)) ? 1 : 0;
}

/*
 * (?P<expr>-?\(?-?\d[cls]*[ops][cls]+\)?) then the suffix, at i: the
 * greedy match is the last end e (of a run of at most MAX_RUN) where the
 * suffix (or ')' then it) holds with an operator before its last unit.
 */
static size_t
expr_at(const struct text *t, size_t i, struct cand *c)
{
	size_t j = i, units[MAX_RUN + 1], nu = 0, first_op = 0;
	bool op;

	if (at(t, j, "-"))
		j++;
	if (at(t, j, "("))
		j++;
	if (at(t, j, "-"))
		j++;
	if (!dig(t, j))
		return 0;
	units[nu++] = ++j;
	for (size_t k; nu <= MAX_RUN && (k = expr_unit(t, j, &op)); j += k) {
		if (op && !first_op)
			first_op = nu;	/* unit nu spans units[nu - 1]..units[nu] */
		units[nu++] = j + k;
	}
	/* the last end with an operator unit before its last unit */
	for (size_t u = nu; first_op && u-- > first_op + 1;) {
		size_t e = units[u];
		bool ok_par = e < t->n && t->s[e] == ')' && suffix_at(t, e + 1);

		if (ok_par || suffix_at(t, e)) {
			c->k = C_EXPR;
			c->nparts = 1;
			c->part[0] = (struct span){ i, ok_par ? e + 1 : e };
			return ok_par ? e + 1 : e;
		}
	}
	return 0;
}

/* a currency sign of lighteval's list at i: its length, or 0 */
static size_t
currency_at(const struct text *t, size_t i)
{
	const unsigned char *u = (const unsigned char *)t->s + i;
	size_t left = i < t->n ? t->n - i : 0;

	if (left >= 1 && u[0] == '$')
		return 1;
	if (left >= 2 && u[0] == 0xC2 && (u[1] == 0xA3 || u[1] == 0xA5))
		return 2;	/* £ ¥ */
	if (left >= 3 && u[0] == 0xE2 && u[1] == 0x82 && u[2] >= 0xA0 && u[2] <= 0xBF)
		return 3;	/* U+20A0..U+20BF */
	if (left >= 3 && u[0] == 0xE0 && u[1] == 0xB8 && u[2] == 0xBF)
		return 3;	/* ฿ */
	return 0;
}

/*
 * expr_with_anchors (want 1), number_with_anchors (want 2) or
 * expr_or_number (3) at i, (?:^|\s|\=)(?:\*\*)? first: the match's end, or 0.
 */
static size_t
anchored_at(const struct text *t, size_t i, struct cand *c, int want)
{
	size_t pfx[2], np = 0;

	if (i == 0)
		pfx[np++] = 0;
	if (i < t->n && (sp(t->s[i]) || t->s[i] == '='))
		pfx[np++] = i + 1;
	for (int kind = 1; kind <= 2; kind++) {
		if (!(want & kind))
			continue;
		for (size_t a = 0; a < np; a++)
			for (int st = 1; st >= 0; st--) {
				size_t q = pfx[a], e, cur;

				if (st && !at(t, q, "**"))
					continue;
				q += st ? 2 : 0;
				if (kind == 1 && (e = expr_at(t, q, c)))
					return e;
				if (kind == 2 && (cur = currency_at(t, q)) && (e = number_at(t, q + cur, c)))
					return e;
				if (kind == 2 && (e = number_at(t, q, c)))
					return e;
			}
	}
	return 0;
}

static bool
eq_after(const struct text *t, size_t e)
{
	while (e < t->n && sp(t->s[e]))
		e++;
	return e < t->n && t->s[e] == '=';
}

/* expr_or_number then (?!\s*=) at i */
static size_t
eon_at(const struct text *t, size_t i, struct cand *c)
{
	size_t e = anchored_at(t, i, c, 3);

	return e && !eq_after(t, e) ? e : 0;
}

/* the end of a run of at most max characters from i, stopping at a
 * newline unless dotall */
static size_t
window(const struct text *t, size_t i, size_t max, bool dotall)
{
	size_t e = i;

	while (e < t->n && e - i < max && (dotall || t->s[e] != '\n'))
		e++;
	return e;
}

/* \s+is\:?\s*X at x ("final answer ... is"), X the LaTeX (latex) or expr_or_number */
static size_t
is_then(struct text *t, size_t x, struct cand *c, bool latex)
{
	size_t y = x, z;

	while (y < t->n && sp(t->s[y]))
		y++;
	if (y == x || !at(t, y, "is"))
		return 0;
	z = y + 2;
	for (int colon = at(t, z, ":"); colon >= 0; colon--) {
		size_t q = z + (size_t)colon, w = q, e;

		if (!latex) {
			if ((e = anchored_at(t, q, c, 3)))
				return e;
			continue;
		}
		while (w < t->n && sp(t->s[w]))
			w++;
		for (size_t k = w + 1; k-- > q;)
			if ((e = envs_at(t, k, c)))
				return e;
	}
	return 0;
}

/* one anchored pattern at a (its anchor word there): the match's end, or 0 */
static size_t
anchored_match(struct text *t, size_t a, int prio, bool latex, struct cand *c)
{
	size_t q, e, k, w;

	if (prio == 50) {
		q = a + 12;
		w = window(t, q, 100, latex);
		for (k = q; k <= w; k++)
			if ((e = is_then(t, k, c, latex)))
				return e;
		return 0;
	}
	q = a + 6;
	if (prio == 100) {
		if (q < t->n && sp(t->s[q]) && at(t, q + 1, ":"))
			q += 2;
		else if (at(t, q, ":"))
			q += 1;
		else
			return 0;
	}
	if (latex) {
		w = window(t, q, 50, true);
		for (k = q; k <= w; k++)
			if ((e = envs_at(t, k, c)))
				return e;
		return 0;
	}
	/* (?:.{0,100}=\s*|.{0,50}?) */
	w = window(t, q, 100, false);
	for (k = w + 1; k-- > q;) {
		size_t z = k + 1, m;

		if (k >= t->n || t->s[k] != '=')
			continue;
		for (m = z; m < t->n && sp(t->s[m]);)
			m++;
		for (size_t x = m + 1; x-- > z;)
			if ((e = eon_at(t, x, c)))
				return e;
	}
	w = window(t, q, 50, false);
	for (k = q; k <= w; k++)
		if ((e = eon_at(t, k, c)))
			return e;
	return 0;
}

static void
add_cand(struct cands *cs, const struct cand *c, size_t b, size_t e)
{
	if (cs->n == MAX_CANDS)
		return;
	cs->c[cs->n] = *c;
	cs->c[cs->n].mb = b;
	cs->c[cs->n].me = e;
	cs->c[cs->n].idx = cs->n;
	cs->n++;
}

/* finditer of an anchored pattern: its anchor, case-insensitive */
static void
find_anchored(struct text *t, int prio, bool latex, struct cands *cs)
{
	const char *word = prio == 50 ? "final answer" : "answer";
	struct cand c;

	for (size_t i = 0; i < t->n;) {
		size_t e;

		if (!ci_at(t, i, word) || !(e = anchored_match(t, i, prio, latex, &c))) {
			i++;
			continue;
		}
		add_cand(cs, &c, i, e);
		i = e > i ? e : i + 1;
	}
}

/* finditer of the plain patterns (300): LaTeX environments, or expr_with_anchors
 * (want 1) or number_with_anchors (want 2) */
static void
find_plain(struct text *t, int want, struct cands *cs)
{
	struct cand c;

	for (size_t i = 0; i < t->n && cs->n < MAX_CANDS;) {
		size_t e = want ? anchored_at(t, i, &c, want) : envs_at(t, i, &c);

		if (!e) {
			i++;
			continue;
		}
		add_cand(cs, &c, i, e);
		i = e > i ? e : i + 1;
	}
}

/* (?P<first_latexBoxed>\\boxed{.+}), DOTALL: the first \boxed{ to the last } */
static void
find_boxed(struct text *t, struct cands *cs)
{
	const char *p = NULL;
	struct cand c = { 0 };
	size_t b, l;

	for (size_t i = 0; i + 7 <= t->n && !p; i++)
		if (at(t, i, "\\boxed{"))
			p = t->s + i;
	if (!p)
		return;
	b = (size_t)(p - t->s);
	for (l = t->n; l > b + 7 && t->s[l - 1] != '}'; l--)
		;
	if (l <= b + 8)
		return;
	c.k = C_LATEX;
	c.nparts = 1;
	c.boxed = true;
	c.part[0] = (struct span){ b, l };
	add_cand(cs, &c, b, l);
}

static int
cand_order(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;

	if (a->me != b->me)
		return a->me > b->me ? -1 : 1;
	if (a->mb != b->mb)
		return a->mb < b->mb ? -1 : 1;
	return (a->idx > b->idx) - (a->idx < b->idx);
}

/* the candidates of one priority, in the order they are tried */
static void
collect(struct text *t, const struct target *tg, int prio, struct cands *cs)
{
	cs->n = 0;
	if (tg->latex && (prio == 50 || prio == 100 || prio == 200))
		find_anchored(t, prio, true, cs);
	if (tg->latex && prio == 300)
		find_plain(t, 0, cs);
	if (tg->latex && prio == tg->boxed_prio)
		find_boxed(t, cs);
	if (tg->expr && (prio == 50 || prio == 100 || prio == 200))
		find_anchored(t, prio, false, cs);
	if (tg->expr && prio == 300) {
		find_plain(t, 1, cs);
		find_plain(t, 2, cs);
	}
	/* qsort is not stable: the index breaks ties as Python's sort */
	qsort(cs->c, (size_t)cs->n, sizeof(cs->c[0]), cand_order);
}

/* \boxed{...}'s or \fbox{...}'s braced content from open (its '{'), or
 * the rest from open when unbalanced (*closed false) */
static struct span
box_content(const struct text *t, size_t open, size_t max, bool *closed)
{
	int depth = 1;

	for (size_t i = open + 1; i < max; i++) {
		if (t->s[i] == '{')
			depth++;
		else if (t->s[i] == '}' && --depth == 0) {
			struct span c = { open + 1, i };

			*closed = true;
			while (c.b < c.e && sp(t->s[c.b]))
				c.b++;
			while (c.e > c.b && sp(t->s[c.e - 1]))
				c.e--;
			return c;
		}
	}
	*closed = false;
	return (struct span){ open, max };
}

static bool
separated(const struct text *t, size_t b, size_t e)
{
	for (size_t i = b; i < e; i++)
		if (strchr(",;", t->s[i]) || ((t->s[i] == 'a' && at(t, i, "and")) ||
					       (t->s[i] == 'o' && at(t, i, "or"))))
			return true;
	return false;
}

/*
 * latex2sympy2_extended's extract_boxed_content(text, "last") over
 * [b, e): from the last \boxed or \fbox back, the contents of those close
 * to the next one (under 10 characters apart, or under 70 with a
 * separator and other content), joined by ','; into out.
 */
static void
boxed_last(const struct text *t, size_t b, size_t e, struct buf *out)
{
	struct span res[MAX_PARTS];
	size_t cur = e, max = e, last_start = 0;
	int nr = 0;

	while (nr < MAX_PARTS) {
		size_t i, j, open;
		bool fbox = false, closed;
		struct span c;

		for (i = cur; i > b; i--)
			if (at(t, i - 1, "\\boxed") || (fbox = at(t, i - 1, "\\fbox")))
				break;
		if (i == b)
			break;
		i--;
		for (open = i + (fbox ? 5 : 6); open < max && sp(t->s[open]);)
			open++;
		if (open >= max)
			break;
		if (t->s[open] != '{') {
			if (!nr)
				res[nr++] = (struct span){ open, e };
			break;
		}
		c = box_content(t, open, max, &closed);
		if (!closed) {
			if (!nr)
				res[nr++] = (struct span){ open, e };
			break;
		}
		j = c.e;
		while (j < max && t->s[j] != '}')
			j++;
		if (nr && last_start - j - 1 >= 10 &&
		    !(last_start - j - 1 < 70 && separated(t, j + 1, last_start) &&
		      (res[nr - 1].e - res[nr - 1].b != c.e - c.b ||
		       memcmp(t->s + c.b, t->s + res[nr - 1].b, c.e - c.b))))
			break;
		if (!nr || res[nr - 1].e - res[nr - 1].b != c.e - c.b ||
		    memcmp(t->s + c.b, t->s + res[nr - 1].b, c.e - c.b))
			res[nr++] = c;
		last_start = i;
		max = i;
		cur = i;
	}
	if (!nr) {
		buf_add(out, t->s + b, e - b);
		return;
	}
	for (int k = nr; k-- > 0;) {
		buf_add(out, t->s + res[k].b, res[k].e - res[k].b);
		if (k)
			buf_addch(out, ',');
	}
}

/* one LaTeX part's text for the parser, into out */
static void
part_text(const struct text *t, const struct cand *c, int k, struct buf *out)
{
	if (c->pct[k])
		buf_addch(out, '{');
	if (c->boxed)
		boxed_last(t, c->part[k].b, c->part[k].e, out);
	else
		buf_add(out, t->s + c->part[k].b, c->part[k].e - c->part[k].b);
	if (c->pct[k])
		buf_addstr(out, "}\\%");
}

/* an expression's text: ** and ^ powers, × and ÷ the ASCII ones */
static void
expr_text(const struct text *t, struct span x, struct buf *out)
{
	for (size_t i = x.b; i < x.e; i++) {
		unsigned char u = (unsigned char)t->s[i];

		if (at(t, i, "**")) {
			buf_addch(out, '^');
			i++;
		} else if (u == 0xC3 && i + 1 < x.e && (unsigned char)t->s[i + 1] == 0x97) {
			buf_addch(out, '*');
			i++;
		} else if (u == 0xC3 && i + 1 < x.e && (unsigned char)t->s[i + 1] == 0xB7) {
			buf_addch(out, '/');
			i++;
		} else {
			buf_addch(out, u == '\n' ? ' ' : (char)u);
		}
	}
}

/* extract_expr's number_str: the integer without ", " and leading zeros, the decimal with '.' */
static void
number_text(const struct text *t, const struct cand *c, struct buf *out)
{
	size_t start = out->len;

	for (size_t i = c->part[0].b; i < c->part[0].e; i++)
		if (t->s[i] != ' ' && t->s[i] != ',' && (out->len > start || t->s[i] != '0'))
			buf_addch(out, t->s[i]);
	if (out->len == start)
		buf_addch(out, '0');
	for (size_t i = c->part[1].b; i < c->part[1].e; i++)
		buf_addch(out, t->s[i] == ',' ? '.' : t->s[i]);
}

struct extracted {
	struct latexparse_val *v;
	struct buf fallback;	/* the first match's text (fallback_mode first_match) */
	bool skipped;
};

static struct latexparse_val *
parse_buf(struct latexparse_ctx *ctx, struct buf *b)
{
	return latexparse(ctx, buf_str(b), b->len);
}

/* extract_match: the candidate's value, or NULL; its text into str */
static struct latexparse_val *
cand_value(const struct text *t, const struct cand *c, struct latexparse_ctx *ctx,
	   struct buf *str)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct latexparse_val *v = NULL;
	bool all = true;

	if (c->k == C_EXPR) {
		expr_text(t, c->part[0], str);
		v = parse_buf(ctx, str);
	} else if (c->k == C_NUMBER) {
		number_text(t, c, str);
		if (c->pct[0])
			buf_addf(&b, "{%s}\\%%", buf_str(str));
		v = c->pct[0] ? parse_buf(ctx, &b) : parse_buf(ctx, str);
	} else {
		/* each part alone, then all as one set when every one parses */
		for (int k = 0; k < c->nparts; k++) {
			struct buf p = BUF_INIT(BUF_NOMAX);
			struct latexparse_val *one;

			part_text(t, c, k, &p);
			one = parse_buf(ctx, &p);
			if (k == 0)
				v = one;
			else
				latexparse_free(one);
			all = all && one;
			if (k)
				buf_addstr(str, " and ");
			buf_add(str, p.s, p.len);
			if (k)
				buf_addch(&b, ',');
			buf_add(&b, p.s, p.len);
			buf_release(&p);
		}
		if (c->nparts > 1 && all) {
			latexparse_free(v);
			v = parse_buf(ctx, &b);
		}
	}
	buf_release(&b);
	return v;
}

static const int prios[] = { 0, 50, 55, 100, 200, 300 };

/* extract_target_from_pred over [s, s + n) */
static void
extract(const char *s, size_t n, const struct target *tg, struct latexparse_ctx *ctx,
	struct extracted *x)
{
	struct text t = { s, n, { 0 }, { 0 }, { 0 }, { 0 }, { 0 } };
	struct cands *cs = xmalloc(sizeof(*cs));

	memset(x, 0, sizeof(*x));
	buf_init(&x->fallback, BUF_NOMAX);
	for (size_t p = 0; p < sizeof(prios) / sizeof(prios[0]) && !x->v; p++) {
		collect(&t, tg, prios[p], cs);
		for (int i = 0; i < cs->n && !x->v; i++) {
			struct buf str = BUF_INIT(BUF_NOMAX);

			x->v = cand_value(&t, &cs->c[i], ctx, &str);
			if (!x->fallback.len)
				buf_add(&x->fallback, str.s, str.len);
			x->skipped = x->skipped || !x->v;
			buf_release(&str);
		}
	}
	free(cs);
}

/* compare_gold_target over the two lists: value pairs by latexeq, string pairs by equality */
static double
score(struct extracted *g, const char *gold, struct extracted *p, bool *unsure)
{
	/* a gold with nothing extracted is itself, a string */
	bool raw = !g->v && !g->fallback.len;
	const char *gs = raw ? gold : buf_str(&g->fallback);
	size_t gn = raw ? strlen(gold) : g->fallback.len;
	const char *ps = buf_str(&p->fallback);
	size_t pn = p->fallback.len;

	*unsure = g->skipped || p->skipped;
	if (g->v && p->v) {
		enum latexeq e = latexeq_cmp(g->v, p->v, LATEXEQ_LIGHTEVAL);

		if (e == LATEXEQ_YES)
			return 1;
		*unsure = *unsure || e == LATEXEQ_UNKNOWN;
	}
	pytext_strip(&gs, &gn);
	pytext_strip(&ps, &pn);
	/* the fallback strings meet as strings */
	if (gn && pn && gn == pn && !memcmp(gs, ps, gn))
		return 1;
	return 0;
}

static void
set_reason(struct grade_result *r, const char *cls, const char *score_s, bool raised)
{
	snprintf(r->reason, sizeof(r->reason), "lighteval %s: score=%s (threshold 0.5)%s", cls,
		 score_s, raised ? " (raised exception)" : "");
}

static void
set_reply(struct grade_result *r, const char *reply, size_t n)
{
	pytext_strip(&reply, &n);
	grade_set_extracted(r, reply, n);
}

static int
grade_math(const char *reply, size_t n, const char *gold, struct grade_result *r,
	   const struct target *gt, const char *cls)
{
	struct latexparse_ctx *ctx;
	struct extracted g, p;
	bool unsure;
	double sc;

	if (grade_check_size(n, gold, r) < 0)
		return -1;
	ctx = xcalloc(1, sizeof(*ctx));
	extract(gold, strlen(gold), gt, ctx, &g);
	extract(reply, n, &pred_both, ctx, &p);
	sc = score(&g, gold, &p, &unsure);
	r->correct = sc > 0.5;
	r->needs_symbolic = !r->correct && unsure;
	set_reply(r, reply, n);
	set_reason(r, cls, r->correct ? "1.0" : "0.0", false);
	latexparse_free(g.v);
	latexparse_free(p.v);
	buf_release(&g.fallback);
	buf_release(&p.fallback);
	free(ctx);
	return 0;
}

int
lighteval_expr_grade(const char *reply, size_t n, const char *gold, struct grade_result *r)
{
	return grade_math(reply, n, gold, r, &gold_expr, "LightevalExprGrader");
}

int
lighteval_latex_grade(const char *reply, size_t n, const char *gold, struct grade_result *r)
{
	return grade_math(reply, n, gold, r, &gold_latex, "LightevalLatexGrader");
}

/* (?:A|\(A\))|...|(?:D|\(D\)) at i: its end, or 0; the letter into *l */
static size_t
index_at(const struct text *t, size_t i, char *l)
{
	if (i < t->n && t->s[i] >= 'A' && t->s[i] <= 'D') {
		*l = t->s[i];
		return i + 1;
	}
	if (i + 2 < t->n && t->s[i] == '(' && t->s[i + 1] >= 'A' && t->s[i + 1] <= 'D' &&
	    t->s[i + 2] == ')') {
		*l = t->s[i + 1];
		return i + 3;
	}
	return 0;
}

/* (?:\*\*)?(?:[.]|[,]|\s?[:]|\ |$) at i: its end, or 0 (i >= 1 always) */
static size_t
index_suffix(const struct text *t, size_t i)
{
	for (int st = 1; st >= 0; st--) {
		size_t q = i;

		if (st && !at(t, q, "**"))
			continue;
		q += st ? 2 : 0;
		if (q < t->n && (t->s[q] == '.' || t->s[q] == ','))
			return q + 1;
		if (q + 1 < t->n && sp(t->s[q]) && t->s[q + 1] == ':')
			return q + 2;
		if (q < t->n && (t->s[q] == ':' || t->s[q] == ' '))
			return q + 1;
		if (q == t->n || (q + 1 == t->n && t->s[q] == '\n'))
			return q;
	}
	return 0;
}

/* (?:^|\ )(?:\*\*)?{indices}{suffix} at i */
static size_t
answer_index_at(const struct text *t, size_t i, char *l)
{
	size_t pfx[2], np = 0, e;

	if (i == 0)
		pfx[np++] = 0;
	if (i < t->n && t->s[i] == ' ')
		pfx[np++] = i + 1;
	for (size_t a = 0; a < np; a++)
		for (int st = 1; st >= 0; st--) {
			size_t q = pfx[a] + (st ? 2 : 0);

			if (st && !at(t, pfx[a], "**"))
				continue;
			if ((e = index_at(t, q, l)) && (e = index_suffix(t, e)))
				return e;
		}
	return 0;
}

/* one GPQA pattern of priority prio at i: its end, or 0 */
static size_t
gpqa_at(const struct text *t, size_t i, int prio, char *l)
{
	size_t q, w, e, k;

	switch (prio) {
	case 0:	/* final answer is\:?\s*X\.?\s?I hope */
		if (!ci_at(t, i, "final answer is"))
			return 0;
		q = i + 15 + at(t, i + 15, ":");
		while (q < t->n && sp(t->s[q]))
			q++;
		if (!(e = index_at(t, q, l)))
			return 0;
		for (int dot = at(t, e, "."); dot >= 0; dot--)
			for (int s1 = 1; s1 >= 0; s1--) {
				size_t x = e + (size_t)dot;

				if (s1 && !(x < t->n && sp(t->s[x])))
					continue;
				if (at(t, x + (size_t)s1, "I hope"))
					return x + (size_t)s1 + 6;
			}
		return 0;
	case 50:	/* final answer.{0,100}?\s+is\:?\s*X */
		if (!ci_at(t, i, "final answer"))
			return 0;
		w = window(t, i + 12, 100, false);
		for (k = i + 12; k <= w; k++) {
			size_t y = k;

			while (y < t->n && sp(t->s[y]))
				y++;
			if (y == k || !at(t, y, "is"))
				continue;
			q = y + 2 + at(t, y + 2, ":");
			while (q < t->n && sp(t->s[q]))
				q++;
			if ((e = index_at(t, q, l)))
				return e;
		}
		return 0;
	case 100:
	case 150:	/* answer\s?[:].{0,50}?X' and answer.{0,50}?X' */
		if (!ci_at(t, i, "answer"))
			return 0;
		q = i + 6;
		if (prio == 100) {
			if (q + 1 < t->n && sp(t->s[q]) && t->s[q + 1] == ':')
				q += 2;
			else if (at(t, q, ":"))
				q++;
			else
				return 0;
		}
		w = window(t, q, 50, false);
		for (k = q; k <= w; k++)
			if ((e = answer_index_at(t, k, l)))
				return e;
		return 0;
	case 200:	/* ^(?:\*\*)?X{suffix} */
		if (i)
			return 0;
		q = at(t, 0, "**") ? 2 : 0;
		if ((e = index_at(t, q, l)) && (e = index_suffix(t, e)))
			return e;
		return q && (e = index_at(t, 0, l)) && (e = index_suffix(t, e)) ? e : 0;
	default:	/* \n(?:\*\*)?X{suffix} */
		if (!at(t, i, "\n"))
			return 0;
		q = i + 1 + (at(t, i + 1, "**") ? 2 : 0);
		if ((e = index_at(t, q, l)) && (e = index_suffix(t, e)))
			return e;
		return q > i + 1 && (e = index_at(t, i + 1, l)) && (e = index_suffix(t, e)) ? e : 0;
	}
}

int
lighteval_gpqa_grade(const char *reply, size_t n, const char *gold, struct grade_result *r)
{
	static const int gprios[] = { 0, 50, 100, 150, 200, 210 };
	struct text t = { reply, n, { 0 }, { 0 }, { 0 }, { 0 }, { 0 } };
	const char *g = gold;
	size_t gn = strlen(gold);
	char want, got = 0;

	if (grade_check_size(n, gold, r) < 0)
		return -1;
	set_reply(r, reply, n);
	pytext_strip(&g, &gn);
	want = gn == 1 ? (char)(g[0] >= 'a' && g[0] <= 'z' ? g[0] - 32 : g[0]) : 0;
	if (want < 'A' || want > 'D') {
		r->unparsed = true;
		set_reason(r, "LightevalGPQAGrader", "None", true);
		return 0;
	}
	/* the last match of the first priority with one */
	for (size_t p = 0; p < sizeof(gprios) / sizeof(gprios[0]) && !got; p++)
		for (size_t i = 0; i < n;) {
			char l;
			size_t e = gpqa_at(&t, i, gprios[p], &l);

			if (!e) {
				i++;
				continue;
			}
			got = l;
			i = e > i ? e : i + 1;
		}
	r->correct = got == want;
	set_reason(r, "LightevalGPQAGrader", r->correct ? "1.0" : "0.0", false);
	return 0;
}
