/* SPDX-License-Identifier: Apache-2.0 */
/* The math grader's answer normalisation, the original's strip_string (_math_strip.py), step for step. */
#ifndef AIPERF_MATHSTRIP_H
#define AIPERF_MATHSTRIP_H

#include <stddef.h>

#include "buf.h"

/*
 * Append to out the normalised form of [s, s + n), as the original's
 * strip_string() (itself the trt-llm recipe's parser.strip_string): strip,
 * drop newlines and trailing '.', \! and \left/\right; array and bmatrix
 * become pmatrix, \tfrac and \dfrac \frac, \neq \leq \geq \ne \le \ge; a
 * trailing \text{...} goes, then the MathQA unit words ("mph", "cm", "s",
 * ... and their plurals, each between non-word characters); degrees,
 * '$', \( \), '%' go; \text{x} becomes x; "x=", "y\in", ... go; \emptyset
 * is {}; month names go; " ." and "{." get their 0; "inf" becomes
 * \infty; "and", \mathbf and \mbox{...} go; j becomes i when there is no
 * i; trailing ".000" of numbers goes; a leading '.' gets its 0; "k=X"
 * with a short k becomes X; \sqrtN becomes \sqrt{N}; spaces go; \fracNM
 * becomes \frac{N}{M}; and a lone integer ratio a/b becomes \frac{a}{b}.
 *
 * As the original: the word-number conversion is a no-op stub, the
 * quote removals are no-ops and the brace-unwrapping branch is dead, so
 * "0.5" and "\frac12" stay different strings (\frac{1}{2}): their
 * equality is the comparison's business (mathans.h), not this one's.
 * Case-insensitive month matching folds ASCII only (Python's re would
 * also fold U+017F to 's'). Memory: out grows by at most a small
 * constant factor of n.
 */
void mathstrip(const char *s, size_t n, struct buf *out);

#endif
