/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/nprand: numpy default_rng reproduction. */
#include "nprand.h"

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

int
main(void)
{
	test_numpy_vectors();
	struct nprand r;
	size_t v[10], seen = 0;

	/* numpy documentation: default_rng(12345).random() */
	nprand_seed(&r, 12345);
	TEST("nprand: default_rng(12345).random()",
	     nprand_random(&r) == 0.22733602246716966);
	nprand_seed(&r, 12345);
	nprand_next64(&r);
	TEST("nprand: reseeding restarts the stream",
	     nprand_random(&r) != 0.22733602246716966);
	for (int i = 0; i < 1000; i++)
		if (nprand_interval(&r, 6) > 6)
			seen++;
	TEST("nprand: interval stays in bounds", seen == 0);
	for (size_t i = 0; i < 10; i++)
		v[i] = i;
	nprand_seed(&r, 42);
	nprand_shuffle(&r, v, 10);
	seen = 0;
	for (size_t i = 0; i < 10; i++)
		seen |= (size_t)1 << v[i];
	TEST("nprand: shuffle is a permutation", seen == 0x3ff);
	nprand_shuffle(&r, v, 0);
	nprand_shuffle(&r, v, 1);
	TEST("nprand: shuffle of 0 and 1 elements", v[0] < 10);
	nprand_seed(&r, UINT64_MAX);
	TEST("nprand: 64-bit seed", nprand_random(&r) < 1.0);
	return TEST_DONE();
}
