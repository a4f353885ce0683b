/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/stats: numpy-exact sums, std and linear percentiles. */
#include <math.h>

#include "stats.h"
#include "test.h"

int
main(void)
{
	struct stats_vec v;
	struct stats st;
	double isl[] = { 1024, 1536, 1024, 1536, 1024 };

	stats_vec_init(&v);
	for (int i = 0; i < 5; i++)
		stats_vec_push(&v, isl[i]);
	TEST("summarize ok", stats_summarize(&v, &st) == 0);
	TEST("mean", st.avg == 1228.8);
	TEST("population std", st.std == 250.82774966099743);
	TEST("p25", st.p25 == 1024);
	TEST("p75", st.p75 == 1536);
	stats_vec_release(&v);

	double u[] = { 0, 512, 0, 1024, 0 };
	TEST("std 409.6 as numpy", stats_std(u, 5, 0) == 409.59999999999997);
	double h[] = { 0, 2.0 / 3, 1, 2.0 / 3, 1 };
	TEST("hit-rate std", stats_std(h, 5, 0) == 0.36514837167011077);

	double s[] = { 1, 2, 3, 4 };
	TEST("p50 of 4", stats_percentile(s, 4, 50) == 2.5);
	TEST("p99 of 4", fabs(stats_percentile(s, 4, 99) - 3.97) < 1e-12);
	TEST("p0", stats_percentile(s, 4, 0) == 1);
	TEST("p100", stats_percentile(s, 4, 100) == 4);
	double one[] = { 7 };
	TEST("single value", stats_percentile(one, 1, 90) == 7);

	/* Pairwise summation differs from a naive loop past 8 values. */
	double many[1000];
	double naive = 0;
	for (int i = 0; i < 1000; i++) {
		many[i] = 0.1 * (i % 7) + 1e-3 * i;
		naive += many[i];
	}
	TEST("pairwise sum close to naive", fabs(stats_sum(many, 1000) - naive) < 1e-9);
	TEST("sample std of one is 0", stats_std(one, 1, 1) == 0);
	TEST("empty summarize fails", (stats_vec_init(&v), stats_summarize(&v, &st)) == -1);
	return TEST_DONE();
}
