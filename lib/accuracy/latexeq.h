/* SPDX-License-Identifier: Apache-2.0 */
/* LaTeX answer equivalence: parse two answers to values and decide equal, unequal or unknown, as sympy would. */
#ifndef AIPERF_LATEXEQ_H
#define AIPERF_LATEXEQ_H

#include <stdbool.h>
#include <stddef.h>

#include "accuracy/algnum.h"

enum latexeq {
	LATEXEQ_NO,
	LATEXEQ_YES,
	/* not parsed, or past what the exact arithmetic holds while the
	 * values agree numerically: sympy's call */
	LATEXEQ_UNKNOWN,
};

/* how two values are compared (latexeq_cmp) */
enum latexeq_flags {
	/* lighteval's sympy_expr_eq: when either side is a lone decimal
	 * literal, both rounded to 5 places; an equation on the prediction
	 * side (b) gives its right-hand side whatever its left */
	LATEXEQ_LIGHTEVAL = 1 << 0,
	/* the math grader's _symbolic_equal: numbers within 1e-4 are equal,
	 * and equations compare lhs - rhs without flipping */
	LATEXEQ_MATH = 1 << 1,
};

/* Inputs longer than this are not parsed (UNKNOWN). */
#define LATEXEQ_MAX_INPUT 4096
#define LATEXEQ_MAX_SYMS 32
#define LATEXEQ_SYM_LEN 32

/* Symbol names shared by the answers compared together; zero it first. */
struct latexeq_ctx {
	int nsym;
	char sym[LATEXEQ_MAX_SYMS][LATEXEQ_SYM_LEN];
	int nodes;	/* nodes made by the parse under way, against a cap */
};

struct latexeq_val;

/*
 * Parse [s, s + n) as one answer: numbers (decimals exact, "1,000"),
 * + - * / \cdot \times \div, implicit products, \frac \dfrac \tfrac
 * (and \frac12), \sqrt and \sqrt[n], ^ powers, !, \pi, letters, Greek
 * letters and \text{} words as symbols, \infty, percent (a / 100),
 * degrees (dropped), \text{} units after a value and trailing unit words
 * (dropped), \boxed{}, $ and spacing commands (ignored), intervals
 * (a,b] [a,b) [a,b] (a,b) with \cup, sets \{..\}, tuples, comma lists
 * (a set) with "and"/"or", \emptyset, |x|, one "lhs = rhs". Functions
 * (\sin, \log, ...), inequalities, \pm, matrices are not parsed.
 * Returns the value, to be freed with latexeq_free(), or NULL when the
 * text does not parse or passes a cap (depth, length, node count).
 */
struct latexeq_val *latexeq_parse(struct latexeq_ctx *c, const char *s, size_t n);
void latexeq_free(struct latexeq_val *v);

/* Whether v is a plain number (no set, interval, equation, infinity). */
bool latexeq_is_number(const struct latexeq_val *v);

/*
 * Compare two parsed values (of the same ctx). Numbers: exactly
 * (algnum.h), else by their numeric values, which can only say unequal;
 * finite sets by mutual inclusion, a number being a set of one; tuples in
 * order; a tuple against a set as sets; intervals by openness and
 * endpoints, an open interval also matching a pair; unions part by part
 * (not merged: [1,2] \cup [2,3] is not [1,3] here); "sym = v" against a
 * non-equation by v; two equations by lhs - rhs, also flipped.
 */
enum latexeq latexeq_cmp(const struct latexeq_val *a, const struct latexeq_val *b,
			 unsigned flags);

/* Texts equal once stripped of spaces are YES; else both parsed (one
 * ctx) and compared with flags 0; UNKNOWN when either does not parse. */
enum latexeq latexeq(const char *a, size_t an, const char *b, size_t bn);
/* latexeq() comparing with flags */
enum latexeq latexeq_flags(const char *a, size_t an, const char *b, size_t bn,
			   unsigned flags);

#endif
