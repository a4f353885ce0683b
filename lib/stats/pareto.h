/* SPDX-License-Identifier: Apache-2.0 */
/* Pareto frontiers and best points, as the original's sweep analysis picks them. */
#ifndef AIPERF_PARETO_H
#define AIPERF_PARETO_H

#include <stddef.h>

/*
 * Points are n rows of k objectives, row-major in v; dir[j] is +1 when
 * objective j is maximized, -1 when minimized. Nothing is allocated.
 */

/* Whether point a dominates point b: better or equal on every objective
 * and strictly better on one (a NaN compares as neither). */
int pareto_dominates(const double *a, const double *b, const int *dir, size_t k);

/* Mark in on[i] (1 or 0) each point no other point dominates; the
 * count marked. Equal points are both on the frontier. */
size_t pareto_front(const double *v, size_t n, size_t k, const int *dir,
		    unsigned char *on);

/* The first index of the largest (maximize) or smallest value of v, as
 * Python's max()/min() with a key pick it: ties go to the first; a NaN
 * never replaces the best so far. SIZE_MAX when n is 0. */
size_t pareto_best(const double *v, size_t n, int maximize);

#endif
