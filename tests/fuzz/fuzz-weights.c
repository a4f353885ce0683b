/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for aiperf-gen's --model-weights parser: any text parses into weights from 0 to 1 or fails with a message, and a checked list draws in range. */
#include <stddef.h>
#include <stdint.h>

#include "gen.h"
#include "util.h"
#include "fuzztool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = xstrndup((const char *)data, size < 65536 ? size : 65536), err[256];
	struct gen_opts o = { .model_random = 1, .model_weighted = 1 };
	double *w;
	size_t n;
	struct rng r;

	err[0] = 0;
	if (FUZZ_TRY())
		abort();	/* the parser reports, it never dies */
	if (gen_weights_parse(s, &w, &n, err, sizeof(err)) < 0) {
		if (!err[0] || w || n)
			abort();
		free(s);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		if (!(w[i] >= 0 && w[i] <= 1))
			abort();
	if (gen_weights_check(w, n, n, err, sizeof(err)) == 0) {
		o.nmodels = n;
		o.cum_weights = xcalloc(n, sizeof(double));
		for (size_t i = 0; i < n; i++)
			o.cum_weights[i] = (i ? o.cum_weights[i - 1] : 0) + w[i];
		rng_seed(&r, size);
		for (int i = 0; i < 16; i++)
			if (gen_model_draw(&o, &r) >= n)
				abort();
		free(o.cum_weights);
	}
	free(w);
	free(s);
	return 0;
}
