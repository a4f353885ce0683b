/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/extras (--extra-inputs) and lib/pystr (str.strip, len). */
#include "json/extras.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "rand/pystr.h"
#include "test.h"

/* Parse args into one map and render it as a JSON object (or "ERR"). */
static char *
parse(const char *a, const char *b)
{
	struct extras l = { 0 };
	struct buf out = BUF_INIT(BUF_NOMAX);
	char err[256];

	if (extras_parse(&l, a, err, sizeof(err)) ||
	    (b && extras_parse(&l, b, err, sizeof(err)))) {
		extras_release(&l);
		return strdup("ERR");
	}
	buf_addch(&out, '{');
	for (size_t i = 0; i < l.n; i++)
		buf_addf(&out, "%s\"%s\":%s", i ? "," : "", l.v[i].key,
			 l.v[i].val);
	buf_addch(&out, '}');
	extras_release(&l);
	return buf_detach(&out, NULL);
}

#define CASE(name, a, b, want) do { \
	char *got_ = parse(a, b); \
	TEST_STR(name, got_, want); \
	free(got_); \
} while (0)

static void
test_coercion(void)
{
	CASE("extras: booleans any case", "a:true,b:FALSE,c:True", NULL,
	     "{\"a\":true,\"b\":false,\"c\":true}");
	CASE("extras: none and null", "a:none,b:Null", NULL,
	     "{\"a\":null,\"b\":null}");
	CASE("extras: integers", "a:0,b:42,c:-7,d:-0", NULL,
	     "{\"a\":0,\"b\":42,\"c\":-7,\"d\":0}");
	CASE("extras: leading zeros stay strings", "a:007,b:-01,c:00", NULL,
	     "{\"a\":\"007\",\"b\":\"-01\",\"c\":\"00\"}");
	CASE("extras: one-dot numerals are floats", "a:1.5,b:-.25,c:1.,d:.5,e:01.5",
	     NULL, "{\"a\":1.5,\"b\":-0.25,\"c\":1.0,\"d\":0.5,\"e\":1.5}");
	CASE("extras: not numbers", "a:1.2.3,b:.,c:-,d:1e5,e:+1,f:-.", NULL,
	     "{\"a\":\"1.2.3\",\"b\":\".\",\"c\":\"-\",\"d\":\"1e5\","
	     "\"e\":\"+1\",\"f\":\"-.\"}");
	CASE("extras: strip keys and values, split at the first colon",
	     "  k : v:w  , x:\"q\"", NULL, "{\"k\":\"v:w\",\"x\":\"\\\"q\\\"\"}");
	CASE("extras: empty value is an empty string", "k:", NULL, "{\"k\":\"\"}");
	CASE("extras: repeated key keeps its place", "a:1,b:2", "a:3",
	     "{\"a\":3,\"b\":2}");
}

static void
test_json_and_errors(void)
{
	CASE("extras: JSON object, floats as orjson", "{\"t\":0.50,\"n\":1e2,\"i\":-0,"
	     "\"s\":\"x\",\"o\":{\"a\":[1,2.0,true,null]}}", NULL,
	     "{\"t\":0.5,\"n\":100.0,\"i\":0,\"s\":\"x\",\"o\":{\"a\":[1,2.0,true,null]}}");
	CASE("extras: JSON values are not coerced", "{\"a\":\"true\"}", NULL,
	     "{\"a\":\"true\"}");
	CASE("extras: empty JSON object", "{}", NULL, "{}");
	CASE("extras: bad JSON", "{\"a\":", NULL, "ERR");
	CASE("extras: JSON must be an object", "{\"a\":1}x", NULL, "ERR");
	CASE("extras: a JSON array is a key:value item", "[1]", NULL, "ERR");
	CASE("extras: no colon", "abc", NULL, "ERR");
	CASE("extras: empty argument", "", NULL, "ERR");
	CASE("extras: trailing comma", "a:1,", NULL, "ERR");
	CASE("extras: lone comma", ",", NULL, "ERR");
	CASE("extras: empty key is allowed", ":v", NULL, "{\"\":\"v\"}");
}

static void
test_pystr(void)
{
	const char *s = "\xe3\x80\x80 \t\xc2\xa0hi there\xe2\x80\x8a\x1c\r\n";
	size_t n = strlen(s);
	const char *t = pystr_strip(s, &n);

	TEST("pystr: strip unicode and ascii space", n == 8 && !memcmp(t, "hi there", 8));
	n = 3;
	t = pystr_strip("\xe2\x80\x41", &n);
	TEST("pystr: invalid sequence is not space", n == 3);
	n = 4;
	t = pystr_strip(" \t\n ", &n);
	TEST("pystr: all space strips to empty", n == 0);
	TEST("pystr: blank: empty, CR, form feed, NBSP, U+3000",
	     pystr_isblank("", 0) && pystr_isblank("\r", 1) &&
	     pystr_isblank(" \f\v\xc2\xa0\xe3\x80\x80\t", 9));
	TEST("pystr: not blank: NUL, a letter, a bad sequence",
	     !pystr_isblank("\0", 1) && !pystr_isblank(" x ", 3) &&
	     !pystr_isblank("\xe2\x80", 2));
	TEST("pystr: len counts code points", pystr_len("a\xc3\xa9\xe2\x82\xac", 6) == 3);
	(void)t;
}

/* The message of a bad argument (aiperf-gen's buffer is 512 bytes). */
static const char *
message(const char *arg)
{
	static char err[512];
	struct extras l = { 0 };

	err[0] = '\0';
	extras_parse(&l, arg, err, sizeof(err));
	extras_release(&l);
	return err;
}

static void
test_messages(void)
{
	char big[100008];
	const char *m;

	TEST_STR("message: a short argument whole", message("abc"),
		 "'abc': each item must be in 'key:value' format");
	memset(big, 'x', 100000);
	big[100000] = '\0';
	m = message(big);
	TEST("message: a 100 KB argument is cut, its reason kept",
	     strlen(m) < 200 && strstr(m, "...' (100000 bytes): each item must be"));
	memcpy(big, "{\"a\":\"", 6);
	m = message(big);
	TEST("message: a 100 KB JSON argument: cut, the parser's reason kept",
	     strlen(m) < 300 && strstr(m, "(100000 bytes) must be a valid JSON object: at byte"));
	memset(big, 'x', 100);
	memcpy(big + 63, "\xc3\xa9", 2);
	big[100] = '\0';
	m = message(big);
	TEST("message: cut between UTF-8 characters",
	     strstr(m, "xx...'") && !strstr(m, "\xc3..."));
	m = message("max_tokens:5,api_key:sk-SECRET,stray");
	TEST("message: a secret key's value is not quoted",
	     !strstr(m, "sk-SECRET") && strstr(m, "api_key:<redacted>") &&
	     strstr(m, "max_tokens:5") && strstr(m, "(36 bytes): each item"));
	m = message("{\"client_secret\": \"sk-SECRET\", ");
	TEST("message: broken JSON that names a secret is not quoted",
	     !strstr(m, "sk-SECRET") && strstr(m, "'<redacted>' (31 bytes) must be a valid JSON object"));
	TEST("message: broken JSON without secrets is quoted whole",
	     strstr(message("{max_tokens: 5}"), "'{max_tokens: 5}' must be a valid JSON object"));
}

int
main(void)
{
	test_coercion();
	test_json_and_errors();
	test_messages();
	test_pystr();
	return TEST_DONE();
}
