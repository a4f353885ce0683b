/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/nprand: numpy default_rng reproduction. */
#include "rand/nprand.h"

#include <stdio.h>
#include <string.h>

#include "test.h"

/* Reference values captured from NumPy (default_rng(seed).bit_generator
 * .random_raw(), .integers(0, 2**32, dtype=uint32), .shuffle). */
static void
test_numpy_vectors(void)
{
	static const uint64_t raw7[6] = {
		11530976094092348043ULL, 16550673365885938325ULL,
		14308875409591826786ULL, 4154339397315733314ULL,
		5537090637313560901ULL, 16114216841932056372ULL,
	};
	static const uint32_t u32_0[4] = { 3653403231U, 2735729615U,
					   2195314465U, 1158725112U };
	static const size_t sh0[5] = { 2, 4, 3, 0, 1 };
	static const size_t sh1[12] = { 8, 11, 4, 7, 5, 0, 1, 9, 2, 10, 6, 3 };
	static const size_t sh10151[12] = { 11, 2, 10, 5, 6, 1, 8, 0, 9, 4, 7, 3 };
	struct nprand r;
	size_t v[12];
	int ok = 1;

	nprand_seed(&r, 7);
	for (int i = 0; i < 6; i++)
		ok &= nprand_next64(&r) == raw7[i];
	TEST("nprand: default_rng(7).random_raw() x6", ok);
	nprand_seed(&r, 0);
	ok = 1;
	for (int i = 0; i < 4; i++)
		ok &= nprand_next32(&r) == u32_0[i];
	TEST("nprand: 32-bit draws are low then high halves", ok);
	for (size_t i = 0; i < 12; i++)
		v[i] = i;
	nprand_seed(&r, 0);
	nprand_shuffle(&r, v, 5);
	TEST("nprand: default_rng(0).shuffle(range(5))", !memcmp(v, sh0, sizeof(sh0)));
	for (size_t i = 0; i < 12; i++)
		v[i] = i;
	nprand_seed(&r, 1);
	nprand_shuffle(&r, v, 12);
	TEST("nprand: default_rng(1).shuffle(range(12))", !memcmp(v, sh1, sizeof(sh1)));
	for (size_t i = 0; i < 12; i++)
		v[i] = i;
	nprand_seed(&r, 10151);
	nprand_shuffle(&r, v, 12);
	TEST("nprand: default_rng(10151).shuffle(range(12))",
	     !memcmp(v, sh10151, sizeof(sh10151)));
}

/*
 * Reference values from NumPy 1.24 (/usr/bin/python3, python3-numpy):
 *   default_rng(12345).random(3)
 *   RandomState(PCG64(12345)).randint(0, 7, size=16, dtype=np.uint32) and
 *   RandomState(PCG64(12345)).randint(0, 2**40 + 1, size=4, dtype=np.uint64):
 *     the legacy masked-rejection path over buffered 32-bit (or 64-bit)
 *     draws, which is random_interval(6) and random_interval(2**40)
 *   a = np.arange(10); g = default_rng(42); g.shuffle(a); a, then
 *     g.shuffle(a[:0]); g.shuffle(a[:1]); g.random()
 *   default_rng(2**64 - 1).random(), default_rng(2**32).random()
 */
static void
test_generator_vectors(void)
{
	static const double rnd12345[3] = { 0.22733602246716966,
					    0.31675833970975287,
					    0.7973654573327341 };
	static const uint64_t iv6[16] = { 5, 5, 6, 5, 1, 2, 0, 6,
					  5, 0, 3, 5, 1, 4, 5, 1 };
	static const uint64_t iv40[4] = { 559222681561ULL, 750084614416ULL,
					  110009035775ULL, 46879192719ULL };
	static const size_t sh42[10] = { 5, 6, 0, 7, 3, 2, 4, 9, 1, 8 };
	struct nprand r = { 0 };	/* no stale buffered half from the stack */
	size_t v[10];
	int ok = 1;

	nprand_seed(&r, 12345);
	TEST("nprand: default_rng(12345).random()", nprand_random(&r) == rnd12345[0]);
	for (int i = 0; i < 20; i++)
		nprand_next64(&r);
	nprand_seed(&r, 12345);
	ok = nprand_random(&r) == rnd12345[0];
	ok &= nprand_random(&r) == rnd12345[1];
	ok &= nprand_random(&r) == rnd12345[2];
	TEST("nprand: reseeding restarts the stream (random(3) again)", ok);

	nprand_next32(&r);	/* leaves a buffered half, which reseeding drops */
	nprand_seed(&r, 12345);
	ok = 1;
	for (int i = 0; i < 16; i++)
		ok &= nprand_interval(&r, 6) == iv6[i];
	TEST("nprand: interval(6) after a reseed as numpy's masked 32-bit rejection", ok);
	nprand_seed(&r, 12345);
	ok = 1;
	for (int i = 0; i < 4; i++)
		ok &= nprand_interval(&r, (uint64_t)1 << 40) == iv40[i];
	TEST("nprand: interval(2^40) as numpy's masked 64-bit rejection", ok);

	for (size_t i = 0; i < 10; i++)
		v[i] = i;
	nprand_seed(&r, 42);
	nprand_shuffle(&r, v, 10);
	TEST("nprand: default_rng(42).shuffle(arange(10))", !memcmp(v, sh42, sizeof(sh42)));
	nprand_shuffle(&r, v, 0);
	nprand_shuffle(&r, v, 1);
	TEST("nprand: shuffle of 0 and 1 elements draws nothing",
	     v[0] == sh42[0] && nprand_random(&r) == 0.761139701990353);

	nprand_seed(&r, UINT64_MAX);
	TEST("nprand: default_rng(2**64 - 1).random()",
	     nprand_random(&r) == 0.6800266789616931);
	nprand_seed(&r, (uint64_t)1 << 32);
	TEST("nprand: default_rng(2**32).random() (two entropy words)",
	     nprand_random(&r) == 0.8897387912781343);
}

int
main(void)
{
	test_numpy_vectors();
	test_generator_vectors();
	return TEST_DONE();
}
