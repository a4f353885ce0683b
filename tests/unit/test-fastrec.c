/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/summary/fastrec.c (aiperf-export's reader): it reads aiperf-metrics' compact records and leaves every other line to the JSON parser with the same result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#pragma GCC diagnostic ignored "-Wshadow"
#include "fastrec-same.h"
#include "test.h"

static const char R[] =
	"{\"metadata\":{\"session_num\":0,\"x_request_id\":\"r\",\"request_start_ns\":"
	"1759813207532900363,\"request_end_ns\":1759813207667900363,\"benchmark_phase\":"
	"\"profiling\",\"was_cancelled\":false},\"metrics\":{\"input_sequence_length\":"
	"{\"value\":100,\"unit\":\"tokens\"},\"request_latency\":{\"value\":135.0,\"unit\":\"ms\"},"
	"\"inter_chunk_latency\":{\"value\":[5.0,5.5],\"unit\":\"ms\"},\"zz_unknown\":{\"value\":"
	"[1,2],\"unit\":\"x\"},\"e2e_output_token_throughput\":{\"value\":59.25925925925925,"
	"\"unit\":\"tokens/sec/user\"}},\"aiperf\":{\"schedule_lateness_ns\":12,"
	"\"observation_delay_ns\":[3,4],\"cpu_ns\":5}}";

static struct frec fr;
static struct agg fast, slow;

static int
same(const char *s)
{
	return fastrec_same(&fr, &fast, &slow, s, strlen(s));
}

/* R with the first from replaced by to. */
static char *
edit(const char *from, const char *to)
{
	static char out[4096];
	const char *p = strstr(R, from);

	if (!p)
		abort();
	snprintf(out, sizeof(out), "%.*s%s%s", (int)(p - R), R, to, p + strlen(from));
	return out;
}

static size_t
def_of(const char *tag)
{
	return (size_t)(metricdef_find(tag) - metricdefs);
}

static void
test_reads(void)
{
	double v;

	TEST("the compact record is read", frec_scan(&fr, R, strlen(R)) == 0);
	TEST("its stamps", fr.have_start && fr.start == 1759813207532900363LL &&
	     fr.have_end && fr.end == 1759813207667900363LL && !fr.warmup);
	TEST("its known metrics (the unknown one left out)", fr.nm == 4);
	TEST("a scalar value", frec_value(&fr, def_of("request_latency"), &v) == 0 && v == 135.0);
	TEST("a 16-digit value as strtod reads it",
	     frec_value(&fr, def_of("e2e_output_token_throughput"), &v) == 0 &&
	     v == strtod("59.25925925925925", NULL));
	TEST("no scalar for a list", frec_value(&fr, def_of("inter_chunk_latency"), &v) < 0);
	TEST("no value for a metric not there", frec_value(&fr, def_of("time_to_first_token"), &v) < 0);
	TEST("a list's base values (ns)", fr.m[2].n == 2 && fr.base[fr.m[2].first] == 5e6 &&
	     fr.base[fr.m[2].first + 1] == 5.5e6);
	TEST("its aiperf members", fr.have_aiperf && fr.have_late && fr.late == 12 &&
	     fr.ndelay == 2 && fr.delay[1] == 4 && fr.have_cpu && fr.cpu == 5 && !fr.have_intended);
	TEST("read again (the expected order)", frec_scan(&fr, R, strlen(R)) == 0 && fr.nm == 4);
	TEST("warmup", frec_scan(&fr, edit("profiling", "warmup"), strlen(edit("profiling", "warmup"))) == 0 &&
	     fr.warmup);
	TEST("and the same aggregation as the parser's", same(R) == 1);
	TEST("without aiperf", same(edit(",\"aiperf\":{\"schedule_lateness_ns\":12,"
					 "\"observation_delay_ns\":[3,4],\"cpu_ns\":5}", "")) == 1);
	TEST("a warmup record", same(edit("profiling", "warmup")) == 0);
	TEST("metrics in another order", same(edit("\"input_sequence_length\":{\"value\":100,\"unit\":\"tokens\"},", "")) == 1);
	TEST("empty metrics and metadata", same("{\"metadata\":{},\"metrics\":{}}") == 1);
}

/* Lines the reader must leave to the parser, which then judges them. */
static void
test_leaves(void)
{
	static const char *const from[][2] = {
		{ "\"metrics\":", "\"metrics\": " },
		{ "{\"value\":135.0", "{ \"value\":135.0" },
		{ "request_latency", "request\\u005flatency" },
		{ "\"r\"", "\"r\\n\"" },
		{ "\"r\"", "\"\xc3\xa9\"" },
		{ "\"r\"", "\"\x01\"" },
		{ "\"r\"", "\"\x7f\"" },
		{ "\"r\"", "{}" },
		{ "\"unit\":\"ms\"", "\"unit\":\"m\\u0073\"" },
		{ "\"input_sequence_length\"", "\"request_latency\"" },
		{ "{\"value\":100,", "{\"value\":100,\"value\":1," },
		{ "135.0", "01" },
		{ "135.0", "1." },
		{ "135.0", "-" },
		{ "135.0", "+1" },
		{ "135.0", "1e400" },
		{ "135.0", "-1e308" },
		{ "135.0", "NaN" },
		{ "135.0", "\"135\"" },
		{ "135.0", "null" },
		{ "135.0", "1000000000000000000000000000000000000000000000000000000000000000000.5" },
		{ "\"cpu_ns\":5", "\"cpu_ns\":-5" },
		{ "\"cpu_ns\":5", "\"cpu_ns\":5.5" },
		{ "\"cpu_ns\":5", "\"cpu_ns\":\"5\"" },
		{ "\"cpu_ns\":5", "\"other\":5" },
		{ "[3,4]", "[3,\"4\"]" },
		{ "[3,4]", "[3,4,]" },
		{ "[5.0,5.5]", "[5.0,,5.5]" },
		{ "[5.0,5.5]", "[5.0 ,5.5]" },
		{ "\"aiperf\"", "\"error\"" },
		{ "{\"metadata\"", "{\"x\":1,\"metadata\"" },
	};
	char line[4096];

	for (size_t i = 0; i < sizeof(from) / sizeof(from[0]); i++) {
		const char *s = edit(from[i][0], from[i][1]);
		char name[160];

		snprintf(name, sizeof(name), "left to the parser: %s -> %s", from[i][0], from[i][1]);
		TEST(name, frec_scan(&fr, s, strlen(s)) < 0);
		snprintf(name, sizeof(name), "and it agrees: %s -> %s", from[i][0], from[i][1]);
		TEST(name, same(s) == -1);
	}
	TEST("a trailing space", snprintf(line, sizeof(line), "%s ", R) > 0 &&
	     frec_scan(&fr, line, strlen(line)) < 0);
	TEST("trailing bytes", snprintf(line, sizeof(line), "%s}", R) > 0 &&
	     frec_scan(&fr, line, strlen(line)) < 0);
	/* every prefix: none is a whole record, and none is read */
	int bad = 0;
	for (size_t n = 0; n < strlen(R); n++)
		bad += frec_scan(&fr, R, n) == 0;
	TEST("no cut record is read", bad == 0);
}

/* A number in every position of its grammar against json_double(). */
static void
test_numbers(void)
{
	static const char *const nums[] = { "0", "-0", "0.0", "-0.0", "5", "135.25",
		"0.1", "0.30000000000000004", "123456789012345", "1234567890123456",
		"9007199254740993", "1e2", "1E+2", "2e-1", "5e-324", "1e-400",
		"4.35e-23", "1.5e-22", "0.0000000000000000000001", "0.00000000000000000000001",
		"100000000000000000000000", "-7.25", "59.25925925925925",
		/* 16 to 19 digits: fr_exact(), ties to even included */
		"0.24307299999999998", "3.8899049999999997", "-519.1854218073748",
		"9007199254740992.5", "9007199254740993.5", "18014398509481985",
		"1234567890123456789", "9999999999999999999", "18446744073709551615",
		"0.0000001234567890123456", "0.00000012345678901234567",
		"0.1000000000000000055511151231257827", "123456789012345678.9",
		"1.0000000000000000", "4503599627370495.5", "4503599627370497.5",
		/* 20 digits whose 64-bit accumulation wraps to 0 (fuzz-fastrec) */
		"18446744073709551616", "36893488147419103232", "1844674407370955161.6",
		/* leading and only zeros: not significant */
		"0.00", "-0.000", "0.0000000000000000000000", "0.00000000000000000000000",
		"0.0000012345678901234567", "0.1234567890123456789", "0.12345678901234567891" };
	char line[512], name[128];

	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		double v, want = strtod(nums[i], NULL);

		snprintf(line, sizeof(line), "{\"metadata\":{},\"metrics\":{\"output_token_count\":"
			 "{\"value\":%s,\"unit\":\"tokens\"}}}", nums[i]);
		snprintf(name, sizeof(name), "number %s", nums[i]);
		TEST(name, frec_scan(&fr, line, strlen(line)) == 0 &&
		     frec_value(&fr, def_of("output_token_count"), &v) == 0 &&
		     !memcmp(&v, &want, sizeof(v)));
		snprintf(name, sizeof(name), "number %s: the same aggregation", nums[i]);
		TEST(name, same(line) == 1);
	}
}

/* The metadata keys the last record had, taken as they are at their
 * places: every change of them between records is read as the parser reads it. */
static void
test_keys(void)
{
	static const char *const from[][2] = {
		{ "\"x_request_id\"", "\"x_request_idx\"" },
		{ "\"x_request_id\"", "\"x_request\"" },
		{ "\"x_request_id\":\"r\"", "\"request_start_ns\":5" },
		{ "\"session_num\":0,", "" },
		{ "\"session_num\":0,", "\"session_num\":0,\"extra\":1," },
		{ "\"request_start_ns\"", "\"request_end_ns\"" },
		{ "\"benchmark_phase\"", "\"benchmark_phasE\"" },
		{ "\"was_cancelled\":false}", "\"was_cancelled\":false,\"benchmark_phase\":\"warmup\"}" },
		{ "\"x_request_id\"", "\"x\\u005frequest_id\"" },
		{ "\"x_request_id\":", "\"x_request_id\" :" },
	};
	char line[8192], name[200];
	int n;

	for (size_t i = 0; i < sizeof(from) / sizeof(from[0]); i++) {
		TEST("the record before", same(R) == 1);
		snprintf(name, sizeof(name), "a metadata key changed: %s -> %s", from[i][0], from[i][1]);
		TEST(name, same(edit(from[i][0], from[i][1])) != -2);
		TEST("and back", same(R) == 1);
	}
	/* more keys than are kept, and longer ones */
	n = snprintf(line, sizeof(line), "{\"metadata\":{");
	for (int i = 0; i < 40; i++)
		n += snprintf(line + n, sizeof(line) - (size_t)n, "\"k%d\":%d,", i, i);
	snprintf(line + n, sizeof(line) - (size_t)n, "\"request_start_ns\":7},\"metrics\":{}}");
	TEST("40 metadata keys", same(line) == 1);
	TEST("and again", same(line) == 1);
	TEST("and the record before", same(R) == 1);
	n = snprintf(line, sizeof(line), "{\"metadata\":{\"");
	for (int i = 0; i < 1100; i++)
		line[n++] = 'k';
	snprintf(line + n, sizeof(line) - (size_t)n, "\":1,\"request_end_ns\":9},\"metrics\":{}}");
	TEST("a 1100-byte metadata key", same(line) == 1);
	TEST("and again", same(line) == 1);
	TEST("and the record before", same(R) == 1);
}

/* A stamp and an aiperf integer in every form against json_int64(). */
static void
test_ints(void)
{
	static const char *const ints[] = { "0", "-0", "7", "-7", "1759813207532900363",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808",
		"-9223372036854775809", "12345678901234567890", "99999999999999999999",
		"1.0", "1.5", "1e3", "-1E+2", "100000000000000000000000.0" };
	char line[512], name[160];

	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		snprintf(line, sizeof(line), "{\"metadata\":{\"request_start_ns\":%s,"
			 "\"request_end_ns\":%s},\"metrics\":{},\"aiperf\":{"
			 "\"schedule_lateness_ns\":%s,\"observation_delay_ns\":[1,%s]}}",
			 ints[i], ints[i], ints[i], ints[i]);
		snprintf(name, sizeof(name), "integer %s: as the parser reads it", ints[i]);
		TEST(name, same(line) != -2);
	}
}

int
main(void)
{
	frec_init(&fr);
	agg_init(&fast);
	agg_init(&slow);
	test_reads();
	test_leaves();
	test_numbers();
	test_ints();
	test_keys();
	TEST("the aggregations agree at the end", agg_same(&fast, &slow));
	agg_release(&fast);
	agg_release(&slow);
	frec_release(&fr);
	return TEST_DONE();
}
