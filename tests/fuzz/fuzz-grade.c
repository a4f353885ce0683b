/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/accuracy: every grader on any reply returns, in range, with a NUL-terminated answer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy/grade.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(const char *name, const char *reply, size_t n, const char *gold)
{
	struct grade_result r;
	grade_fn *f = grade_lookup(name);

	memset(&r, 0xA5, sizeof(r));
	if (!f || f(reply, n, gold, &r) != 0)
		abort();
	if (!memchr(r.extracted, '\0', sizeof(r.extracted)) ||
	    !memchr(r.reason, '\0', sizeof(r.reason)))
		abort();
	if (strlen(r.extracted) > r.extracted_len)
		abort();
	/* the bools are 0 or 1 (UBSan checks the load) */
	if (r.correct + r.unparsed + r.needs_symbolic > 3)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy, so that reading past size is caught */
	char *s = malloc(size ? size : 1);

	if (!s)
		return 0;
	memcpy(s, data, size);
	check("multiple_choice", s, size, "B");
	check("exact_match", s, size, "A");
	check("lighteval_gsm8k", s, size, "#### 42");
	check("math", s, size, "\\frac{3}{4}");
	check("math", s, size, "1,2");
	free(s);
	return 0;
}
