/* SPDX-License-Identifier: Apache-2.0 */
/* Least-squares polynomial fits with r², as numpy.polyfit and the original's curve fits use them. */
#include "stats/polyfit.h"

#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>

static double
polyval(const double *c, int deg, double x)
{
	double v = 0;

	for (int k = 0; k <= deg; k++)
		v = v * x + c[k];
	return v;
}

static void
r_squared(const double *x, const double *y, size_t n, int deg, const double *c,
	  double *r2)
{
	double mean = 0, res = 0, tot = 0;

	for (size_t i = 0; i < n; i++)
		mean += y[i];
	mean /= (double)n;
	for (size_t i = 0; i < n; i++) {
		double e = y[i] - polyval(c, deg, x[i]);

		res += e * e;
		tot += (y[i] - mean) * (y[i] - mean);
	}
	*r2 = tot == 0 ? 0.0 : 1.0 - res / tot;
}

int
polyfit(const double *x, const double *y, size_t n, int deg, double *c,
	double *r2)
{
	gsl_matrix *X = NULL, *cov = NULL;
	gsl_vector *Y = NULL, *b = NULL;
	gsl_multifit_linear_workspace *w = NULL;
	gsl_error_handler_t *old;
	double chisq;
	int rc = -1;

	for (int k = 0; k <= deg && k <= POLYFIT_MAX_DEG; k++)
		c[k] = NAN;
	*r2 = NAN;
	if (deg < 1 || deg > POLYFIT_MAX_DEG || n <= (size_t)deg)
		return -1;
	old = gsl_set_error_handler_off();
	X = gsl_matrix_alloc(n, (size_t)deg + 1);
	cov = gsl_matrix_alloc((size_t)deg + 1, (size_t)deg + 1);
	Y = gsl_vector_alloc(n);
	b = gsl_vector_alloc((size_t)deg + 1);
	w = gsl_multifit_linear_alloc(n, (size_t)deg + 1);
	if (!X || !cov || !Y || !b || !w)
		goto out;
	for (size_t i = 0; i < n; i++) {
		for (int k = 0; k <= deg; k++)
			gsl_matrix_set(X, i, (size_t)k, pow(x[i], deg - k));
		gsl_vector_set(Y, i, y[i]);
	}
	if (gsl_multifit_linear(X, Y, b, cov, &chisq, w) != GSL_SUCCESS)
		goto out;
	for (int k = 0; k <= deg; k++)
		c[k] = gsl_vector_get(b, (size_t)k);
	r_squared(x, y, n, deg, c, r2);
	rc = 0;
out:
	gsl_multifit_linear_free(w);
	gsl_vector_free(b);
	gsl_vector_free(Y);
	gsl_matrix_free(cov);
	gsl_matrix_free(X);
	gsl_set_error_handler(old);
	return rc;
}
