/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/rng against values CPython 3.11 printed. */
#include <stdint.h>
#include <stdio.h>

#include "rand/rng.h"
#include "test.h"

int
main(void)
{
	struct rng r;

	/* int.from_bytes(hashlib.sha256(b"0:").digest()[:8], "big") */
	TEST("child seed of an empty identifier", rng_child_seed(0, "") ==
			   UINT64_C(0xba768b331fd86cec));

	rng_seed(&r, 42);
	TEST("random 1", rng_random(&r) == 0.6394267984578837);
	TEST("random 2", rng_random(&r) == 0.025010755222666936);
	TEST("getrandbits 40", rng_getrandbits(&r, 40) == 267469214295ULL);
	TEST("randint", rng_randint(&r, 0, 999) == 228);
	TEST("gauss", rng_gauss(&r, 0, 1) == 0.2974745204017183);
	TEST("expovariate", rng_expovariate(&r, 2.0) == 0.6748226001483627);
	TEST("gammavariate alpha<1", rng_gammavariate(&r, 0.5, 1) == 0.4169040849412097);
	TEST("gammavariate alpha>1", rng_gammavariate(&r, 3, 2) == 3.518654053537551);

	TEST("child seed", rng_child_seed(42, "dataset.prompt.corpus") ==
			   10558974911300946294ULL);
	rng_derive(&r, 42, "dataset.prompt.corpus");
	TEST("derived random", rng_random(&r) == 0.2404003222019041);
	TEST("derived randint 1e12", rng_randint(&r, 0, 1000000000000LL) == 520989485096LL);

	/* sample_positive_normal_integer, with random.Random(42) */
	rng_seed(&r, 42);
	TEST("positive normal 1", rng_pos_normal_int(&r, 100, 30) == 96);
	TEST("positive normal 2", rng_pos_normal_int(&r, 100, 30) == 95);
	TEST("positive normal 3", rng_pos_normal_int(&r, 100, 30) == 97);
	TEST("positive normal 4", rng_pos_normal_int(&r, 100, 30) == 122);
	TEST("positive normal: never-positive draws give 1", rng_pos_normal_int(&r, -5, 1) == 1);
	TEST("positive normal: stddev 0 rounds half to even",
	     rng_pos_normal_int(&r, 2.5, 0) == 2 && rng_pos_normal_int(&r, 3.5, 0) == 4);
	TEST("positive normal: at least 1", rng_pos_normal_int(&r, 0.2, 0) == 1);
	TEST("positive normal: capped at 1e15", rng_pos_normal_int(&r, 1e30, 0) == 1000000000000000LL &&
	     rng_pos_normal_int(&r, 1e30, 1e20) == 1000000000000000LL);

	size_t v[10] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	size_t want[10] = { 8, 3, 1, 4, 7, 0, 9, 6, 2, 5 };
	rng_seed(&r, 7);
	rng_shuffle(&r, v, 10);
	int same = 1;
	for (int i = 0; i < 10; i++)
		same &= v[i] == want[i];
	TEST("shuffle", same);
	rng_seed(&r, (1ULL << 40) + 5);
	TEST("two-word seed", rng_random(&r) == 0.5043802970418443);
	rng_seed(&r, 0);
	TEST("seed 0", rng_random(&r) == 0.8444218515250481);
	return TEST_DONE();
}
