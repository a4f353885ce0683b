/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/dataset/speedbench (the types and SpeedBenchRow). */
#include "test.h"
#include "dataset/speedbench.h"

#include <stdio.h>
#include <string.h>

#define ID "0123456789abcdef0123456789abcdef"

static char err[512];

/* speedbench_parse on JSON text s: its return, err on failure. */
static int
parse(const char *s, struct speedbench_row *r, struct json_doc *d)
{
	const struct json *v;

	json_doc_reset(d);
	err[0] = '\0';
	v = json_parse(d, s, strlen(s), err, sizeof(err));
	if (!v)
		return -9;
	return speedbench_parse(v, r, err, sizeof(err));
}

static void
test_types(void)
{
	size_t n = 0, filtered = 0;
	const struct speedbench_type *t;

	for (t = speedbench_types; t->name; t++) {
		n++;
		filtered += t->category != NULL;
	}
	TEST("32 types", n == 32);
	TEST("26 with a category filter", filtered == 26);
	t = speedbench_lookup("speed_bench_coding", 18);
	TEST("coding reads qualitative.jsonl, category coding",
	     t && !strcmp(t->split, "qualitative.jsonl") && !strcmp(t->category, "coding"));
	t = speedbench_lookup("speed_bench_throughput_16k_mixed", 32);
	TEST("16k mixed reads throughput_16k.jsonl",
	     t && !strcmp(t->split, "throughput_16k.jsonl") && !strcmp(t->category, "mixed"));
	t = speedbench_lookup("speed_bench_throughput_32k", 26);
	TEST("32k takes every row", t && !t->category);
	TEST("a prefix is no type", !speedbench_lookup("speed_bench_cod", 15));
	TEST("NULL is no type", !speedbench_lookup(NULL, 0));
	TEST("the name must match whole", !speedbench_lookup("speed_bench_codingx", 19));
}

static void
test_good(struct json_doc *d)
{
	struct speedbench_row r;
	const char *role, *content;
	size_t rl, cl;

	TEST("a row parses", parse("{\"question_id\":\"" ID "\",\"category\":\"math\","
				   "\"messages\":[{\"role\":\"user\",\"content\":\"2+2?\"},"
				   "{\"role\":\"user\",\"content\":\"and 3+3?\"}],"
				   "\"extra\":1}", &r, d) == 0);
	TEST("its fields", r.id_len == 32 && r.category_len == 4 && r.nmessages == 2);
	speedbench_message(r.messages->child->next, &role, &rl, &content, &cl);
	TEST("its second message", rl == 4 && cl == 8 && !memcmp(content, "and 3+3?", 8));
	TEST("math wants it", speedbench_wants(speedbench_lookup("speed_bench_math", 16), &r));
	TEST("coding does not", !speedbench_wants(speedbench_lookup("speed_bench_coding", 18), &r));
	TEST("qualitative does", speedbench_wants(speedbench_lookup("speed_bench_qualitative", 23), &r));
	/* 32 code points, 64 bytes */
	TEST("question_id counts code points",
	     parse("{\"question_id\":\"\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9"
		   "\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9"
		   "\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9"
		   "\\u00e9\\u00e9\\u00e9\\u00e9\",\"category\":\"x\","
		   "\"messages\":[{\"role\":\"user\",\"content\":\"a\"}]}", &r, d) == 0 &&
	     r.id_len == 64);
	TEST("the placeholder with a space more is content",
	     parse("{\"question_id\":\"" ID "\",\"category\":\"x\",\"messages\":"
		   "[{\"role\":\"u\",\"content\":\" " SPEEDBENCH_PLACEHOLDER "\"}]}", &r, d) == 0);
}

struct bad {
	const char *json, *why;
};

static const struct bad bads[] = {
	{ "[]", "Input should be a valid dictionary" },
	{ "null", "Input should be a valid dictionary" },
	{ "{\"category\":\"x\",\"messages\":[]}", "question_id: Field required" },
	{ "{\"question_id\":7,\"category\":\"x\"}", "question_id: Input should be a valid string" },
	{ "{\"question_id\":\"abc\",\"category\":\"x\"}",
	  "question_id: String should have at least 32 characters" },
	{ "{\"question_id\":\"" ID "0\",\"category\":\"x\"}",
	  "question_id: String should have at most 32 characters" },
	{ "{\"question_id\":\"" ID "\"}", "category: Field required" },
	{ "{\"question_id\":\"" ID "\",\"category\":\"\"}",
	  "category: String should have at least 1 character" },
	{ "{\"question_id\":\"" ID "\",\"category\":[\"x\"]}",
	  "category: Input should be a valid string" },
	{ "{\"question_id\":\"" ID "\",\"category\":\"x\"}", "messages: Field required" },
	{ "{\"question_id\":\"" ID "\",\"category\":\"x\",\"messages\":{}}",
	  "messages: Input should be a valid list" },
	{ "{\"question_id\":\"" ID "\",\"category\":\"x\",\"messages\":[]}",
	  "messages: List should have at least 1 item after validation, not 0" },
	{ "{\"question_id\":\"" ID "\",\"category\":\"x\",\"messages\":[{\"role\":\"u\","
	  "\"content\":\"a\"},\"hi\"]}", "messages.1: Input should be a valid dictionary" },
	{ "{\"question_id\":\"" ID "\",\"category\":\"x\",\"messages\":[{\"role\":\"u\"}]}",
	  "Value error, messages must be" },
	{ "{\"question_id\":\"" ID "\",\"category\":\"x\",\"messages\":[{\"role\":\" \\t\","
	  "\"content\":\"a\"}]}", "Value error, messages must be" },
	{ "{\"question_id\":\"" ID "\",\"category\":\"x\",\"messages\":[{\"role\":\"u\","
	  "\"content\":\"\\u3000\"}]}", "Value error, messages must be" },
	{ "{\"question_id\":\"" ID "\",\"category\":\"x\",\"messages\":[{\"role\":\"u\","
	  "\"content\":7}]}", "Value error, messages must be" },
	{ "{\"question_id\":\"" ID "\",\"category\":\"x\",\"messages\":[{\"role\":\"u\","
	  "\"content\":\"" SPEEDBENCH_PLACEHOLDER "\"}]}", "Value error, messages must be" },
};

static void
test_bad(struct json_doc *d)
{
	struct speedbench_row r;
	char name[600];

	for (size_t i = 0; i < sizeof(bads) / sizeof(*bads); i++) {
		int rc = parse(bads[i].json, &r, d);

		snprintf(name, sizeof(name), "rejected: %s (%s)", bads[i].json, err);
		TEST(name, rc == -1 && !strncmp(err, bads[i].why, strlen(bads[i].why)));
	}
}

static void
test_many_messages(struct json_doc *d)
{
	static char big[(SPEEDBENCH_MAX_MESSAGES + 1) * 30 + 200];
	struct speedbench_row r;
	size_t n = 0;

	n += (size_t)snprintf(big, sizeof(big), "{\"question_id\":\"" ID
			      "\",\"category\":\"x\",\"messages\":[");
	for (int i = 0; i <= SPEEDBENCH_MAX_MESSAGES; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "%s{\"role\":\"u\",\"content\":\"a\"}",
				      i ? "," : "");
	snprintf(big + n, sizeof(big) - n, "]}");
	TEST("too many messages rejected", parse(big, &r, d) == -1 &&
	     strstr(err, "more than") != NULL);
}

int
main(void)
{
	struct json_doc *d = json_doc_new();

	test_types();
	test_good(d);
	test_bad(d);
	test_many_messages(d);
	json_doc_free(d);
	return TEST_DONE();
}
