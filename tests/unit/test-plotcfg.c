/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for aiperf-plot's plot configuration: the original's layout, classification, hostile YAML. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Private to the tool; tested from its source. */
#include "../../cmd/aiperf-plot/cfg.c"
#include "test.h"

static struct plotcfg c;
static char why[512];

static int
parse(const char *text)
{
	why[0] = '\0';
	return cfg_parse(&c, text, strlen(text), "t.yaml", why, sizeof(why));
}

/* Whether text is refused with a message starting with want. */
static int
refused(const char *text, const char *want)
{
	int rc = parse(text);

	if (rc == 0 || strncmp(why, want, strlen(want)))
		printf("#   got %d '%s'\n", rc, why);
	return rc < 0 && !strncmp(why, want, strlen(want)) && !c.single && !c.nmulti;
}

static void
good(void)
{
	const char *text =
		"# a comment\n"
		"visualization:\n"
		"  multi_run_defaults:\n"
		"    - p\n"
		"    - q\n"
		"  single_run_defaults: [s]\n"
		"  multi_run_plots:\n"
		"    p:\n"
		"      type: pareto\n"
		"      x: request_latency_avg\n"
		"      y: {metric: output_token_throughput, stat: p90}\n"
		"      labels: [concurrency]\n"
		"      groups: model\n"
		"      title: \"Pareto \\u00e9\"\n"
		"      primary_style: {mode: lines}\n"
		"    q: {type: scatter_line, x: a_avg, y: b_avg, groups: []}\n"
		"  single_run_plots:\n"
		"    s: {type: histogram, y: Request Latency, stat: p50, source: timeslices}\n"
		"settings: {anything: [1, 2]}\n"
		"experiment_classification:\n"
		"  baselines: ['*_agg_*', '*baseline*']\n"
		"  treatments: ['*disagg*']\n"
		"  default: baseline\n"
		"  group_display_names: {x_disagg: Disaggregated, base: \"Baseline\"}\n";
	size_t len;

	TEST("the original's layout parses", parse(text) == 0);
	TEST("two multi-run plots, in order", c.nmulti == 2 && !strcmp(c.multi[0].name, "p") &&
	     !strcmp(c.multi[1].name, "q"));
	TEST_STR("x as a string", c.multi[0].x, "request_latency_avg");
	TEST_STR("y as {metric, stat}", c.multi[0].y, "output_token_throughput_p90");
	TEST_STR("labels as a one-item list", c.multi[0].labels, "concurrency");
	TEST_STR("groups as a string", c.multi[0].groups, "model");
	TEST("groups: [] is none", c.multi[1].groups == NULL);
	TEST_STR("a title with an escape", c.multi[0].title, "Pareto \xc3\xa9");
	TEST("the preset's line", c.multi[0].line == 8);
	TEST("a timeslice preset", c.nsingle == 1 && !strcmp(c.single[0].source, "timeslices") &&
	     !strcmp(c.single[0].y, "Request Latency") && !strcmp(c.single[0].stat, "p50"));
	TEST("classification on", c.classify && c.nbaselines == 2 && c.ntreatments == 1);
	TEST("a baseline by name", cfg_classify(&c, "run_agg_1", "x/run_agg_1") == CLASS_BASELINE);
	TEST("a treatment by path", cfg_classify(&c, "r1", "exp/disagg/r1") == CLASS_TREATMENT);
	TEST("baselines win over treatments",
	     cfg_classify(&c, "baseline_disagg", "baseline_disagg") == CLASS_BASELINE);
	TEST("no match: the default", cfg_classify(&c, "r2", "a/r2") == CLASS_BASELINE);
	TEST_STR("the group: a matching parent", cfg_group(&c, "r1", "exp/x_disagg/r1/", &len),
		 "x_disagg/r1/");
	TEST("... of its length", len == 8);
	cfg_group(&c, "r1", "exp/other/r1", &len);
	TEST("the group: else the run's name", len == 2);
	cfg_group(&c, "r1", "r1", &len);
	TEST("the group of a run without a parent", len == 2);
	TEST_STR("a group's display name", cfg_group_title(&c, "x_disagg"), "Disaggregated");
	TEST_STR("a group without one: its id", cfg_group_title(&c, "other"), "other");
	cfg_release(&c);
	TEST("released", !c.multi && !c.nmulti && !c.classify && !c.ngroup_names);
	TEST("no classification: CLASS_NONE", cfg_classify(NULL, "a", "a") == CLASS_NONE);
	TEST("experiment_classification: alone is off",
	     parse("visualization: {}\nexperiment_classification:\n") == 0 && !c.classify);
	cfg_release(&c);
	TEST("missing defaults: nothing drawn",
	     parse("visualization:\n  single_run_plots: {a: {type: area, y: b}}\n") == 0 &&
	     c.nsingle == 0 && c.nmulti == 0);
	cfg_release(&c);
}

static void
hostile(void)
{
	char *big;
	size_t i, n;

	TEST("empty", refused("", "t.yaml:1: empty configuration"));
	TEST("a scalar", refused("hello\n", "t.yaml:1: the configuration: expected a mapping"));
	TEST("syntax", refused("a: [\n", "t.yaml:2: "));
	TEST("tabs", refused("visualization:\n\tx: 1\n", "t.yaml:2: "));
	TEST("undefined alias", refused("a: *nope\n", "t.yaml:1: "));
	TEST("two documents", refused("visualization: {}\n---\nb: 1\n", "t.yaml:2: a second YAML document"));
	TEST("a NUL byte", cfg_parse(&c, "a\0b", 3, "t.yaml", why, sizeof(why)) < 0 &&
	     strstr(why, "NUL"));
	TEST("visualization a list",
	     refused("visualization: [1]\n", "t.yaml:1: 'visualization': expected a mapping"));
	TEST("defaults a mapping",
	     refused("visualization:\n  multi_run_defaults: {a: 1}\n",
		     "t.yaml:2: 'visualization.multi_run_defaults' must be a list"));
	TEST("a default not a string",
	     refused("visualization:\n  multi_run_defaults: [[a]]\n", "t.yaml:2: multi_run_defaults: expected a string"));
	TEST("a preset not a mapping",
	     refused("visualization:\n  multi_run_defaults: [a]\n  multi_run_plots: {a: 3}\n",
		     "t.yaml:3: plot 'a': expected a mapping"));
	TEST("a key not a string",
	     refused("visualization:\n  ? [a]\n  : 1\n", "t.yaml:2: 'visualization': a key that is not a string"));
	TEST("a self-referencing preset (alias cycle)",
	     refused("visualization:\n  multi_run_defaults: [a]\n  multi_run_plots: &m\n    a: *m\n",
		     "t.yaml:3: plot 'a': missing 'type'"));
	TEST("the whole document as its own value: no loop",
	     parse("&r {visualization: *r}\n") == 0 && c.nsingle == 0 && c.nmulti == 0);
	cfg_release(&c);
	TEST("no metrics: a built-in plot by its name",
	     parse("visualization:\n  multi_run_defaults: [a]\n  multi_run_plots: {a: {type: pareto}}\n") == 0 &&
	     c.nmulti == 1 && !c.multi[0].x);
	cfg_release(&c);
	TEST("x: {stat} without metric",
	     refused("visualization:\n  multi_run_defaults: [a]\n  multi_run_plots:\n    a: {type: pareto, x: {stat: avg}}\n",
		     "t.yaml:4: x: missing 'metric'"));
	TEST("an empty plot name",
	     refused("visualization:\n  multi_run_defaults: ['']\n  multi_run_plots: {'': {type: pareto, y: a}}\n",
		     "t.yaml:3: plot name '': use 1 to 100"));
	TEST("a hidden plot name",
	     refused("visualization:\n  multi_run_defaults: [.x]\n  multi_run_plots: {.x: {type: pareto, y: a}}\n",
		     "t.yaml:3: plot name '.x'"));
	TEST("group_display_names a list",
	     refused("visualization: {}\nexperiment_classification:\n  group_display_names: [a]\n",
		     "t.yaml:3: group_display_names: expected a mapping"));
	TEST("a display name not a string",
	     refused("visualization: {}\nexperiment_classification:\n  group_display_names: {a: [b]}\n",
		     "t.yaml:3: group_display_names: expected a string"));
	TEST("a newline in a title",
	     refused("visualization:\n  multi_run_defaults: [a]\n  multi_run_plots:\n    a: {type: pareto, y: a, title: \"x\\ny\"}\n",
		     "t.yaml:4: title: control character"));
	/* a string past MAX_STR */
	n = MAX_STR + 100;
	big = malloc(n + 200);
	i = (size_t)snprintf(big, 200, "visualization:\n  multi_run_defaults: [a]\n  multi_run_plots:\n    a: {type: pareto, y: ");
	memset(big + i, 'y', n);
	memcpy(big + i + n, "}\n", 3);
	TEST("a string too long", refused(big, "t.yaml:4: y: longer than"));
	free(big);
	/* deep nesting: libyaml's stack, not ours */
	n = 20000;
	big = malloc(2 * n + 64);
	i = (size_t)snprintf(big, 64, "visualization: ");
	memset(big + i, '[', n);
	memset(big + i + n, ']', n);
	big[i + 2 * n] = '\0';
	TEST("deep nesting is an error, not a crash", parse(big) < 0);
	free(big);
	/* many keys */
	big = malloc(400 * 16 + 64);
	n = (size_t)snprintf(big, 64, "visualization:\n");
	for (i = 0; i < 400; i++)
		n += (size_t)snprintf(big + n, 16, "  k%zu: 1\n", i);
	TEST("too many keys", refused(big, "t.yaml:2: 'visualization': more than"));
	free(big);
}

int
main(void)
{
	good();
	hostile();
	return TEST_DONE();
}
