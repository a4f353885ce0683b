/* SPDX-License-Identifier: Apache-2.0 */
/* The benchmarks aiperf-evalset knows, as the original's plugins.yaml registers them. */
#ifndef AIPERF_EVALSET_BENCH_H
#define AIPERF_EVALSET_BENCH_H

#include "evalset.h"

/* One per file: mmlu.c, aime.c, aime24.c, aime25.c, math500.c, gsm8k.c, gpqa.c. */
extern const struct bench bench_mmlu, bench_aime, bench_aime24, bench_aime25,
	bench_math500, bench_gsm8k, bench_gpqa;
/* hellaswag.c, bigbench.c, lcb.c (written apart; see bench.c's table) */
extern const struct bench bench_hellaswag, bench_bigbench, bench_lcb;

/* The registered benchmarks in plugins.yaml's order, NULL-terminated. */
extern const struct bench *const benches[];

/* The benchmark named name (any case, '-' for '_'), or NULL. */
const struct bench *bench_find(const char *name);

#endif
