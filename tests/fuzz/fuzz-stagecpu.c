/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: lib/summary/stagecpu (aiperf-export --stage-cpu) never crash, and what parses adds up. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "summary/stagecpu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct stagecpu sc;
	char why[160];
	double sum = 0;

	(void)stagecpu_complete(s, size);
	if (stagecpu_parse(&sc, s, size, 1000, 5000, why, sizeof(why)) < 0) {
		if (!why[0])
			abort();	/* a rejection says why */
		return 0;
	}
	if (!sc.n || sc.n > STAGECPU_MAX)
		abort();
	for (size_t i = 0; i < sc.n; i++) {
		if (sc.seconds[i] < 0 || !sc.names[i][0])
			abort();
		sum += sc.seconds[i];
	}
	if (sum != sc.total)
		abort();
	return 0;
}
