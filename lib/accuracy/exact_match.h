/* SPDX-License-Identifier: Apache-2.0 */
/* The original's exact_match grader (HellaSwag, BigBench): stripped reply == stripped gold, byte for byte. */
#ifndef AIPERF_EXACT_MATCH_H
#define AIPERF_EXACT_MATCH_H

#include <stddef.h>

#include "accuracy/grade.h"

/*
 * grade_fn, DeepEval's Scorer.exact_match_score: both sides lose their
 * surrounding whitespace (Python's str.strip(), Unicode spaces included)
 * and nothing else; case counts. An empty stripped reply is wrong, and
 * unparsed unless the stripped gold is empty too. The extracted answer is
 * the stripped reply.
 */
int exact_match_grade(const char *reply, size_t n, const char *gold,
		      struct grade_result *r);

#endif
