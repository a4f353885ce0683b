/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/cfg/expr (the config files' {{ }} templates), each answer Jinja2 3.1's with StrictUndefined. */
#include <stdlib.h>
#include <string.h>

#include "cfg/expr.h"
#include "test.h"

/* The names the templates see; lookups are counted. */
static const char *const vars[][2] = {
	{ "base_concurrency", "16" },
	{ "isl_target", "512" },
	{ "test_duration", "120" },
	{ "c", "8" },
	{ "s", "\"10\"" },
	{ "f", "1.5" },
	{ "n", "null" },
	{ "t", "true" },
	{ "l", "[3, 1, 2]" },
	{ "o", "{\"k\": [1, 2, {\"z\": 3}], \"q\": \"it's\"}" },
	{ "phases", "{\"profiling\": {\"rate\": 2.5}, \"warmup\": {\"rate\": 1}}" },
	{ "phases.warmup.rate", "4" },
	{ "big", "123456789012345678901" },
	{ "bad", "{nope" },
};

static int lookups, fail_ctx;

static int
lookup(void *ctx, const char *name, struct buf *out, char *err, size_t errlen)
{
	lookups++;
	if (ctx && !strcmp(name, "fails"))
		return util_seterr(err, errlen, "lookup of 'fails' failed");
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (!strcmp(vars[i][0], name))
			return buf_addstr(out, vars[i][1]);
	return 1;
}

/* "OK <json>" or "ERR <message>" for a template */
static const char *
render(const char *s)
{
	static char res[512];
	struct buf out = BUF_INIT(BUF_NOMAX);
	char err[256] = "";

	buf_addstr(&out, "OK ");
	if (cfgexpr_render(s, strlen(s), lookup, &fail_ctx, &out, err, sizeof(err)) == 0)
		snprintf(res, sizeof(res), "%s", out.s);
	else if (out.len != 3)
		snprintf(res, sizeof(res), "ERR (out changed) %s", err);
	else
		snprintf(res, sizeof(res), "ERR %s", err);
	buf_release(&out);
	return res;
}

#define R(tmpl, want) TEST_STR(tmpl, render(tmpl), "OK " want)
#define E(tmpl, want) TEST_STR(tmpl, render(tmpl), "ERR " want)

static void
test_brief(void)
{
	R("{{ base_concurrency * 10 }}", "160");
	R("{{ isl_target // 10 }}", "51");
	R("{{ test_duration }}", "120");	/* a number, not a string */
	R("{{ base_concurrency * '10' | int }}", "160");	/* | binds tighter */
	R("run-{{ c }}-x", "\"run-8-x\"");
	R("{{ phases.profiling.rate * 2 }}", "5.0");
	R("{{ 3 / 2 }}", "1.5");
	R("{{ 4 / 2 }}", "2.0");	/* renders "2.0": a float */
	R("{{ 7 // 2 }}", "3");
}

static void
test_arithmetic(void)
{
	R("{{ -7 // 2 }}", "-4");	/* floor toward -inf */
	R("{{ 7 // -2 }}", "-4");
	R("{{ -7 // -2 }}", "3");
	R("{{ -7 % 2 }}", "1");		/* the divisor's sign */
	R("{{ 7 % -2 }}", "-1");
	R("{{ 7.5 // 2 }}", "3.0");
	R("{{ -7.5 // 2 }}", "-4.0");
	R("{{ -7.5 % 2 }}", "0.5");
	R("{{ 7 % 2.5 }}", "2.0");
	R("{{ 2 ** 10 }}", "1024");
	R("{{ 2 ** -1 }}", "0.5");	/* int ** negative int is a float */
	R("{{ 2 ** 0.5 }}", "1.4142135623730951");
	/* Jinja2, not Python: ** is left-associative and binds looser than unary minus */
	R("{{ -2 ** 2 }}", "4");	/* (-2) ** 2; Python says -4 */
	R("{{ 2 ** 3 ** 2 }}", "64");	/* (2 ** 3) ** 2; Python says 512 */
	R("{{ 2 ** -2 ** 2 }}", "0.0625");
	R("{{ -2 ** -1 }}", "-0.5");
	R("{{ 2 * 3 ** 2 }}", "18");
	R("{{ 2 ** 3 * 2 }}", "16");
	R("{{ 1 + 2 * 3 }}", "7");
	R("{{ (1 + 2) * 3 }}", "9");
	R("{{ 10 - 2 - 3 }}", "5");
	R("{{ 100 / 10 / 5 }}", "2.0");
	R("{{ -(3) }}", "-3");
	R("{{ - - 3 }}", "3");
	R("{{ 3 - - 3 }}", "6");
	R("{{ +3 }}", "3");
	R("{{ 1.5 + 1 }}", "2.5");	/* int op float is a float */
	R("{{ 0.1 + 0.2 }}", "0.30000000000000004");
	R("{{ 3 * 1.1 }}", "3.3000000000000003");
	R("{{ True + 1 }}", "2");	/* bool is an int */
	R("{{ f * 2 }}", "3.0");
	R("{{ f // 1 }}", "1.0");
	R("{{ -f }}", "-1.5");
	R("{{ -9223372036854775807 - 1 }}", "-9223372036854775808");
	R("{{ (-9223372036854775807 - 1) % -1 }}", "0");
	R("{{ 2 ** 62 }}", "4611686018427387904");
}

static void
test_literals(void)
{
	R("{{ 1e3 }}", "1000.0");
	R("{{ 1.5e3 }}", "1500.0");
	R("{{ 1E+3 }}", "1000.0");
	R("{{ 1e-5 }}", "1e-05");	/* repr: renders "1e-05" */
	R("{{ 1e-4 }}", "0.0001");
	R("{{ 1e16 }}", "1e+16");
	R("{{ 123456789012345678.0 }}", "1.2345678901234568e+17");
	R("{{ 160.0 }}", "160.0");
	R("{{ 1_000 }}", "1000");
	R("{{ -0.0 }}", "-0.0");
	R("{{ true }}", "true");	/* renders "True" */
	R("{{ False }}", "false");
	R("{{ none }}", "\"None\"");
	R("{{ None }}", "\"None\"");
	R("{{ '\\x41\\u00e9\\q' }}", "\"Aé\\\\q\"");	/* unknown escapes stay */
	R("{{ '\\101\\t' }}", "\"A\\t\"");
	R("{{ 'it''s' }}", "\"its\"");	/* adjacent strings join */
	R("{{ \"it's\" }}", "\"it's\"");
	R("{{ 'a\\\"b' }}", "\"a\\\"b\"");
	R("{{ \"}}\" }}", "\"}}\"");	/* }} in a string does not end the block */
	R("{{ '08' }}", "8");		/* the text "08" reads as int */
	R("{{ \"\" }}", "\"\"");
	E("{{ 07 }}", "at '07': leading zeros in an integer literal");
	E("{{ '\\x4' }}", "at ''\\': truncated \\xXX escape");
	E("{{ '\\ud800' }}", "at ''\\': escape is not a Unicode scalar value");
	E("{{ 'abc }}", "unterminated string in '{{'");
	E("{{ 99999999999999999999 }}", "at '99999999999999999999': integer literal too large");
}

static void
test_strings(void)
{
	R("{{ 'a' ~ 1 ~ 2.5 ~ none ~ True }}", "\"a12.5NoneTrue\"");
	R("{{ 'a' ~ 2 * 3 }}", "\"a6\"");	/* ~ is looser than * */
	E("{{ 1 ~ 2 + 3 }}", "unsupported operand type(s) for +: 'str' and 'int'");	/* ... tighter than + */
	R("{{ 'a' + 'b' }}", "\"ab\"");
	R("{{ 'ab' * 3 }}", "\"ababab\"");
	R("{{ 3 * 'ab' }}", "\"ababab\"");
	R("{{ 'x' * -1 }}|", "\"|\"");
	R("{{ s * 2 }}", "1010");	/* '10' * 2 = '1010', then read as int */
	R("{{ s ~ 1 }}", "101");
	R("{{ s | int * 2 }}", "20");
	E("{{ 'a' + 1 }}", "unsupported operand type(s) for +: 'str' and 'int'");
	E("{{ 'ab' * 600000 }}", "string longer than 1 MiB");
	E("{{ ('a' * 1000000) ~ ('b' * 100000) }}", "string longer than 1 MiB");
	E("{{ 'a' * 1048576 ~ 'b' }}", "string longer than 1 MiB");
	R("{{ 'é' ~ 'x' }}", "\"éx\"");
	R("{{ '\\n' }}", "\"\\n\"");
}

static void
test_compare_logic(void)
{
	R("{{ 1 == 1.0 }}", "true");
	R("{{ 1 != 2 }}", "true");
	R("{{ 1 < 2 < 3 }}", "true");	/* chained */
	R("{{ 1 < 2 == True }}", "false");	/* 1 < 2 and 2 == True */
	R("{{ 1 < 2 > 1 }}", "true");
	R("{{ 'ab' < 'b' }}", "true");
	R("{{ 1 == '1' }}", "false");
	R("{{ none == none }}", "true");
	R("{{ 2 >= 2.0 }}", "true");
	R("{{ 9007199254740993 == 9007199254740992.0 }}", "false");	/* exact */
	R("{{ l == l }}", "true");
	R("{{ o == o }}", "true");
	E("{{ 1 < '1' }}", "'<' not supported between instances of 'int' and 'str'");
	R("{{ not 0 }}", "true");
	R("{{ not 1 == 2 }}", "true");	/* not (1 == 2) */
	R("{{ 0 or 5 }}", "5");		/* Python's or gives the operand */
	R("{{ 1 and 2 }}", "2");
	R("{{ n or 7 }}", "7");
	R("{{ 1 or 0 and 0 }}", "1");
	R("{{ 1 or nope }}", "1");	/* short-circuit: nope never looked at */
	R("{{ 0 and nope }}", "0");
	R("{{ 1 if 1 else nope }}", "1");
	R("{{ 1 if 0 else 2 if 0 else 3 }}", "3");
	R("{{ (1 if 1 else 2) + 1 }}", "2");
	R("{{ 1 + 1 if 0 else 5 }}", "5");
	R("{{ 1 if 0 }}|", "\"|\"");	/* no else: renders nothing */
}

static void
test_names(void)
{
	R("{{ phases['profiling'].rate }}", "2.5");
	R("{{ phases[\"profiling\"][\"rate\"] }}", "2.5");
	R("{{ phases.warmup.rate }}", "4");	/* asked whole first */
	R("{{ o.k[2].z }}", "3");
	R("{{ o.k.1 }}", "2");
	R("{{ l.0 }}", "3");
	R("{{ l[-1] }}", "2");
	R("{{ l[True] }}", "1");
	R("{{ l }}", "\"[3, 1, 2]\"");	/* str() of a list */
	R("{{ o }}", "\"{'k': [1, 2, {'z': 3}], 'q': \\\"it's\\\"}\"");
	R("{{ phases.profiling }}", "\"{'rate': 2.5}\"");
	E("{{ big }}", "integer 123456789012345678901 out of range");	/* int64 only */
	E("{{ l[5] }}", "undefined variable 'l[5]'");
	E("{{ base_concurrancy }}", "undefined variable 'base_concurrancy'");
	E("{{ nope + 1 }}", "undefined variable 'nope'");
	E("{{ not nope }}", "undefined variable 'nope'");
	E("{{ -nope | abs }}", "undefined variable 'nope'");
	E("{{ c.b }}", "undefined variable 'c.b'");
	E("{{ phases.x.rate }}", "undefined variable 'phases.x.rate'");
	E("{{ fails }}", "lookup of 'fails' failed");
	E("{{ bad }}", "the value of 'bad' is not JSON: at byte 1: expected string key");
	lookups = 0;
	render("{{ 0 and nope }}");
	TEST("short-circuit: no lookup", lookups == 0);
}

static void
test_filters(void)
{
	R("{{ 2.5 | round }}", "2.0");	/* Python round(): half to even */
	R("{{ 3.5 | round }}", "4.0");
	R("{{ -2.5 | round }}", "-2.0");
	R("{{ 7 | round }}", "7");	/* an int stays an int */
	R("{{ 2.675 | round(2) }}", "2.67");	/* the double is below 2.675 */
	R("{{ 2.675 | round(1) }}", "2.7");
	R("{{ 1234.5 | round(-2) }}", "1200.0");
	R("{{ 15.0 | round(-1) }}", "20.0");
	R("{{ 25.0 | round(-1) }}", "20.0");
	R("{{ 1250 | round(-2) }}", "1200");
	R("{{ 1350 | round(-2) }}", "1400");
	R("{{ -1250 | round(-2) }}", "-1200");
	R("{{ 2.5 | round(0, 'floor') }}", "2.0");
	R("{{ -2.5 | round(method='ceil') }}", "-2.0");
	R("{{ 1.55 | round(1, 'floor') }}", "1.5");
	R("{{ 7 | round(method='floor') }}", "7.0");
	E("{{ 1 | round(2.5) }}", "round precision must be an integer");
	E("{{ 2.5 | round(method='x') }}", "method must be common, ceil or floor");
	E("{{ 'a' | round }}", "type str doesn't define __round__ method");
	R("{{ -2 | abs }}", "2");	/* the filter takes -2: -(2 | abs) is not */
	R("{{ -2.5 | abs }}", "2.5");
	E("{{ none | abs }}", "bad operand type for abs(): 'NoneType'");
	R("{{ 'x' | int }}", "0");
	R("{{ '1.9' | int }}", "1");
	R("{{ ' 12 ' | int }}", "12");
	R("{{ '1_0' | int }}", "10");
	R("{{ '0x1A' | int }}", "0");
	R("{{ -3.7 | int }}", "-3");
	R("{{ '1e3' | int }}", "1000");
	R("{{ 'nan' | int }}", "0");
	R("{{ 'x' | int(5) }}", "5");
	R("{{ none | int }}", "0");
	R("{{ l | int }}", "0");
	R("{{ '1_0.5' | float }}", "10.5");
	R("{{ ' 2 ' | float }}", "2.0");
	R("{{ 'x' | float(7) }}", "7");
	R("{{ True | float }}", "1.0");
	R("{{ none | float }}", "0.0");
	R("{{ 3 | float }}", "3.0");
	R("{{ 255 | string ~ 'x' }}", "\"255x\"");
	R("{{ o.k | string }}", "\"[1, 2, {'z': 3}]\"");
	R("{{ nope | default(3) }}", "3");
	R("{{ nope | d(3) }}", "3");
	R("{{ c | default(3) }}", "8");
	R("{{ nope | default }}|", "\"|\"");
	R("{{ '' | default('e', true) }}", "\"e\"");
	R("{{ 0 | default('e', boolean=true) }}", "\"e\"");
	R("{{ nope | default(default_value=2) }}", "2");
	R("{{ c | default(nope) }}", "8");	/* the default is not used */
	E("{{ nope | default(nope2) }}", "undefined variable 'nope2'");
	R("{{ l[5] | default(9) }}", "9");
	R("{{ o.zz | default(4) }}", "4");
	R("{{ phases.x.rate | default(1) }}", "1");	/* lenient: Jinja raises on phases.x */
	R("{{ l | max }}", "3");
	R("{{ l | min }}", "1");
	R("{{ 'héllo' | length }}", "5");	/* code points */
	R("{{ l | length }}", "3");
	R("{{ o | count }}", "2");
	R("{{ nope is defined }}", "false");
	R("{{ c is defined }}", "true");
	R("{{ nope is not defined }}", "true");
	R("{{ nope is undefined }}", "true");
	R("{{ n is none }}", "true");
	R("{{ nope if nope is defined else 5 }}", "5");
	E("{{ c | nosuch }}", "at 'c | nosuch': unknown filter");
	E("{{ c | int(1, 2, 3) }}", "at 'c | int(1, 2,': too many filter arguments");
	E("{{ c | round(precision=1, precision=2) }}",
	  "at 'c | round(precision=1, precision=': filter argument given twice");
	E("{{ 3 | min }}", "min of int (a list of numbers only)");
}

static void
test_coercion(void)
{
	R("TRUE", "true");
	R("False", "false");
	R("{{ 'True ' }}", "\"True \"");	/* only the exact words */
	R(" 12 ", "12");		/* Python int() strips */
	R("1_000", "1000");
	R("007", "7");
	R("-0", "0");
	R("+5", "5");
	R(" 2.50 ", "2.5");
	R("1e5", "100000.0");
	R("plain text", "\"plain text\"");
	TEST_STR("JSON escapes", render("a\\b\"c\t"), "OK \"a\\\\b\\\"c\\t\"");
	R("", "\"\"");
	E("nan", "'nan' is not a finite number");
	E("1e400", "'1e400' is not a finite number");
	E("{{ 1e308 * 10 }}", "cannot render inf (not a finite number)");
}

static void
test_text(void)
{
	R("{{ c }}{{ c }}", "88");
	R("{{c}}-{{ c}}", "\"8-8\"");
	R("a {{ c }} b {{ base_concurrency }} c", "\"a 8 b 16 c\"");
	R("x {{- c -}} y", "\"x8y\"");
	R("x {{- c }} y", "\"x8 y\"");
	R("x {#- c -#} y", "\"xy\"");
	R("a{# c #}b", "\"ab\"");
	TEST_STR("one trailing newline goes", render("{{ c }}\n"), "OK 8");
	TEST_STR("\\r\\n and \\r read as \\n", render("a\r\nb\rc\n\n"), "OK \"a\\nb\\nc\\n\"");
	R("} }} { x", "\"} }} { x\"");
	E("{% if 1 %}x{% endif %}", "'{%' blocks are not supported (only {{ expressions }})");
	E("a {# x", "unterminated '{#'");
	E("{{ 1", "unterminated '{{'");
	E("{{ c + ", "unterminated '{{'");
	E("{{ x +}}", "at 'x +': expected an operand");
	E("{{ }}", "at '{{': expected an operand");
	E("{{ c 1 }}", "at 'c 1': expected the end of the expression ('}}')");
	E("{{ 1 @ 2 }}", "at '1': unexpected '@'");
	E("{{ f(1) }}", "at 'f(': calls are not supported");
	E("{{ l[1:] }}", "at 'l[1:': expected ']' (slices are not supported)");
	E("{{ [1] }}", "at '[': list and dict literals are not supported");
	E("{{ \x01 }}", "at '{{': unexpected byte 0x01");
	TEST("has: a block", cfgexpr_has("a {{ b }}", 9));
	TEST("has: none", !cfgexpr_has("a { b } }}{{", 12));
	TEST("has: bounded by n", !cfgexpr_has("{{ b }}", 6));
}

static void
test_errors(void)
{
	E("{{ 1/0 }}", "division by zero");
	E("{{ 1.0 / 0 }}", "division by zero");
	E("{{ 3 % 0 }}", "division by zero");
	E("{{ 3.0 // 0 }}", "division by zero");
	E("{{ 0 ** -1 }}", "0.0 cannot be raised to a negative power");
	E("{{ 10.0 ** 400 }}", "numerical result out of range");
	E("{{ (-8) ** 0.5 }}", "negative number cannot be raised to a fractional power");
	/* int64, not Python's big ints */
	E("{{ 9223372036854775807 + 1 }}", "integer overflow");
	E("{{ 9223372036854775807 * 2 }}", "integer overflow");
	E("{{ 2 ** 63 }}", "integer overflow");
	E("{{ (-9223372036854775807 - 1) // -1 }}", "integer overflow");
	E("{{ -(-9223372036854775807 - 1) }}", "integer overflow");
	E("{{ (-9223372036854775807 - 1) | abs }}", "integer overflow");
	E("{{ 1e300 | int }}", "integer overflow");
	E("{{ 'inf' | float }}", "cannot render inf (not a finite number)");
}

/* Nesting past CFGEXPR_MAX_DEPTH is an error, never a deep recursion. */
static void
test_depth(void)
{
	size_t n = 200000;
	char *s = malloc(2 * n + 16), *p = s;

	p += snprintf(p, 8, "{{ ");
	for (size_t i = 0; i < 64; i++)
		*p++ = '(';
	*p++ = '1';
	for (size_t i = 0; i < 64; i++)
		*p++ = ')';
	snprintf(p, 8, " }}");
	TEST_STR("64 parentheses", render(s), "OK 1");
	memmove(s + 4, s + 3, strlen(s + 3) + 1);
	s[3] = '(';
	p = s + strlen(s) - 3;
	snprintf(p, 8, ") }}");
	TEST("65 parentheses", strstr(render(s), "nested too deeply") != NULL);
	p = s + 3;
	for (size_t i = 0; i < n; i++)
		*p++ = '(';
	snprintf(p, 8, "1 }}");
	TEST("200000 parentheses", strstr(render(s), "nested too deeply") != NULL);
	p = s + 3;
	for (size_t i = 0; i < n; i++)
		*p++ = '-';
	snprintf(p, 8, "1 }}");
	TEST("200000 minus signs", strstr(render(s), "nested too deeply") != NULL);
	p = s + 3;
	for (size_t i = 0; i < n / 2; i++) {
		*p++ = '1';
		*p++ = '+';
	}
	snprintf(p, 8, "1 }}");
	TEST("100000 additions", strstr(render(s), "nested too deeply") != NULL);
	p = s + 3;
	for (size_t i = 0; i < n / 5; i++)
		p += snprintf(p, 8, "not ");
	snprintf(p, 8, "1 }}");
	TEST("40000 nots", strstr(render(s), "nested too deeply") != NULL);
	free(s);
}

static void
test_garbage(void)
{
	static const char *const junk[] = {
		"{{", "{{-", "{{ -}}", "{{ 'a' | }}", "{{ a. }}", "{{ a[ }}", "{{ (1 }}",
		"{{ 1 if }}", "{{ 1 if 1 else }}", "{{ is }}", "{{ c is }}", "{{ c | int( }}",
		"{{ c | int(default=) }}", "{{ c | int(x=1) }}", "{{ 1 2 3 }}", "{{ 1. }}",
		"{{ '\\", "{{ \"\\U0011ffff\" }}", "{{ \xff\xfe }}", "{{ 1e }}", "{{ ** }}",
	};
	char err[8];

	for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++)
		TEST(junk[i], strncmp(render(junk[i]), "ERR ", 4) == 0);
	{
		struct buf out = BUF_INIT(BUF_NOMAX);

		TEST("a small err buffer is filled, not overrun",
		     cfgexpr_render("{{ nope }}", 10, lookup, NULL, &out, err, sizeof(err)) < 0 &&
		     strlen(err) == sizeof(err) - 1 && out.len == 0);
		TEST("no lookup: every name undefined",
		     cfgexpr_render("{{ c }}", 7, NULL, NULL, &out, NULL, 0) < 0);
		TEST("a render without blocks",
		     cfgexpr_render("12", 2, NULL, NULL, &out, NULL, 0) == 0 &&
		     !strcmp(buf_str(&out), "12"));
		buf_release(&out);
	}
}

int
main(void)
{
	test_brief();
	test_arithmetic();
	test_literals();
	test_strings();
	test_compare_logic();
	test_names();
	test_filters();
	test_coercion();
	test_text();
	test_errors();
	test_depth();
	test_garbage();
	return TEST_DONE();
}
