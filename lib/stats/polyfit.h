/* SPDX-License-Identifier: Apache-2.0 */
/* Least-squares polynomial fits with r², as numpy.polyfit and the original's curve fits use them. */
#ifndef AIPERF_POLYFIT_H
#define AIPERF_POLYFIT_H

#include <stddef.h>

#define POLYFIT_MAX_DEG 2

/*
 * Fit y = c[0] x^deg + ... + c[deg] (highest degree first, as
 * numpy.polyfit) to the n points by least squares (GSL), deg 1 or 2, and
 * set *r2 = 1 - ss_res / ss_tot (0 when y has no variance). Returns 0, or
 * -1 when n <= deg or the fit cannot be made (then c and *r2 are NaN).
 * Nothing is kept.
 */
int polyfit(const double *x, const double *y, size_t n, int deg, double *c,
	    double *r2);

#endif
