/* SPDX-License-Identifier: Apache-2.0 */
/* The accuracy graders' common result and the lookup by the original's grader names. */
#include "accuracy/grade.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "accuracy/codeexec.h"
#include "accuracy/exact_match.h"
#include "accuracy/gsm8k.h"
#include "accuracy/lighteval.h"
#include "accuracy/mathans.h"
#include "accuracy/multiple_choice.h"

static const struct {
	const char *name;
	grade_fn *fn;
} graders[] = {
	{ "multiple_choice", multiple_choice_grade },
	{ "exact_match", exact_match_grade },
	{ "lighteval_gsm8k", gsm8k_grade },
	{ "math", mathans_grade },
	{ "code_execution", codeexec_grade },
	{ "lighteval_expr", lighteval_expr_grade },
	{ "lighteval_latex", lighteval_latex_grade },
	{ "lighteval_gpqa", lighteval_gpqa_grade },
};

/* plugins.yaml, accuracy_benchmark: default_grader */
static const char *const defaults[][2] = {
	{ "mmlu", "multiple_choice" },
	{ "aime", "math" },
	{ "hellaswag", "exact_match" },
	{ "bigbench", "exact_match" },
	{ "aime24", "lighteval_expr" },
	{ "aime25", "lighteval_expr" },
	{ "math_500", "lighteval_latex" },
	{ "gsm8k", "lighteval_gsm8k" },
	{ "gpqa_diamond", "lighteval_gpqa" },
	{ "lcb_codegeneration", "code_execution" },
};

grade_fn *
grade_lookup(const char *name)
{
	for (size_t i = 0; i < sizeof(graders) / sizeof(graders[0]); i++)
		if (!strcmp(name, graders[i].name))
			return graders[i].fn;
	return NULL;
}

const char *
grade_default(const char *benchmark)
{
	for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++)
		if (!strcmp(benchmark, defaults[i][0]))
			return defaults[i][1];
	return NULL;
}

void
grade_reset(struct grade_result *r)
{
	memset(r, 0, sizeof(*r));
}

void
grade_set_extracted(struct grade_result *r, const char *s, size_t n)
{
	size_t k = n;

	r->extracted_len = n;
	if (k >= sizeof(r->extracted)) {
		k = sizeof(r->extracted) - 1;
		/* back off a cut UTF-8 sequence */
		while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
			k--;
	}
	memcpy(r->extracted, s, k);
	r->extracted[k] = '\0';
}

int
grade_check_size(size_t n, const char *gold, struct grade_result *r)
{
	return grade_check_limits(n, gold, GRADE_MAX_TEXT, r);
}

int
grade_check_limits(size_t n, const char *gold, size_t gold_max,
		   struct grade_result *r)
{
	grade_reset(r);
	if (n <= GRADE_MAX_TEXT && strnlen(gold, gold_max + 1) <= gold_max)
		return 0;
	r->unparsed = true;
	snprintf(r->reason, sizeof(r->reason), "reply over %u bytes or ground truth "
		 "over %zu", GRADE_MAX_TEXT, gold_max);
	errno = EMSGSIZE;
	return -1;
}
