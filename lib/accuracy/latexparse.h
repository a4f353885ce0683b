/* SPDX-License-Identifier: Apache-2.0 */
/* LaTeX answers parsed to values: the tree latexeq compares (exact numbers, infinities, tuples, sets, intervals, unions, equations). */
#ifndef AIPERF_LATEXPARSE_H
#define AIPERF_LATEXPARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "accuracy/algnum.h"

/* Inputs longer than this are not parsed (UNKNOWN). */
#define LATEXPARSE_MAX_INPUT 4096
#define LATEXPARSE_MAX_SYMS 32
#define LATEXPARSE_SYM_LEN 32

/* Symbol names shared by the answers compared together; zero it first. */
struct latexparse_ctx {
	int nsym;
	char sym[LATEXPARSE_MAX_SYMS][LATEXPARSE_SYM_LEN];
	int nodes;	/* nodes made by the parse under way, against a cap */
};

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
 * Returns the value, to be freed with latexparse_free(), or NULL when the
 * text does not parse or passes a cap (depth, length, node count).
 */
struct latexparse_val *latexparse(struct latexparse_ctx *c, const char *s, size_t n);
void latexparse_free(struct latexparse_val *v);

/* Whether v is a plain number (no set, interval, equation, infinity). */
bool latexparse_is_number(const struct latexparse_val *v);

/* How deep a value nests; its items (latexeq_cmp walks no deeper). */
#define LATEXVAL_MAX_DEPTH 48

enum latexval_kind { LV_NUM, LV_INF, LV_TUPLE, LV_SET, LV_IVAL, LV_UNION, LV_EQ };

/* A parsed value; it owns its items (latexparse_free frees the tree). */
struct latexparse_val {
	enum latexval_kind k;
	bool exact;	/* a holds the value */
	bool float_lit;	/* a lone decimal literal (lighteval's Float) */
	bool paren;	/* a pair written "(a, b)": a tuple or an open interval */
	bool lopen, ropen;
	int sign;	/* LV_INF */
	double x;	/* the numeric value, symbols at fixed points; NaN if none */
	int n;
	struct latexparse_val **it;
	struct algnum a;
};

#endif
