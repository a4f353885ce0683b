/* SPDX-License-Identifier: Apache-2.0 */
/* Python's `random` module, exactly: MT19937, seeding, random(), getrandbits, randbelow, gauss, expo, gamma. */
#ifndef AIPERF_RNG_H
#define AIPERF_RNG_H

#include <stddef.h>
#include <stdint.h>

/*
 * A struct rng is caller-owned state (no allocation). The original derives
 * one generator per purpose: seed = first 8 bytes (big-endian) of
 * SHA-256("<root>:<identifier>"), fed to random.seed(int). rng_derive()
 * does exactly that, so equal seeds give the original's sequences.
 */
struct rng {
	uint32_t mt[624];
	int mti;
	int has_gauss;
	double gauss_next;
};

/* random.seed(n) for a non-negative integer n < 2^64. */
void rng_seed(struct rng *r, uint64_t n);
/* The child generator for identifier under root seed. */
void rng_derive(struct rng *r, uint64_t root, const char *identifier);
/* The derived child seed itself (for tests and records). */
uint64_t rng_child_seed(uint64_t root, const char *identifier);

uint32_t rng_u32(struct rng *r);
/* random.random(): 53-bit float in [0, 1). */
double rng_random(struct rng *r);
/* random.getrandbits(k), 0 <= k <= 64. */
uint64_t rng_getrandbits(struct rng *r, int k);
/* random._randbelow(n), n > 0: uniform in [0, n). */
uint64_t rng_below(struct rng *r, uint64_t n);
/* random.randint(a, b), a <= b. */
int64_t rng_randint(struct rng *r, int64_t a, int64_t b);
/* random.uniform(a, b). */
double rng_uniform(struct rng *r, double a, double b);
double rng_gauss(struct rng *r, double mu, double sigma);
/*
 * The original's RandomGenerator.sample_positive_normal_integer: a normal
 * draw, redrawn while negative (at most 10,000 tries, then the mean), rounded
 * up, at least 1; stddev <= 0 gives round(mean). Capped at 1e15 so that a
 * huge mean cannot overflow the conversion.
 */
long long rng_pos_normal_int(struct rng *r, double mean, double stddev);
double rng_expovariate(struct rng *r, double lambd);
double rng_gammavariate(struct rng *r, double alpha, double beta);
/* random.shuffle over an array of n size_t values. */
void rng_shuffle(struct rng *r, size_t *v, size_t n);

#endif
