/* SPDX-License-Identifier: Apache-2.0 */
/* NumPy's default_rng(seed), exactly: SeedSequence, PCG64, random(), bounded intervals, shuffle. */
#ifndef AIPERF_NPRAND_H
#define AIPERF_NPRAND_H

#include <stddef.h>
#include <stdint.h>

/*
 * A struct nprand is caller-owned state (no allocation). The original's
 * RandomGenerator pairs a Python random.Random with numpy's
 * default_rng(seed); its shuffle() uses the numpy half, so a seeded
 * shuffle must reproduce numpy's SeedSequence -> PCG64 -> Generator path.
 * unsigned __int128 is a GCC/Clang extension; the 128-bit state is kept
 * as two halves so the module is plain C17.
 */
struct nprand {
	uint64_t state_hi, state_lo;
	uint64_t inc_hi, inc_lo;
	int has_u32;
	uint32_t u32;
};

/* np.random.default_rng(seed) for a non-negative integer seed < 2^64. */
void nprand_seed(struct nprand *r, uint64_t seed);
/* bit_generator.random_raw(): one 64-bit PCG64 (XSL-RR) output. */
uint64_t nprand_next64(struct nprand *r);
/* The buffered 32-bit draw numpy uses for small bounds. */
uint32_t nprand_next32(struct nprand *r);
/* Generator.random(): 53-bit float in [0, 1). */
double nprand_random(struct nprand *r);
/* numpy's random_interval(max): uniform in [0, max] by masked rejection. */
uint64_t nprand_interval(struct nprand *r, uint64_t max);
/* Generator.integers(0, 256, n, dtype=uint8) into px: a fresh 32-bit
 * draw for each four bytes, low byte first (numpy's buffered_uint8, its
 * buffer new for each call). */
void nprand_fill_u8(struct nprand *r, unsigned char *px, size_t n);
/* Generator.shuffle over an array of n size_t values (Fisher-Yates from the end). */
void nprand_shuffle(struct nprand *r, size_t *v, size_t n);

#endif
