/* SPDX-License-Identifier: Apache-2.0 */
/* AIME 2024 as lighteval's aime24 task: HuggingFaceH4/aime_2024, the bare problem, zero-shot. */
#include "bench.h"
#include "row.h"

static int
aime24_load(const struct bench_opts *o, struct problem_set *out, char *err,
	    size_t errlen)
{
	return load_plain(o, "HuggingFaceH4/aime_2024", "default", "train",
			  "problem", "answer", "aime24", 32768, out, err, errlen);
}

const struct bench bench_aime24 = {
	.name = "aime24",
	.n_shots = 0,
	.max_shots = -1,
	.load = aime24_load,
};
