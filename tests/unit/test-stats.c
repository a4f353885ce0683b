/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/stats: numpy-exact sums, std and linear percentiles. */
#include "stats/stats.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* stats_summarize()'s radix sort leaves the values as qsort (glibc's
 * stable merge sort) does, bit for bit: mixed signs, ties, zeros of both
 * signs, subnormals, huge values. */
static int
radix_vs_qsort(void)
{
	static const double pick[] = { 0.0, -0.0, 1.5, -1.5, 5e-324, -5e-324, 1e308,
		-1e308, 3.0, 3.0, 2.220446049250313e-16, 100.0, -7.25 };
	struct stats_vec v;
	struct stats st;
	uint64_t x = 88172645463325252u;
	double ref[5000];

	for (int round = 0; round < 40; round++) {
		size_t n = 65 + (size_t)round * 120;

		stats_vec_init(&v);
		for (size_t i = 0; i < n; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			double d = round % 2 ? pick[x % (sizeof(pick) / sizeof(pick[0]))]
				   : (double)(int64_t)(x % 2000001) / 1000 - 1000;

			ref[i] = d;
			stats_vec_push(&v, d);
		}
		qsort(ref, n, sizeof(double), cmp_double);
		if (stats_summarize(&v, &st) < 0 || memcmp(ref, v.v, n * sizeof(double))) {
			stats_vec_release(&v);
			return 0;
		}
		stats_vec_release(&v);
	}
	return 1;
}

int
main(void)
{
	struct stats_vec v;
	struct stats st;
	double isl[] = { 1024, 1536, 1024, 1536, 1024 };

	TEST("radix sort equals qsort, -0.0 and 0.0 in input order", radix_vs_qsort());
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
	TEST("p99 of 4", stats_percentile(s, 4, 99) == 3.9699999999999998);
	TEST("p0", stats_percentile(s, 4, 0) == 1);
	TEST("p100", stats_percentile(s, 4, 100) == 4);
	double one[] = { 7 };
	TEST("single value", stats_percentile(one, 1, 90) == 7);

	/*
	 * Expected values from NumPy 1.24 (/usr/bin/python3 with python3-numpy):
	 * np.add.reduce, np.mean, np.std(ddof=0/1) and np.percentile over the
	 * same arrays, printed with repr(). Each input is chosen so that a
	 * simpler implementation gives a different double.
	 *
	 * 1e16 then 1023 ones: a naive loop loses every 1 (1e16 + 1 rounds back
	 * to 1e16), Kahan summation and math.fsum give 1e16 + 1024, and numpy's
	 * pairwise sum gives 1e16 + 1008: its first accumulator, which starts at
	 * 1e16, loses the 15 ones that land on it in the first block of 128.
	 */
	static double big[1024];
	big[0] = 1e16;
	for (int i = 1; i < 1024; i++)
		big[i] = 1;
	TEST("pairwise sum as numpy, not naive or compensated",
	     stats_sum(big, 1024) == 1.0000000000001008e+16);
	stats_vec_init(&v);
	for (int i = 0; i < 1024; i++)
		stats_vec_push(&v, big[i]);
	TEST("summarize of 1e16 and ones ok", stats_summarize(&v, &st) == 0);
	TEST("sum and mean of 1e16 and ones as numpy",
	     st.sum == 1.0000000000001008e+16 && st.avg == 9765625000000.984);
	TEST("min, p50 and max of 1e16 and ones",
	     st.min == 1 && st.p50 == 1 && st.max == 1e16);
	stats_vec_release(&v);

	/*
	 * 1e8 + i/7: numpy's two-pass std with pairwise sums gives
	 * 41.23928432245481; the same two passes with naive sums give
	 * 41.23928432245492 and the one-pass sqrt(E[x^2] - E[x]^2) gives
	 * 41.30375285612676. (Division only, so C and Python build the same
	 * doubles.)
	 */
	static double off[1000];
	for (int i = 0; i < 1000; i++)
		off[i] = 1e8 + i / 7.0;
	TEST("std of 1e8 + i/7 as numpy", stats_std(off, 1000, 0) == 41.23928432245481);
	TEST("sample std of 1e8 + i/7 as numpy",
	     stats_std(off, 1000, 1) == 41.259919442246215);
	/* 1e9 + (i % 4): the deviations are exact, std is sqrt(1.25); the
	 * one-pass formula cancels 1e18-sized squares and gives 0. */
	for (int i = 0; i < 1000; i++)
		off[i] = 1e9 + i % 4;
	TEST("std with a large offset is exact", stats_std(off, 1000, 0) == 1.118033988749895);
	TEST("sample std with a large offset",
	     stats_std(off, 1000, 1) == 1.1185934253567071);

	/* numpy's _lerp works from the upper value when t >= 0.5: a + (b-a)*t
	 * would give 5.199999999999999, 7.6499999999999995 and 0.4. */
	double two[] = { 0.3, 10.1 };
	TEST("p50 lerps from the upper value as numpy", stats_percentile(two, 2, 50) == 5.2);
	TEST("p75 lerps from the upper value as numpy", stats_percentile(two, 2, 75) == 7.65);
	double tenths[] = { 0.1, 0.7 };
	TEST("p50 of 0.1 and 0.7 as numpy",
	     stats_percentile(tenths, 2, 50) == 0.39999999999999997);
	TEST("sample std of one is 0", stats_std(one, 1, 1) == 0);
	TEST("empty summarize fails", (stats_vec_init(&v), stats_summarize(&v, &st)) == -1);
	return TEST_DONE();
}
