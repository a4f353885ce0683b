/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/accuracy/problems: any text parses or fails cleanly, and what parses holds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy/problems.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct problem_list ps;
	char err[256];
	/* a copy, so that reading past size is caught */
	char *s = malloc(size ? size : 1);

	if (!s)
		return 0;
	memcpy(s, data, size);
	if (problem_list_parse(&ps, s, size, err, sizeof(err)) == 0) {
		if (!ps.n)
			abort();
		for (size_t i = 0; i < ps.n; i++) {
			const struct problem_rec *p = &ps.p[i];

			if (p->index != i || p->max_tokens < 1 || !p->task || !p->gold ||
			    !p->prompt || !p->messages || p->messages[0] != '[' ||
			    strlen(p->messages) != p->messages_len)
				abort();
		}
	} else if (ps.n || ps.p || !memchr(err, '\0', sizeof(err))) {
		abort();
	}
	problem_list_release(&ps);
	free(s);
	return 0;
}
