/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/stats/unitconv: the original's unit conversions. */
#include "stats/unitconv.h"

#include <stdio.h>

#include "test.h"

static void
test_unit_factor(void)
{
	static const struct {
		const char *from, *to;
		double f;
	} ok[] = {
		{ "ms", "ms", 1 }, { "ns", "ms", 1000 / 1e9 }, { "s", "ms", 1e3 },
		{ "sec", "ms", 1e3 }, { "us", "sec", 1 / 1e6 }, { "ms", "s", 1 / 1e3 },
		{ "sec", "s", 1 }, { "MB", "KB", 1024 }, { "B", "GB", 1.0 / 1073741824 },
		{ "mW", "W", 1 / 1e3 }, { "MJ", "J", 1 / 1e-6 },
		{ "tokens/ms", "tokens/sec", 1e3 }, { "tokens/sec/user", "tokens/ms/user", 1e-3 },
		{ "ms/image", "s/image", 1e-3 }, { "MB/sec", "GB/sec", 1.0 / 1024 },
		{ "furlongs", "furlongs", 1 },
	};
	static const char *const bad[][2] = {
		{ "ms", "tokens" }, { "ms", "" }, { "", "ms" }, { "%", "ratio" },
		{ "ms", "KB" }, { "tokens/sec", "tokens" }, { "tokens", "tokens/sec" },
		{ "tokens/sec", "requests/sec" }, { "ms/", "ms" }, { "W", "J" },
		{ "MS", "ms" }, { "ms ", "ms" },
	};
	int all = 1;
	double f;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		f = 0;
		all &= unitconv_factor(ok[i].from, ok[i].to, &f) == 0 && f == ok[i].f;
		if (!all)
			printf("# %s -> %s: %.17g\n", ok[i].from, ok[i].to, f);
	}
	TEST("units converted as the original does (its doubles exactly)", all);
	all = 1;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		all &= unitconv_factor(bad[i][0], bad[i][1], &f) < 0;
	TEST("units that cannot be converted: refused", all);
}

int
main(void)
{
	test_unit_factor();
	return TEST_DONE();
}
