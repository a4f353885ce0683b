/* SPDX-License-Identifier: Apache-2.0 */
/* Pareto frontiers and best points, as the original's sweep analysis picks them. */
#include "stats/pareto.h"

#include <stdint.h>

int
pareto_dominates(const double *a, const double *b, const int *dir, size_t k)
{
	size_t better = 0, equal = 0;

	for (size_t j = 0; j < k; j++) {
		double x = dir[j] > 0 ? a[j] : b[j], y = dir[j] > 0 ? b[j] : a[j];

		if (x > y)
			better++;
		else if (x == y)
			equal++;
	}
	return better + equal == k && better > 0;
}

size_t
pareto_front(const double *v, size_t n, size_t k, const int *dir,
	     unsigned char *on)
{
	size_t count = 0;

	for (size_t i = 0; i < n; i++) {
		on[i] = 1;
		for (size_t j = 0; j < n && on[i]; j++)
			if (j != i && pareto_dominates(v + j * k, v + i * k, dir, k))
				on[i] = 0;
		count += on[i];
	}
	return count;
}

size_t
pareto_best(const double *v, size_t n, int maximize)
{
	size_t best = n ? 0 : SIZE_MAX;

	/* Python's max(): a later item replaces the best only when
	 * strictly greater (so a NaN first stays, and one later never wins) */
	for (size_t i = 1; i < n; i++)
		if (maximize ? v[i] > v[best] : v[i] < v[best])
			best = i;
	return best;
}
