/* SPDX-License-Identifier: Apache-2.0 */
/* A tiny TAP harness for unit tests (redis testhelp.h). */
#ifndef AIPERF_TEST_H
#define AIPERF_TEST_H

#include <stdio.h>
#include <string.h>

static int test_n, test_failed;

#define TEST(name, cond) do { \
	test_n++; \
	if (cond) { \
		printf("ok %d - %s\n", test_n, name); \
	} else { \
		test_failed++; \
		printf("not ok %d - %s\n#   at %s:%d: %s\n", test_n, name, \
		       __FILE__, __LINE__, #cond); \
	} \
} while (0)

#define TEST_STR(name, got, want) do { \
	const char *g_ = (got), *w_ = (want); \
	int ok_ = g_ && w_ && !strcmp(g_, w_); \
	TEST(name, ok_); \
	if (!ok_) \
		printf("#   got  '%s'\n#   want '%s'\n", g_ ? g_ : "(null)", \
		       w_ ? w_ : "(null)"); \
} while (0)

#define TEST_DONE() (printf("1..%d\n", test_n), test_failed ? 1 : 0)

#endif
