/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/json/j2jq (Jinja2 and JMESPath to jq) and lib/json/jqprog (libjq). */
#include <errno.h>
#include <stdlib.h>

#include "json/j2jq.h"
#include "json/jqprog.h"
#include "test.h"

static char err[1024];
static char got[4096];

/* The jq text of template s, or "ERR: " and the message. */
static const char *
tmpl(const char *s)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	if (j2jq_template(s, strlen(s), &b, err, sizeof(err)) < 0)
		snprintf(got, sizeof(got), "ERR: %s", err);
	else
		snprintf(got, sizeof(got), "%s", buf_str(&b));
	buf_release(&b);
	return got;
}

static const char *
path(const char *s)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	if (j2jq_path(s, strlen(s), &b, err, sizeof(err)) < 0)
		snprintf(got, sizeof(got), "ERR: %s", err);
	else
		snprintf(got, sizeof(got), "%s", buf_str(&b));
	buf_release(&b);
	return got;
}

/* Run prog over in: the output, "N=<count>" for no or several, "ERR: ..." */
static const char *
run(const char *prog, const char *in)
{
	struct buf b = BUF_INIT(1024);
	struct jqprog *p = jqprog_new(prog, err, sizeof(err));
	int n;

	if (!p) {
		snprintf(got, sizeof(got), "COMPILE: %s", err);
		return got;
	}
	n = jqprog_run(p, in, strlen(in), &b, err, sizeof(err));
	if (n < 0)
		snprintf(got, sizeof(got), "ERR: %s", err);
	else if (n != 1)
		snprintf(got, sizeof(got), "N=%d", n);
	else
		snprintf(got, sizeof(got), "%s", buf_str(&b));
	jqprog_free(p);
	buf_release(&b);
	return got;
}

static int
has(const char *s, const char *sub)
{
	return strstr(s, sub) != NULL;
}

static void
test_translate(void)
{
	TEST_STR("nv-embedqa", tmpl("{\"text\": {{ texts|tojson }}}"), "{\"text\": (.texts)}");
	TEST_STR("bare outside a string", tmpl("{\"n\": {{max_tokens}}}"), "{\"n\": (.max_tokens)}");
	TEST_STR("inside a string", tmpl("{\"p\": \"say {{ text }}!\"}"), "{\"p\": \"say \\(.text)!\"}");
	TEST_STR("tojson inside a string", tmpl("\"{{ texts|tojson }}\""), "\"\\(.texts | tojson)\"");
	TEST_STR("escaped quote keeps string state", tmpl("\"a\\\"{{ text }}\""), "\"a\\\"\\(.text)\"");
	TEST_STR("steps", tmpl("{{ turn.texts[0]['contents'].0 }}"),
		 "(.turn.texts[0][\"contents\"][0])");
	TEST_STR("lower", tmpl("{{ stream|lower }}"),
		 "(.stream | if type == \"string\" then ascii_downcase else . end)");
	TEST_STR("safe", tmpl("{{ text | safe }}"), "(.text)");
	TEST_STR("comment dropped", tmpl("{# hi #}[1]"), "[1]");
	TEST_STR("whitespace control", tmpl("[1,  {{- text -}}  ]"), "[1,(.text)]");
	TEST_STR("no tags", tmpl("{\"a\": 1}"), "{\"a\": 1}");
	TEST("jinja detected", j2jq_is_jinja("{{ x }}", 7) && j2jq_is_jinja("{% if %}", 8));
	TEST("jq not jinja", !j2jq_is_jinja("{text: .texts}", 14) && !j2jq_is_jinja("{", 1));
}

static void
test_refused(void)
{
	TEST("statement refused with jq",
	     has(tmpl("{% if stream %}1{% endif %}"), "if .stream then A else B end"));
	TEST("for refused with jq",
	     has(tmpl("[{% for t in texts %}{{ t }}{% endfor %}]"), "[.texts[] as $t | ...]"));
	TEST("set refused with jq", has(tmpl("{% set x = model %}"), ".model as $x"));
	TEST("filter refused with jq", has(tmpl("{{ texts|join(' ') }}"), "(.texts | join(\" \"))"));
	TEST("replace refused with jq",
	     has(tmpl("\"{{ text|replace('a', 'b') }}\""), "(.text | gsub(\"a\"; \"b\"))"));
	TEST("default refused with jq", has(tmpl("{{ role|default('user') }}"), "(.role | . // \"user\")"));
	TEST("comma in a string argument kept",
	     has(tmpl("{{ texts|join(', ') }}"), "(.texts | join(\", \"))"));
	TEST("join without args", has(tmpl("{{ texts|join }}"), "(.texts | join(\"\"))"));
	TEST("unknown filter", has(tmpl("{{ text|wordwrap }}"), "(.text | FILTER"));
	TEST("expression refused with jq", has(tmpl("{{ max_tokens * 2 }}"), "(.max_tokens * 2)"));
	TEST("literal refused", has(tmpl("{{ 'a' ~ text }}"), "(\"a\" + .text)"));
	TEST("unknown variable", has(tmpl("{{ prompt }}"), "unknown template variable 'prompt'"));
	TEST("unterminated", has(tmpl("{\"a\": {{ text"), "unterminated"));
	TEST("unterminated comment", has(tmpl("{# x"), "unterminated"));
	TEST("empty", has(tmpl("{{ }}"), "empty"));
	TEST("bad index", has(tmpl("{{ texts[x] }}"), "not translated"));
	TEST("long index", has(tmpl("{{ texts[12345678901234567] }}"), "not translated"));
	TEST("quote in key step", has(tmpl("{{ turn['a\\'b'] }}"), "not translated"));
	TEST("tag cut in message", strlen(tmpl("{{ 1 +                                                                                                                                                                                                              2 }}")) < 600);
}

static void
test_path(void)
{
	TEST_STR("jq kept", path(".data[0].embedding"), ".data[0].embedding");
	TEST_STR("jq kept, spaces trimmed", path("  .x  "), ".x");
	TEST_STR("jmespath", path("data[0].embedding"), ".data?[0]?.embedding?");
	TEST_STR("quoted name", path("\"a-b\".c"), ".[\"a-b\"]?.c?");
	TEST_STR("projection", path("data[*].embedding"),
		 "[.data?[]?.embedding? | select(. != null)]");
	TEST_STR("flatten", path("results[]"), "[.results?[]? | select(. != null)]");
	TEST("two projections refused", has(path("a[*].b[*]"), "jq program"));
	TEST("function refused", has(path("length(data)"), "jq program"));
	TEST("filter refused", has(path("a[?x > 1]"), "'.a[?x > 1]'"));
	TEST("empty refused", has(path("   "), "empty"));
	TEST("bad quoted", has(path("\"a"), "jq program"));
}

static void
test_jq(void)
{
	TEST_STR("object", run("{\"text\": (.texts)}", "{\"texts\":[\"a\",\"b\"]}"),
		 "{\"text\":[\"a\",\"b\"]}");
	TEST_STR("interpolation", run("\"\\(.a) \\(.n)\"", "{\"a\":\"x\\\"y\",\"n\":3}"),
		 "\"x\\\"y 3\"");
	TEST_STR("no output", run("empty", "{}"), "N=0");
	TEST_STR("two outputs", run(".[]", "[1,2,3]"), "N=2");
	TEST("runtime error", has(run(".a.b", "{\"a\":\"s\"}"), "Cannot index string"));
	TEST("error after an output is the output", !strcmp(run("1, error(\"x\")", "{}"), "1"));
	TEST("error object message", has(run("error({})", "null"), "not a string"));
	TEST("compile error", has(run("{", "{}"), "COMPILE: jq: error"));
	TEST("undefined function", has(run("foo(1)", "{}"), "foo/1 is not defined"));
	TEST("unterminated string", has(run("\"ok\" | \"", "{}"), "unterminated string literal"));
	TEST("unterminated interpolation", has(run("\"a\\(1", "{}"), "unterminated string literal"));
	TEST("interpolation closed", !strcmp(run("\"a\\((1))\" # \"\n", "{}"), "\"a1\""));
	TEST("escaped quote", !strcmp(run("\"\\\"\"", "{}"), "\"\\\"\""));
	TEST("nested interpolations", !strcmp(run("\"\\(\"\\(\"x\")\")\"", "{}"), "\"x\""));
	TEST("input not json", has(run(".", "{"), "not JSON"));
	TEST("output cap", has(run("[range(1000)]", "{}"), "too large"));
	TEST("halt is no output", !strcmp(run("halt", "{}"), "N=0"));
	TEST("input: an error, not libjq's crash", has(run("input", "{}"), "ERR: jq: error"));
	TEST("inputs: none", !strcmp(run("[inputs]", "{}"), "[]"));
}

/* Run prog over in with an output cap of cap bytes: errno, or 0 when it ran. */
static int
run_errno(struct jqprog *p, const char *in, size_t cap)
{
	struct buf b = BUF_INIT(cap);
	int n = jqprog_run(p, in, strlen(in), &b, err, sizeof(err));

	buf_release(&b);
	return n < 0 ? errno : 0;
}

static void
test_is_path(void)
{
	static const char *const paths[] = {
		".", ".a", ".a.b", ".a?.b?[0]?", ".[\"x\"]?", ".\"a b\".c", ".[1:2]",
		".[1:]", ".[:2]", ".[-1]", "  .x  ", ".choices[0].delta.content", ".a | .b",
		".a[]?.b", "[.data?[]?.embedding? | select(. != null)]", "[.a[] | .b]",
	};
	static const char *const others[] = {
		"[range(100000000)]", "..", ".a..b", ".a, .b", "(.a)", "[.[], .[]]",
		".a * 3", "\"x\" * 9", "[.[] == .[]]", "def f: f; f", ".a as $x | $x",
		"\"\\(.a)\"", ".\"\\(.a)\"", "[.a] | tojson", "{a: .b}", ".a[.b]",
		"reduce .[] as $x (0; .)", ".a // .b", "limit(2; .[])", "[.[] | [.]]",
		"[[.a]]", ".a | select(.b)", "[.a | select(. != null) | .b]", "recurse",
		"$ENV", "@base64", ".a # c", "1", "\"x\"", ".a | select(. != null)",
		"[.a | select(. != null)] | .[]", ".0", ".a .b", "[.a]]", ".[.[]]",
	};
	char name[128];

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		snprintf(name, sizeof(name), "a path: %s", paths[i]);
		TEST(name, jqprog_is_path(paths[i]));
	}
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		snprintf(name, sizeof(name), "not a path: %s", others[i]);
		TEST(name, !jqprog_is_path(others[i]));
	}
	TEST_STR("a JMESPath translation is a path", path("data[*].embedding"),
		 "[.data?[]?.embedding? | select(. != null)]");
	TEST("  ... so it runs here", jqprog_is_path(got));
}

static void
test_limits(void)
{
	struct jqprog *p = jqprog_new("(.a)", err, sizeof(err));
	struct jqprog *q = jqprog_new(".", err, sizeof(err));
	struct jqprog *big = jqprog_new("reduce range(28) as $i (\"x\"; . + .) | length",
					err, sizeof(err));
	struct jqprog *crash = jqprog_new("reduce range(1000000) as $i (null; [.]) | 1",
					  err, sizeof(err));
	char in[3000];

	memset(in, ' ', sizeof(in) - 1);
	in[0] = '1';
	in[sizeof(in) - 1] = '\0';
	TEST("helper: a run", run_errno(p, "{\"a\":1}", 1024) == 0);
	TEST("helper: a jq error is EINVAL", run_errno(p, "[1]", 1024) == EINVAL);
	TEST("helper: input not JSON is EINVAL", run_errno(p, "{", 1024) == EINVAL);
	TEST("helper: output past the cap is ENOBUFS",
	     run_errno(p, "{\"a\":\"0123456789\"}", 8) == ENOBUFS);
	TEST("here: output past the cap is ENOBUFS",
	     run_errno(q, "\"0123456789\"", 8) == ENOBUFS);
	TEST("here: input not JSON is EINVAL", run_errno(q, "{", 8) == EINVAL);
	TEST("here: a long input, a short output", run_errno(q, in, 8) == 0);
#if !defined(__SANITIZE_ADDRESS__) && !defined(__has_feature)
	TEST("helper: past the memory limit is ENOMEM", run_errno(big, "null", 64) == ENOMEM);
	TEST("  ... says so", has(err, "memory limit (272 MiB"));
#elif defined(__has_feature)
#if !__has_feature(address_sanitizer)
	TEST("helper: past the memory limit is ENOMEM", run_errno(big, "null", 64) == ENOMEM);
	TEST("  ... says so", has(err, "memory limit (272 MiB"));
#endif
#endif
	TEST("helper: a crash is EIO", run_errno(crash, "null", 64) == EIO);
	TEST("  ... says so", has(err, "helper running the program"));
	TEST("helper: started again after it", run_errno(crash, "null", 64) == EIO);
	TEST("helper: the first one still runs", run_errno(p, "{\"a\":2}", 64) == 0);
	jqprog_free(p);
	jqprog_free(q);
	jqprog_free(big);
	jqprog_free(crash);
}

int
main(void)
{
	test_translate();
	test_refused();
	test_path();
	test_jq();
	test_is_path();
	test_limits();
	return TEST_DONE();
}
