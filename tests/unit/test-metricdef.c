/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/metricdef: lookups and table invariants. */
#include <string.h>

#include "stats/metricdef.h"
#include "test.h"

/* Every tag named in a deps list is in the catalogue. */
static int
deps_resolve(void)
{
	for (size_t i = 0; i < metricdefs_len; i++) {
		const char *d = metricdefs[i].deps;

		while (d && *d) {
			char t[64];
			size_t n = strcspn(d, " ");

			if (n >= sizeof(t))
				return 0;
			memcpy(t, d, n);
			t[n] = 0;
			if (!metricdef_find(t))
				return 0;
			d += n + (d[n] == ' ');
		}
	}
	return 1;
}

int
main(void)
{
	const struct metricdef *m = metricdef_find("time_to_first_token");
	int dup = 0, units = 1;

	TEST("find ttft", m && !strcmp(m->display, "ms") && m->order == 100);
	TEST("ns to ms factor", m && m->factor == 1e-6);
	TEST("benchmark duration in sec", metricdef_find("benchmark_duration")->factor == 1e-9);
	TEST("unknown tag", metricdef_find("nope") == NULL);
	for (size_t i = 0; i < metricdefs_len; i++) {
		for (size_t j = i + 1; j < metricdefs_len; j++)
			dup |= !strcmp(metricdefs[i].tag, metricdefs[j].tag);
		units &= metricdefs[i].factor > 0;
	}
	TEST("tags unique", !dup);
	TEST("deps resolve", deps_resolve());
	TEST("usage diff header as the original", !strcmp(metricdef_find(
		"usage_completion_tokens_diff_pct")->header, "Usage Completion Diff"));
	TEST("factors positive", units);
	int found = 1;
	for (size_t i = 0; i < metricdefs_len; i++) {
		size_t n = strlen(metricdefs[i].tag);

		found &= metricdef_find(metricdefs[i].tag) == &metricdefs[i]
			 && metricdef_findn(metricdefs[i].tag, n) == &metricdefs[i]
			 && !metricdef_findn(metricdefs[i].tag, n - 1);
	}
	TEST("every tag found by the hash, no prefix", found);
	TEST("inner NUL never matches", !metricdef_findn("request_latency\0x", 17)
	     && !metricdef_findn("request_latency\0", 16) && !metricdef_findn("", 0));
	return TEST_DONE();
}
