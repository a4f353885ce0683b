/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/json/pyval: str() and repr() as CPython 3.11 prints them (the expected texts are its output). */
#include "json/pyval.h"

#include <string.h>

#include "test.h"

static struct json_doc *doc;

/* str() of the JSON text in, or "<-1>" when pyval_str refuses it. */
static const char *
str_of(const char *in)
{
	static struct buf b = BUF_INIT(BUF_NOMAX);
	char err[128];
	const struct json *v;

	json_doc_reset(doc);
	b.len = 0;
	v = json_parse(doc, in, strlen(in), err, sizeof(err));
	if (!v || pyval_str(v, &b) < 0)
		return "<-1>";
	return buf_str(&b);
}

static const char *
repr_of(const char *s, size_t n)
{
	static struct buf b = BUF_INIT(BUF_NOMAX);

	b.len = 0;
	pyval_repr(&b, s, n);
	return buf_str(&b);
}

int
main(void)
{
	static const char *const nums[][2] = {
		{ "0", "0" }, { "-0", "0" }, { "12", "12" }, { "1.0", "1.0" },
		{ "1e5", "100000.0" }, { "1E5", "100000.0" }, { "0.1", "0.1" },
		{ "1e-05", "1e-05" }, { "1.5e300", "1.5e+300" }, { "-2.50", "-2.5" },
		{ "123456789012345678", "123456789012345678" }, { "1e16", "1e+16" },
		{ "9999999999999999.0", "1e+16" }, { "0.0001", "0.0001" },
		{ "0.00001", "1e-05" }, { "-0.0", "-0.0" }, { "3.14159", "3.14159" },
	};

	doc = json_doc_new();
	for (size_t i = 0; i < sizeof(nums) / sizeof(*nums); i++)
		TEST_STR(nums[i][0], str_of(nums[i][0]), nums[i][1]);
	TEST_STR("a string as it is", str_of("\"a\\nb\""), "a\nb");
	TEST_STR("true", str_of("true"), "True");
	TEST_STR("false", str_of("false"), "False");
	TEST_STR("null", str_of("null"), "None");
	TEST_STR("an array is refused", str_of("[1]"), "<-1>");
	TEST_STR("an object is refused", str_of("{}"), "<-1>");
	TEST("a NUL inside a string is kept",
	     !strcmp(str_of("\"a\\u0000b\""), "a"));
	TEST_STR("repr: single quotes", repr_of("abc", 3), "'abc'");
	TEST_STR("repr: a single quote alone: double quotes", repr_of("it's", 4), "\"it's\"");
	TEST_STR("repr: a double quote alone", repr_of("say \"hi\"", 8), "'say \"hi\"'");
	TEST_STR("repr: both quotes", repr_of("both ' \"", 8), "'both \\' \"'");
	TEST_STR("repr: a backslash", repr_of("a\\b", 3), "'a\\\\b'");
	TEST_STR("repr: tab and newline", repr_of("tab\tnl\n", 7), "'tab\\tnl\\n'");
	TEST_STR("repr: control bytes", repr_of("\x01\x7f", 2), "'\\x01\\x7f'");
	TEST_STR("repr: UTF-8 as it is", repr_of("\xc3\xa9", 2), "'\xc3\xa9'");
	TEST_STR("repr: NUL", repr_of("a\0b", 3), "'a\\x00b'");
	json_doc_free(doc);
	return TEST_DONE();
}
