/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/nprand: numpy default_rng reproduction. */
#include "nprand.h"

#include <stdio.h>

#include "test.h"

int
main(void)
{
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
