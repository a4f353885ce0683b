/* SPDX-License-Identifier: Apache-2.0 */
/* The original's lighteval graders (AIME, MATH-500, GPQA): lighteval's extractive match, its regexes by hand. */
#ifndef AIPERF_LIGHTEVAL_H
#define AIPERF_LIGHTEVAL_H

#include <stddef.h>

#include "accuracy/grade.h"

/*
 * grade_fn for "lighteval_expr" (aime24, aime25): lighteval's
 * MultilingualExtractiveMatchMetric with the gold read by
 * ExprExtractionConfig, the reply by ExprExtractionConfig and
 * LatexExtractionConfig(boxed_match_priority=0), precision 5, fallback
 * first_match. The extraction follows extractive_match_utils.py: the
 * patterns in priority order (0: \boxed{}, the last one; 50: "final
 * answer ... is X"; 100: "answer: X"; 200: "answer ... X"; 300: any
 * $..$, $$..$$, \[..\], \(..\), " [..] ", \frac{n}{m}, expression or
 * number with its anchors), within a priority the match ending last
 * first, the first that parses winning; LaTeX joined by "and", "or", ","
 * makes a set; a percent is / 100. Values are compared by latexeq_cmp()
 * with LATEXEQ_LIGHTEVAL (sympy_expr_eq at precision 5).
 *
 * As the original: correct when the score is 1, unparsed never (lighteval
 * catches its own failures; the score is then 0), the extracted answer
 * is the whole reply stripped. r->needs_symbolic says the verdict may
 * differ from lighteval's: latexeq could not tell, or a candidate our
 * parser refuses (latex2sympy may read it) was passed over.
 *
 * Not reproduced: the "final answer is X. I hope" pattern (priority 0),
 * the boxed-inside-$..$ patterns (the plain \boxed{} one covers them),
 * backtracking into a number to dodge "(?!\s*=)", latex2sympy's reading
 * of what latexeq does not parse (functions, matrices, inequalities).
 */
int lighteval_expr_grade(const char *reply, size_t n, const char *gold,
			 struct grade_result *r);

/* "lighteval_latex" (math_500): as lighteval_expr, but the gold (a full
 * solution) is read by LatexExtractionConfig(): its \boxed{} at priority
 * 55, LaTeX only. */
int lighteval_latex_grade(const char *reply, size_t n, const char *gold,
			  struct grade_result *r);

/*
 * "lighteval_gpqa" (gpqa_diamond): the gold stripped and upper-cased must
 * be A, B, C or D, else unparsed (the original's ValueError); the reply's
 * letter by IndicesExtractionConfig("NativeLetters") without the
 * anchorless patterns: "final answer is X" (0), "final answer ... is X"
 * (50), "answer: ... X" (100), "answer ... X" (150), X at the start (200)
 * or a line's start (210), X being A-D or (A)-(D) between a space (or the
 * start) with optional ** and a '.', ',', ':', space or the end. The last
 * match of the first priority that has one.
 */
int lighteval_gpqa_grade(const char *reply, size_t n, const char *gold,
			 struct grade_result *r);

#endif
