/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/accuracy/codeexec: code extraction and the LCB ground-truth parser (never the sandbox). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy/codeexec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_extract(const char *s, size_t n)
{
	const char *code;
	size_t k = codeexec_extract(s, n, &code);

	/* the code lies inside the reply, between two fence lines */
	if (k > 0 && (code < s || code + k > s + n || code == s))
		abort();
	if (k > 0 && code[-1] != '\n')
		abort();
}

static void
check_parse(const char *s, size_t n)
{
	struct codeexec_tests t;
	char err[128];

	if (codeexec_parse(s, n, &t, err, sizeof(err)) == 0) {
		if (t.n == 0 && !t.encoded)
			abort();
		/* the fuzzer's bytes as the decoded private cases too */
		if (t.encoded && codeexec_add_cases(&t, s, n, err, sizeof(err)) < 0 &&
		    !memchr(err, '\0', sizeof(err)))
			abort();
	}
	if (t.n > CODEEXEC_MAX_CASES)
		abort();
	for (size_t i = 0; i < t.n; i++)
		if (!t.cases[i].in || !t.cases[i].out)
			abort();
	codeexec_tests_release(&t);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy, so that reading past size is caught */
	char *s = malloc(size ? size : 1);

	if (!s)
		return 0;
	memcpy(s, data, size);
	check_extract(s, size);
	check_parse(s, size);
	free(s);
	return 0;
}
