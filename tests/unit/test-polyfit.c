/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/stats/polyfit (the recipes' curve fits). */
#include <math.h>

#include "stats/polyfit.h"
#include "test.h"

static int
near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(1.0, fabs(b));
}

int
main(void)
{
	const double x[] = { 256, 512, 1024, 2048 }, lin[] = { 12, 24, 48, 96 };
	double q[4], c[3], r2;

	TEST("a line: fitted", polyfit(x, lin, 4, 1, c, &r2) == 0);
	TEST("a line: slope, intercept (numpy: 0.046875, 0)",
	     near(c[0], 0.046875) && fabs(c[1]) < 1e-9);
	TEST("a line: r2 1", near(r2, 1));
	for (int i = 0; i < 4; i++)
		q[i] = 2e-5 * x[i] * x[i] - 0.01 * x[i] + 7;
	TEST("a parabola: fitted", polyfit(x, q, 4, 2, c, &r2) == 0);
	TEST("a parabola: coefficients", near(c[0], 2e-5) && near(c[1], -0.01) &&
	     near(c[2], 7));
	TEST("a parabola: r2 1", near(r2, 1));
	TEST("its linear fit is worse", polyfit(x, q, 4, 1, c, &r2) == 0 && r2 < 0.999);
	{
		const double y[] = { 1, 3, 2 }, xx[] = { 0, 1, 2 };

		/* numpy.polyfit([0,1,2],[1,3,2],1) = [0.5, 1.5]; r2 = 0.25 */
		TEST("a noisy line: numpy's", polyfit(xx, y, 3, 1, c, &r2) == 0 &&
		     near(c[0], 0.5) && near(c[1], 1.5) && near(r2, 0.25));
	}
	{
		const double y[] = { 5, 5, 5 }, xx[] = { 1, 2, 3 };

		TEST("constant y: r2 0", polyfit(xx, y, 3, 1, c, &r2) == 0 && r2 == 0);
	}
	TEST("too few points", polyfit(x, lin, 2, 2, c, &r2) < 0 && isnan(r2));
	TEST("degree 3 refused", polyfit(x, lin, 4, 3, c, &r2) < 0);
	return TEST_DONE();
}
