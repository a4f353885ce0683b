/* SPDX-License-Identifier: Apache-2.0 */
/* The original's multiple_choice grader (MMLU): the first line's A-D letter against the gold letter. */
#ifndef AIPERF_MULTIPLE_CHOICE_H
#define AIPERF_MULTIPLE_CHOICE_H

#include <stdbool.h>
#include <stddef.h>

#include "accuracy/grade.h"

/*
 * Take the reply's first line (up to the first '\n') and strip it. A
 * line that is exactly "A", "B", "C" or "D" is the answer. Otherwise the
 * first upper-case A-D with no word character (re's \w) on either side
 * is, and the reply counts as unparsed; with no such letter the stripped
 * line itself is the answer, also unparsed. Letters on later lines are
 * never looked at, and lower case never counts. Sets [*a, *a + *an) to
 * the answer, inside reply; returns whether it is unparsed.
 */
bool multiple_choice_extract(const char *reply, size_t n, const char **a,
			     size_t *an);

/* grade_fn: correct when the answer equals the stripped gold and is not
 * empty (so a reply "E" with gold "E" is correct, but unparsed). */
int multiple_choice_grade(const char *reply, size_t n, const char *gold,
			  struct grade_result *r);

#endif
