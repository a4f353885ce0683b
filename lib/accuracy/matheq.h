/* SPDX-License-Identifier: Apache-2.0 */
/* The math grader's answer comparison, the original's _math_equal, its sympy step by lib/accuracy/latexeq. */
#ifndef AIPERF_MATHEQ_H
#define AIPERF_MATHEQ_H

#include <stddef.h>

enum matheq {
	MATHEQ_NO,
	MATHEQ_YES,
	/* not equal by the string and numeric checks, and sympy's verdict
	 * (_symbolic_equal) could not be told here */
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
 * Where the original then calls _symbolic_equal (sympy's parse_expr or
 * latex2sympy, simplify(a - b) == 0, numerical evaluation at 1e-4), also
 * for two equations "a=b" vs "c=d" as a - (b) vs c - (d), lib/accuracy's
 * latexeq decides ("\frac{1}{2}" vs "0.5", "x+1" vs "1+x", "\sqrt{2}" vs
 * "2^{1/2}": YES). What it cannot tell (a parse it does not have, values
 * past its exact arithmetic that agree numerically, text parse_expr would
 * read another way: "2^3", "sqrt(2)", "pi") is MATHEQ_SYMBOLIC, which a
 * grader counts as not equal.
 */
enum matheq matheq(const char *pred, size_t pn, const char *ref, size_t rn);

#endif
