/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for aiperf-search: PAVA/PCHIP arithmetic, both planners on known load models, hostile summaries. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* Private to the tool; tested from its sources. */
#include "../../cmd/aiperf-search/isofit.c"
#include "../../cmd/aiperf-search/sla.c"
#include "../../cmd/aiperf-search/iterdir.c"
#include "../../cmd/aiperf-search/mono.c"
#include "../../cmd/aiperf-search/iso.c"
#include "../../cmd/aiperf-search/history.c"
#include "test.h"

static int
near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

static void
test_pava(void)
{
	double y[] = { 1, 3, 2, 4 }, o[4], y2[] = { 5, 4, 3 }, o2[3];

	isofit_pava(y, o, 4);
	TEST("pava: one violator pooled", o[0] == 1 && o[1] == 2.5 && o[2] == 2.5 && o[3] == 4);
	isofit_pava(y2, o2, 3);
	TEST("pava: decreasing series is its mean", o2[0] == 4 && o2[1] == 4 && o2[2] == 4);
}

static void
test_pchip(void)
{
	double x[] = { 0, 1, 2 }, y[] = { 0, 1, 4 }, d[3];
	double lx[10], ly[10], r = 0;

	isofit_pchip_slopes(x, y, d, 3);
	TEST("pchip: scipy's slopes (end 0, harmonic 1.5, end 4)",
	     d[0] == 0 && near(d[1], 1.5, 1e-12) && near(d[2], 4, 1e-12));
	TEST("pchip: value inside a piece", near(isofit_pchip_eval(x, y, d, 3, 0.5), 0.3125, 1e-12));
	for (int i = 0; i < 10; i++) {
		lx[i] = i + 1;
		ly[i] = lx[i] - 5.5;
	}
	TEST("root: a line's zero", isofit_root(lx, ly, 10, 1, 10, &r) == 0 && near(r, 5.5, 1e-6));
	TEST("root: outside the bracket is none", isofit_root(lx, ly, 10, 6, 10, &r) < 0);
	for (int i = 0; i < 10; i++)
		ly[i] = -1;
	TEST("root: a curve below zero has none", isofit_root(lx, ly, 10, 1, 10, &r) < 0);
}

/* An iteration whose one run reports p95 TTFT v (NaN: none) at concurrency c. */
static void
fake(struct iter *it, long long c, double v)
{
	char s[256];
	char err[64];

	memset(it, 0, sizeof(*it));
	it->value = c;
	it->trials = xcalloc(1, sizeof(*it->trials));
	it->ntrials = 1;
	if (isnan(v))
		snprintf(s, sizeof(s), "{\"request_count\":{\"avg\":5}}");
	else
		snprintf(s, sizeof(s), "{\"request_count\":{\"avg\":5},"
			 "\"time_to_first_token\":{\"p95\":%.17g},"
			 "\"output_token_throughput\":{\"avg\":%lld}}", v, c);
	it->trials[0].doc = json_doc_new();
	it->trials[0].root = json_parse(it->trials[0].doc, s, strlen(s), err, sizeof(err));
	it->trials[0].success = 1;
}

typedef double (*model_fn)(long long c, int i);

static double ma, mb;
static double
linear(long long c, int i)
{
	(void)i;
	return ma + mb * (double)c;
}

/* +-2% of the latency, a fixed pattern (no timing: reproducible). */
static double
noisy(long long c, int i)
{
	static const double e[] = { 0.02, -0.015, 0.01, -0.02, 0.005, -0.01, 0.018 };

	return linear(c, i) * (1 + e[i % 7]);
}

/* Run a search to its end: the boundary found (0: none); n: iterations. */
static long long
search(struct cfg *c, int smooth, model_fn m, int *n, const char **reason)
{
	struct planner p;
	struct iter its[200];
	long long v, fm;
	int k = 0;

	planner_init(&p, c, smooth);
	while ((v = planner_ask(&p)) >= 0 && k < 200) {
		fake(&its[k], v, m(v, k));
		planner_tell(&p, &its[k]);
		k++;
	}
	fm = p.feasible_max > 0 ? p.feasible_max : 0;
	*n = k;
	*reason = p.reason;
	for (int i = 0; i < k; i++)
		iter_release(&its[i]);
	planner_release(&p);
	return fm;
}

static struct sla_filter ttft;
static struct cfg cfg;

static void
setup(double thr, int stab, int iters)
{
	ttft = (struct sla_filter){ "time_to_first_token", "p95", SLA_LT, thr, "" };
	sla_key(&ttft, 0);
	cfg = (struct cfg){ &ttft, 1, 1, 1000, 0.05, iters, stab, 0 };
}

/* The largest c with a + b*c < thr. */
static long long
truth(double a, double b, double thr)
{
	long long c = 0;

	while (c < 1000 && a + b * (double)(c + 1) < thr)
		c++;
	return c;
}

static void
test_known_models(void)
{
	static const double cases[][3] = {
		{ 10, 1, 100.5 }, { 20, 4, 98 }, { 50, 0.5, 300.2 }, { 5, 2, 1000.7 }, { 1, 1, 8.5 },
	};
	char name[160];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		long long want, got;
		const char *why;
		int n;

		ma = cases[i][0];
		mb = cases[i][1];
		want = truth(ma, mb, cases[i][2]);
		for (int smooth = 0; smooth < 2; smooth++) {
			setup(cases[i][2], 1, smooth ? 30 : 20);
			got = search(&cfg, smooth, linear, &n, &why);
			snprintf(name, sizeof(name), "%s: TTFT = %g + %g c < %g: %lld within a step of %lld (%s, %d runs)",
				 smooth ? "smooth_isotonic" : "monotonic", ma, mb, cases[i][2],
				 got, want, why, n);
			TEST(name, got <= want && (double)(want - got) <= 0.05 * (double)(want + 1) + 1);
		}
	}
}

static void
test_stability_window(void)
{
	const char *why;
	int n;
	long long got;

	ma = 10, mb = 1;
	setup(100.5, 2, 20);
	got = search(&cfg, 0, linear, &n, &why);
	TEST("monotonic: default stability 2 asks each value twice (20 runs, 10 points)",
	     n == 20 && !strcmp(why, "max_iterations") && got == 80);
	setup(100.5, 2, 40);
	got = search(&cfg, 0, linear, &n, &why);
	TEST("monotonic: with the budget, the boundary of stability 1 (88)", got == 88 &&
	     !strcmp(why, "monotonic_precision_reached"));
}

static void
test_noisy(void)
{
	const char *why;
	int n;

	ma = 20, mb = 2;
	for (int smooth = 0; smooth < 2; smooth++) {
		long long got;

		setup(420.5, 1, smooth ? 30 : 20);
		got = search(&cfg, smooth, noisy, &n, &why);
		TEST(smooth ? "smooth_isotonic: noisy model within 5% of 200" :
		     "monotonic: noisy model within 5% of 200", got >= 190 && got <= 210);
	}
}

static void
test_edges(void)
{
	const char *why;
	int n;
	long long got;

	ma = 500, mb = 1;
	for (int smooth = 0; smooth < 2; smooth++) {
		setup(100, 1, 30);
		got = search(&cfg, smooth, linear, &n, &why);
		TEST("no concurrency passes: 0 after one run", got == 0 && n == 1 &&
		     strstr(why, "no_pass_in_range"));
	}
	ma = 1, mb = 0.001;
	for (int smooth = 0; smooth < 2; smooth++) {
		setup(100, 1, 30);
		got = search(&cfg, smooth, linear, &n, &why);
		TEST("every concurrency passes: the range's top", got == 1000 &&
		     strstr(why, "no_failure_in_range") && n == 11);
	}
}

static double
missing(long long c, int i)
{
	(void)c;
	(void)i;
	return NAN;
}

static void
test_hostile(void)
{
	struct iter it;
	char s[] = "{\"request_count\":{\"avg\":5},\"time_to_first_token\":{\"p95\":\"fast\"}}";
	char e[] = "{\"request_count\":{\"avg\":3},\"error_request_count\":{\"avg\":1}}";
	char err[64];
	double v;
	const char *why;
	int n;

	setup(100, 1, 30);
	TEST("a summary without the metric fails the filter (no pass)",
	     search(&cfg, 1, missing, &n, &why) == 0 && n == 1);
	fake(&it, 1, 1);
	json_doc_reset(it.trials[0].doc);
	it.trials[0].root = json_parse(it.trials[0].doc, s, strlen(s), err, sizeof(err));
	TEST("a stat that is not a number fails", !sla_feasible(&it, &ttft, 1));
	it.trials[0].root = json_parse(it.trials[0].doc, e, strlen(e), err, sizeof(err));
	TEST("request_error_rate: the errors' share when not exported",
	     trial_value(&it.trials[0], "request_error_rate", "p99", &v) == 0 && v == 0.25);
	it.trials[0].success = 0;
	TEST("a failed run has no values", trial_value(&it.trials[0], "request_count", "avg", &v) < 0);
	iter_release(&it);
}

static void
put(const char *dir, const char *name, const char *text)
{
	char *p = xstrfmt("%s/%s", dir, name);
	FILE *f = fopen(p, "w");

	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
	free(p);
}

static void
test_dirs(void)
{
	char dir[] = "/tmp/test-search.XXXXXX";
	struct iter it = { 0 };
	char *sub;

	if (!mkdtemp(dir))
		abort();
	put(dir, "exit_status", "1\n");
	TEST("exit status 1: a failed trial", iter_load(&it, dir) == 0 && it.ntrials == 1 &&
	     !it.trials[0].success && strstr(it.trials[0].error, "exit code 1"));
	iter_release(&it);
	put(dir, "exit_status", "3\n");
	put(dir, "profile_export_aiperf.json", "{\"request_count\":{\"avg\":2}}");
	TEST("exit status 3 (a gate): the run counts", iter_load(&it, dir) == 0 && it.trials[0].success);
	iter_release(&it);
	put(dir, "profile_export_aiperf.json", "{\"request_count\":");
	TEST("a malformed summary is an error", iter_load(&it, dir) < 0);
	iter_release(&it);
	put(dir, "profile_export_aiperf.json", "{\"request_count\":{\"avg\":0}}");
	TEST("no request completed: a failed trial", iter_load(&it, dir) == 0 &&
	     !it.trials[0].success);
	iter_release(&it);
	sub = xstrfmt("%s/nope", dir);
	TEST("a missing iteration dir is an error", iter_load(&it, sub) < 0);
	free(sub);
	sub = xstrfmt("rm -rf '%s'", dir);
	if (system(sub) != 0)
		abort();
	free(sub);
}

int
main(void)
{
	util_setprogname("test-search");
	test_pava();
	test_pchip();
	test_known_models();
	test_stability_window();
	test_noisy();
	test_edges();
	test_hostile();
	test_dirs();
	return TEST_DONE();
}
