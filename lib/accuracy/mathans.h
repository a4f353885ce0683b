/* SPDX-License-Identifier: Apache-2.0 */
/* The original's math grader (AIME): the last \boxed{} answer, else an answer phrase, else the last number. */
#ifndef AIPERF_MATHANS_H
#define AIPERF_MATHANS_H

#include <stdbool.h>
#include <stddef.h>

#include "accuracy/grade.h"
#include "buf.h"

/*
 * The original's MathGrader._extract_with_flag, appending the answer to
 * out and returning whether the reply is unparsed:
 *  - an empty reply: "", unparsed;
 *  - the contents of the last "\boxed{" when its braces balance (an
 *    unbalanced last one is no answer, even after a balanced earlier one;
 *    \fbox is not looked for, as in the original), with "\n" and the
 *    whitespace after it removed, one leading ':', one trailing '.' then
 *    one trailing '/' dropped: parsed;
 *  - else the last "final answer", "the answer is", "answer:", "answer="
 *    or "answer is" (any case), its text up to a sentence '.', a newline
 *    or the end, stripped: a \boxed{} inside it as above, else that text
 *    whole when it holds '\', '{' or '}', else its last number
 *    (-?\d+(\.\d+)?(/\d+)?), else the text: unparsed;
 *  - else the reply's last number, else the stripped reply: unparsed.
 */
bool mathans_extract(const char *reply, size_t n, struct buf *out);

/*
 * grade_fn: both the answer and the gold go through mathstrip() and then
 * matheq(), the original's path with sympy installed, its symbolic step
 * by lib/accuracy/latexeq (see matheq.h): a pair whose sympy verdict
 * cannot be told here is wrong, with r->needs_symbolic set. The
 * extracted answer is the one before mathstrip().
 */
int mathans_grade(const char *reply, size_t n, const char *gold,
		  struct grade_result *r);

#endif
