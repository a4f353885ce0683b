/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/units: suffixes, exact fractions, range and hostile input. */
#include "stats/units.h"
#include "test.h"

#include <stdint.h>

static int
cnt(const char *s, uint64_t want)
{
	uint64_t v = 0;
	return units_count(s, UINT64_MAX, &v, NULL) == 0 && v == want;
}

static int
byt(const char *s, uint64_t want)
{
	uint64_t v = 0;
	return units_bytes(s, UINT64_MAX, &v, NULL) == 0 && v == want;
}

static int
dur(const char *s, uint64_t want)
{
	uint64_t v = 0;
	return units_duration_ns(s, 1000000000, UINT64_MAX, &v, NULL) == 0 &&
	       v == want;
}

static const char *
why_of(const char *s)
{
	uint64_t v;
	const char *why = "";
	if (units_bytes(s, 1000, &v, &why) == 0)
		return "ok";
	return why;
}

int
main(void)
{
	TEST("units: plain count", cnt("42", 42));
	TEST("units: 10k", cnt("10k", 10000));
	TEST("units: 1.5k exact", cnt("1.5k", 1500));
	TEST("units: 2M", cnt("2M", 2000000));
	TEST("units: 3G", cnt("3g", 3000000000));
	TEST("units: fraction of one rejected", !cnt("1.5", 1));
	TEST("units: 2MiB", byt("2MiB", 2097152));
	TEST("units: 1KB decimal", byt("1KB", 1000));
	TEST("units: 1.5KiB", byt("1.5KiB", 1536));
	TEST("units: 7B", byt("7B", 7));
	TEST("units: 30s", dur("30s", 30000000000ULL));
	TEST("units: 500ms", dur("500ms", 500000000));
	TEST("units: bare seconds", dur("2", 2000000000));
	TEST("units: 0.25s", dur("0.25s", 250000000));
	TEST("units: 10us", dur("10us", 10000));
	TEST("units: 2m minutes", dur("2m", 120000000000ULL));
	TEST("units: 1h", dur("1h", 3600000000000ULL));
	TEST("units: .5s", dur(".5s", 500000000));
	TEST("units: trailing zeros in fraction", dur("1.000000000000000000000s", 1000000000));
	TEST("units: sub-ns rejected", !dur("0.1ns", 0));
	TEST_STR("units: empty", why_of(""), "invalid number");
	TEST_STR("units: sign", why_of("-1"), "invalid number");
	TEST_STR("units: bad unit", why_of("5xB"), "unknown unit");
	TEST_STR("units: space", why_of("5 B"), "unknown unit");
	TEST_STR("units: over max", why_of("1001"), "too large");
	TEST_STR("units: max ok", why_of("1000"), "ok");
	TEST_STR("units: just dot", why_of("."), "invalid number");
	TEST_STR("units: overflow", why_of("99999999999999999999999"), "too large");
	TEST_STR("units: overflow via unit", why_of("99999999999TiB"), "too large");
	TEST_STR("units: two dots", why_of("1.2.3"), "unknown unit");
	uint64_t v;
	TEST("units: NULL", units_count(NULL, 10, &v, NULL) < 0);
	TEST("units: full range", units_count("18446744073709551615", UINT64_MAX, &v, NULL) == 0 && v == UINT64_MAX);
	TEST("units: one past", units_count("18446744073709551616", UINT64_MAX, &v, NULL) < 0);
	return TEST_DONE();
}
