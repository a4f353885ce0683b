/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for aiperf-gen's --seq-dist parser: any text parses or fails with a message, and a distribution samples in range. */
#include <stddef.h>
#include <stdint.h>

#include "gen.h"
#include "util.h"
#include "fuzztool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = xstrndup((const char *)data, size < 4096 ? size : 4096), err[2048];
	struct seqdist *d;
	struct rng r;

	err[0] = 0;
	if (FUZZ_TRY())
		abort();	/* the parser reports, it never dies */
	d = seqdist_parse(s, err, sizeof(err));
	if (!d && !err[0])
		abort();
	rng_seed(&r, size);
	for (int i = 0; d && i < 16; i++) {
		long long isl, osl;

		seqdist_sample(d, &r, &isl, &osl);
		if (isl < 1 || osl < 1)
			abort();
	}
	seqdist_free(d);
	free(s);
	return 0;
}
