/* SPDX-License-Identifier: Apache-2.0 */
/* The Wilson score interval of a binomial proportion (k successes in n trials). */
#include "stats/wilson.h"

#include <math.h>

int
wilson_interval(uint64_t k, uint64_t n, double z, double *lo, double *hi)
{
	if (n == 0 || k > n) {
		*lo = *hi = NAN;
		return -1;
	}
	double nn = (double)n, p = (double)k / nn, z2 = z * z;
	double denom = 1.0 + z2 / nn;
	double center = (p + z2 / (2.0 * nn)) / denom;
	double half = z * sqrt(p * (1.0 - p) / nn + z2 / (4.0 * nn * nn)) / denom;

	/* the ends are exact where rounding would leave them a hair off */
	*lo = k == 0 ? 0.0 : fmax(0.0, center - half);
	*hi = k == n ? 1.0 : fmin(1.0, center + half);
	return 0;
}
