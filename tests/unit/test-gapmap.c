/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for genai-perf-map: the options table, GenAI-Perf's options and config file mapped, hostile input refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Private to the tool; tested from its sources. */
#include "../../cmd/genai-perf-map/gaptab.c"
#include "../../cmd/genai-perf-map/gapmap.c"
#include "../../cmd/genai-perf-map/gapyaml.c"
#include "test.h"

static struct gaptab tab;

static void
load_table(void)
{
	size_t n, bad = 0;
	char *s = util_readfile("data/genai-perf-options.tsv", GAPTAB_MAX_FILE, &n);

	TEST("the shipped table reads", s && gaptab_parse(&tab, s, n, &bad) == 0);
	TEST("the shipped table has its rows", tab.n > 60);
	free(s);
}

/* The aiperf words of a mapped command line, space-separated (static). */
static const char *
joined(const struct gapmap *m)
{
	static char out[4096];
	size_t n, len = 0;
	char **v = gapmap_argv(m, &n);

	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		len += (size_t)snprintf(out + len, sizeof(out) - len, "%s%s", i ? " " : "", v[i]);
		free(v[i]);
	}
	free(v);
	return out;
}

/* argv from a line of words (no quoting): the mapped words, or "ERR: msg". */
static const char *
map_line(const char *line, int analyze)
{
	static char out[4096];
	char *s = xstrdup(line), *argv[64], *save = NULL;
	int argc = 0;
	struct gapmap m;

	for (char *w = strtok_r(s, " ", &save); w && argc < 64; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	gapmap_init(&m, &tab);
	m.analyze = analyze;
	if (gapmap_args(&m, argc, argv) < 0 || (analyze && gapmap_sweep(&m) < 0))
		snprintf(out, sizeof(out), "ERR: %s", m.err);
	else
		snprintf(out, sizeof(out), "%s", joined(&m));
	gapmap_release(&m);
	free(s);
	return out;
}

static const char *
map_yaml(const char *yaml)
{
	static char out[4096];
	struct gapmap m;

	gapmap_init(&m, &tab);
	if (gapyaml_load(&m, yaml, strlen(yaml)) < 0)
		snprintf(out, sizeof(out), "ERR: %s", m.err);
	else if (m.sweep_type && gapmap_sweep(&m) < 0)
		snprintf(out, sizeof(out), "ERR: %s", m.err);
	else
		snprintf(out, sizeof(out), "%s", joined(&m));
	gapmap_release(&m);
	return out;
}

static int
starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int
bad_table_n(const char *text, size_t n, size_t want_line)
{
	struct gaptab t;
	size_t bad = 99;
	int rc;

	gaptab_init(&t);
	rc = gaptab_parse(&t, text, n, &bad);
	gaptab_release(&t);
	return rc == -1 && bad == want_line;
}

static int
bad_table(const char *text, size_t want_line)
{
	return bad_table_n(text, strlen(text), want_line);
}

static void
test_table(void)
{
	const char *rest;
	const struct gaptab_row *r;

	TEST("a row with 5 fields is malformed", bad_table("# c\n--a\targ\t-\t-\t--a\n", 2));
	TEST("a row with 7 fields is malformed", bad_table("--a\targ\t-\t-\t--a\t-\tx\n", 1));
	TEST("an unknown kind is malformed", bad_table("--a\tmany\t-\t-\t--a\t-\n", 1));
	TEST("an empty field is malformed", bad_table("--a\targ\t\t-\t--a\t-\n", 1));
	TEST("a name that is no option is malformed", bad_table("a\targ\t-\t-\t--a\t-\n", 1));
	TEST("'-' alone is no option name", bad_table("--\targ\t-\t-\t--a\t-\n", 1));
	TEST("a short name of two letters is malformed", bad_table("-ab\targ\t-\t-\t--a\t-\n", 1));
	TEST("NAME= with no value is malformed", bad_table("--a=\targ\t-\t-\t--a\t-\n", 1));
	TEST("a nameless row needs a config key", bad_table("-\targ\t-\t-\t--a\t-\n", 1));
	TEST("a NUL inside a line is malformed",
	     bad_table_n("--a\targ\t-\t-\t--a\t-\n--b\0\targ\t-\t-\t--b\t-\n", 37, 2));
	r = gaptab_find(&tab, "--input-file", "payload:x.jsonl", &rest);
	TEST("a prefix row matches its values", r && r->prefix && !strcmp(rest, "x.jsonl"));
	r = gaptab_find(&tab, "--input-file", "data.jsonl", &rest);
	TEST("other values take the plain row", r && !r->value && !strcmp(rest, "data.jsonl"));
	r = gaptab_find(&tab, "--endpoint-type", "kserve", &rest);
	TEST("an exact value row matches", r && r->target[0] == '!');
	TEST("an alias finds its row", gaptab_find(&tab, "--isl", "5", &rest) ==
	     gaptab_find(&tab, "--synthetic-input-tokens-mean", "5", &rest));
	TEST("an unknown option has no row", !gaptab_find(&tab, "--nope", NULL, &rest));
}

static void
test_args(void)
{
	TEST_STR("the README's payload example maps", map_line("--tokenizer t -m m --service-kind openai "
		"--endpoint-type chat --url http://h:1 --streaming --input-file payload:p.jsonl", 0),
		"--tokenizer t --model m --endpoint-type chat --url http://h:1 --streaming "
		"--input-file p.jsonl --custom-dataset-type mooncake_trace");
	TEST("--backend is refused by name",
	     starts(map_line("-m gpt2 --backend tensorrtllm --streaming", 0), "ERR: '--backend' has no counterpart"));
	TEST("--service-kind triton is refused",
	     starts(map_line("-m a --service-kind triton", 0), "ERR: '--service-kind' has no counterpart"));
	TEST("--service-kind tensorrtllm_engine is refused",
	     starts(map_line("-m a --service-kind=tensorrtllm_engine", 0), "ERR: '--service-kind' has"));
	TEST("an unknown option is refused by name",
	     starts(map_line("-m a --frobnicate 3", 0), "ERR: unknown option '--frobnicate'"));
	TEST("a flag takes no =value", starts(map_line("--streaming=1", 0), "ERR: option '--streaming' takes no value"));
	TEST("a missing value is refused", starts(map_line("-m a --concurrency", 0), "ERR: option '--concurrency' needs"));
	TEST("words need one value", starts(map_line("-m --streaming", 0), "ERR: option '-m' needs"));
	TEST("a positional word is refused", starts(map_line("gpt2", 0), "ERR: unexpected argument 'gpt2'"));
	TEST("analyze's options are refused in profile",
	     starts(map_line("-m a --sweep-type concurrency", 0), "ERR: '--sweep-type' is an option of"));
	TEST_STR("-m takes words, -g joins them, -H adds up",
		 map_line("-m a b -g request_latency:300 output_token_throughput_per_user:600 -H x:1 -H y:2", 0),
		 "--model a --model b --goodput request_latency:300 output_token_throughput_per_user:600 "
		 "--header x:1 --header y:2");
	TEST_STR("a later value replaces an earlier one", map_line("-m a --concurrency 2 --concurrency 4", 0),
		 "--model a --concurrency 4");
	TEST_STR("--session-concurrency is --concurrency", map_line("-m a --session-concurrency 3", 0),
		 "--model a --concurrency 3");
	TEST_STR("a negative number is a value", map_line("-m a --random-seed -1", 0),
		 "--model a --random-seed -1");
	TEST_STR("multimodal is chat", map_line("-m a --endpoint-type multimodal", 0),
		 "--model a --endpoint-type chat");
	TEST_STR("server metrics URLs are GPU telemetry", map_line("-m a --server-metrics-url u1 u2", 0),
		 "--model a --gpu-telemetry u1 --gpu-telemetry u2");
	TEST_STR("words after -- are aiperf's", map_line("-m a -- --benchmark-duration 3 --x", 0),
		 "--model a --benchmark-duration 3 --x");
	TEST_STR("--max-threads is dropped", map_line("-m a --max-threads 8", 0), "--model a");
}

static void
test_sweep(void)
{
	char *out = NULL, err[128];

	TEST_STR("concurrency 1:256 doubles", map_line("-m a --sweep-type concurrency --sweep-range 1:256", 1),
		 "--model a --concurrency 1,2,4,8,16,32,64,128,256");
	TEST_STR("request_rate 100:500:50 steps",
		 map_line("-m a --sweep-type request_rate --sweep-range 100:500:50", 1),
		 "--model a --request-rate 100,150,200,250,300,350,400,450,500");
	TEST_STR("a list is taken as is",
		 map_line("-m a --sweep-type input_sequence_length --sweep-list 100,150,200,400", 1),
		 "--model a --isl 100,150,200,400");
	TEST_STR("no sweep: concurrency 1 to 1024", map_line("-m a", 1),
		 "--model a --concurrency 1,2,4,8,16,32,64,128,256,512,1024");
	TEST_STR("a type alone takes its default range", map_line("-m a --sweep-type num_dataset_entries", 1),
		 "--model a --num-dataset-entries 100,200,400,800");
	TEST_STR("the sweep replaces the option", map_line("-m a --concurrency 9 --sweep-list 1,2", 1),
		 "--model a --concurrency 1,2");
	TEST("batch_size is refused", starts(map_line("-m a --sweep-type batch_size", 1), "ERR: '--sweep-type batch_size'"));
	TEST("an unknown type is refused", starts(map_line("-m a --sweep-type colour", 1), "ERR: unknown --sweep-type"));
	TEST("range and list: one", starts(map_line("-m a --sweep-range 1:2 --sweep-list 1", 1), "ERR: --sweep-range and"));
	TEST("a list of words is refused", starts(map_line("-m a --sweep-list 1,x", 1), "ERR: --sweep-list"));
	TEST("an empty list item is refused", starts(map_line("-m a --sweep-list 1,,2", 1), "ERR: --sweep-list"));
	TEST("0:4 is refused", gapmap_range("0:4", &out, err, sizeof(err)) < 0);
	TEST("5:1 is refused", gapmap_range("5:1", &out, err, sizeof(err)) < 0);
	TEST("a step of 0 is refused", gapmap_range("1:4:0", &out, err, sizeof(err)) < 0);
	TEST("four parts are refused", gapmap_range("1:2:1:1", &out, err, sizeof(err)) < 0);
	TEST("one part is refused", gapmap_range("8", &out, err, sizeof(err)) < 0);
	TEST("words are refused", gapmap_range("a:b", &out, err, sizeof(err)) < 0);
	TEST("too many values are refused", gapmap_range("1:1000000000:1", &out, err, sizeof(err)) < 0);
	TEST("the top doubles without overflow", gapmap_range("536870912:1000000000", &out, err, sizeof(err)) == 0 &&
	     !strcmp(out, "536870912"));
	free(out);
}

static void
test_yaml(void)
{
	size_t n;
	char *tpl = util_readfile("data/genai-perf-template.yaml", GAPYAML_MAX_FILE, &n);

	TEST_STR("the template at its defaults sets nothing", tpl ? map_yaml(tpl) : "no template", "");
	free(tpl);
	TEST_STR("a config maps", map_yaml("model_names: gpt2\nendpoint:\n  service_kind: openai\n"
		 "  type: chat\n  streaming: true\ninput:\n  extra:\n    max_tokens: 5\n  header: [\"A: b\"]\n"),
		 "--model gpt2 --endpoint-type chat --streaming --extra-inputs max_tokens:5 --header A: b");
	TEST_STR("model_names splits on commas? no: a list", map_yaml("model_names: [a, b]\n"),
		 "--model a --model b");
	TEST_STR("analyze start/stop doubles", map_yaml("model_name: m\nanalyze:\n  concurrency:\n    start: 2\n    stop: 8\n"),
		 "--model m --concurrency 2,4,8");
	TEST_STR("analyze with a list", map_yaml("analyze:\n  request_rate: [5, 10]\n"), "--request-rate 5,10");
	TEST_STR("stimulus and measurement", map_yaml("perf_analyzer:\n  stimulus:\n    concurrency: 4\n"
		 "  measurement:\n    num: 20\n"), "--concurrency 4 --request-count 20");
	TEST_STR("false turns a flag off", map_yaml("endpoint: {streaming: true}\noutput: {generate_plots: false}\n"
		 "tokenizer: {trust_remote_code: no}\n"), "--streaming");
	TEST_STR("an empty file sets nothing", map_yaml(""), "");
	TEST("an unknown key is refused", starts(map_yaml("endpoint:\n  colour: red\n"), "ERR: unknown key 'endpoint.colour'"));
	TEST("an unknown section is refused", starts(map_yaml("foo: 1\n"), "ERR: unknown key 'foo'"));
	TEST("a non-boolean flag is refused", starts(map_yaml("endpoint: {streaming: maybe}\n"), "ERR: 'endpoint.streaming': not a boolean"));
	TEST("a list for one value is refused", starts(map_yaml("perf_analyzer: {stimulus: {concurrency: [1, 2]}}\n"), "ERR: 'perf_analyzer.stimulus.concurrency' takes one"));
	TEST("a non-default backend is refused", starts(map_yaml("endpoint: {backend: vllm}\n"), "ERR: '--backend' has no counterpart"));
	TEST("a top-level list is refused", starts(map_yaml("- a\n- b\n"), "ERR: '(top)': not a mapping"));
	TEST("a top-level scalar is refused", starts(map_yaml("hello\n"), "ERR: '(top)': not a mapping"));
	TEST("a dotted key is refused", starts(map_yaml("endpoint.type: chat\n"), "ERR: '(top)': a key is not"));
	TEST("a mapping key is refused", starts(map_yaml("? [a]\n: 1\n"), "ERR: '(top)': a key is not"));
	TEST("bad YAML names a line", starts(map_yaml("a: [\n  b\n"), "ERR: line "));
	TEST("analyze without stop is refused", starts(map_yaml("analyze: {concurrency: {start: 1}}\n"), "ERR: 'analyze.concurrency': needs"));
	TEST("analyze's other keys are refused", starts(map_yaml("analyze: {concurrency: {begin: 1}}\n"), "ERR: 'analyze.concurrency': start"));
	TEST("a nested list is refused", starts(map_yaml("input: {header: [[a]]}\n"), "ERR: 'input.header': a list"));
	TEST("deep nesting is refused", starts(map_yaml("a: {b: {c: {d: {e: {f: {g: {h: {i: {j: {k: {l: {m: {n: {o: {p: {q: {r: 1}}}}}}}}}}}}}}}}}\n"), "ERR: "));
	TEST("an alias bomb stops", starts(map_yaml(
		"a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
		"c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
		"e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"), "ERR: "));
}

int
main(void)
{
	gaptab_init(&tab);
	load_table();
	test_table();
	test_args();
	test_sweep();
	test_yaml();
	gaptab_release(&tab);
	return TEST_DONE();
}
