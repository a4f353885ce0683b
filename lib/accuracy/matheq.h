/* SPDX-License-Identifier: Apache-2.0 */
/* The math grader's answer comparison, the original's _math_equal without its sympy step. */
#ifndef AIPERF_MATHEQ_H
#define AIPERF_MATHEQ_H

#include <stddef.h>

enum matheq {
	MATHEQ_NO,
	MATHEQ_YES,
	/* the string and numeric checks did not find them equal, and the
	 * original would now ask sympy (_symbolic_equal) */
	MATHEQ_SYMBOLIC,
};

/*
 * Compare two strip_string()ed answers as the original's _math_equal
 * (the trt-llm recipe's math_equal), in its order: equal after strip()
 * and lower(); a lone A-E reference against the last lone A-E letter of
 * the prediction; a "(A)", "A.", "A)", "**A**" or "A:" prefix stripped and
 * compared again; comma lists sorted and compared item by item; both
 * numbers (commas dropped, a trailing % as /100): within 1e-4 of the
 * reference, or of it /100 or *100, and that verdict is final; an empty
 * prediction is not equal; brackets and braces stripped, compared
 * without case; "x=v" against a plain value by v. Recursion stops at the
 * original's depth 5.
 *
 * The original then calls _symbolic_equal (sympy's parse_expr or
 * latex2sympy, simplify(a - b) == 0, numerical evaluation at 1e-4), also
 * for two equations "a=b" vs "c=d". That is left to a later
 * LaTeX-equivalence module: where the original would reach it, the
 * result is MATHEQ_SYMBOLIC, which a grader counts as not equal (the
 * original's fallback without sympy also would, for these pairs). So
 * YES here is YES there; NO is NO there; SYMBOLIC is sympy's call
 * ("\frac{1}{2}" vs "0.5", "x+1" vs "1+x", "\sqrt{2}" vs "2^{1/2}").
 */
enum matheq matheq(const char *pred, size_t pn, const char *ref, size_t rn);

#endif
