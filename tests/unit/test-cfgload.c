/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/cfg/schema and lib/cfg/load: the table, the names, the options a file gives. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg/load.h"
#include "cfg/schema.h"
#include "proftab.h"
#include "test.h"
#include "util.h"

static char err[2048];

static int
near(double a, double b)
{
	return a - b < 1e-9 && b - a < 1e-9;
}

/* The options of variation i of the text, as one line ("--a 1 --b"), or "ERR: ...". */
static const char *
opts(const char *yaml, size_t i)
{
	static struct buf out;
	struct cfgplan p;
	char **argv = NULL;
	size_t n = 0;

	buf_release(&out);
	buf_init(&out, BUF_NOMAX);
	if (cfg_load_text(&p, "t.yaml", yaml, strlen(yaml), err, sizeof(err)) < 0) {
		buf_addf(&out, "ERR: %s", err);
		return buf_str(&out);
	}
	if (i < p.nv)
		cfgargs_argv(&p.v[i].args, &argv, &n);
	cfgargs_argv(&p.envelope, &argv, &n);
	for (size_t k = 0; k < n; k++) {
		buf_addf(&out, "%s%s", k ? " " : "", argv[k]);
		free(argv[k]);
	}
	free(argv);
	cfg_release(&p);
	return buf_str(&out);
}

#define BASE "benchmark:\n  model: m\n  endpoint: {url: 'http://h:1'}\n"

int
main(void)
{
	struct cfgschema s;
	struct proftab tab;
	size_t n, bad;
	char *text;
	int all = 1;

	setenv("AIPERF_DATA_DIR", "data", 0);
	TEST("difflib's ratio: 2*M/T", near(cfgschema_ratio("sweeps", "sweep"), 10.0 / 11) &&
	     near(cfgschema_ratio("abc", "xyz"), 0) && near(cfgschema_ratio("", ""), 1) &&
	     near(cfgschema_ratio("concurency", "concurrency"), 20.0 / 21));
	{
		char *a = cfgschema_snake("numRuns"), *b = cfgschema_snake("already_snake");

		TEST_STR("camelCase to snake_case", a, "num_runs");
		TEST_STR("snake_case stays", b, "already_snake");
		free(a);
		free(b);
	}
	TEST("the table loads", cfgschema_load(&s, err, sizeof(err)) == 0 && s.n > 100);
	TEST("a malformed table line is named", cfgschema_parse(&(struct cfgschema){ 0 }, "a\ts\t-\n", 6, &bad) < 0 && bad == 1);
	proftab_init(&tab);
	text = util_readfile("data/profile-options.tsv", 1u << 20, &n);
	TEST("the options table loads", text && proftab_parse(&tab, text, n, &bad) == 0);
	free(text);
	for (size_t i = 0; i < s.n; i++) {
		const struct cfgfield *f = &s.f[i];
		char *opt = xstrdup(f->option), *save = NULL;

		for (char *o = strtok_r(opt, ",/", &save); o; o = strtok_r(NULL, ",/", &save))
			if (strcmp(o, "-") && !proftab_find(&tab, o)) {
				printf("# %s: no option %s\n", f->path, o);
				all = 0;
			}
		if (strcmp(f->warmup, "-") && !proftab_find(&tab, f->warmup)) {
			printf("# %s: no warmup option %s\n", f->path, f->warmup);
			all = 0;
		}
		if (f->type == '-' && !strcmp(f->note, "-")) {
			printf("# %s: refused without a note\n", f->path);
			all = 0;
		}
		free(opt);
	}
	TEST("every option the config table names is one of aiperf profile's", all);
	{
		char hint[64], known[4096];

		TEST("a camelCase key names its field", cfgschema_key(&s, "multi_run", "numRuns", NULL, 0, NULL, 0) &&
		     !strcmp(cfgschema_key(&s, "multi_run", "numRuns", NULL, 0, NULL, 0), "num_runs"));
		TEST("a list field is found by its name", cfgschema_key(&s, "benchmark", "phases", NULL, 0, NULL, 0) &&
		     !strcmp(cfgschema_key(&s, "benchmark", "phases", NULL, 0, NULL, 0), "phases[]"));
		TEST("an unknown key: the closest name, the known ones",
		     !cfgschema_key(&s, "", "sweeps", hint, sizeof(hint), known, sizeof(known)) &&
		     !strcmp(hint, "'sweep'") && !strncmp(known, "['benchmark', 'multiRun', 'multi_run', 'noSweepTable'", 53));
		TEST("nothing close: no hint", !cfgschema_key(&s, "", "zzzzzz", hint, sizeof(hint), NULL, 0) && !*hint);
	}
	cfgschema_release(&s);
	proftab_release(&tab);

	TEST_STR("the shorthands: model, dataset with isl/osl beside prompts, one phase",
		 opts(BASE "  dataset: {entries: 5, isl: 100, osl: {mean: 10, stddev: 2}}\n"
		      "  phases: {type: poisson, rate: 2.5, duration: 30}\n", 0),
		 "--model m --url http://h:1 --num-dataset-entries 5 --isl 100 --osl 10 --osl-stddev 2 --request-rate 2.5 --benchmark-duration 30 --arrival-pattern poisson");
	TEST_STR("warmup and profiling: the warmup options",
		 opts(BASE "  warmup: {type: concurrency, concurrency: 2, requests: 4}\n"
		      "  profiling: {type: gamma, rate: 3, smoothness: 0.5}\n", 0),
		 "--model m --url http://h:1 --warmup-concurrency 2 --warmup-request-count 4 --request-rate 3 --arrival-smoothness 0.5 --arrival-pattern gamma");
	TEST_STR("headers, extra, slos, tokenizer, booleans, telemetry off",
		 opts(BASE "  tokenizer: gpt2\n  slos: {time_to_first_token: 200, inter_token_latency: 5.5}\n"
		      "  gpu_telemetry: false\n  server_metrics: [http://a/metrics, http://b/metrics]\n", 0),
		 "--model m --url http://h:1 --tokenizer gpt2 --goodput time_to_first_token:200 inter_token_latency:5.5 --no-gpu-telemetry --server-metrics http://a/metrics --server-metrics http://b/metrics");
	TEST_STR("endpoint fields",
		 opts("benchmark:\n  models: [a, b]\n  endpoint:\n    urls: [http://x:1, http://y:2]\n    streaming: false\n"
		      "    headers: {X-Key: v}\n    extra: {temperature: 0.5, ignore_eos: true, stop: END}\n", 0),
		 "--model a --model b --url http://x:1 --url http://y:2 --header X-Key: v --extra-inputs temperature:0.5 --extra-inputs ignore_eos:true --extra-inputs stop:END");
	TEST_STR("the envelope: seed, multi_run, the sweep's own options",
		 opts("random_seed: 7\nmulti_run: {num_runs: 3, set_consistent_seed: false, disable_warmup_after_first: true}\n" BASE
		      "  phases: {type: concurrency}\nsweep: {type: grid, parameters: {concurrency: [1]}, same_seed: true, iteration_order: independent, cooldown_seconds: 2}\n", 1),
		 "--random-seed 7 --num-profile-runs 3 --no-set-consistent-seed --profile-run-disable-warmup-after-first --parameter-sweep-cooldown-seconds 2 --parameter-sweep-mode independent --parameter-sweep-same-seed");
	TEST("a fixed_schedule phase and a file dataset",
	     strstr(opts(BASE "  dataset: {type: file, path: t.jsonl, format: mooncake_trace}\n"
			 "  phases: {type: fixed_schedule, auto_offset: true}\n", 0),
		    "--input-file t.jsonl --custom-dataset-type mooncake_trace --fixed-schedule-auto-offset --fixed-schedule"));
	TEST("a rate where the phase type has none", strstr(opts(BASE "  phases: {type: concurrency, rate: 3}\n", 0),
							  "'rate' is not a field of a concurrency phase"));
	TEST("a warmup field with no warmup option", strstr(opts(BASE "  warmup: {type: gamma, rate: 1, smoothness: 2}\n  profiling: {type: concurrency}\n", 0),
							     "benchmark.phases.warmup.smoothness: not run in a warmup phase here"));
	TEST("a sweep of a phase the file lacks", strstr(opts(BASE "sweep: {parameters: {concurrency: [1]}}\n", 0),
							   "sweep path 'phases.profiling.concurrency': no entry named 'profiling' found (the file has no phases)"));
	TEST("a public dataset's subset and filters: --hf-subset, one --dataset-filter each",
	     strstr(opts(BASE "  dataset: {type: public, dataset: exgentic, hf_subset: x,"
			 " filters: {harness: tool_calling, source_model: kimi}}\n", 0),
		    "--public-dataset exgentic --hf-subset x --dataset-filter harness=tool_calling"
		    " --dataset-filter source_model=kimi"));
	TEST("a filter that is no string: refused, named",
	     strstr(opts(BASE "  dataset: {type: public, dataset: exgentic, filters: {harness: 3}}\n", 0),
		    "filters.harness: a string, not"));
	TEST("dataset and datasets both", strstr(opts(BASE "  dataset: {}\n  datasets: []\n", 0), "'dataset' cannot be used with 'datasets'"));
	TEST("two datasets", strstr(opts(BASE "  datasets: [{name: a}, {name: b}]\n", 0), "exactly one dataset"));
	TEST("a mean and stddev only", strstr(opts(BASE "  dataset: {prompts: {isl: {mean: 1, median: 2}}}\n", 0), "'median' is not run here"));
	TEST_STR("distributions: normal and fixed",
		 opts(BASE "  dataset: {prompts: {isl: {type: normal, mean: 512, stddev: 50}, osl: {type: fixed, value: 64}}}\n", 0),
		 "--model m --url http://h:1 --isl 512 --isl-stddev 50 --osl 64");
	TEST("a lognormal distribution is refused", strstr(opts(BASE "  dataset: {prompts: {isl: {type: lognormal, mean: 5}}}\n", 0),
							    "a lognormal distribution is not run here"));
	TEST("a field not run here may be off", !strncmp(opts(BASE "  otel: null\n  phases: {type: concurrency, seamless: false}\n", 0), "--model", 7));
	{
		const char *y = BASE "  dataset: {entries: 3}\n  phases: {type: concurrency}\n"
				"sweep: {type: zip, parameters: {model: [a, b], dataset.entries: [4, 5]}}\n";

		TEST_STR("a model sweep path: the models anew", opts(y, 1), "--model b --url http://h:1 --num-dataset-entries 5");
	}
	TEST("a public dataset needs its name", strstr(opts(BASE "  dataset: {type: public}\n", 0), "a public dataset needs its 'dataset' name"));
	TEST("a camelCase and a snake_case key for one field", strstr(opts("multiRun: {numRuns: 2, num_runs: 3}\n" BASE, 0), "given twice"));
	{
		struct cfgplan p;
		struct cfgargs common, cells[3];
		const char *y = BASE "  phases: {type: concurrency, concurrency: 1, requests: 9}\nsweep: {type: grid, parameters: {concurrency: [1, 2, 4]}}\n";

		TEST("a grid loads", cfg_load_text(&p, "t", y, strlen(y), err, sizeof(err)) == 0 && p.nv == 3);
		cfg_split(&p, &common, cells);
		TEST("split: the common options once, each variation its own",
		     cfgargs_get(&common, "--request-count") && !cfgargs_get(&common, "--concurrency") &&
		     cells[2].n == 1 && !strcmp(cells[2].v[0].name, "--concurrency") && !strcmp(cells[2].v[0].val[0], "4"));
		for (int i = 0; i < 3; i++)
			cfgargs_release(&cells[i]);
		cfgargs_release(&common);
		cfg_release(&p);
	}
	{
		const char *t = "{\"benchmark\": {\"phases\": [{\"name\": \"profiling\", \"rate\": 2}], \"x\": {\"y\": 1}}}";
		struct cnode *v = cnode_parse(t, strlen(t));
		struct cnode *f = cfg_flat_values(v);
		struct buf b = BUF_INIT(BUF_NOMAX);

		cnode_json(f, &b, 0);
		TEST_STR("flattened values: named list entries by name", buf_str(&b),
			 "{\"benchmark.phases.profiling.rate\":2,\"benchmark.x.y\":1}");
		buf_release(&b);
		cnode_free(f);
		cnode_free(v);
	}
	return TEST_DONE();
}
