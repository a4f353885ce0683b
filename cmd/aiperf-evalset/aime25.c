/* SPDX-License-Identifier: Apache-2.0 */
/* AIME 2025 as lighteval's aime25 task: yentinglin/aime_2025, the bare problem, zero-shot. */
#include "bench.h"
#include "row.h"

static int
aime25_load(const struct bench_opts *o, struct problem_set *out, char *err,
	    size_t errlen)
{
	return load_plain(o, "yentinglin/aime_2025", "default", "train",
			  "problem", "answer", "aime25", 32768, out, err, errlen);
}

const struct bench bench_aime25 = {
	.name = "aime25",
	.n_shots = 0,
	.max_shots = -1,
	.load = aime25_load,
};
