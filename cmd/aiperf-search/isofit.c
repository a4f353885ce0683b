/* SPDX-License-Identifier: Apache-2.0 */
/* PAVA then PCHIP: scipy's isotonic_regression and PchipInterpolator, and the fitted curve's root. */
#include "search.h"

#include <math.h>

#include "util.h"

/* Pool adjacent violators (unweighted, increasing): each pooled block takes its mean. */
void
isofit_pava(const double *y, double *out, size_t n)
{
	double *sum = xcalloc(n ? n : 1, sizeof(*sum));
	size_t *len = xcalloc(n ? n : 1, sizeof(*len)), nb = 0, k = 0;

	for (size_t i = 0; i < n; i++) {
		sum[nb] = y[i];
		len[nb++] = 1;
		while (nb > 1 && sum[nb - 2] / (double)len[nb - 2] > sum[nb - 1] / (double)len[nb - 1]) {
			sum[nb - 2] += sum[nb - 1];
			len[nb - 2] += len[nb - 1];
			nb--;
		}
	}
	for (size_t b = 0; b < nb; b++)
		for (size_t j = 0; j < len[b]; j++)
			out[k++] = sum[b] / (double)len[b];
	free(sum);
	free(len);
}

static double
sgn(double v)
{
	return (v > 0) - (v < 0);
}

/* scipy's one-sided three-point end slope, kept shape-preserving. */
static double
edge_slope(double h0, double h1, double m0, double m1)
{
	double d = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1);

	if (sgn(d) != sgn(m0))
		return 0;
	if (sgn(m0) != sgn(m1) && fabs(d) > 3 * fabs(m0))
		return 3 * m0;
	return d;
}

void
isofit_pchip_slopes(const double *x, const double *y, double *d, size_t n)
{
	if (n < 2) {
		if (n)
			d[0] = 0;
		return;
	}
	if (n == 2) {
		d[0] = d[1] = (y[1] - y[0]) / (x[1] - x[0]);
		return;
	}
	for (size_t k = 1; k + 1 < n; k++) {
		double h0 = x[k] - x[k - 1], h1 = x[k + 1] - x[k];
		double m0 = (y[k] - y[k - 1]) / h0, m1 = (y[k + 1] - y[k]) / h1;
		double w1 = 2 * h1 + h0, w2 = h1 + 2 * h0;

		if (sgn(m0) != sgn(m1) || m0 == 0 || m1 == 0)
			d[k] = 0;
		else
			d[k] = (w1 + w2) / (w1 / m0 + w2 / m1);
	}
	d[0] = edge_slope(x[1] - x[0], x[2] - x[1], (y[1] - y[0]) / (x[1] - x[0]),
			  (y[2] - y[1]) / (x[2] - x[1]));
	d[n - 1] = edge_slope(x[n - 1] - x[n - 2], x[n - 2] - x[n - 3],
			      (y[n - 1] - y[n - 2]) / (x[n - 1] - x[n - 2]),
			      (y[n - 2] - y[n - 3]) / (x[n - 2] - x[n - 3]));
}

static double
hermite(const double *x, const double *y, const double *d, size_t i, double t)
{
	double h = x[i + 1] - x[i], s = (t - x[i]) / h, s2 = s * s, s3 = s2 * s;

	return (2 * s3 - 3 * s2 + 1) * y[i] + (s3 - 2 * s2 + s) * h * d[i] +
	       (-2 * s3 + 3 * s2) * y[i + 1] + (s3 - s2) * h * d[i + 1];
}

double
isofit_pchip_eval(const double *x, const double *y, const double *d, size_t n, double t)
{
	size_t i = 0;

	if (n < 2)
		return n ? y[0] : NAN;
	while (i + 2 < n && t > x[i + 1])
		i++;
	return hermite(x, y, d, i, t);
}

/* PAVA, then a ramp of 1e-9 of the span per index so that flat runs stay strict. */
static void
fit(const double *y, double *yh, size_t n)
{
	double span, eps;

	isofit_pava(y, yh, n);
	span = n ? yh[n - 1] - yh[0] : 0;
	eps = span > 0 ? 1e-9 * span : 1e-9;
	for (size_t i = 0; i < n; i++)
		yh[i] += (double)i * eps;
}

double
isofit_curve_at(const double *x, const double *y, size_t n, double t)
{
	double *yh = xcalloc(n + 1, sizeof(*yh)), *d = xcalloc(n + 1, sizeof(*d)), v;

	fit(y, yh, n);
	isofit_pchip_slopes(x, yh, d, n);
	v = isofit_pchip_eval(x, yh, d, n, t);
	free(yh);
	free(d);
	return v;
}

/* The root in piece i, where the monotone cubic goes from <= 0 to >= 0. */
static double
piece_root(const double *x, const double *y, const double *d, size_t i)
{
	double a = x[i], b = x[i + 1];

	for (int k = 0; k < 200 && b - a > 1e-12 * (fabs(a) + 1); k++) {
		double m = a + (b - a) / 2;

		if (hermite(x, y, d, i, m) < 0)
			a = m;
		else
			b = m;
	}
	return a + (b - a) / 2;
}

static int
first_root(const double *x, const double *y, const double *d, size_t n, double *r)
{
	for (size_t i = 0; i + 1 < n; i++) {
		if (y[i] == 0) {
			*r = x[i];
			return 0;
		}
		if (y[i] < 0 && y[i + 1] >= 0) {
			*r = y[i + 1] == 0 ? x[i + 1] : piece_root(x, y, d, i);
			return 0;
		}
	}
	if (n && y[n - 1] == 0) {
		*r = x[n - 1];
		return 0;
	}
	return -1;
}

int
isofit_root(const double *x, const double *y, size_t n, double lo, double hi, double *root)
{
	double *yh = xcalloc(n + 1, sizeof(*yh)), *d = xcalloc(n + 1, sizeof(*d)), r;
	int rc = -1;

	if (n >= 2) {
		fit(y, yh, n);
		isofit_pchip_slopes(x, yh, d, n);
		if (first_root(x, yh, d, n, &r) == 0 && r >= lo && r <= hi) {
			*root = r;
			rc = 0;
		}
	}
	free(yh);
	free(d);
	return rc;
}
