/* SPDX-License-Identifier: Apache-2.0 */
/* CPython 3.11 random.py's seeding, randrange, choice, sample and shuffle over lib/rand/rng. */
#include "rand/pyrandom.h"

#include <math.h>
#include <string.h>

#include "util.h"

void
pyrandom_seed(struct rng *r, int64_t n)
{
	rng_seed(r, n < 0 ? (uint64_t)0 - (uint64_t)n : (uint64_t)n);
}

/* Python's floor division, b != 0. */
static int64_t
floordiv(int64_t a, int64_t b)
{
	int64_t q = a / b;

	if ((a % b != 0) && ((a < 0) != (b < 0)))
		q--;
	return q;
}

int
pyrandom_randrange(struct rng *r, int64_t start, int64_t stop, int64_t step,
		   int64_t *out)
{
	int64_t width = stop - start, n;

	if (step == 1) {
		if (width <= 0)
			return -1;
		*out = start + (int64_t)rng_below(r, (uint64_t)width);
		return 0;
	}
	if (step == 0)
		return -1;
	n = step > 0 ? floordiv(width + step - 1, step) :
		       floordiv(width + step + 1, step);
	if (n <= 0)
		return -1;
	*out = start + step * (int64_t)rng_below(r, (uint64_t)n);
	return 0;
}

size_t
pyrandom_choice(struct rng *r, size_t n)
{
	return n ? (size_t)rng_below(r, n) : 0;
}

/* The small-population path: draw from a pool, filling each hole from its end. */
static void
sample_pool(struct rng *r, size_t n, size_t k, size_t *out)
{
	size_t *pool = xreallocarray(NULL, n ? n : 1, sizeof(*pool));

	for (size_t i = 0; i < n; i++)
		pool[i] = i;
	for (size_t i = 0; i < k; i++) {
		size_t j = (size_t)rng_below(r, n - i);

		out[i] = pool[j];
		pool[j] = pool[n - i - 1];
	}
	free(pool);
}

/* The large-population path: redraw an index already selected (a small
 * open-addressing set of k + 1 indices at most half full). */
static void
sample_set(struct rng *r, size_t n, size_t k, size_t *out)
{
	size_t cap = 2, *set;

	while (cap < 2 * (k + 1))
		cap *= 2;
	set = xreallocarray(NULL, cap, sizeof(*set));
	for (size_t i = 0; i < cap; i++)
		set[i] = SIZE_MAX;
	for (size_t i = 0; i < k; i++) {
		size_t j, h;

		for (;;) {
			j = (size_t)rng_below(r, n);
			for (h = (j * 0x9e3779b97f4a7c15ULL) & (cap - 1);
			     set[h] != SIZE_MAX && set[h] != j; h = (h + 1) & (cap - 1))
				;
			if (set[h] == SIZE_MAX)
				break;
		}
		set[h] = j;
		out[i] = j;
	}
	free(set);
}

int
pyrandom_sample(struct rng *r, size_t n, size_t k, size_t *out)
{
	double setsize = 21;

	if (k > n)
		return -1;
	if (k > 5)
		setsize += pow(4, ceil(log((double)k * 3) / log(4)));
	if ((double)n <= setsize)
		sample_pool(r, n, k, out);
	else
		sample_set(r, n, k, out);
	return 0;
}

void
pyrandom_shuffle(struct rng *r, void *v, size_t n, size_t size)
{
	unsigned char *p = v, t[256];

	if (size > sizeof(t))
		abort();
	for (size_t i = n; i-- > 1;) {
		size_t j = (size_t)rng_below(r, i + 1);

		if (j == i)
			continue;
		memcpy(t, p + i * size, size);
		memcpy(p + i * size, p + j * size, size);
		memcpy(p + j * size, t, size);
	}
}
