/* SPDX-License-Identifier: Apache-2.0 */
/* The Wilson score interval of a binomial proportion (k successes in n trials). */
#ifndef AIPERF_WILSON_H
#define AIPERF_WILSON_H

#include <stdint.h>

/* z of a two-sided 95% interval: the normal distribution's 0.975 quantile. */
#define WILSON_Z95 1.959963984540054

/*
 * The Wilson score interval of k / n at z, in [0, 1]: its ends in *lo
 * and *hi (exactly 0 when k is 0, exactly 1 when k is n). Returns 0, or
 * -1 with both NaN when n is 0 or k > n. Pure: nothing is allocated.
 */
int wilson_interval(uint64_t k, uint64_t n, double z, double *lo, double *hi);

#endif
