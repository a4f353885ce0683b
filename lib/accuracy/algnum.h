/* SPDX-License-Identifier: Apache-2.0 */
/* Exact numbers for answer checking: ratios of sums of rational multiples of radicals, pi, i and symbols. */
#ifndef AIPERF_ALGNUM_H
#define AIPERF_ALGNUM_H

#include <stdbool.h>
#include <stdint.h>

/*
 * An algnum is num / den, each a sum of terms, each a rational
 * coefficient (int64 over int64) times atoms raised to rational powers.
 * An atom is a prime (id > 1, its power kept in (0, 1): the integer part
 * goes into the coefficient, so sqrt(8) is 2 * 2^(1/2)), pi, the
 * imaginary unit (power 1 only) or a symbol (a small caller-given id).
 * Such canonical terms are linearly independent over the rationals
 * (Besicovitch/Mordell for the radicals, pi transcendental, symbols free),
 * so a - b == 0 is decided exactly, as sympy's simplify(a - b) == 0 would.
 *
 * Every operation returns 0, or -1 when the result would leave the
 * representation: an overflow, more than ALGNUM_MAX_TERMS terms or
 * ALGNUM_MAX_ATOMS atoms, a division by zero, a root of a sum, of a
 * negative number or of a prime over 10^12, exponents past small bounds.
 * -1 means "cannot say exactly", never "unequal"; the result is then
 * unspecified. The value is plain data: copy it with '=', nothing to free.
 * The result may alias an operand.
 */
#define ALGNUM_MAX_TERMS 16
#define ALGNUM_MAX_ATOMS 4

#define ALGNUM_PI (-1)
#define ALGNUM_I (-2)
/* symbol k (0 <= k < 1024) has atom id ALGNUM_SYM(k) */
#define ALGNUM_SYM(k) (-16 - (int64_t)(k))

struct algnum_q {
	int64_t n, d;	/* d > 0, gcd(n, d) == 1 */
};

struct algnum_term {
	struct algnum_q c;
	int na;
	struct {
		int64_t id;
		struct algnum_q e;
	} a[ALGNUM_MAX_ATOMS];
};

struct algnum_poly {
	int n;
	struct algnum_term t[ALGNUM_MAX_TERMS];
};

struct algnum {
	struct algnum_poly num, den;
};

/* x = n / d; -1 when d is 0 */
int algnum_rat(struct algnum *x, int64_t n, int64_t d);
/* x = the atom id (ALGNUM_PI, ALGNUM_I or a symbol) */
void algnum_atom(struct algnum *x, int64_t id);
int algnum_add(struct algnum *r, const struct algnum *a, const struct algnum *b);
int algnum_sub(struct algnum *r, const struct algnum *a, const struct algnum *b);
int algnum_mul(struct algnum *r, const struct algnum *a, const struct algnum *b);
int algnum_div(struct algnum *r, const struct algnum *a, const struct algnum *b);
void algnum_neg(struct algnum *x);
/* r = a ^ e, e a rational: any integer power within bounds, a rational
 * power of a single term only (sympy's principal root, real terms) */
int algnum_pow(struct algnum *r, const struct algnum *a, const struct algnum *e);
/* whether x is a rational, into *q */
bool algnum_is_rat(const struct algnum *x, struct algnum_q *q);
/* whether x holds a symbol atom */
bool algnum_has_sym(const struct algnum *x);
/* 1 when a == b, 0 when not, -1 when the cross products overflow */
int algnum_eq(const struct algnum *a, const struct algnum *b);

#endif
