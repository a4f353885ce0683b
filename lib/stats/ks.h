/* SPDX-License-Identifier: Apache-2.0 */
/* The two-sample Kolmogorov-Smirnov test (scipy's ks_2samp, two-sided). */
#ifndef AIPERF_KS_H
#define AIPERF_KS_H

#include <stddef.h>

/*
 * The p-value of the two-sided two-sample KS test of a[0..n) against
 * b[0..m) (both sorted in place, ascending; NaN must not occur), the
 * statistic D in *d when d is not NULL. Exact, as scipy's default mode
 * for samples up to 10,000 values, by the lattice-path count of paths
 * that stay within D (normalised so that nothing overflows), for
 * n * m <= KS_EXACT_MAX; beyond, Kolmogorov's limiting distribution at
 * sqrt(nm/(n+m)) D. Returns 1 when n or m is 0. Allocates nothing that
 * outlives the call.
 */
#define KS_EXACT_MAX 100000000.0
double ks_2samp(double *a, size_t n, double *b, size_t m, double *d);

#endif
