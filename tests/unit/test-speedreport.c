/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for aiperf-speed-bench-report's extractors (extract.c): category, model and values from hostile exports. */
#include "test.h"

#include <stdio.h>
#include <string.h>

#include "../../cmd/aiperf-speed-bench-report/extract.c"

static struct json_doc *doc;

static const struct json *
js(const char *s)
{
	json_doc_reset(doc);
	return json_parse(doc, s, strlen(s), NULL, 0);
}

/* The category of profile s, or "(none)". */
static const char *
cat(const char *s)
{
	static char out[256];
	size_t n;
	const char *c = report_category(js(s), &n);

	if (!c)
		return "(none)";
	snprintf(out, sizeof(out), "%.*s", (int)n, c);
	return out;
}

static const char *
model(const char *s)
{
	static char out[256];
	size_t n;
	const char *m = report_model(js(s), &n);

	snprintf(out, sizeof(out), "%.*s", (int)n, m);
	return out;
}

/* The metric's value of server export s as "%.4f", or "none". */
static const char *
val(int (*f)(const struct json *, double *), const char *s)
{
	static char out[64];
	double v;

	if (!f(js(s), &v))
		return "none";
	snprintf(out, sizeof(out), "%.4f", v);
	return out;
}

#define G(name, stat, v) "\"" name "\":{\"series\":[{\"stats\":{\"" stat "\":" v "}}]}"

static void
test_category(void)
{
	TEST_STR("v2 format", cat("{\"input_config\":{\"datasets\":[{\"format\":\"speed_bench_coding\"}]}}"), "coding");
	TEST_STR("v2 dataset when format is empty",
		 cat("{\"input_config\":{\"datasets\":[{\"format\":\"\",\"dataset\":\"spec_al_gsm8k\"}]}}"), "gsm8k");
	TEST_STR("v2: the first entry with a prefix",
		 cat("{\"input_config\":{\"datasets\":[1,{\"format\":\"multi_turn\"},{\"format\":7},"
		     "{\"dataset\":\"speed_bench_throughput_1k_mixed\"}]}}"), "throughput_1k_mixed");
	TEST_STR("v2 datasets not a list", cat("{\"input_config\":{\"datasets\":{}}}"), "(none)");
	TEST_STR("v2 datasets present: ours not read",
		 cat("{\"input_config\":{\"datasets\":[],\"input\":{\"custom_dataset_type\":\"speed_bench_qa\"}}}"), "(none)");
	TEST_STR("ours, custom type", cat("{\"input_config\":{\"input\":{\"custom_dataset_type\":\"speed_bench_qa\"}}}"), "qa");
	TEST_STR("ours, public dataset", cat("{\"input_config\":{\"input\":{\"public_dataset\":\"spec_al_mbpp\"}}}"), "mbpp");
	TEST_STR("the bare prefix: an empty category", cat("{\"input_config\":{\"input\":{\"custom_dataset_type\":\"speed_bench_\"}}}"), "");
	TEST_STR("not an object", cat("[1]"), "(none)");
	TEST_STR("input_config a string", cat("{\"input_config\":\"speed_bench_qa\"}"), "(none)");
	TEST_STR("no profile", cat("null"), "(none)");
}

static void
test_model(void)
{
	TEST_STR("v2 items", model("{\"input_config\":{\"models\":{\"items\":[{\"name\":\"\"},3,{\"name\":\"q\"}]}}}"), "q");
	TEST_STR("ours", model("{\"input_config\":{\"endpoint\":{\"model_names\":[\"m\",\"n\"]}}}"), "m");
	TEST_STR("none", model("{\"input_config\":{\"endpoint\":{\"model_names\":[7]}}}"), "unknown");
	TEST_STR("v2 items without a name: unknown", model("{\"input_config\":{\"models\":{\"items\":[]},"
		 "\"endpoint\":{\"model_names\":[\"m\"]}}}"), "unknown");
	TEST_STR("not an object", model("\"x\""), "unknown");
}

static void
test_values(void)
{
	TEST_STR("sglang first", val(report_accept_length, "{\"metrics\":{" G("vllm:spec_decode_mean_accepted_length", "avg", "2")
		 "," G("sglang:spec_accept_length", "avg", "3.5") "}}"), "3.5000");
	TEST_STR("a null avg: the next name", val(report_accept_length, "{\"metrics\":{" G("sglang:spec_accept_length", "avg", "null")
		 "," G("trtllm:spec_accept_length", "avg", "1.25") "}}"), "1.2500");
	TEST_STR("vLLM counters plus one", val(report_accept_length, "{\"metrics\":{" G("vllm:spec_decode_num_accepted_tokens", "total", "30")
		 "," G("vllm:spec_decode_num_drafts", "total", "12") "}}"), "3.5000");
	TEST_STR("no drafts: none", val(report_accept_length, "{\"metrics\":{" G("vllm:spec_decode_num_accepted_tokens", "total", "30")
		 "," G("vllm:spec_decode_num_drafts", "total", "0") "}}"), "none");
	TEST_STR("fuzzy, any case", val(report_accept_length, "{\"metrics\":{" G("x:SPEC_ACCEPT_Length", "avg", "1.5") "}}"), "1.5000");
	TEST_STR("fuzzy needs length", val(report_accept_length, "{\"metrics\":{" G("x:spec_accept", "avg", "1.5") "}}"), "none");
	TEST_STR("fuzzy skips one without avg",
		 val(report_accept_length, "{\"metrics\":{" G("a_spec_accept_length", "p50", "1") "," G("b_spec_accept_length", "avg", "2") "}}"), "2.0000");
	TEST_STR("rate from draft tokens", val(report_accept_rate, "{\"metrics\":{" G("vllm:spec_decode_num_accepted_tokens", "total", "30")
		 "," G("vllm:spec_decode_num_draft_tokens", "total", "120") "}}"), "0.2500");
	TEST_STR("rate: no fuzzy match", val(report_accept_rate, "{\"metrics\":{" G("x_spec_accept_rate", "avg", "1") "}}"), "none");
	TEST_STR("a string avg is none", val(report_accept_length, "{\"metrics\":{" G("sglang:spec_accept_length", "avg", "\"2\"") "}}"), "none");
	TEST_STR("series empty", val(report_accept_length, "{\"metrics\":{\"sglang:spec_accept_length\":{\"series\":[]}}}"), "none");
	TEST_STR("series an object", val(report_accept_length, "{\"metrics\":{\"sglang:spec_accept_length\":{\"series\":{\"0\":1}}}}"), "none");
	TEST_STR("metric a list", val(report_accept_length, "{\"metrics\":{\"sglang:spec_accept_length\":[1]}}"), "none");
	TEST_STR("metrics a list", val(report_accept_length, "{\"metrics\":[1]}"), "none");
	TEST_STR("export a list", val(report_accept_length, "[{\"metrics\":{}}]"), "none");
	TEST_STR("throughput", val(report_throughput, "{\"output_token_throughput\":{\"avg\":12.5}}"), "12.5000");
	TEST_STR("throughput zero", val(report_throughput, "{\"output_token_throughput\":{\"avg\":0}}"), "0.0000");
	TEST_STR("throughput absent", val(report_throughput, "{\"output_token_throughput\":{}}"), "none");
}

int
main(void)
{
	doc = json_doc_new();
	test_category();
	test_model();
	test_values();
	json_doc_free(doc);
	return TEST_DONE();
}
