/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/runagg (confidence across runs) and lib/stats/ks. */
#include <math.h>
#include <stdlib.h>

#include "runagg.h"
#include "stats/ks.h"
#include "test.h"

#define RUN(v) "{\"schema_version\": \"1.0\", \"request_latency\": {\"unit\": \"ms\", " \
	"\"avg\": " v ", \"p99\": 20.0, \"std\": null}, \"was_cancelled\": false, " \
	"\"error_summary\": [], \"request_count\": {\"unit\": \"requests\", \"avg\": 5}}"

static int
near(double a, double b, double tol)
{
	return fabs(a - b) <= tol * fmax(1.0, fabs(b));
}

static int
add(struct runagg *a, const char *label, const char *s, char *err)
{
	return runagg_add_json(a, label, s, strlen(s), err, 256);
}

static void
test_stats(void)
{
	struct runagg *a = runagg_new(0.95);
	struct buf b = BUF_INIT(BUF_NOMAX);
	char err[256];
	double v[4];

	TEST("run 1 read", add(a, "run_0001", RUN("10.0"), err) == 0);
	TEST("run 2 read", add(a, "run_0002", RUN("12.0"), err) == 0);
	TEST("run 3 read", add(a, "run_0003", RUN("11.5"), err) == 0);
	runagg_add_failed(a, "run_0004", "exit status 1");
	TEST("4 runs, 3 successful", runagg_runs(a) == 4 && runagg_successful(a) == 3);
	TEST("no values before finish", runagg_values(a, "request_latency", "avg", v, 4) == 0);
	TEST("finish", runagg_finish(a, err, sizeof(err)) == 0);
	TEST("values in run order", runagg_values(a, "request_latency", "avg", v, 4) == 3 &&
	     v[0] == 10.0 && v[2] == 11.5);
	TEST("null stat skipped", runagg_values(a, "request_latency", "std", v, 4) == 0);
	TEST("a stat null in every run: nobody left out", !runagg_left_out(a, 0, NULL));
	runagg_json(a, "0.1.0", &b);
	/* numpy: mean 11.166666666666666, std(ddof=1) 1.0408329997330665 */
	TEST("json mean", strstr(b.s, "\"mean\": 11.166666666666666,") != NULL);
	TEST("json std", strstr(b.s, "\"std\": 1.0408329997330665,") != NULL);
	TEST("json order", strstr(b.s, "request_latency_avg") < strstr(b.s, "request_latency_p99") &&
	     strstr(b.s, "request_latency_p99") < strstr(b.s, "request_count_avg"));
	TEST("constant pair: std 0, cv 0", strstr(b.s, "\"cv\": 0.0,") != NULL);
	TEST("failed run listed", strstr(b.s, "\"label\": \"run_0004\",\n"
				   "        \"error\": \"exit status 1\"") != NULL);
	TEST("t critical (scipy 4.302652729911275)",
	     near(runagg_t_critical(0.95, 3), 4.302652729911275, 1e-9));
	TEST("t critical (scipy 1.8331129326536335)",
	     near(runagg_t_critical(0.9, 10), 1.8331129326536335, 1e-9));
	TEST("t critical of one value: NaN", isnan(runagg_t_critical(0.95, 1)));
	buf_release(&b);
	runagg_free(a);
}

static void
test_zero_mean(void)
{
	struct runagg *a = runagg_new(0.95);
	struct buf b = BUF_INIT(BUF_NOMAX);
	char err[256];
	char *csv = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&csv, &n);

	add(a, "a", "{\"x\": {\"unit\": \"\", \"avg\": 0}}", err);
	add(a, "b", "{\"x\": {\"unit\": \"\", \"avg\": 0.0}}", err);
	runagg_finish(a, err, sizeof(err));
	runagg_json(a, "v", &b);
	TEST("cv of mean 0: inf, as null in JSON", strstr(b.s, "\"cv\": null,") != NULL);
	runagg_csv(a, f);
	fclose(f);
	TEST("cv of mean 0: inf in the CSV",
	     strstr(csv, "x_avg,0.00,0.00,0.00,0.00,inf,0.0000,0.00,0.00,12.7062,\r\n") != NULL);
	TEST("csv metadata rows", strstr(csv, "\r\n\r\nAggregation Type,confidence\r\n"
				"Total Runs,2\r\nSuccessful Runs,2\r\nConfidence Level,0.95\r\n"
				"Run Labels,\"['a', 'b']\"\r\n") != NULL);
	free(csv);
	buf_release(&b);
	runagg_free(a);
}

static void
test_hostile(void)
{
	static const char *const bad[] = {
		"", "{", "[]", "null", "{\"a\": 1}", "{\"a\": {\"avg\": 1}}",
		"{\"a\": {\"unit\": \"ms\", \"avg\": \"1\"}}",
		"{\"a\": {\"unit\": \"ms\", \"avg\": 1e999}}",
		"{\"a\": {\"unit\": \"ms\", \"avg\": 1}} x",
		"{\"a\": {\"unit\": \"ms\", \"avg\": 01}}",
		"{\"a\" {\"unit\": \"ms\"}}",
		"{\"a\\u0000b\": {\"unit\": \"ms\", \"avg\": 1}}",
		"\xff\xfe",
	};
	struct runagg *a = runagg_new(0.95);
	char err[256];
	int all = 1;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		all &= add(a, "r", bad[i], err) < 0 && err[0];
	TEST("hostile runs rejected with a reason", all);
	TEST("each one a failed run", runagg_successful(a) == 0 &&
	     runagg_runs(a) == sizeof(bad) / sizeof(bad[0]));
	TEST("all failed: the original's message", runagg_finish(a, err, sizeof(err)) < 0 &&
	     !strncmp(err, "All runs failed - cannot compute confidence statistics. "
		      "Total runs: 13, Failed runs: 13.", 88));
	runagg_free(a);

	a = runagg_new(0.95);
	add(a, "ok", RUN("1"), err);
	TEST("one run: insufficient", runagg_finish(a, err, sizeof(err)) < 0 &&
	     strstr(err, "Insufficient successful runs for confidence intervals. "
		    "Got 1 successful run(s), but need at least 2.") == err);
	runagg_free(a);
}

static void
test_deep_and_wide(void)
{
	struct runagg *a = runagg_new(0.95);
	struct buf s = BUF_INIT(BUF_NOMAX);
	char err[256];

	for (int i = 0; i < 100000; i++)
		buf_addch(&s, '[');
	TEST("deep nesting: an error, no crash", add(a, "d", s.s, err) < 0);
	buf_reset(&s);
	buf_addch(&s, '{');
	for (int i = 0; i < 1000; i++)
		buf_addf(&s, "%s\"m%d\": {\"unit\": \"u\", \"avg\": 1, \"min\": 1, \"max\": 1, "
			 "\"p1\": 1, \"p5\": 1, \"p10\": 1, \"p25\": 1, \"p50\": 1, \"p75\": 1, "
			 "\"p90\": 1, \"p95\": 1, \"p99\": 1}", i ? ", " : "", i);
	buf_addch(&s, '}');
	TEST("too many pairs: refused", add(a, "w", s.s, err) < 0 &&
	     strstr(err, "more than 8192 metric statistics"));
	buf_release(&s);
	runagg_free(a);
}

/* The notes of a as "label metric stats: why" lines. */
static void
notes(const struct runagg *a, struct buf *b)
{
	struct runagg_note n;

	buf_reset(b);
	for (size_t i = 0; runagg_left_out(a, i, &n); i++) {
		buf_addf(b, "%s %s", n.label, n.metric);
		for (size_t s = 0; s < n.nstats; s++)
			buf_addf(b, "%c%s", s ? ',' : ' ', n.stats[s]);
		buf_addf(b, ": %s\n", n.why);
	}
}

static void
test_units(void)
{
	struct runagg *a = runagg_new(0.95);
	struct buf b = BUF_INIT(BUF_NOMAX);
	char err[256];
	double v[4];

	add(a, "r1", "{\"t\": {\"unit\": \"ms\", \"avg\": 10, \"p99\": 20}, "
	    "\"x\": {\"unit\": \"tokens/sec\", \"avg\": 5}}", err);
	add(a, "r2", "{\"t\": {\"unit\": \"s\", \"avg\": 0.5, \"p99\": 1}, "
	    "\"x\": {\"unit\": \"tokens/ms\", \"avg\": 0.006}}", err);
	add(a, "r3", "{\"t\": {\"unit\": \"s\", \"avg\": 0.25, \"p99\": 2}, "
	    "\"x\": {\"unit\": \"furlongs\", \"avg\": 7}}", err);
	TEST("finish", runagg_finish(a, err, sizeof(err)) == 0);
	TEST("the unit most runs give: s, ms converted",
	     runagg_values(a, "t", "avg", v, 4) == 3 && v[0] == 10 * (1 / 1e3) && v[1] == 0.5 &&
	     v[2] == 0.25);
	TEST("a tie: the first unit met; a rate's time converted",
	     runagg_values(a, "x", "avg", v, 4) == 2 && v[0] == 5 && v[1] == 0.006 * 1e3);
	notes(a, &b);
	TEST_STR("a unit that cannot be converted: the run left out, named", buf_str(&b),
		 "r3 x avg: in 'furlongs', which cannot be converted to 'tokens/sec'\n");
	buf_reset(&b);
	runagg_json(a, "v", &b);
	TEST("the pair's unit is the one chosen", strstr(b.s, "\"unit\": \"s\"\n") != NULL);
	TEST("the pair names the run left out", strstr(b.s, "\"unit\": \"tokens/sec\",\n"
		"      \"runs_left_out\": [\n        {\n          \"label\": \"r3\",\n"
		"          \"error\": \"in 'furlongs', which cannot be converted to "
		"'tokens/sec'\"\n") != NULL);
	buf_release(&b);
	runagg_free(a);
}

#define M3(u, a, p) "{\"unit\": " u ", \"avg\": " a ", \"p99\": " p "}"

static void
test_left_out(void)
{
	static const char *const run[] = {
		"{\"t\": " M3("\"ms\"", "10", "20") ", \"n\": " M3("\"x\"", "1", "1") "}",
		"{\"t\": " M3("\"ms\"", "\"11\"", "21") ", \"n\": 5}",
		"{\"t\": 12, \"n\": \"5\"}",
		"{\"t\": " M3("\"ms\"", "null", "true") ", \"n\": {\"avg\": 1}}",
		"{\"t\": " M3("7", "13", "23") ", \"n\": [1]}",
		"{\"t\": " M3("\"mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm\"",
			      "13", "23") ", \"n\": " M3("\"x\"", "2", "[]") "}",
		"{\"t\": {\"unit\": \"ms\", \"avg\": 14}, \"n\": null}",
		"{\"t\": " M3("\"ms\"", "1e999", "{}") ", \"n\": false}",
		"{\"t\": " M3("\"ms\"", "1", "1") ", \"t\": " M3("\"ms\"", "15", "25") "}",
		"{\"t\": {\"unit\": \"ms\", \"avg\": 16, \"avg\": 17}, \"n\": " M3("\"x\"", "3", "3") "}",
	};
	struct runagg *a = runagg_new(0.95);
	struct buf b = BUF_INIT(BUF_NOMAX);
	char err[256], label[8];
	double v[16];
	int all = 1;

	/* each run also has a metric g, else it would fail with none */
	for (size_t i = 0; i < sizeof(run) / sizeof(run[0]); i++) {
		snprintf(label, sizeof(label), "r%zu", i);
		buf_reset(&b);
		buf_addf(&b, "{\"g\": {\"unit\": \"u\", \"avg\": 1}, %s", run[i] + 1);
		all &= add(a, label, b.s, err) == 0;
	}
	TEST("every run successful", all && runagg_successful(a) == 10);
	TEST("finish", runagg_finish(a, err, sizeof(err)) == 0);
	TEST("t avg: of the runs with a number, the last of repeated names",
	     runagg_values(a, "t", "avg", v, 16) == 4 && v[0] == 10 && v[1] == 14 &&
	     v[2] == 15 && v[3] == 17);
	TEST("t p99", runagg_values(a, "t", "p99", v, 16) == 3 && v[2] == 25);
	TEST("n avg", runagg_values(a, "n", "avg", v, 16) == 3 && v[1] == 2);
	notes(a, &b);
	TEST_STR("every run left out named, run by run, with why", buf_str(&b),
		 "r1 t avg: not a number but a string\n"
		 "r1 n avg,p99: not a metric object but a bare number\n"
		 "r2 t avg,p99: not a metric object but a bare number\n"
		 "r2 n avg,p99: not a metric object but a string\n"
		 "r3 t avg: not a number but null\n"
		 "r3 t p99: not a number but true\n"
		 "r3 n avg,p99: an object without a unit\n"
		 "r4 t avg,p99: its unit is not a string of at most 64 bytes\n"
		 "r4 n avg,p99: not a metric object but an array\n"
		 "r5 t avg,p99: its unit is not a string of at most 64 bytes\n"
		 "r5 n p99: not a number but an array\n"
		 "r6 t p99: no such statistic in its summary\n"
		 "r6 n avg,p99: not a metric object but null\n"
		 "r7 t avg: not a finite number\n"
		 "r7 t p99: not a number but an object\n"
		 "r7 n avg,p99: not a metric object but false\n"
		 "r8 n avg,p99: no such metric in its summary\n"
		 "r9 t p99: no such statistic in its summary\n");
	buf_reset(&b);
	runagg_json(a, "v", &b);
	TEST("metadata lists them, after run_labels", strstr(b.s, "\"r9\"\n    ],\n"
		"    \"runs_left_out\": [\n      {\n        \"label\": \"r1\",\n"
		"        \"metric\": \"t\",\n        \"stats\": [\n          \"avg\"\n"
		"        ],\n        \"error\": \"not a number but a string\"\n      },\n") != NULL);
	TEST("t_critical of the 4 runs that have t avg",
	     strstr(b.s, "\"t_critical\": 3.18244630528") != NULL);
	buf_release(&b);
	runagg_free(a);
}

static void
test_left_out_csv(void)
{
	struct runagg *a = runagg_new(0.95);
	char err[256], *csv = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&csv, &n);

	add(a, "a", "{\"x\": {\"unit\": \"ms\", \"avg\": 1}, \"y\": {\"unit\": \"s\", \"avg\": 1}}", err);
	add(a, "b'", "{\"x\": {\"unit\": \"ms\", \"avg\": 2}, \"y\": {\"unit\": \"it's\", \"avg\": 1}}", err);
	add(a, "c", "{\"x\": {\"unit\": \"ms\", \"avg\": \"3\"}, \"y\": {\"unit\": \"s\", \"avg\": 2}}", err);
	runagg_finish(a, err, sizeof(err));
	runagg_csv(a, f);
	fclose(f);
	TEST("csv: a Runs Left Out row, Python's str() of the list", strstr(csv,
		"Run Labels,\"[\'a\', \"\"b\'\"\", \'c\']\"\r\nRuns Left Out,\"[{\'label\': \"\"b\'\"\", "
		"\'metric\': \'y\', \'stats\': [\'avg\'], \'error\': \"\"in \'it\'s\', which cannot "
		"be converted to \'s\'\"\"}, {\'label\': \'c\', \'metric\': \'x\', \'stats\': "
		"[\'avg\'], \'error\': \'not a number but a string\'}]\"\r\n") != NULL);
	TEST("csv: a pair's row in its unit", strstr(csv, "\r\ny_avg,1.50,") != NULL);
	free(csv);
	runagg_free(a);
}

static void
test_ks(void)
{
	double a[] = { 1, 2, 3, 4, 5, 6, 7, 8 }, b[] = { 2.5, 4.5, 6.5, 8.5, 10.5 };
	double c[] = { 1, 1, 2, 2, 3 }, e[] = { 3, 2, 2, 1, 3 };
	double x[30], y[30], d;

	/* scipy.stats.ks_2samp(...).pvalue, exact mode */
	TEST("ks 8 vs 5", near(ks_2samp(a, 8, b, 5, &d), 0.585858585858586, 1e-12) &&
	     near(d, 0.4, 1e-15));
	TEST("ks with ties", near(ks_2samp(c, 5, e, 5, &d), 1.0, 1e-12) && near(d, 0.2, 1e-15));
	for (int i = 0; i < 30; i++) {
		x[i] = 0.1 * i;
		y[i] = 0.13 * i + 0.5;
	}
	TEST("ks 30 vs 30", near(ks_2samp(x, 30, y, 30, &d), 0.034580084963334506, 1e-9) &&
	     near(d, 0.36666666666666664, 1e-15));
	TEST("ks empty sample: 1", ks_2samp(x, 0, y, 30, NULL) == 1);
}

int
main(void)
{
	test_stats();
	test_zero_mean();
	test_hostile();
	test_deep_and_wide();
	test_units();
	test_left_out();
	test_left_out_csv();
	test_ks();
	return TEST_DONE();
}
