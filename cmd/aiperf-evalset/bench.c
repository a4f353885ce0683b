/* SPDX-License-Identifier: Apache-2.0 */
/* The benchmark registry: the original's accuracy_benchmark plugins, in plugins.yaml's order. */
#include "bench.h"

#include "util.h"

const struct bench *const benches[] = {
	&bench_mmlu,
	&bench_aime,
	&bench_hellaswag,
	&bench_bigbench,
	&bench_aime24,
	&bench_aime25,
	&bench_math500,
	&bench_gsm8k,
	&bench_gpqa,
	&bench_lcb,
	NULL,
};

const struct bench *
bench_find(const char *name)
{
	for (size_t i = 0; benches[i]; i++)
		if (util_choice_eq(name, benches[i]->name))
			return benches[i];
	return NULL;
}
