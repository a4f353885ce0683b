/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/stats/wilson: known intervals and the edge cases. */
#include "stats/wilson.h"

#include <math.h>

#include "test.h"

static int
near(double a, double b)
{
	return fabs(a - b) < 1e-12;
}

int
main(void)
{
	double lo, hi;

	/* values from the closed form in double precision (Python's math);
	 * 0/10's upper end is the textbook 0.2775 */
	TEST("wilson: 3/4", wilson_interval(3, 4, WILSON_Z95, &lo, &hi) == 0 &&
	     near(lo, 0.30064184258240184) && near(hi, 0.95441273919029945));
	TEST("wilson: 75/100", wilson_interval(75, 100, WILSON_Z95, &lo, &hi) == 0 &&
	     near(lo, 0.65695536451938397) && near(hi, 0.82454788637712317));
	TEST("wilson: 1/2 is symmetric", wilson_interval(1, 2, WILSON_Z95, &lo, &hi) == 0 &&
	     near(lo, 0.094531205734230739) && near(lo + hi, 1.0));
	TEST("wilson: 1/1000", wilson_interval(1, 1000, WILSON_Z95, &lo, &hi) == 0 &&
	     near(lo, 0.00017654637062607809) && near(hi, 0.0056425585979579355));
	TEST("wilson: 0/10 starts at exactly 0", wilson_interval(0, 10, WILSON_Z95, &lo, &hi) == 0 &&
	     lo == 0.0 && near(hi, 0.2775327998628892));
	TEST("wilson: 10/10 ends at exactly 1", wilson_interval(10, 10, WILSON_Z95, &lo, &hi) == 0 &&
	     near(lo, 0.72246720013711074) && hi == 1.0);
	TEST("wilson: 0/0 is no interval", wilson_interval(0, 0, WILSON_Z95, &lo, &hi) == -1 &&
	     isnan(lo) && isnan(hi));
	TEST("wilson: k > n is no interval", wilson_interval(5, 4, WILSON_Z95, &lo, &hi) == -1 &&
	     isnan(lo) && isnan(hi));
	TEST("wilson: z 0 is the point", wilson_interval(1, 4, 0.0, &lo, &hi) == 0 &&
	     near(lo, 0.25) && near(hi, 0.25));
	TEST("wilson: huge n stays in range",
	     wilson_interval(UINT64_MAX / 2, UINT64_MAX, WILSON_Z95, &lo, &hi) == 0 &&
	     lo >= 0 && hi <= 1 && lo <= hi);
	return TEST_DONE();
}
