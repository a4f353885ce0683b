/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/rand/pyrandom against values CPython 3.11.7 printed. */
#include <stdint.h>
#include <string.h>

#include "rand/pyrandom.h"
#include "test.h"

static int
same(const size_t *got, const size_t *want, size_t n)
{
	return !memcmp(got, want, n * sizeof(*got));
}

static void
test_seed(void)
{
	struct rng r;

	/* r=random.Random(0); [r.random() for _ in range(2)] */
	pyrandom_seed(&r, 0);
	TEST("seed 0: random 1", rng_random(&r) == 0.8444218515250481);
	TEST("seed 0: random 2", rng_random(&r) == 0.7579544029403025);
	/* r=random.Random(-5); r.getrandbits(32), r.getrandbits(64),
	 * r.getrandbits(1), r.getrandbits(0) */
	pyrandom_seed(&r, -5);
	TEST("seed -5 is abs: getrandbits 32", rng_getrandbits(&r, 32) == 2675342405U);
	TEST("getrandbits 64", rng_getrandbits(&r, 64) == UINT64_C(13683554807294777401));
	TEST("getrandbits 1", rng_getrandbits(&r, 1) == 0);
	TEST("getrandbits 0", rng_getrandbits(&r, 0) == 0);
}

static void
test_randrange(void)
{
	struct rng r;
	int64_t v[5], x = 0;
	int ok = 1;

	/* r=random.Random(12345); [r.randrange(10) for _ in range(5)],
	 * r.randrange(3,100,7), r.randrange(50,-50,-3), r.randrange(-10,-2) */
	pyrandom_seed(&r, 12345);
	for (int i = 0; i < 5; i++)
		ok &= !pyrandom_randrange(&r, 0, 10, 1, &v[i]);
	TEST("randrange(10)", ok && v[0] == 6 && v[1] == 0 && v[2] == 4 &&
	     v[3] == 5 && v[4] == 3);
	TEST("randrange(3, 100, 7)", !pyrandom_randrange(&r, 3, 100, 7, &x) && x == 31);
	TEST("randrange(50, -50, -3)",
	     !pyrandom_randrange(&r, 50, -50, -3, &x) && x == -31);
	TEST("randrange(-10, -2)", !pyrandom_randrange(&r, -10, -2, 1, &x) && x == -8);
	TEST("randrange: empty range", pyrandom_randrange(&r, 5, 5, 1, &x) == -1);
	TEST("randrange: empty stepped range", pyrandom_randrange(&r, 5, 10, -1, &x) == -1);
	TEST("randrange: step 0", pyrandom_randrange(&r, 0, 10, 0, &x) == -1);
}

static void
test_shuffle(void)
{
	struct rng r;
	size_t v[10], w7[7], w4[4];
	/* r=random.Random(2**40+7); x=list(range(10)); r.shuffle(x) */
	static const size_t want[10] = { 0, 5, 2, 3, 6, 1, 8, 4, 7, 9 };
	/* r=random.Random(0); x=list(range(7)); r.shuffle(x); r.randrange(3) */
	static const size_t want7[7] = { 4, 2, 1, 0, 5, 3, 6 };
	/* s=int(hashlib.sha256(b'hello').hexdigest(),16)%2**32 (2475399204);
	 * r=random.Random(s); x=list(range(4)); r.shuffle(x) */
	static const size_t want4[4] = { 3, 0, 1, 2 };
	int64_t x = 0;

	for (size_t i = 0; i < 10; i++)
		v[i] = i;
	pyrandom_seed(&r, (INT64_C(1) << 40) + 7);
	pyrandom_shuffle(&r, v, 10, sizeof(*v));
	TEST("shuffle, a seed of two words", same(v, want, 10));
	for (size_t i = 0; i < 7; i++)
		w7[i] = i;
	pyrandom_seed(&r, 0);
	pyrandom_shuffle(&r, w7, 7, sizeof(*w7));
	TEST("shuffle, seed 0", same(w7, want7, 7));
	TEST("randrange after it", !pyrandom_randrange(&r, 0, 3, 1, &x) && x == 1);
	for (size_t i = 0; i < 4; i++)
		w4[i] = i;
	pyrandom_seed(&r, 2475399204);
	pyrandom_shuffle(&r, w4, 4, sizeof(*w4));
	TEST("shuffle, GPQA's seed of 'hello'", same(w4, want4, 4));
	pyrandom_shuffle(&r, w4, 0, sizeof(*w4));
	pyrandom_shuffle(&r, w4, 1, sizeof(*w4));
	TEST("shuffle of 0 and 1 items leaves them", w4[0] == 3);
}

static void
test_sample(void)
{
	struct rng r;
	size_t out[25];
	/* r=random.Random(7); r.sample(range(10),4), r.sample(range(1000),8),
	 * r.sample(range(30),25) */
	static const size_t a[4] = { 5, 2, 6, 9 };
	static const size_t b[8] = { 49, 74, 840, 548, 96, 374, 596, 59 };
	static const size_t c[25] = { 29, 16, 6, 1, 2, 13, 24, 25, 7, 22, 17, 23, 26,
				      3, 21, 10, 14, 9, 0, 12, 18, 27, 11, 19, 15 };
	/* r=random.Random(7); r.sample(range(30),5), r.sample(range(22),3) */
	static const size_t d[5] = { 10, 4, 12, 20, 1 };
	static const size_t e[3] = { 2, 17, 3 };

	pyrandom_seed(&r, 7);
	TEST("sample: pool", !pyrandom_sample(&r, 10, 4, out) && same(out, a, 4));
	TEST("sample: set", !pyrandom_sample(&r, 1000, 8, out) && same(out, b, 8));
	TEST("sample: pool, k > 5", !pyrandom_sample(&r, 30, 25, out) && same(out, c, 25));
	pyrandom_seed(&r, 7);
	TEST("sample: set, k <= 5", !pyrandom_sample(&r, 30, 5, out) && same(out, d, 5));
	TEST("sample: set, n just past 21", !pyrandom_sample(&r, 22, 3, out) && same(out, e, 3));
	TEST("sample: k > n", pyrandom_sample(&r, 3, 4, out) == -1);
	TEST("sample: k = 0", !pyrandom_sample(&r, 0, 0, out));
}

static void
test_choice(void)
{
	struct rng r;
	/* r=random.Random(99); [r.choice(range(6)) for _ in range(6)] */
	static const size_t want[6] = { 3, 3, 1, 4, 1, 1 };
	size_t got[6];

	pyrandom_seed(&r, 99);
	for (int i = 0; i < 6; i++)
		got[i] = pyrandom_choice(&r, 6);
	TEST("choice", same(got, want, 6));
	TEST("choice of nothing", pyrandom_choice(&r, 0) == 0);
}

int
main(void)
{
	test_seed();
	test_randrange();
	test_shuffle();
	test_sample();
	test_choice();
	return TEST_DONE();
}
