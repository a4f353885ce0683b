/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/accuracy/codeexec: lighteval's code extraction and the LCB ground truth's parsing, hostile cases included (no sandbox). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy/codeexec.h"
#include "test.h"

struct xcase {
	const char *name, *reply, *code;
};

/* extract_code(): the lines between the last two lines holding ``` */
static const struct xcase xcases[] = {
	{ "extract: one python block", "Sure:\n```python\nprint(1)\n```\nDone.",
	  "print(1)" },
	{ "extract: no fence", "print(1)", "" },
	{ "extract: one fence only", "```python\nprint(1)\n", "" },
	{ "extract: the last of two blocks",
	  "```python\na=1\n```\ntext\n```python\nb=2\nc=3\n```\n", "b=2\nc=3" },
	{ "extract: three fences take the last two",
	  "```\nA\n```\nB\n```", "B" },
	{ "extract: adjacent fences give nothing", "```python\n```\n", "" },
	{ "extract: a fence mid-line counts as a fence line",
	  "code ```python\nx=1\nend``` here", "x=1" },
	{ "extract: four backticks hold three", "````\nx=1\n````", "x=1" },
	{ "extract: CRLF kept as lighteval keeps it", "```python\r\nx=1\r\n```\r\n",
	  "x=1\r" },
	{ "extract: an empty line inside is kept", "```\n\n```", "" },
	{ "extract: two empty lines inside", "```\n\n\n```", "\n" },
	{ "extract: empty reply", "", "" },
	{ "extract: two backticks are no fence", "``\nx\n``", "" },
	{ "extract: the fence at the very end without newline",
	  "```py\nprint(2)\n```", "print(2)" },
};

static void
test_extract(void)
{
	for (size_t i = 0; i < sizeof(xcases) / sizeof(xcases[0]); i++) {
		const char *code;
		size_t n = codeexec_extract(xcases[i].reply, strlen(xcases[i].reply),
					    &code);
		char got[256];

		snprintf(got, sizeof(got), "%.*s", (int)n, code);
		TEST_STR(xcases[i].name, got, xcases[i].code);
	}
}

struct pcase {
	const char *name, *gold;
	int ok;			/* parse returns 0 */
	size_t n;		/* cases parsed */
	const char *fn;		/* func_name, or NULL */
	int encoded;
	const char *err;	/* a substring of the message when !ok */
};

#define PUB1 "\"[{\\\"input\\\": \\\"1 2\\\\n\\\", \\\"output\\\": \\\"3\\\\n\\\"}]\""

static const struct pcase pcases[] = {
	{ "parse: public cases as a JSON text",
	  "{\"public_test_cases\": " PUB1 ", \"private_test_cases\": \"\", \"metadata\": \"{}\"}",
	  1, 1, NULL, 0, NULL },
	{ "parse: public and private as lists, func_name from an object",
	  "{\"public_test_cases\": [{\"input\": \"1\", \"output\": \"2\"}],"
	  " \"private_test_cases\": [{\"input\": \"3\", \"output\": \"4\"}],"
	  " \"metadata\": {\"func_name\": \"solve\"}}",
	  1, 2, "solve", 0, NULL },
	{ "parse: func_name from a metadata JSON text",
	  "{\"public_test_cases\": [{\"input\": \"1\", \"output\": \"2\"}],"
	  " \"metadata\": \"{\\\"func_name\\\": \\\"maxSum\\\"}\"}",
	  1, 1, "maxSum", 0, NULL },
	{ "parse: private cases that are no JSON are left to decode",
	  "{\"public_test_cases\": [], \"private_test_cases\": \"eJxrYJ==\"}",
	  1, 0, NULL, 1, NULL },
	{ "parse: func_name null is stdin/stdout",
	  "{\"public_test_cases\": [{\"input\": \"1\", \"output\": \"2\"}],"
	  " \"metadata\": {\"func_name\": null}}",
	  1, 1, NULL, 0, NULL },
	{ "parse: metadata that is a JSON list has no func_name",
	  "{\"public_test_cases\": [{\"input\": \"1\", \"output\": \"2\"}],"
	  " \"metadata\": \"[1]\"}",
	  1, 1, NULL, 0, NULL },
	{ "parse: a duplicate key, the last one wins (as Python's json)",
	  "{\"public_test_cases\": 7, \"public_test_cases\": [{\"input\": \"\", \"output\": \"\"}]}",
	  1, 1, NULL, 0, NULL },
	{ "parse hostile: not JSON", "{\"public_test_cases\": [", 0, 0, NULL, 0,
	  "ground_truth not orjson" },
	{ "parse hostile: empty", "", 0, 0, NULL, 0, "ground_truth not orjson" },
	{ "parse hostile: the root is a list", "[1, 2]", 0, 0, NULL, 0,
	  "expected an object" },
	{ "parse hostile: no test cases at all", "{\"starter_code\": \"x\"}", 0, 0,
	  NULL, 0, "no test cases" },
	{ "parse hostile: falsy everywhere",
	  "{\"public_test_cases\": 0, \"private_test_cases\": null, \"metadata\": false}",
	  0, 0, NULL, 0, "no test cases" },
	{ "parse hostile: public cases a number", "{\"public_test_cases\": 5}", 0, 0,
	  NULL, 0, "JSON string or list" },
	{ "parse hostile: public JSON text that is no list",
	  "{\"public_test_cases\": \"{\\\"a\\\": 1}\"}", 0, 0, NULL, 0, "not a list" },
	{ "parse hostile: public JSON text that is broken",
	  "{\"public_test_cases\": \"[{\"}", 0, 0, NULL, 0, "public test cases" },
	{ "parse hostile: a case without output",
	  "{\"public_test_cases\": [{\"input\": \"1\"}]}", 0, 0, NULL, 0,
	  "has no 'output'" },
	{ "parse hostile: a case that is a list",
	  "{\"public_test_cases\": [[\"1\", \"2\"]]}", 0, 0, NULL, 0, "not an object" },
	{ "parse hostile: a non-string input",
	  "{\"public_test_cases\": [{\"input\": 1, \"output\": \"2\"}]}", 0, 0, NULL, 0,
	  "'input' is not a string" },
	{ "parse hostile: private cases an object",
	  "{\"public_test_cases\": [{\"input\": \"1\", \"output\": \"2\"}],"
	  " \"private_test_cases\": {\"a\": 1}}", 0, 0, NULL, 0, "JSON string or list" },
	{ "parse hostile: private JSON text of a number",
	  "{\"public_test_cases\": [{\"input\": \"1\", \"output\": \"2\"}],"
	  " \"private_test_cases\": \"1234\"}", 0, 0, NULL, 0, "not a list" },
	{ "parse hostile: metadata that is broken JSON",
	  "{\"public_test_cases\": [{\"input\": \"1\", \"output\": \"2\"}],"
	  " \"metadata\": \"{func_name\"}", 0, 0, NULL, 0, "metadata" },
};

static void
test_parse(void)
{
	for (size_t i = 0; i < sizeof(pcases) / sizeof(pcases[0]); i++) {
		const struct pcase *c = &pcases[i];
		struct codeexec_tests t;
		char err[256] = "";
		int rc = codeexec_parse(c->gold, strlen(c->gold), &t, err, sizeof(err));
		int ok;

		if (c->ok)
			ok = rc == 0 && t.n == c->n && !!t.encoded == c->encoded &&
			     (c->fn ? t.fn_name && !strcmp(t.fn_name, c->fn) : !t.fn_name);
		else
			ok = rc < 0 && strstr(err, c->err) != NULL;
		TEST(c->name, ok);
		if (!ok)
			printf("#   rc %d, n %zu, err '%s'\n", rc, t.n, err);
		codeexec_tests_release(&t);
	}
}

static void
test_parse_values(void)
{
	const char *g = "{\"public_test_cases\": [{\"input\": \"a\\u0000b\", \"output\": \"\\n\"}],"
			" \"metadata\": {\"func_name\": 3}}";
	const char *priv = "[{\"input\": \"3\", \"output\": \"4\"}]";
	struct codeexec_tests t;
	char err[256];

	TEST("parse: an input with a NUL keeps its length, func_name 3 fails later",
	     codeexec_parse(g, strlen(g), &t, err, sizeof(err)) == 0 && t.n == 1 &&
	     t.cases[0].inlen == 3 && !memcmp(t.cases[0].in, "a\0b", 3) &&
	     t.cases[0].outlen == 1 && t.fn_not_str && !t.fn_name);
	codeexec_tests_release(&t);

	g = "{\"public_test_cases\": [{\"input\": \"1\", \"output\": \"2\"}], "
	    "\"private_test_cases\": \"not json: base64\"}";
	TEST("add_cases: decoded private cases come after the public ones",
	     codeexec_parse(g, strlen(g), &t, err, sizeof(err)) == 0 && t.encoded &&
	     codeexec_add_cases(&t, priv, strlen(priv), err, sizeof(err)) == 0 &&
	     t.n == 2 && !memcmp(t.cases[1].in, "3", 1));
	TEST("add_cases: garbage is refused with a message",
	     codeexec_add_cases(&t, "[{\"input\"", 10, err, sizeof(err)) < 0 &&
	     strstr(err, "private test cases"));
	codeexec_tests_release(&t);
}

/* Deep nesting, many cases, a huge case list: bounded and refused. */
static void
test_parse_big(void)
{
	size_t n = CODEEXEC_MAX_CASES + 1, unit = strlen("{\"input\":\"\",\"output\":\"\"},");
	char *g = malloc(64 + n * unit), *p = g;
	struct codeexec_tests t;
	char err[256] = "";

	p += snprintf(p, 64, "{\"public_test_cases\": [");
	for (size_t i = 0; i < n; i++)
		p += snprintf(p, unit + 1, "{\"input\":\"\",\"output\":\"\"},");
	p[-1] = ']';
	*p++ = '}';
	*p = '\0';
	TEST("parse hostile: more cases than the cap",
	     codeexec_parse(g, strlen(g), &t, err, sizeof(err)) < 0 &&
	     strstr(err, "more than"));
	codeexec_tests_release(&t);

	p = g;
	p += snprintf(p, 64, "{\"public_test_cases\": ");
	for (int i = 0; i < 5000; i++)
		*p++ = '[';
	*p = '\0';
	TEST("parse hostile: 5000 nested lists refused",
	     codeexec_parse(g, strlen(g), &t, err, sizeof(err)) < 0);
	codeexec_tests_release(&t);
	free(g);
}

static void
test_grade_without_sandbox(void)
{
	struct grade_result r;
	const char *g = "{\"public_test_cases\": [{\"input\": \"1\", \"output\": \"2\"}]}";

	TEST("grade: no code block: wrong and unparsed, nothing run",
	     codeexec_grade("I think the answer is 2.", 24, g, &r) == 0 &&
	     !r.correct && r.unparsed && !strcmp(r.reason, "no code block extracted"));
	TEST("grade: malformed gold: the original's failure, the stripped reply",
	     codeexec_grade("  ```\nx\n```  ", 13, "[]", &r) == 0 && !r.correct &&
	     r.unparsed && !strcmp(r.extracted, "```\nx\n```") &&
	     strstr(r.reason, "LCB grader failed: malformed test cases"));
	TEST("grade: registered under code_execution, the lcb default",
	     grade_lookup("code_execution") == codeexec_grade &&
	     !strcmp(grade_default("lcb_codegeneration"), "code_execution"));
}

int
main(void)
{
	test_extract();
	test_parse();
	test_parse_values();
	test_parse_big();
	test_grade_without_sandbox();
	return TEST_DONE();
}
