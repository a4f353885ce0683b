/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/dataset/exgentic (Exgentic trace rows, filters, timestamps). */
#include "test.h"
#include "dataset/exgentic.h"

#include <stdio.h>
#include <string.h>

static char err[1024];

/* A row of one span with attributes A (JSON members) and span members S. */
static int
parse(const char *row, const struct exg_filters *f, struct exg_row *r,
      struct exg_stats *st)
{
	err[0] = '\0';
	return exg_row_parse(row, strlen(row), 1, f, r, st, err, sizeof(err));
}

#define MSG "\"gen_ai.input.messages\":\"[{\\\"role\\\":\\\"user\\\",\\\"parts\\\":[{\\\"type\\\":\\\"text\\\",\\\"content\\\":\\\"hi\\\"}]}]\""
#define TOK "\"gen_ai.usage.input_tokens\":10,\"gen_ai.usage.output_tokens\":5"
#define TIMES "\"start_time\":\"2026-01-01T00:00:00Z\",\"end_time\":\"2026-01-01T00:00:01.5Z\""
#define ROW(spans) "{\"harness\":\"tool_calling\",\"session_id\":\"s1\"," \
	"\"models\":[\"openai/azure/Kimi-K2.5\",\"azure/Kimi-K2.5\"],\"spans\":[" spans "]}"
#define SPAN(extra, attrs) "{\"type\":\"llm_call\"," TIMES extra ",\"attributes\":{" TOK "," MSG attrs "}}"

static void
test_times(void)
{
	int64_t us = 0;

	TEST("time: Z", !exg_parse_time("1970-01-01T00:00:01Z", 20, &us) && us == 1000000);
	TEST("time: naive is UTC", !exg_parse_time("1970-01-02 00:00:00", 19, &us) &&
	     us == 86400LL * 1000000);
	TEST("time: offset", !exg_parse_time("1970-01-01T01:00:00+01:00", 25, &us) && us == 0);
	TEST("time: fraction truncated at 6 digits",
	     !exg_parse_time("1970-01-01T00:00:00.1234567", 27, &us) && us == 123456);
	TEST("time: short fraction", !exg_parse_time("1970-01-01T00:00:00.5", 21, &us) &&
	     us == 500000);
	TEST("time: date only", !exg_parse_time("2000-03-01", 10, &us) &&
	     us == 951868800LL * 1000000);
	TEST("time: leap day", !exg_parse_time("2024-02-29T00:00", 16, &us));
	TEST("time: not a leap day", exg_parse_time("2023-02-29T00:00", 16, &us) < 0);
	TEST("time: hour 24", exg_parse_time("2023-01-01T24:00", 16, &us) < 0);
	TEST("time: junk after zone", exg_parse_time("2023-01-01T00:00Zx", 18, &us) < 0);
	TEST("time: empty fraction", exg_parse_time("2023-01-01T00:00:00.", 20, &us) < 0);
	TEST("time: short", exg_parse_time("2023-1-01", 9, &us) < 0);
	TEST("time: empty", exg_parse_time("", 0, &us) < 0);
}

static void
test_filters(void)
{
	struct exg_filters f;

	exg_filters_init(&f, 0);
	TEST("filter: model alias, any case",
	     !exg_filter_add(&f, "source_model", "GCP/GEMINI-3-pro-preview", err, sizeof(err)) &&
	     f.model == 3);
	TEST("filter: harness any case",
	     !exg_filter_add(&f, "harness", "Tool_Calling", err, sizeof(err)) && f.harness == 3);
	TEST("filter: supported pair", !exg_filters_check(&f, err, sizeof(err)));
	TEST("filter: unknown value lists the values",
	     exg_filter_add(&f, "source_model", "unknown", err, sizeof(err)) < 0 &&
	     strstr(err, "available filters:") && strstr(err, "Kimi-K2.5") &&
	     !strstr(err, "benchmark=["));
	TEST("filter: unknown key", exg_filter_add(&f, "model", "x", err, sizeof(err)) < 0 &&
	     strstr(err, "model: extra inputs are not permitted"));
	exg_filters_init(&f, 0);
	exg_filter_add(&f, "benchmark", "appworld", err, sizeof(err));
	TEST("filter: v1 benchmark", exg_filters_check(&f, err, sizeof(err)) < 0 &&
	     strstr(err, "only supported for Exgentic v2"));
	exg_filters_init(&f, 0);
	exg_filter_add(&f, "harness", "tool_calling_with_shortlisting", err, sizeof(err));
	exg_filter_add(&f, "source_model", "gpt-4.1", err, sizeof(err));
	TEST("filter: v1 unsupported pair", exg_filters_check(&f, err, sizeof(err)) < 0 &&
	     strstr(err, "Unsupported Exgentic filter combination") &&
	     strstr(err, "harness: DeepSeek-V3.2, Kimi-K2.5, gemini-3-pro-preview"));
	exg_filters_init(&f, 1);
	exg_filter_add(&f, "source_model", "gpt-4.1", err, sizeof(err));
	TEST("filter: v2 model no harness has", exg_filters_check(&f, err, sizeof(err)) < 0 &&
	     strstr(err, "no harness supports it"));
	TEST("filter: v2 lists benchmarks without gpt-4.1",
	     exg_filter_add(&f, "source_model", "nope", err, sizeof(err)) < 0 &&
	     strstr(err, "benchmark=[appworld, browsecompplus, swebench") &&
	     !strstr(err, "source_model=[DeepSeek-V3.2, Kimi-K2.5, claude-opus-4-5, "
		     "gemini-3-pro-preview, gpt-4.1"));
	TEST_STR("canonical model", exg_canonical_model("openai/Azure/gpt-4.1"), "gpt-4.1");
}

static void
test_rich(void)
{
	const char *row = "{\"harness\":\"tool_calling\",\"session_id\":\"s1\",\"models\":[\"a\"],"
		"\"spans\":[{\"type\":\"llm_call\"," TIMES ",\"attributes\":{" TOK ","
		"\"gen_ai.system_instructions\":\"be brief\","
		"\"gen_ai.input.messages\":[{\"role\":\"developer\",\"parts\":[{\"type\":\"text\",\"content\":\"policy\"}]},"
		"{\"role\":\"assistant\",\"parts\":[{\"type\":\"thinking\",\"thinking\":\"r\"},"
		"{\"type\":\"text\",\"content\":\"calling\"},{\"type\":\"tool_call\",\"id\":\"c1\",\"name\":\"search\",\"arguments\":{\"q\":\"x\"}}]},"
		"{\"role\":\"user\",\"parts\":[{\"type\":\"tool_call_response\",\"id\":\"c1\",\"result\":[{\"type\":\"text\",\"text\":\"ok\"}]},"
		"{\"type\":\"text\",\"content\":\"again\"}]}],"
		"\"gen_ai.tool.definitions\":\"[{\\\"type\\\":\\\"function\\\",\\\"name\\\":\\\"search\\\"}]\","
		"\"gen_ai.request.max_tokens\":64,\"gen_ai.request.temperature\":0.5,"
		"\"gen_ai.request.stop_sequences\":[\"END\"]}}]}";
	struct exg_filters f;
	struct exg_row r;
	struct exg_stats st = { 0 };

	exg_filters_init(&f, 1);
	TEST("rich: parses", parse(row, &f, &r, &st) == 0 && r.match && r.ncalls == 1);
	if (r.ncalls == 1) {
		TEST_STR("rich: messages", r.calls[0].messages,
			 "[{\"role\":\"system\",\"content\":\"be brief\"},"
			 "{\"role\":\"system\",\"content\":\"policy\"},"
			 "{\"role\":\"assistant\",\"content\":\"calling\",\"reasoning_content\":\"r\","
			 "\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":"
			 "{\"name\":\"search\",\"arguments\":\"{\\\"q\\\":\\\"x\\\"}\"}}]},"
			 "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":"
			 "\"[{\\\"type\\\":\\\"text\\\",\\\"text\\\":\\\"ok\\\"}]\"},"
			 "{\"role\":\"user\",\"content\":\"again\"}]");
		TEST_STR("rich: tools", r.calls[0].tools,
			 "[{\"type\":\"function\",\"function\":{\"name\":\"search\","
			 "\"description\":null,\"parameters\":null}}]");
		TEST_STR("rich: extra", r.calls[0].extra, "{\"temperature\":0.5,\"stop\":[\"END\"]}");
		TEST("rich: max tokens, times", r.calls[0].max_tokens == 64 &&
		     r.calls[0].end_us - r.calls[0].start_us == 1500000);
	}
	exg_row_release(&r);
}

static void
test_skips_and_order(void)
{
	const char *row = ROW(
		"{\"type\":\"llm_call\",\"start_time\":\"2026-01-01T00:00:20Z\",\"end_time\":\"2026-01-01T00:00:21Z\",\"attributes\":{" TOK "," MSG "}},"
		"{\"type\":\"tool_call\"},"
		SPAN(",\"status\":{\"code\":2}", "") ","
		"{\"type\":\"llm_call\"," TIMES ",\"attributes\":{\"gen_ai.usage.input_tokens\":10,\"gen_ai.usage.output_tokens\":0," MSG "}},"
		"{\"start_time\":\"2026-01-01T00:00:20Z\",\"end_time\":\"2026-01-01T00:00:21Z\",\"attributes\":{\"gen_ai.operation.name\":\"chat\"," TOK "," MSG "}}");
	struct exg_filters f;
	struct exg_row r;
	struct exg_stats st = { 0 };

	exg_filters_init(&f, 0);
	TEST("skips: parses", parse(row, &f, &r, &st) == 0 && r.ncalls == 2);
	TEST("skips: counted", st.non_llm == 1 && st.failed == 1 && st.zero_token == 1);
	TEST("skips: ties by span index", r.ncalls == 2 && r.calls[0].index == 0 &&
	     r.calls[1].index == 4);
	TEST("skips: max tokens from output", r.ncalls && r.calls[0].max_tokens == 5 &&
	     !r.calls[0].tools && !r.calls[0].extra);
	TEST("models: canonical, once", r.nmodels == 1 && !strcmp(r.models[0], "Kimi-K2.5"));
	exg_row_release(&r);
	exg_filters_init(&f, 0);
	exg_filter_add(&f, "harness", "claude_code", err, sizeof(err));
	TEST("filter: row not taken", parse(row, &f, &r, &st) == 0 && !r.match &&
	     !r.ncalls && r.nmodels == 1);
	exg_row_release(&r);
}

struct bad {
	const char *name, *row, *want;
};

static const struct bad bad[] = {
	{ "not json", "{", "row 1 is not a JSON object" },
	{ "array", "[]", "row 1 is not a JSON object" },
	{ "no harness", "{\"harness\":\"\",\"session_id\":\"s\"}", "row 1 has no harness" },
	{ "no session", "{\"harness\":\"h\",\"session_id\":3}", "row 1 has no session_id" },
	{ "models string", "{\"harness\":\"h\",\"session_id\":\"s\",\"models\":\"Kimi\",\"spans\":[]}",
	  "models must be a list of non-empty strings" },
	{ "models empty name", "{\"harness\":\"h\",\"session_id\":\"s\",\"models\":[\"\"],\"spans\":[]}",
	  "models must be a list of non-empty strings" },
	{ "spans not objects", "{\"harness\":\"h\",\"session_id\":\"s\",\"models\":[],\"spans\":[1]}",
	  "spans must be a list of objects" },
	{ "float tokens", ROW("{\"type\":\"llm_call\",\"attributes\":{\"gen_ai.usage.input_tokens\":1.0,\"gen_ai.usage.output_tokens\":1}}"),
	  "session 's1' span 0 has non-integer token counts" },
	{ "missing start", ROW("{\"type\":\"llm_call\",\"attributes\":{" TOK "}}"),
	  "session 's1' span 0: 'start_time'" },
	{ "bad time", ROW("{\"type\":\"llm_call\",\"start_time\":\"yesterday\",\"end_time\":\"x\",\"attributes\":{" TOK "}}"),
	  "span 0: Invalid isoformat string: 'yesterday'" },
	{ "time a number", ROW("{\"type\":\"llm_call\",\"start_time\":5,\"attributes\":{" TOK "}}"),
	  "fromisoformat: argument must be str" },
	{ "ends first", ROW("{\"type\":\"llm_call\",\"start_time\":\"2026-01-01T00:00:02\",\"end_time\":\"2026-01-01T00:00:01\",\"attributes\":{" TOK "}}"),
	  "span ends before it starts" },
	{ "bool max tokens", ROW(SPAN("", ",\"gen_ai.request.max_tokens\":true")),
	  "gen_ai.request.max_tokens must be a positive integer" },
	{ "zero max tokens", ROW(SPAN("", ",\"gen_ai.request.max_tokens\":0")),
	  "gen_ai.request.max_tokens must be a positive integer" },
	{ "huge max tokens", ROW(SPAN("", ",\"gen_ai.request.max_tokens\":99999999999999999999999")),
	  "gen_ai.request.max_tokens must be a positive integer" },
	{ "no messages", ROW("{\"type\":\"llm_call\"," TIMES ",\"attributes\":{" TOK "}}"),
	  "gen_ai.input.messages must be a JSON array of objects" },
	{ "messages bad json", ROW("{\"type\":\"llm_call\"," TIMES ",\"attributes\":{" TOK ",\"gen_ai.input.messages\":\"[{\"}}"),
	  "gen_ai.input.messages is not valid JSON: " },
	{ "messages empty", ROW("{\"type\":\"llm_call\"," TIMES ",\"attributes\":{" TOK ",\"gen_ai.input.messages\":\"[]\"}}"),
	  "gen_ai.input.messages must contain at least one message" },
	{ "message no parts", ROW("{\"type\":\"llm_call\"," TIMES ",\"attributes\":{" TOK ",\"gen_ai.input.messages\":[{\"role\":\"user\"}]}}"),
	  "each input message requires a string role and parts array" },
	{ "part not object", ROW("{\"type\":\"llm_call\"," TIMES ",\"attributes\":{" TOK ",\"gen_ai.input.messages\":[{\"role\":\"user\",\"parts\":[7]}]}}"),
	  "message parts must be objects" },
	{ "part type", ROW("{\"type\":\"llm_call\"," TIMES ",\"attributes\":{" TOK ",\"gen_ai.input.messages\":[{\"role\":\"user\",\"parts\":[{\"type\":\"image\"}]}]}}"),
	  "unsupported 'user' message part 'image'" },
	{ "part no type", ROW("{\"type\":\"llm_call\"," TIMES ",\"attributes\":{" TOK ",\"gen_ai.input.messages\":[{\"role\":\"it's\",\"parts\":[{}]}]}}"),
	  "unsupported \"it's\" message part None" },
	{ "system not string", ROW(SPAN("", ",\"gen_ai.system_instructions\":[]")),
	  "gen_ai.system_instructions must be a string" },
	{ "system bad part", ROW(SPAN("", ",\"gen_ai.system_instructions\":\"[{\\\"type\\\":\\\"x\\\"}]\"")),
	  "unsupported 'system' message part 'x'" },
	{ "tool type", ROW(SPAN("", ",\"gen_ai.tool.definitions\":[{\"type\":\"web\"}]")),
	  "unsupported tool type 'web'" },
	{ "tools object", ROW(SPAN("", ",\"gen_ai.tool.definitions\":\"{}\"")),
	  "gen_ai.tool.definitions must be a JSON array of objects" },
	{ "temperature string", ROW(SPAN("", ",\"gen_ai.request.temperature\":\"hot\"")),
	  "gen_ai.request.temperature must be finite" },
	{ "temperature inf", ROW(SPAN("", ",\"gen_ai.request.temperature\":1e999")),
	  "gen_ai.request.temperature must be finite" },
	{ "stop not strings", ROW(SPAN("", ",\"gen_ai.request.stop_sequences\":[1]")),
	  "gen_ai.request.stop_sequences must be a list of strings" },
	{ "attributes list", ROW("{\"type\":\"llm_call\",\"attributes\":[1]}"),
	  "attributes must be an object" },
	{ "status string", ROW("{\"type\":\"llm_call\",\"status\":\"ok\",\"attributes\":{}}"),
	  "status must be an object" },
};

static void
test_bad(void)
{
	struct exg_filters f;

	exg_filters_init(&f, 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct exg_row r;
		struct exg_stats st = { 0 };
		char name[128];
		int rc = parse(bad[i].row, &f, &r, &st);

		snprintf(name, sizeof(name), "hostile: %s", bad[i].name);
		TEST(name, rc == -1 && strstr(err, bad[i].want));
		if (rc != -1 || !strstr(err, bad[i].want))
			printf("# got %d '%s'\n", rc, err);
		exg_row_release(&r);
	}
}

static void
test_deep(void)
{
	static char row[4100];
	struct exg_filters f;
	struct exg_row r;
	struct exg_stats st = { 0 };

	memcpy(row, "{\"spans\":", 9);
	memset(row + 9, '[', sizeof(row) - 10);
	exg_filters_init(&f, 0);
	TEST("hostile: deep nesting", parse(row, &f, &r, &st) == -1 &&
	     strstr(err, "not a JSON object"));
	exg_row_release(&r);
}

static void
test_parts(void)
{
	const char *row = ROW("{\"type\":\"llm_call\"," TIMES ",\"attributes\":{" TOK ","
		"\"gen_ai.input.messages\":[{\"role\":\"user\",\"parts\":[]},"
		"{\"role\":\"user\",\"parts\":[{\"type\":\"tool_call_response\",\"id\":1}]},"
		"{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":0},{\"type\":\"text\",\"content\":12},{\"type\":\"thinking\"}]}],"
		"\"gen_ai.tool.definitions\":\"[]\",\"gen_ai.request.stop_sequences\":[],"
		"\"gen_ai.system_instructions\":\"[1]\"}}");
	struct exg_filters f;
	struct exg_row r;
	struct exg_stats st = { 0 };

	exg_filters_init(&f, 0);
	TEST("parts: parses", parse(row, &f, &r, &st) == 0 && r.ncalls == 1);
	if (r.ncalls == 1) {
		TEST_STR("parts: empty message, lone response, str()", r.calls[0].messages,
			 "[{\"role\":\"system\",\"content\":\"[1]\"},"
			 "{\"role\":\"user\",\"content\":\"\"},"
			 "{\"role\":\"tool\",\"tool_call_id\":1,\"content\":\"null\"},"
			 "{\"role\":\"user\",\"content\":\"12\",\"reasoning_content\":\"\"}]");
		TEST("parts: empty tools and stop are none", !r.calls[0].tools && !r.calls[0].extra);
	}
	exg_row_release(&r);
}

int
main(void)
{
	test_times();
	test_filters();
	test_rich();
	test_skips_and_order();
	test_bad();
	test_parts();
	test_deep();
	return TEST_DONE();
}
