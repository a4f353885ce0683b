/* SPDX-License-Identifier: Apache-2.0 */
/* NumPy's default_rng(seed): SeedSequence(seed) -> PCG64 (XSL-RR 128/64) -> Generator methods. */
#include "rand/nprand.h"

#define INIT_A 0x43b0d7e5U
#define MULT_A 0x931e8875U
#define INIT_B 0x8b51f9ddU
#define MULT_B 0x58f38dedU
#define MIX_MULT_L 0xca01f9ddU
#define MIX_MULT_R 0x4973f715U
#define POOL 4
#define MULT_HI 0x2360ed051fc65da4ULL
#define MULT_LO 0x4385df649fccf645ULL

static uint32_t
hashmix(uint32_t value, uint32_t *hash_const)
{
	value ^= *hash_const;
	*hash_const *= MULT_A;
	value *= *hash_const;
	return value ^ (value >> 16);
}

static uint32_t
mix(uint32_t x, uint32_t y)
{
	uint32_t r = MIX_MULT_L * x - MIX_MULT_R * y;

	return r ^ (r >> 16);
}

/* SeedSequence(seed).pool for an integer entropy of at most two words. */
static void
seedseq_pool(uint64_t seed, uint32_t pool[POOL])
{
	uint32_t ent[2], h = INIT_A;
	int n = 0;

	ent[n++] = (uint32_t)seed;
	if (seed >> 32)
		ent[n++] = (uint32_t)(seed >> 32);
	for (int i = 0; i < POOL; i++)
		pool[i] = hashmix(i < n ? ent[i] : 0, &h);
	for (int s = 0; s < POOL; s++)
		for (int d = 0; d < POOL; d++)
			if (s != d)
				pool[d] = mix(pool[d], hashmix(pool[s], &h));
}

/* generate_state(4, uint64): eight words, read little-endian in pairs. */
static void
seedseq_state(const uint32_t pool[POOL], uint64_t out[4])
{
	uint32_t w[8], h = INIT_B;

	for (int i = 0; i < 8; i++) {
		uint32_t v = pool[i % POOL] ^ h;

		h *= MULT_B;
		v *= h;
		w[i] = v ^ (v >> 16);
	}
	for (int i = 0; i < 4; i++)
		out[i] = (uint64_t)w[2 * i] | (uint64_t)w[2 * i + 1] << 32;
}

static void
mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
	uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;

	*lo = (mid << 32) | (uint32_t)p00;
	*hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* state = state * MULT + inc (mod 2^128). */
static void
step(struct nprand *r)
{
	uint64_t hi, lo;

	mul64(r->state_lo, MULT_LO, &hi, &lo);
	hi += r->state_hi * MULT_LO + r->state_lo * MULT_HI;
	lo += r->inc_lo;
	hi += r->inc_hi + (lo < r->inc_lo);
	r->state_hi = hi;
	r->state_lo = lo;
}

void
nprand_seed(struct nprand *r, uint64_t seed)
{
	uint32_t pool[POOL];
	uint64_t v[4];

	seedseq_pool(seed, pool);
	seedseq_state(pool, v);
	/* pcg_setseq_128_srandom_r(initstate = v0:v1, initseq = v2:v3) */
	r->state_hi = r->state_lo = 0;
	r->inc_hi = v[2] << 1 | v[3] >> 63;
	r->inc_lo = v[3] << 1 | 1;
	step(r);
	r->state_lo += v[1];
	r->state_hi += v[0] + (r->state_lo < v[1]);
	step(r);
	r->has_u32 = 0;
	r->u32 = 0;
}

uint64_t
nprand_next64(struct nprand *r)
{
	uint64_t x;
	unsigned rot;

	step(r);
	x = r->state_hi ^ r->state_lo;
	rot = (unsigned)(r->state_hi >> 58);
	return (x >> rot) | (x << ((64 - rot) & 63));
}

uint32_t
nprand_next32(struct nprand *r)
{
	uint64_t next;

	if (r->has_u32) {
		r->has_u32 = 0;
		return r->u32;
	}
	next = nprand_next64(r);
	r->has_u32 = 1;
	r->u32 = (uint32_t)(next >> 32);
	return (uint32_t)next;
}

double
nprand_random(struct nprand *r)
{
	return (double)(nprand_next64(r) >> 11) * (1.0 / 9007199254740992.0);
}

uint64_t
nprand_interval(struct nprand *r, uint64_t max)
{
	uint64_t mask = max, v;

	if (max == 0)
		return 0;
	for (int s = 1; s < 64; s <<= 1)
		mask |= mask >> s;
	if (max <= 0xffffffffU) {
		while ((v = nprand_next32(r) & mask) > max)
			;
	} else {
		while ((v = nprand_next64(r) & mask) > max)
			;
	}
	return v;
}

void
nprand_shuffle(struct nprand *r, size_t *v, size_t n)
{
	for (size_t i = n > 1 ? n - 1 : 0; i >= 1; i--) {
		size_t j = (size_t)nprand_interval(r, i), t = v[i];

		v[i] = v[j];
		v[j] = t;
	}
}

void
nprand_fill_u8(struct nprand *r, unsigned char *px, size_t n)
{
	for (size_t i = 0; i < n; i += 4) {
		uint32_t u = nprand_next32(r);

		for (size_t k = 0; k < 4 && i + k < n; k++, u >>= 8)
			px[i + k] = (unsigned char)u;
	}
}
