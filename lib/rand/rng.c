/* SPDX-License-Identifier: Apache-2.0 */
/* Python's `random` module, exactly (CPython _randommodule.c and random.py semantics). */
#include "rand/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#define PI 3.14159265358979323846
#define E_ 2.71828182845904523536
#define N 624
#define M 397

static void
init_genrand(struct rng *r, uint32_t s)
{
	r->mt[0] = s;
	for (int i = 1; i < N; i++)
		r->mt[i] = 1812433253U * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) +
			   (uint32_t)i;
	r->mti = N;
}

static void
init_by_array(struct rng *r, const uint32_t *key, size_t len)
{
	size_t i = 1, j = 0, k = N > len ? N : len;

	init_genrand(r, 19650218U);
	for (; k; k--) {
		r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) *
					1664525U)) + key[j] + (uint32_t)j;
		i++;
		j++;
		if (i >= N) {
			r->mt[0] = r->mt[N - 1];
			i = 1;
		}
		if (j >= len)
			j = 0;
	}
	for (k = N - 1; k; k--) {
		r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) *
					1566083941U)) - (uint32_t)i;
		i++;
		if (i >= N) {
			r->mt[0] = r->mt[N - 1];
			i = 1;
		}
	}
	r->mt[0] = 0x80000000U;
}

void
rng_seed(struct rng *r, uint64_t n)
{
	uint32_t key[2] = { (uint32_t)n, (uint32_t)(n >> 32) };

	init_by_array(r, key, key[1] ? 2 : 1);
	r->has_gauss = 0;
	r->gauss_next = 0;
}

uint64_t
rng_child_seed(uint64_t root, const char *identifier)
{
	char text[512];
	unsigned char d[32];
	uint64_t v = 0;
	int n = snprintf(text, sizeof(text), "%llu:%s",
			 (unsigned long long)root, identifier);

	size_t len = n < (int)sizeof(text) ? (size_t)n : sizeof(text) - 1;

	/* SHA-256 from libcrypto: the original hashes with hashlib.sha256 */
	if (!EVP_Digest(text, len, d, NULL, EVP_sha256(), NULL))
		abort();
	for (int i = 0; i < 8; i++)
		v = v << 8 | d[i];
	return v;
}

void
rng_derive(struct rng *r, uint64_t root, const char *identifier)
{
	rng_seed(r, rng_child_seed(root, identifier));
}

uint32_t
rng_u32(struct rng *r)
{
	static const uint32_t mag01[2] = { 0, 0x9908b0dfU };
	uint32_t y;

	if (r->mti >= N) {
		int kk;
		for (kk = 0; kk < N - M; kk++) {
			y = (r->mt[kk] & 0x80000000U) | (r->mt[kk + 1] & 0x7fffffffU);
			r->mt[kk] = r->mt[kk + M] ^ (y >> 1) ^ mag01[y & 1];
		}
		for (; kk < N - 1; kk++) {
			y = (r->mt[kk] & 0x80000000U) | (r->mt[kk + 1] & 0x7fffffffU);
			r->mt[kk] = r->mt[kk + (M - N)] ^ (y >> 1) ^ mag01[y & 1];
		}
		y = (r->mt[N - 1] & 0x80000000U) | (r->mt[0] & 0x7fffffffU);
		r->mt[N - 1] = r->mt[M - 1] ^ (y >> 1) ^ mag01[y & 1];
		r->mti = 0;
	}
	y = r->mt[r->mti++];
	y ^= y >> 11;
	y ^= (y << 7) & 0x9d2c5680U;
	y ^= (y << 15) & 0xefc60000U;
	y ^= y >> 18;
	return y;
}

double
rng_random(struct rng *r)
{
	uint32_t a = rng_u32(r) >> 5, b = rng_u32(r) >> 6;

	return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

uint64_t
rng_getrandbits(struct rng *r, int k)
{
	uint64_t v = 0;

	if (k <= 0)
		return 0;
	if (k <= 32)
		return rng_u32(r) >> (32 - k);
	/* Words are filled least significant first, the last one truncated. */
	v = rng_u32(r);
	uint32_t hi = rng_u32(r) >> (64 - k);
	return v | (uint64_t)hi << 32;
}

uint64_t
rng_below(struct rng *r, uint64_t n)
{
	int k = 0;
	uint64_t v;

	for (uint64_t t = n; t; t >>= 1)
		k++;
	do
		v = rng_getrandbits(r, k);
	while (v >= n);
	return v;
}

int64_t
rng_randint(struct rng *r, int64_t a, int64_t b)
{
	return a + (int64_t)rng_below(r, (uint64_t)(b - a) + 1);
}

double
rng_uniform(struct rng *r, double a, double b)
{
	return a + (b - a) * rng_random(r);
}

double
rng_gauss(struct rng *r, double mu, double sigma)
{
	double z;

	if (r->has_gauss) {
		z = r->gauss_next;
		r->has_gauss = 0;
	} else {
		double x2pi = rng_random(r) * 2 * PI;
		double g2rad = sqrt(-2.0 * log(1.0 - rng_random(r)));
		z = cos(x2pi) * g2rad;
		r->gauss_next = sin(x2pi) * g2rad;
		r->has_gauss = 1;
	}
	return mu + z * sigma;
}

long long
rng_pos_normal_int(struct rng *r, double mean, double stddev)
{
	double v = mean;

	if (stddev <= 0) {
		v = nearbyint(mean);	/* round(): half to even */
		return v < 1 ? 1 : v > 1e15 ? (long long)1e15 : (long long)v;
	}
	for (int i = 0; i < 10000; i++) {
		double n = rng_gauss(r, mean, stddev);

		if (n >= 0) {
			v = n;
			goto out;
		}
	}
	v = mean < 0 ? 0 : mean;
out:
	v = ceil(v);
	return v < 1 ? 1 : v > 1e15 ? (long long)1e15 : (long long)v;
}

double
rng_expovariate(struct rng *r, double lambd)
{
	return -log(1.0 - rng_random(r)) / lambd;
}

static double
gamma_big(struct rng *r, double alpha, double beta)
{
	double ainv = sqrt(2.0 * alpha - 1.0), bbb = alpha - log(4.0);
	double ccc = alpha + ainv, sg = 1.0 + log(4.5);

	for (;;) {
		double u1 = rng_random(r);
		if (!(1e-7 < u1 && u1 < 0.9999999))
			continue;
		double u2 = 1.0 - rng_random(r);
		double v = log(u1 / (1.0 - u1)) / ainv;
		double x = alpha * exp(v);
		double z = u1 * u1 * u2;
		double rr = bbb + ccc * v - x;
		if (rr + sg - 4.5 * z >= 0.0 || rr >= log(z))
			return x * beta;
	}
}

double
rng_gammavariate(struct rng *r, double alpha, double beta)
{
	double x;

	if (alpha > 1.0)
		return gamma_big(r, alpha, beta);
	if (alpha == 1.0)
		return -log(1.0 - rng_random(r)) * beta;
	for (;;) {
		double u = rng_random(r), b = (E_ + alpha) / E_, p = b * u;
		x = p <= 1.0 ? pow(p, 1.0 / alpha) : -log((b - p) / alpha);
		double u1 = rng_random(r);
		if (p > 1.0 ? u1 <= pow(x, alpha - 1.0) : u1 <= exp(-x))
			break;
	}
	return x * beta;
}

void
rng_shuffle(struct rng *r, size_t *v, size_t n)
{
	for (size_t i = n; i-- > 1;) {
		size_t j = (size_t)rng_below(r, i + 1), t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}
