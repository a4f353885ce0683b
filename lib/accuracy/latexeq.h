/* SPDX-License-Identifier: Apache-2.0 */
/* LaTeX answer equivalence: parse two answers to values and decide equal, unequal or unknown, as sympy would. */
#ifndef AIPERF_LATEXEQ_H
#define AIPERF_LATEXEQ_H

#include <stdbool.h>
#include <stddef.h>

#include "accuracy/latexparse.h"

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

/*
 * Compare two parsed values (of the same ctx). Numbers: exactly
 * (algnum.h), else by their numeric values, which can only say unequal;
 * finite sets by mutual inclusion, a number being a set of one; tuples in
 * order; a tuple against a set as sets; intervals by openness and
 * endpoints, an open interval also matching a pair; unions part by part
 * (not merged: [1,2] \cup [2,3] is not [1,3] here); "sym = v" against a
 * non-equation by v; two equations by lhs - rhs, also flipped.
 */
enum latexeq latexeq_cmp(const struct latexparse_val *a, const struct latexparse_val *b,
			 unsigned flags);

/* Texts equal once stripped of spaces are YES; else both parsed (one
 * ctx) and compared with flags 0; UNKNOWN when either does not parse. */
enum latexeq latexeq(const char *a, size_t an, const char *b, size_t bn);
/* latexeq() comparing with flags */
enum latexeq latexeq_flags(const char *a, size_t an, const char *b, size_t bn,
			   unsigned flags);

#endif
