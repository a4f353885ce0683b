/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/sweepplan (sweep_plan.json, outside input) and lib/stats/pareto. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "buf.h"
#include "stats/pareto.h"
#include "sweepplan.h"
#include "test.h"

#define HEAD "\"sweep_id\": \"u\", \"type\": \"grid\", \"iteration_order\": " \
	"\"repeated\", \"trials\": 2, \"confidence_level\": 0.9, "
#define PARAMS "\"parameters\": [{\"name\": \"concurrency\", \"path\": " \
	"\"phases.profiling.concurrency\", \"values\": [8, 16]}], "
#define VARS "\"variations\": [{\"index\": 0, \"label\": \"concurrency_8\", " \
	"\"dir_name\": \"concurrency_8\", \"values\": {\"phases.profiling.concurrency\": 8}}], "
#define RUN(d) "\"runs\": [{\"variation\": 0, \"trial\": 1, \"dir\": \"" d "\"}]"
#define GOOD "{" HEAD PARAMS VARS RUN("profile_runs/trial_0002/concurrency_8") \
	", \"recipe\": {\"name\": \"concurrency-ramp\", \"degradation_threshold\": 0.2}}"

static struct sweepplan *
parse(const char *s, char *err)
{
	return sweepplan_parse(s, strlen(s), err, 256);
}

/* Whether s is refused, with a message containing want. */
static int
refused(const char *s, const char *want)
{
	char err[256] = "";
	struct sweepplan *p = parse(s, err);

	if (p) {
		sweepplan_free(p);
		return 0;
	}
	if (!strstr(err, want))
		printf("#   err '%s'\n", err);
	return strstr(err, want) != NULL;
}

static void
test_good(void)
{
	char err[256];
	struct sweepplan *p = parse(GOOD, err);
	double v = 0;

	TEST("a good plan is read", p != NULL);
	if (!p)
		return;
	TEST("trials, level, order", p->trials == 2 && p->level == 0.9 && !p->independent);
	TEST_STR("parameter name", p->params[0].name, "concurrency");
	TEST_STR("dir_name", p->vars[0].dir_name, "concurrency_8");
	TEST("run: variation 0, trial 1", p->nruns == 1 && p->runs[0].variation == 0 &&
	     p->runs[0].trial == 1);
	TEST_STR("recipe name", sweepplan_recipe_name(p), "concurrency-ramp");
	TEST("recipe number", sweepplan_recipe_num(p, "degradation_threshold", &v) == 0 &&
	     v == 0.2);
	TEST("absent recipe key", sweepplan_recipe_num(p, "ttft_sla_ms", &v) < 0);
	sweepplan_free(p);
	p = parse("{" HEAD PARAMS VARS RUN("a") ", \"recipe\": null}", err);
	TEST("null recipe", p && !p->recipe && !sweepplan_recipe_name(p));
	sweepplan_free(p);
}

static void
test_hostile(void)
{
	TEST("not JSON", refused("{", "invalid JSON"));
	TEST("not an object", refused("[]", "not a JSON object"));
	TEST("no runs", refused("{" HEAD PARAMS VARS "\"x\": 1}", "\"runs\" is no array"));
	TEST("trials a string", refused("{\"sweep_id\": \"u\", \"type\": \"grid\", "
	     "\"iteration_order\": \"repeated\", \"trials\": \"2\"}", "\"trials\""));
	TEST("trials 0", refused("{\"sweep_id\": \"u\", \"type\": \"grid\", "
	     "\"iteration_order\": \"repeated\", \"trials\": 0}", "\"trials\""));
	TEST("bad order", refused("{\"sweep_id\": \"u\", \"type\": \"grid\", "
	     "\"iteration_order\": \"sideways\", \"trials\": 1}", "iteration_order"));
	TEST("level 1", refused("{\"sweep_id\": \"u\", \"type\": \"grid\", "
	     "\"iteration_order\": \"repeated\", \"trials\": 1, \"confidence_level\": 1}",
	     "confidence_level"));
	TEST("dir with ..", refused("{" HEAD PARAMS VARS RUN("a/../../etc") "}", "\"dir\""));
	TEST("dir ..", refused("{" HEAD PARAMS VARS RUN("..") "}", "\"dir\""));
	TEST("absolute dir", refused("{" HEAD PARAMS VARS RUN("/etc") "}", "\"dir\""));
	TEST("empty component", refused("{" HEAD PARAMS VARS RUN("a//b") "}", "\"dir\""));
	TEST("trailing slash", refused("{" HEAD PARAMS VARS RUN("a/") "}", "\"dir\""));
	TEST("control byte", refused("{" HEAD PARAMS VARS RUN("a\\nb") "}", "\"dir\""));
	TEST("NUL in dir", refused("{" HEAD PARAMS VARS RUN("a\\u0000b") "}", "\"dir\""));
	TEST("non-UTF-8 dir", refused("{" HEAD PARAMS VARS RUN("a\xff") "}", "\"dir\""));
	TEST("overlong UTF-8", refused("{" HEAD PARAMS VARS RUN("\xc0\xaf") "}", "\"dir\""));
	TEST("dir a number", refused("{" HEAD PARAMS VARS "\"runs\": [{\"variation\": 0, "
	     "\"trial\": 0, \"dir\": 5}]}", "\"dir\""));
	TEST("no such variation", refused("{" HEAD PARAMS VARS "\"runs\": [{\"variation\": 1, "
	     "\"trial\": 0, \"dir\": \"a\"}]}", "\"variation\""));
	TEST("variation -1", refused("{" HEAD PARAMS VARS "\"runs\": [{\"variation\": -1, "
	     "\"trial\": 0, \"dir\": \"a\"}]}", "\"variation\""));
	TEST("variation 0.5", refused("{" HEAD PARAMS VARS "\"runs\": [{\"variation\": 0.5, "
	     "\"trial\": 0, \"dir\": \"a\"}]}", "\"variation\""));
	TEST("dir_name with /", refused("{" HEAD PARAMS "\"variations\": [{\"index\": 0, "
	     "\"label\": \"l\", \"dir_name\": \"a/b\", \"values\": {}}], " RUN("a") "}",
	     "dir_name"));
	TEST("dir_name ..", refused("{" HEAD PARAMS "\"variations\": [{\"index\": 0, "
	     "\"label\": \"l\", \"dir_name\": \"..\", \"values\": {}}], " RUN("a") "}",
	     "dir_name"));
	TEST("nested value", refused("{" HEAD PARAMS "\"variations\": [{\"index\": 0, "
	     "\"label\": \"l\", \"dir_name\": \"d\", \"values\": {\"a\": [1]}}], " RUN("a") "}",
	     "scalar"));
	TEST("parameter without values", refused("{" HEAD "\"parameters\": [{\"name\": "
	     "\"c\"}], " VARS RUN("a") "}", "values"));
	TEST("recipe a string", refused("{" HEAD PARAMS VARS RUN("a") ", \"recipe\": \"x\"}",
	     "recipe"));
	TEST("recipe without name", refused("{" HEAD PARAMS VARS RUN("a") ", \"recipe\": {}}",
	     "name"));
}

static void
test_huge(void)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	char err[256] = "";
	struct sweepplan *p;

	buf_addstr(&b, "{" HEAD PARAMS VARS "\"runs\": [");
	for (int i = 0; i <= SWEEPPLAN_MAX_RUNS; i++)
		buf_addf(&b, "%s{\"variation\": 0, \"trial\": 0, \"dir\": \"a\"}", i ? "," : "");
	buf_addstr(&b, "]}");
	p = sweepplan_parse(b.s, b.len, err, sizeof(err));
	TEST("more runs than the cap are refused", !p && strstr(err, "more than"));
	sweepplan_free(p);
	p = sweepplan_parse(b.s, SWEEPPLAN_MAX_BYTES + 1, err, sizeof(err));
	TEST("a text over the byte cap is refused", !p && strstr(err, "larger than"));
	buf_release(&b);
}

static void
test_pareto(void)
{
	/* (throughput max, latency min) */
	const double v[] = { 100, 50, 150, 80, 140, 90, 150, 80, 90, 50 };
	const int dir[2] = { +1, -1 };
	unsigned char on[5];
	const double t[] = { 3, 7, 7, 1 }, n[] = { NAN, 2, 5 }, m[] = { 1, NAN, 5 };

	TEST("a dominates b", pareto_dominates(v + 2, v + 4, dir, 2));
	TEST("equal points do not dominate", !pareto_dominates(v + 2, v + 6, dir, 2));
	TEST("a trade-off does not dominate", !pareto_dominates(v, v + 2, dir, 2));
	TEST("the frontier: 3 of 5", pareto_front(v, 5, 2, dir, on) == 3);
	TEST("frontier members (the original's doctest, ties both in)",
	     on[0] && on[1] && !on[2] && on[3] && !on[4]);
	TEST("best max: the first of a tie", pareto_best(t, 4, 1) == 1);
	TEST("best min", pareto_best(t, 4, 0) == 3);
	TEST("a NaN first stays (Python's max)", pareto_best(n, 3, 1) == 0);
	TEST("a NaN later never wins", pareto_best(m, 3, 1) == 2);
	TEST("no points", pareto_best(t, 0, 1) == SIZE_MAX);
	TEST("one point is its frontier", pareto_front(v, 1, 2, dir, on) == 1 && on[0]);
}

int
main(void)
{
	test_good();
	test_hostile();
	test_huge();
	test_pareto();
	return TEST_DONE();
}
