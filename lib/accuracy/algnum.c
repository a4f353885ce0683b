/* SPDX-License-Identifier: Apache-2.0 */
/* Exact numbers for answer checking: ratios of sums of rational multiples of radicals, pi, i and symbols. */
#include "accuracy/algnum.h"

#include <string.h>

/* bounds that keep every step cheap: pow's integer exponent, a rational
 * exponent's parts, the trial division of a root's radicand */
#define MAX_INT_POW 64
#define MAX_EXP_PART 1000
#define MAX_TRIAL 1000000
#define MAX_PRIME 1000000000000LL
#define WIDE (2 * ALGNUM_MAX_ATOMS + 16)

struct wide {
	struct algnum_q c;
	int na;
	int64_t id[WIDE];
	struct algnum_q e[WIDE];
};

static int64_t
gcd(int64_t a, int64_t b)
{
	if (a < 0)
		a = -a;
	if (b < 0)
		b = -b;
	while (b) {
		int64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static int
q_make(int64_t n, int64_t d, struct algnum_q *r)
{
	int64_t g;

	if (d == 0 || n == INT64_MIN || d == INT64_MIN)
		return -1;
	if (d < 0)
		n = -n, d = -d;
	g = gcd(n, d);
	r->n = g ? n / g : 0;
	r->d = g ? d / g : 1;
	return 0;
}

static int
q_mul(struct algnum_q a, struct algnum_q b, struct algnum_q *r)
{
	int64_t g1 = gcd(a.n, b.d), g2 = gcd(b.n, a.d), n, d;

	if (a.n == 0 || b.n == 0) {
		*r = (struct algnum_q){ 0, 1 };
		return 0;
	}
	if (__builtin_mul_overflow(a.n / g1, b.n / g2, &n) ||
	    __builtin_mul_overflow(a.d / g2, b.d / g1, &d))
		return -1;
	return q_make(n, d, r);
}

static int
q_add(struct algnum_q a, struct algnum_q b, struct algnum_q *r)
{
	int64_t g = gcd(a.d, b.d), x, y, n, d;

	if (__builtin_mul_overflow(a.n, b.d / g, &x) ||
	    __builtin_mul_overflow(b.n, a.d / g, &y) ||
	    __builtin_add_overflow(x, y, &n) ||
	    __builtin_mul_overflow(a.d, b.d / g, &d))
		return -1;
	return q_make(n, d, r);
}

static int
q_cmp(struct algnum_q a, struct algnum_q b)
{
	if (a.n == b.n && a.d == b.d)
		return 0;
	return a.n < b.n || (a.n == b.n && a.d < b.d) ? -1 : 1;
}

/* c *= p^k */
static int
q_scale(struct algnum_q *c, int64_t p, int64_t k)
{
	int64_t m = 1;

	for (int64_t i = 0; i < (k < 0 ? -k : k); i++)
		if (__builtin_mul_overflow(m, p, &m))
			return -1;
	return q_mul(*c, k < 0 ? (struct algnum_q){ 1, m } : (struct algnum_q){ m, 1 }, c);
}

/* floor(e) */
static int64_t
q_floor(struct algnum_q e)
{
	int64_t f = e.n / e.d;

	return e.n < 0 && f * e.d != e.n ? f - 1 : f;
}

static void
wide_put(struct wide *w, int64_t id, struct algnum_q e)
{
	w->id[w->na] = id;
	w->e[w->na++] = e;
}

static int
wide_find(const struct wide *w, int64_t id)
{
	for (int i = 0; i < w->na; i++)
		if (w->id[i] == id)
			return i;
	return -1;
}

/* add e to atom id's exponent, adding the atom when new */
static int
wide_addexp(struct wide *w, int64_t id, struct algnum_q e)
{
	int k = wide_find(w, id);

	if (k >= 0)
		return q_add(w->e[k], e, &w->e[k]);
	if (w->na == WIDE)
		return -1;
	wide_put(w, id, e);
	return 0;
}

/* one atom's canonical form; *keep says whether it stays */
static int
norm_atom(struct algnum_q *c, int64_t id, struct algnum_q *e, bool *keep)
{
	*keep = e->n != 0;
	if (id > 1) {
		int64_t k = q_floor(*e);

		if (k < -MAX_INT_POW || k > MAX_INT_POW || q_scale(c, id, k) < 0)
			return -1;
		if (q_add(*e, (struct algnum_q){ -k, 1 }, e) < 0)
			return -1;
		*keep = e->n != 0;
	} else if (id == ALGNUM_I) {
		int64_t k;

		if (e->d != 1)
			return -1;
		k = ((e->n % 4) + 4) % 4;
		if (k >= 2)
			c->n = -c->n;
		*e = (struct algnum_q){ 1, 1 };
		*keep = k % 2 == 1;
	}
	return 0;
}

/* the wide term, normalised and sorted, into t */
static int
wide_done(struct wide *w, struct algnum_term *t)
{
	t->c = w->c;
	t->na = 0;
	for (int i = 0; i < w->na; i++) {
		bool keep;
		int j;

		if (norm_atom(&t->c, w->id[i], &w->e[i], &keep) < 0)
			return -1;
		if (!keep)
			continue;
		if (t->na == ALGNUM_MAX_ATOMS)
			return -1;
		for (j = t->na; j > 0 && t->a[j - 1].id > w->id[i]; j--)
			t->a[j] = t->a[j - 1];
		t->a[j].id = w->id[i];
		t->a[j].e = w->e[i];
		t->na++;
	}
	if (t->c.n == 0)
		t->na = 0;
	return 0;
}

static void
wide_from(struct wide *w, const struct algnum_term *t)
{
	w->c = t->c;
	w->na = 0;
	for (int i = 0; i < t->na; i++)
		wide_put(w, t->a[i].id, t->a[i].e);
}

static int
term_mul(const struct algnum_term *a, const struct algnum_term *b,
	 struct algnum_term *r)
{
	struct wide w;

	wide_from(&w, a);
	if (q_mul(a->c, b->c, &w.c) < 0)
		return -1;
	for (int i = 0; i < b->na; i++)
		if (wide_addexp(&w, b->a[i].id, b->a[i].e) < 0)
			return -1;
	return wide_done(&w, r);
}

static int
term_inv(const struct algnum_term *t, struct algnum_term *r)
{
	struct wide w;

	if (t->c.n == 0)
		return -1;
	wide_from(&w, t);
	if (q_make(t->c.d, t->c.n, &w.c) < 0)
		return -1;
	for (int i = 0; i < w.na; i++)
		w.e[i].n = -w.e[i].n;
	return wide_done(&w, r);
}

static int
term_keycmp(const struct algnum_term *a, const struct algnum_term *b)
{
	if (a->na != b->na)
		return a->na < b->na ? -1 : 1;
	for (int i = 0; i < a->na; i++) {
		int c;

		if (a->a[i].id != b->a[i].id)
			return a->a[i].id < b->a[i].id ? -1 : 1;
		if ((c = q_cmp(a->a[i].e, b->a[i].e)))
			return c;
	}
	return 0;
}

static int
poly_addterm(struct algnum_poly *p, const struct algnum_term *t)
{
	int i = 0, c = 1;

	if (t->c.n == 0)
		return 0;
	while (i < p->n && (c = term_keycmp(&p->t[i], t)) < 0)
		i++;
	if (i < p->n && c == 0) {
		if (q_add(p->t[i].c, t->c, &p->t[i].c) < 0)
			return -1;
		if (p->t[i].c.n == 0) {
			memmove(&p->t[i], &p->t[i + 1], (size_t)(p->n - i - 1) * sizeof(*t));
			p->n--;
		}
		return 0;
	}
	if (p->n == ALGNUM_MAX_TERMS)
		return -1;
	memmove(&p->t[i + 1], &p->t[i], (size_t)(p->n - i) * sizeof(*t));
	p->t[i] = *t;
	p->n++;
	return 0;
}

static void
poly_rat(struct algnum_poly *p, struct algnum_q q)
{
	p->n = q.n != 0;
	p->t[0].c = q;
	p->t[0].na = 0;
}

static bool
poly_is_one(const struct algnum_poly *p)
{
	return p->n == 1 && p->t[0].na == 0 && p->t[0].c.n == 1 && p->t[0].c.d == 1;
}

static int
poly_add(struct algnum_poly *r, const struct algnum_poly *a,
	 const struct algnum_poly *b)
{
	struct algnum_poly t = *a;

	for (int i = 0; i < b->n; i++)
		if (poly_addterm(&t, &b->t[i]) < 0)
			return -1;
	*r = t;
	return 0;
}

static void
poly_neg(struct algnum_poly *p)
{
	for (int i = 0; i < p->n; i++)
		p->t[i].c.n = -p->t[i].c.n;
}

static int
poly_mul(struct algnum_poly *r, const struct algnum_poly *a,
	 const struct algnum_poly *b)
{
	struct algnum_poly t = { 0 };

	for (int i = 0; i < a->n; i++)
		for (int j = 0; j < b->n; j++) {
			struct algnum_term m;

			if (term_mul(&a->t[i], &b->t[j], &m) < 0 ||
			    poly_addterm(&t, &m) < 0)
				return -1;
		}
	*r = t;
	return 0;
}

/* a single-term denominator goes into the numerator */
static int
fold(struct algnum *x)
{
	struct algnum_poly inv;

	inv.n = 1;
	if (x->den.n == 0)
		return -1;
	if (x->den.n > 1 || poly_is_one(&x->den))
		return 0;
	if (term_inv(&x->den.t[0], &inv.t[0]) < 0 || poly_mul(&x->num, &x->num, &inv) < 0)
		return -1;
	poly_rat(&x->den, (struct algnum_q){ 1, 1 });
	return 0;
}

int
algnum_rat(struct algnum *x, int64_t n, int64_t d)
{
	struct algnum_q q;

	memset(x, 0, sizeof(*x));
	if (q_make(n, d, &q) < 0)
		return -1;
	poly_rat(&x->num, q);
	poly_rat(&x->den, (struct algnum_q){ 1, 1 });
	return 0;
}

void
algnum_atom(struct algnum *x, int64_t id)
{
	algnum_rat(x, 1, 1);
	x->num.t[0].na = 1;
	x->num.t[0].a[0].id = id;
	x->num.t[0].a[0].e = (struct algnum_q){ 1, 1 };
}

int
algnum_add(struct algnum *r, const struct algnum *a, const struct algnum *b)
{
	struct algnum x;

	if (poly_is_one(&a->den) && poly_is_one(&b->den)) {
		x.den = a->den;
		if (poly_add(&x.num, &a->num, &b->num) < 0)
			return -1;
	} else {
		struct algnum_poly p, q;

		if (poly_mul(&p, &a->num, &b->den) < 0 || poly_mul(&q, &b->num, &a->den) < 0 ||
		    poly_add(&x.num, &p, &q) < 0 || poly_mul(&x.den, &a->den, &b->den) < 0)
			return -1;
	}
	*r = x;
	return fold(r);
}

void
algnum_neg(struct algnum *x)
{
	poly_neg(&x->num);
}

int
algnum_sub(struct algnum *r, const struct algnum *a, const struct algnum *b)
{
	struct algnum nb = *b;

	algnum_neg(&nb);
	return algnum_add(r, a, &nb);
}

int
algnum_mul(struct algnum *r, const struct algnum *a, const struct algnum *b)
{
	struct algnum x;

	if (poly_mul(&x.num, &a->num, &b->num) < 0 || poly_mul(&x.den, &a->den, &b->den) < 0)
		return -1;
	*r = x;
	return fold(r);
}

int
algnum_div(struct algnum *r, const struct algnum *a, const struct algnum *b)
{
	struct algnum x;

	if (b->num.n == 0)
		return -1;
	if (poly_mul(&x.num, &a->num, &b->den) < 0 || poly_mul(&x.den, &a->den, &b->num) < 0)
		return -1;
	*r = x;
	return fold(r);
}

bool
algnum_is_rat(const struct algnum *x, struct algnum_q *q)
{
	if (!poly_is_one(&x->den) || x->num.n > 1 || (x->num.n == 1 && x->num.t[0].na))
		return false;
	*q = x->num.n ? x->num.t[0].c : (struct algnum_q){ 0, 1 };
	return true;
}

bool
algnum_has_sym(const struct algnum *x)
{
	const struct algnum_poly *p[2] = { &x->num, &x->den };

	for (int k = 0; k < 2; k++)
		for (int i = 0; i < p[k]->n; i++)
			for (int j = 0; j < p[k]->t[i].na; j++)
				if (p[k]->t[i].a[j].id <= ALGNUM_SYM(0))
					return true;
	return false;
}

static int
int_pow(struct algnum *r, const struct algnum *a, int64_t k)
{
	struct algnum acc, b = *a;
	int64_t m = k < 0 ? -k : k;

	if (m > MAX_INT_POW)
		return -1;
	algnum_rat(&acc, 1, 1);
	for (; m; m >>= 1) {
		if ((m & 1) && algnum_mul(&acc, &acc, &b) < 0)
			return -1;
		if (m > 1 && algnum_mul(&b, &b, &b) < 0)
			return -1;
	}
	if (k < 0) {
		struct algnum one;

		algnum_rat(&one, 1, 1);
		return algnum_div(r, &one, &acc);
	}
	*r = acc;
	return 0;
}

/* the prime factors of m > 0, each with exponent sign * its multiplicity * e */
static int
factor_into(struct wide *w, int64_t m, int sign, struct algnum_q e)
{
	for (int64_t p = 2; p <= MAX_TRIAL && p <= m / p; p++) {
		int64_t k = 0;
		struct algnum_q x;

		while (m % p == 0)
			m /= p, k++;
		if (k && (q_mul((struct algnum_q){ sign * k, 1 }, e, &x) < 0 ||
			  wide_addexp(w, p, x) < 0))
			return -1;
	}
	if (m > 1 && m > MAX_PRIME)
		return -1;
	return m > 1 ? wide_addexp(w, m, sign > 0 ? e : (struct algnum_q){ -e.n, e.d }) : 0;
}

/* a single positive term to a non-integer rational power */
static int
term_root(const struct algnum_term *t, struct algnum_q e, struct algnum_term *r)
{
	struct wide w = { { 1, 1 }, 0, { 0 }, { { 0, 1 } } };

	if (t->c.n <= 0 || factor_into(&w, t->c.n, 1, e) < 0 ||
	    factor_into(&w, t->c.d, -1, e) < 0)
		return -1;
	for (int i = 0; i < t->na; i++) {
		struct algnum_q x, a = t->a[i].e;

		if (t->a[i].id == ALGNUM_I)
			return -1;
		/* (x^a)^e is x^(a e) for a symbol only when 0 < a <= 1 */
		if (t->a[i].id <= ALGNUM_SYM(0) && (a.n <= 0 || a.n > a.d))
			return -1;
		if (q_mul(a, e, &x) < 0 || wide_addexp(&w, t->a[i].id, x) < 0)
			return -1;
	}
	return wide_done(&w, r);
}

int
algnum_pow(struct algnum *r, const struct algnum *a, const struct algnum *e)
{
	struct algnum_q q;
	struct algnum x;

	if (!algnum_is_rat(e, &q) || q.n > MAX_EXP_PART || q.n < -MAX_EXP_PART ||
	    q.d > MAX_EXP_PART)
		return -1;
	if (a->num.n == 0)
		return q.n > 0 ? algnum_rat(r, 0, 1) : q.n == 0 ? algnum_rat(r, 1, 1) : -1;
	if (q.d == 1)
		return int_pow(r, a, q.n);
	if (!poly_is_one(&a->den) || a->num.n != 1)
		return -1;
	x = *a;
	if (term_root(&a->num.t[0], q, &x.num.t[0]) < 0)
		return -1;
	*r = x;
	return 0;
}

int
algnum_eq(const struct algnum *a, const struct algnum *b)
{
	struct algnum_poly p, q;

	if (poly_mul(&p, &a->num, &b->den) < 0 || poly_mul(&q, &b->num, &a->den) < 0)
		return -1;
	poly_neg(&q);
	if (poly_add(&p, &p, &q) < 0)
		return -1;
	return p.n == 0;
}
