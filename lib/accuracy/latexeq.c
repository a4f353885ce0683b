/* SPDX-License-Identifier: Apache-2.0 */
/* LaTeX answer equivalence: two answers' values (latexparse) decided equal, unequal or unknown, as sympy would. */
#include "accuracy/latexeq.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy/latexparse.h"
#include "util.h"

#define MAX_DEPTH LATEXVAL_MAX_DEPTH
/* numeric values closer than this (relative) are not called unequal */
#define NUM_EPS 1e-9

static enum latexeq
all_of(enum latexeq acc, enum latexeq e)
{
	if (acc == LATEXEQ_NO || e == LATEXEQ_NO)
		return LATEXEQ_NO;
	return acc == LATEXEQ_UNKNOWN || e == LATEXEQ_UNKNOWN ? LATEXEQ_UNKNOWN :
								LATEXEQ_YES;
}

static enum latexeq
any_of(enum latexeq acc, enum latexeq e)
{
	if (acc == LATEXEQ_YES || e == LATEXEQ_YES)
		return LATEXEQ_YES;
	return acc == LATEXEQ_UNKNOWN || e == LATEXEQ_UNKNOWN ? LATEXEQ_UNKNOWN :
								LATEXEQ_NO;
}

static double
round5(double x)
{
	return round(x * 1e5) / 1e5;
}

static enum latexeq
cmp_num(const struct latexparse_val *a, const struct latexparse_val *b, unsigned flags)
{
	bool sym = (a->exact && algnum_has_sym(&a->a)) || (b->exact && algnum_has_sym(&b->a));
	double d = fabs(a->x - b->x);
	double scale = fmax(1.0, fmax(fabs(a->x), fabs(b->x)));
	bool finite = isfinite(a->x) && isfinite(b->x);
	int r = a->exact && b->exact ? algnum_eq(&a->a, &b->a) : -1;

	if (r == 1)
		return LATEXEQ_YES;
	if ((flags & LATEXEQ_LIGHTEVAL) && (a->float_lit || b->float_lit) && finite && !sym)
		return round5(a->x) == round5(b->x) ? LATEXEQ_YES : LATEXEQ_NO;
	if ((flags & LATEXEQ_MATH) && finite && !sym && d <= 1e-4)
		return LATEXEQ_YES;
	if (r == 0)
		return LATEXEQ_NO;
	if (finite && d > NUM_EPS * scale)
		return LATEXEQ_NO;
	return LATEXEQ_UNKNOWN;
}

static enum latexeq cmp(const struct latexparse_val *a, const struct latexparse_val *b,
			unsigned flags, int depth);

/* every item of a matches some item of b */
static enum latexeq
included(const struct latexparse_val *a, const struct latexparse_val *b, unsigned flags,
	 int depth)
{
	enum latexeq acc = LATEXEQ_YES;

	for (int i = 0; i < a->n && acc != LATEXEQ_NO; i++) {
		enum latexeq one = LATEXEQ_NO;

		for (int j = 0; j < b->n && one != LATEXEQ_YES; j++)
			one = any_of(one, cmp(a->it[i], b->it[j], flags, depth + 1));
		acc = all_of(acc, one);
	}
	return acc;
}

static enum latexeq
cmp_sets(const struct latexparse_val *a, const struct latexparse_val *b, unsigned flags,
	 int depth)
{
	struct latexparse_val one;
	struct latexparse_val *pa = (struct latexparse_val *)a;

	/* a number is the set of one */
	if (a->k != LV_SET && a->k != LV_TUPLE && a->k != LV_UNION) {
		memset(&one, 0, sizeof(one));
		one.k = LV_SET;
		one.n = 1;
		one.it = &pa;
		a = &one;
	}
	return all_of(included(a, b, flags, depth), included(b, a, flags, depth));
}

static enum latexeq
cmp_seq(const struct latexparse_val *a, const struct latexparse_val *b, unsigned flags,
	int depth)
{
	enum latexeq acc = LATEXEQ_YES;

	if (a->n != b->n)
		return LATEXEQ_NO;
	for (int i = 0; i < a->n && acc != LATEXEQ_NO; i++)
		acc = all_of(acc, cmp(a->it[i], b->it[i], flags, depth + 1));
	return acc;
}

/* whether v is a product of symbols (lighteval's is_expr_of_only_symbols) */
static bool
only_symbols(const struct latexparse_val *v)
{
	const struct algnum_term *t = &v->a.num.t[0], *d = &v->a.den.t[0];

	if (v->k != LV_NUM || !v->exact || v->a.num.n != 1 || v->a.den.n != 1 ||
	    d->na || d->c.n != 1 || d->c.d != 1 || t->c.n != 1 || t->c.d != 1 || !t->na)
		return false;
	for (int i = 0; i < t->na; i++)
		if (t->a[i].id > ALGNUM_SYM(0) || t->a[i].e.n != 1 || t->a[i].e.d != 1)
			return false;
	return true;
}

static enum latexeq
cmp_eqs(const struct latexparse_val *a, const struct latexparse_val *b, unsigned flags)
{
	struct latexparse_val *d[2];
	enum latexeq r;

	for (int k = 0; k < 2; k++) {
		const struct latexparse_val *e = k ? b : a;

		if (e->it[0]->k != LV_NUM || e->it[1]->k != LV_NUM)
			return LATEXEQ_UNKNOWN;
		d[k] = xmalloc(sizeof(*d[k]));
		*d[k] = *e->it[0];
		d[k]->n = 0;
		d[k]->it = NULL;
		d[k]->exact = d[k]->exact && e->it[1]->exact &&
			      !algnum_sub(&d[k]->a, &d[k]->a, &e->it[1]->a);
		d[k]->x -= e->it[1]->x;
		d[k]->float_lit = false;
	}
	r = cmp_num(d[0], d[1], flags);
	if (r != LATEXEQ_YES && !(flags & LATEXEQ_MATH)) {
		algnum_neg(&d[1]->a);
		d[1]->x = -d[1]->x;
		r = any_of(r, cmp_num(d[0], d[1], flags));
	}
	free(d[0]);
	free(d[1]);
	return r;
}

static enum latexeq
cmp_ival(const struct latexparse_val *a, const struct latexparse_val *b, unsigned flags,
	 int depth)
{
	if (a->lopen != b->lopen || a->ropen != b->ropen)
		return LATEXEQ_NO;
	return cmp_seq(a, b, flags, depth);
}

static enum latexeq
cmp(const struct latexparse_val *a, const struct latexparse_val *b, unsigned flags, int depth)
{
	if (depth > MAX_DEPTH)
		return LATEXEQ_UNKNOWN;
	if (a->k == LV_EQ && b->k == LV_EQ)
		return cmp_eqs(a, b, flags);
	if (a->k == LV_EQ)
		return only_symbols(a->it[0]) ? cmp(a->it[1], b, flags, depth + 1) : LATEXEQ_NO;
	if (b->k == LV_EQ)
		return only_symbols(b->it[0]) || (flags & LATEXEQ_LIGHTEVAL) ?
			       cmp(a, b->it[1], flags, depth + 1) : LATEXEQ_NO;
	if (a->k == LV_NUM && b->k == LV_NUM)
		return cmp_num(a, b, flags);
	if (a->k == LV_INF && b->k == LV_INF)
		return a->sign == b->sign ? LATEXEQ_YES : LATEXEQ_NO;
	if (a->k == LV_IVAL && b->k == LV_IVAL)
		return cmp_ival(a, b, flags, depth);
	if ((a->k == LV_IVAL && b->paren) || (a->paren && b->k == LV_IVAL))
		return a->lopen && a->ropen && b->lopen && b->ropen ?
			       cmp_seq(a, b, flags, depth) : LATEXEQ_NO;
	if (a->k == LV_TUPLE && b->k == LV_TUPLE)
		return cmp_seq(a, b, flags, depth);
	if (a->k == LV_UNION && b->k == LV_UNION)
		return cmp_sets(a, b, flags, depth);
	if ((a->k == LV_SET || a->k == LV_TUPLE) && (b->k == LV_SET || b->k == LV_TUPLE))
		return cmp_sets(a, b, flags, depth);
	if (a->k == LV_SET && b->k == LV_NUM)
		return cmp_sets(b, a, flags, depth);
	if (b->k == LV_SET && a->k == LV_NUM)
		return cmp_sets(a, b, flags, depth);
	return LATEXEQ_NO;
}

enum latexeq
latexeq_cmp(const struct latexparse_val *a, const struct latexparse_val *b, unsigned flags)
{
	return cmp(a, b, flags, 0);
}

enum latexeq
latexeq(const char *a, size_t an, const char *b, size_t bn)
{
	return latexeq_flags(a, an, b, bn, 0);
}

enum latexeq
latexeq_flags(const char *a, size_t an, const char *b, size_t bn, unsigned flags)
{
	struct latexparse_ctx *c;
	struct latexparse_val *x, *y;
	size_t i = 0, j = 0;
	enum latexeq r;

	while (i < an && a[i] == ' ')
		i++;
	while (an > i && a[an - 1] == ' ')
		an--;
	while (j < bn && b[j] == ' ')
		j++;
	while (bn > j && b[bn - 1] == ' ')
		bn--;
	/* the same text is the same expression, parsed or not */
	if (an - i == bn - j && an > i && !memcmp(a + i, b + j, an - i))
		return LATEXEQ_YES;
	c = xcalloc(1, sizeof(*c));
	x = latexparse(c, a, an);
	y = x ? latexparse(c, b, bn) : NULL;
	r = x && y ? latexeq_cmp(x, y, flags) : LATEXEQ_UNKNOWN;
	latexparse_free(x);
	latexparse_free(y);
	free(c);
	return r;
}
