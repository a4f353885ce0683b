/* SPDX-License-Identifier: Apache-2.0 */
/* The rest of Python's random.Random over lib/rand/rng: seeding from a signed integer, randrange, choice, sample, shuffle. */
#ifndef AIPERF_PYRANDOM_H
#define AIPERF_PYRANDOM_H

#include <stddef.h>
#include <stdint.h>

#include "rand/rng.h"

/*
 * lib/rand/rng is CPython's MT19937 with random(), getrandbits() and
 * _randbelow(); this module adds what CPython 3.11's random.py builds on
 * them, with the same draws in the same order, so that a seeded sequence
 * matches the original's. The caller owns the struct rng; nothing here
 * allocates but pyrandom_sample()'s scratch (freed before it returns).
 */

/*
 * random.Random(n) for a 64-bit integer: CPython's random_seed() feeds
 * init_by_array the 32-bit words of abs(n), least significant first
 * (rng_seed() for the magnitude), so Random(-5) is Random(5).
 */
void pyrandom_seed(struct rng *r, int64_t n);

/*
 * random.randrange(start, stop, step) (randrange(n) is start 0, stop n,
 * step 1). Returns 0 and stores the draw, or -1 when Python raises
 * ValueError: an empty range or step 0 (nothing is drawn then).
 * start, stop and step must lie within +-2^62 (no overflow checks).
 */
int pyrandom_randrange(struct rng *r, int64_t start, int64_t stop,
		       int64_t step, int64_t *out);

/* The index random.choice(seq) picks in a sequence of n > 0 items
 * (seq[_randbelow(n)]); n = 0 (IndexError) returns 0 and draws nothing. */
size_t pyrandom_choice(struct rng *r, size_t n);

/*
 * The indices random.sample(range(n), k) returns, in order, into out[k]
 * (k <= n: Python's ValueError otherwise, -1, nothing drawn). Both of
 * CPython's paths are kept: the pool for small n, the set of selected
 * indices for large n (the draws differ). Returns 0 or -1.
 */
int pyrandom_sample(struct rng *r, size_t n, size_t k, size_t *out);

/* random.shuffle(x) over n elements of size bytes each (at most 256). */
void pyrandom_shuffle(struct rng *r, void *v, size_t n, size_t size);

#endif
