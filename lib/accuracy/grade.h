/* SPDX-License-Identifier: Apache-2.0 */
/* The accuracy graders' common result and the lookup by the original's grader names. */
#ifndef AIPERF_GRADE_H
#define AIPERF_GRADE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A grader compares one model reply with one ground truth the way the
 * original's grader of the same name does (src/aiperf/accuracy/graders).
 * As there, `correct` and `unparsed` are two separate verdicts: unparsed
 * says the reply did not follow the expected format (a fallback
 * extraction was used, or nothing could be extracted), and a correct
 * unparsed reply still counts as correct (accuracy.correct and
 * accuracy.unparsed are counted apart).
 *
 * The reply is graded as given: the original grades the concatenation
 * of every response chunk's text, where a reasoning chunk's text is its
 * reasoning followed by its content (ReasoningResponseData.get_text),
 * and strips no <think> blocks, so the caller passes that same text.
 *
 * Every grader takes the reply as bytes (any bytes, NULs included) and
 * the gold as a C string, fills *r and returns 0, or returns -1 with
 * errno EMSGSIZE when either is longer than GRADE_MAX_TEXT (then *r says
 * wrong and unparsed), or (code_execution) with errno ENOEXEC when its
 * sandbox cannot be made (r->reason says why). Nothing is kept or
 * allocated past the call.
 */

/* Longer replies are refused: it bounds every grader's work and memory. */
#define GRADE_MAX_TEXT (16u << 20)
#define GRADE_EXTRACTED_MAX 256
#define GRADE_REASON_MAX 128

struct grade_result {
	bool correct;
	bool unparsed;
	/* math and lighteval_expr/_latex: "wrong" stands where the
	 * original's sympy check would decide and lib/accuracy/latexeq
	 * could not (mathans.h, lighteval.h) */
	bool needs_symbolic;
	/* the extracted answer, cut at a UTF-8 boundary to fit; always
	 * NUL-terminated; extracted_len is its full length */
	char extracted[GRADE_EXTRACTED_MAX];
	size_t extracted_len;
	char reason[GRADE_REASON_MAX];
};

typedef int grade_fn(const char *reply, size_t n, const char *gold,
		     struct grade_result *r);

/*
 * The grader the original registers under name ("multiple_choice",
 * "exact_match", "lighteval_gsm8k", "math", "lighteval_expr",
 * "lighteval_latex", "lighteval_gpqa", "code_execution"), or NULL for any
 * other name.
 */
grade_fn *grade_lookup(const char *name);

/* The original's default_grader for an accuracy benchmark ("mmlu" ->
 * "multiple_choice", ...), or NULL for an unknown benchmark. */
const char *grade_default(const char *benchmark);

/* For the graders: clear *r. */
void grade_reset(struct grade_result *r);
/* For the graders: copy the extracted answer into r (truncated). */
void grade_set_extracted(struct grade_result *r, const char *s, size_t n);
/* For the graders: the length check shared by all; -1 when too long. */
int grade_check_size(size_t n, const char *gold, struct grade_result *r);
/* The same with another bound on the ground truth (code_execution's
 * carries every test case). */
int grade_check_limits(size_t n, const char *gold, size_t gold_max,
		       struct grade_result *r);

#endif
