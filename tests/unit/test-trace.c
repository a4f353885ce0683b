/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/trace (mooncake line parser) and lib/hmap. */
#include "hmap.h"
#include "test.h"
#include "dataset/trace.h"
#include "util.h"

static int parse(struct trace_parser *p, const char *s, char *err)
{
	return trace_parse(p, s, strlen(s), err, 256);
}

static void test_fields(void)
{
	struct trace_parser p;
	char err[256] = "";
	const struct trace_line *l = &p.line;

	trace_parser_init(&p, 0);
	TEST("full line parses",
	     parse(&p, "{\"timestamp\": 1500.5, \"input_length\": 10, "
		   "\"output_length\": 3, \"hash_ids\": [4, 5, -6], "
		   "\"session_id\": \"s\", \"delay\": 2}", err) == 1);
	TEST("fields read", l->input_length == 10 && l->output_length == 3 &&
	     l->timestamp == 1500.5 && l->n_hash == 3 && l->hash_ids[2] == -6);
	TEST("has mask", l->has == (TRACE_INPUT_LENGTH | TRACE_OUTPUT_LENGTH |
				    TRACE_HASH_IDS | TRACE_TIMESTAMP |
				    TRACE_SESSION_ID | TRACE_DELAY));
	TEST("defaults", parse(&p, "{}", err) == 1 && l->has == 0 &&
	     l->input_length == 0 && l->output_length == 0 && l->n_hash == 0);
	TEST("nulls are defaults",
	     parse(&p, "{\"input_length\":null,\"hash_ids\":null,\"text_input\":null}",
		   err) == 1 && l->has == 0);
	TEST("empty hash_ids is no hash ids",
	     parse(&p, "{\"hash_ids\":[]}", err) == 1 && !(l->has & TRACE_HASH_IDS));
	TEST("text_input and messages",
	     parse(&p, "{\"text_input\":\"x\",\"messages\":[]}", err) == 1 &&
	     (l->has & TRACE_TEXT_INPUT) && (l->has & TRACE_MESSAGES));
	TEST("integral float length", parse(&p, "{\"input_length\":12.0}", err) == 1 &&
	     l->input_length == 12);
	TEST("blank line", parse(&p, " \t\r", err) == 0 && parse(&p, "", err) == 0);
	trace_parser_release(&p);
}

static void test_errors(void)
{
	struct trace_parser p;
	char err[256] = "";

	trace_parser_init(&p, 4);
	TEST("string length", parse(&p, "{\"input_length\":\"5\"}", err) < 0);
	TEST_STR("string length message", err, "input_length: expected an integer");
	TEST("fractional length", parse(&p, "{\"output_length\":1.5}", err) < 0);
	TEST("bad hash id", parse(&p, "{\"hash_ids\":[1,true]}", err) < 0);
	TEST_STR("bad hash id message", err, "hash_ids: expected a list of integers");
	TEST("hash_ids not a list", parse(&p, "{\"hash_ids\":7}", err) < 0);
	TEST("too many ids", parse(&p, "{\"hash_ids\":[1,2,3,4,5]}", err) < 0);
	TEST_STR("too many ids message", err, "hash_ids: more than 4 ids");
	TEST("timestamp string", parse(&p, "{\"timestamp\":\"now\"}", err) < 0);
	TEST_STR("timestamp message", err, "timestamp: expected a number");
	TEST("delay string", parse(&p, "{\"delay\":\"x\"}", err) < 0);
	TEST("truncated", parse(&p, "{\"hash_ids\":[1,2", err) < 0 &&
	     !strncmp(err, "invalid JSON: ", 14));
	TEST("not an object", parse(&p, "[1]", err) < 0);
	TEST("huge integer", parse(&p, "{\"input_length\":99999999999999999999}", err) < 0);
	TEST("two values", parse(&p, "{} {}", err) < 0);
	TEST("reuse after error", parse(&p, "{\"hash_ids\":[9]}", err) == 1 &&
	     p.line.n_hash == 1 && p.line.hash_ids[0] == 9);
	trace_parser_release(&p);
}

static void test_hmap(void)
{
	struct hmap m;
	int created, ok = 1;
	size_t it = 0, n = 0;
	uint64_t a, b, v;

	hmap_init(&m, 1000);
	for (uint64_t i = 0; i < 1000; i++)
		*hmap_put(&m, i, i * 7, &created) = i + 1;
	for (uint64_t i = 0; i < 1000; i++) {
		const uint64_t *p = hmap_find(&m, i, i * 7);

		ok &= p && *p == i + 1;
	}
	TEST("hmap finds all", ok && m.len == 1000);
	TEST("hmap absent", hmap_find(&m, 5, 6) == NULL);
	TEST("hmap existing key", *hmap_put(&m, 3, 21, &created) == 4 && !created);
	TEST("hmap cap", hmap_put(&m, 5000, 1, &created) == NULL);
	while (hmap_next(&m, &it, &a, &b, &v))
		n += b == a * 7 && v == a + 1;
	TEST("hmap iterates all", n == 1000);
	hmap_release(&m);
	TEST("hmap empty find", hmap_find(&m, 1, 1) == NULL);
}

int main(void)
{
	test_fields();
	test_errors();
	test_hmap();
	return TEST_DONE();
}
