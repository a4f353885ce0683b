/* SPDX-License-Identifier: Apache-2.0 */
/* Two-sample Kolmogorov-Smirnov p-value (exact lattice paths, or the limit). */
#include "stats/ks.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "util.h"

static int
cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* max |i m - j n| over the two empirical CDFs' steps: D times n m, exact. */
static int64_t
statistic(const double *a, size_t n, const double *b, size_t m)
{
	size_t i = 0, j = 0;
	int64_t h = 0;

	while (i < n || j < m) {
		double x = i < n && (j >= m || a[i] <= b[j]) ? a[i] : b[j];
		int64_t c;

		while (i < n && a[i] <= x)
			i++;
		while (j < m && b[j] <= x)
			j++;
		c = (int64_t)i * (int64_t)m - (int64_t)j * (int64_t)n;
		if (c < 0)
			c = -c;
		if (c > h)
			h = c;
	}
	return h;
}

/*
 * P(D < h / nm) under the null: w(i, j) = paths from (0, 0) to (i, j)
 * inside the band |i m - j n| < h over all C(i + j, i) paths there, so
 * w(i, j) = w(i-1, j) i / (i + j) + w(i, j-1) j / (i + j), in [0, 1].
 */
static double
inside(size_t n, size_t m, int64_t h)
{
	double *w = xcalloc(m + 1, sizeof(*w)), p;

	for (size_t i = 0; i <= n; i++) {
		for (size_t j = 0; j <= m; j++) {
			int64_t c = (int64_t)i * (int64_t)m - (int64_t)j * (int64_t)n;
			double v = 0;

			if ((c < 0 ? -c : c) >= h) {
				w[j] = 0;
				continue;
			}
			if (i == 0 && j == 0) {
				w[j] = 1;
				continue;
			}
			if (i > 0)
				v += w[j] * (double)i / (double)(i + j);
			if (j > 0)
				v += w[j - 1] * (double)j / (double)(i + j);
			w[j] = v;
		}
	}
	p = w[m];
	free(w);
	return p;
}

/* Kolmogorov's limit: Q(x) = 2 sum (-1)^(k-1) exp(-2 k^2 x^2). */
static double
kolmogorov_q(double x)
{
	double s = 0;

	if (x < 0.2)
		return 1;
	for (int k = 1; k <= 100; k++) {
		double t = exp(-2.0 * k * k * x * x);

		s += (k % 2 ? t : -t);
		if (t < 1e-17)
			break;
	}
	s *= 2;
	return s < 0 ? 0 : s > 1 ? 1 : s;
}

double
ks_2samp(double *a, size_t n, double *b, size_t m, double *d)
{
	int64_t h;
	double p;

	if (d)
		*d = 0;
	if (!n || !m)
		return 1;
	qsort(a, n, sizeof(*a), cmp_double);
	qsort(b, m, sizeof(*b), cmp_double);
	h = statistic(a, n, b, m);
	if (d)
		*d = (double)h / ((double)n * (double)m);
	if (h == 0)
		return 1;
	if ((double)n * (double)m > KS_EXACT_MAX)
		return kolmogorov_q(sqrt((double)n * m / ((double)n + m)) *
				    (double)h / ((double)n * m));
	p = 1 - inside(n, m, h);
	return p < 0 ? 0 : p > 1 ? 1 : p;
}
