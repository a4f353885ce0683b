/* SPDX-License-Identifier: Apache-2.0 */
/* The original's lighteval_gsm8k grader: the number after "#### " (else the last number), compared numerically. */
#ifndef AIPERF_GSM8K_H
#define AIPERF_GSM8K_H

#include <stdbool.h>
#include <stddef.h>

#include "accuracy/grade.h"
#include "buf.h"

#define GSM8K_INVALID "[invalid]"

/*
 * lighteval's gsm8k_normalizer: the first "#### " followed by an optional
 * '-' and a run of digits, '.' and ',' (regex #### (\-?[0-9\.\,]+)); the
 * run, commas dropped, is appended to out (it may be empty: "#### ,").
 * Returns false, appending nothing, when there is no such marker (the
 * original's "[invalid]").
 */
bool gsm8k_normalize(const char *s, size_t n, struct buf *out);

/*
 * grade_fn. The gold goes through gsm8k_normalize(); the stripped reply
 * too, and when it has no marker its last number (-?[0-9][0-9,]*(\.[0-9]+)?,
 * commas dropped) is taken instead and the reply is unparsed; with no
 * number at all the answer is "[invalid]", wrong and unparsed. Correct
 * when both parse as Python floats within 1e-6 of each other ("24" ==
 * "24.00"), else when the strings are equal. No '$', no units: "$1,234"
 * is 1234 only because '$' is no digit.
 */
int gsm8k_grade(const char *reply, size_t n, const char *gold,
		struct grade_result *r);

#endif
