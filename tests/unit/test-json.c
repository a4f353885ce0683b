/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/json: strict parsing, exact integers, deterministic writing. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "json/json.h"
#include "test.h"

#if defined(__SANITIZE_ADDRESS__)
#define ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASAN 1
#endif
#endif

static struct json_doc *d;

/* json_quote as the spec reads, a byte at a time: the reference. */
static void
quote_ref(struct buf *b, const unsigned char *s, size_t n)
{
	buf_addch(b, '"');
	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case '"': buf_addstr(b, "\\\""); break;
		case '\\': buf_addstr(b, "\\\\"); break;
		case '\n': buf_addstr(b, "\\n"); break;
		case '\r': buf_addstr(b, "\\r"); break;
		case '\t': buf_addstr(b, "\\t"); break;
		case '\b': buf_addstr(b, "\\b"); break;
		case '\f': buf_addstr(b, "\\f"); break;
		default:
			if (s[i] < 0x20)
				buf_addf(b, "\\u%04x", s[i]);
			else
				buf_addch(b, (char)s[i]);
		}
	}
	buf_addch(b, '"');
}

/* Random strings, dense and sparse in bytes to escape, at every length
 * and offset the fast paths split on: json_quote equals the reference. */
static int
quote_random(void)
{
	struct buf a = BUF_INIT(BUF_NOMAX), r = BUF_INIT(BUF_NOMAX);
	unsigned char s[300];
	uint64_t x = 88172645463325252u;
	int ok = 1;

	for (int t = 0; t < 20000 && ok; t++) {
		size_t n = (size_t)(t % 300);
		int dense = t % 3;
		for (size_t i = 0; i < n; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			unsigned c = (unsigned)(x >> 24) & 0xff;
			if (!dense && c < 0xe0)
				c = 'a' + c % 26;
			else if (dense == 1 && c < 0x80)
				c = "\"\\\x01\x1f x\n\x7f"[c % 8];
			s[i] = (unsigned char)c;
		}
		buf_reset(&a);
		buf_reset(&r);
		buf_addstr(&a, "pre");	/* output not at the buffer's start */
		buf_addstr(&r, "pre");
		json_quote(&a, (const char *)s, n);
		quote_ref(&r, s, n);
		ok = a.len == r.len && !memcmp(a.s, r.s, a.len);
	}
	buf_release(&a);
	buf_release(&r);
	return ok;
}
static char err[128];

static struct json *
P(const char *s)
{
	return json_parse(d, s, strlen(s), err, sizeof(err));
}

static const char *
W(const char *s, int indent)
{
	static struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;
	struct json *v = P(s);

	buf_reset(&b);
	if (!v)
		return err;
	jw_init(&w, &b, indent);
	jw_value(&w, v);
	return buf_str(&b);
}

/* Compact text (or the error) of s parsed in a fresh document, where a
 * top-level string takes the two-pass decoder, and again in a warm one
 * (one-pass, eight bytes a step): both must agree. */
static int
both_paths(const char *s)
{
	struct json_doc *fresh = json_doc_new();
	char e1[128], e2[128];
	struct buf a = BUF_INIT(BUF_NOMAX), b = BUF_INIT(BUF_NOMAX);
	struct jw w;
	struct json *v1 = json_parse(fresh, s, strlen(s), e1, sizeof(e1));
	struct json *v2 = json_parse(fresh, s, strlen(s), e2, sizeof(e2));
	int ok = !v1 == !v2;

	if (ok && v1) {
		jw_init(&w, &a, 0);
		jw_value(&w, v1);
		jw_init(&w, &b, 0);
		jw_value(&w, v2);
		ok = a.len == b.len && !memcmp(a.s, b.s, a.len) && v1->len == v2->len;
	} else if (ok) {
		ok = !strcmp(e1, e2);
	}
	buf_release(&a);
	buf_release(&b);
	json_doc_free(fresh);
	return ok;
}

static int
hostile_strings(void)
{
	static const char *const cases[] = {
		"\"\"", "\"a\"", "\"abcdefgh\"", "\"abcdefghijklmnopq\\\"r\"",
		"\"\\u00e9\\ud83d\\ude00 tail of the string\"", "\"\\ud800\\u0041xxxxxxxx\"",
		"\"01234567\\n\\t\\/\\b\\f\\r\\\\\\\"\"", "\"\xc3\xa9\xe2\x82\xac 8 bytes\"",
		"\"abcdefg\x01h\"", "\"abcdefghijk\x1f\"", "\"abcdefgh\\x\"", "\"abcdefgh\\u12\"",
		"\"unterminated 12345678", "\"ends in backslash 1234\\", "\"\\u0000\\u001f\"",
		"\"\x7f\xff\x80 high bytes pass\"", "\"\\ud83d\"", "\"\\udc00\\ud800\"",
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (!both_paths(cases[i])) {
			printf("# differs: %s\n", cases[i]);
			return 0;
		}
	return 1;
}

/* json_double() (Clinger's fast path where it applies) equals strtod()
 * bit for bit on numbers written every way JSON allows. */
static int
doubles_exact(void)
{
	static const char *const fixed[] = { "0", "-0", "-0.0", "0e5", "1e22", "1e23",
		"123456789012345", "1234567890123456", "0.1", "0.3", "-2.5e-3",
		"9007199254740993", "1.7976931348623157e308", "5e-324", "4.9e-324",
		"1e-22", "1e-23", "123.456e-10", "100.0", "1E+2", "0.000000000000000000001",
		"1759813207532900363", "59.25925925925925" };
	uint64_t x = 0x9E3779B97F4A7C15u;
	char num[64];
	double a;

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		double want = strtod(fixed[i], NULL);

		if (json_double(P(fixed[i]), &a) || memcmp(&a, &want, sizeof(a))) {
			printf("# %s\n", fixed[i]);
			return 0;
		}
	}
	for (int i = 0; i < 200000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		int digits = 1 + (int)(x % 17), frac = (int)((x >> 8) % (size_t)(digits + 1));
		int ex = (int)((x >> 16) % 61) - 30;
		char *o = num;

		if (x >> 63)
			*o++ = '-';
		if (frac == digits)
			*o++ = '0';
		for (int k = 0; k < digits; k++) {
			int dig = (int)((x >> (k * 3 + 5)) % 10);

			if (k == digits - frac)
				*o++ = '.';
			if (k == 0 && frac < digits - 1 && !dig)
				dig = 1;	/* no leading zero */
			*o++ = (char)('0' + dig);
		}
		if ((x >> 40) % 3)
			o += snprintf(o, (size_t)(num + sizeof(num) - o), "e%d", ex);
		*o = '\0';
		json_doc_reset(d);
		struct json *v = P(num);
		double want = strtod(num, NULL);

		if (!v || json_double(v, &a) || memcmp(&a, &want, sizeof(a))) {
			printf("# %s\n", num);
			return 0;
		}
	}
	return 1;
}

/* json_parse_hook(): a hook that takes "[...]" values with no nesting. */
static int hook_calls;

static size_t
take_flat(void *ctx, const char *s, size_t n)
{
	const char *e = memchr(s, ']', n);

	(void)ctx;
	hook_calls++;
	if (!n || s[0] != '[' || !e || memchr(s + 1, '[', (size_t)(e - s)))
		return 0;
	return (size_t)(e - s) + 1;
}

static int
hooked(void)
{
	const struct json_hook h = { "r", 1, take_flat, NULL };
	char e1[128], e2[128];
	const struct json *v, *r;
	int ok = 1;
#define HP(t) json_parse_hook(d, (t), strlen(t), e1, sizeof(e1), &h)
	static const char *const same[] = {
		"{\"r\":[1,[2]],\"a\":1}", "{\"a\":{\"r\":[1]},\"r\":x}", "{\"r\":[1,2}",
		"{\"r\" : [1] , \"a\": tru}", "[{\"r\":[1]}]", "{\"r\":[1]} x",
	};

	hook_calls = 0;
	v = HP(" { \"a\":1, \"r\": [1, 2] , \"b\":2 } ");
	r = json_get(v, "r");
	ok &= v && hook_calls == 1 && r && r->type == JSON_ARRAY && r->len == 0
	      && json_get(v, "b") && v->len == 3;
	/* declined: parsed as usual */
	v = HP("{\"r\":[[1]]}");
	r = json_get(v, "r");
	ok &= v && r && r->len == 1 && r->child->type == JSON_ARRAY;
	/* only the root object's members; each repeat offered */
	hook_calls = 0;
	v = HP("{\"x\":{\"r\":[1]},\"r\":[2],\"r\":[3]}");
	ok &= v && hook_calls == 2 && json_get(json_get(v, "x"), "r")->len == 1;
	/* errors and trees as json_parse() gives them */
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		const struct json *a = json_parse_hook(d, same[i], strlen(same[i]), e1, sizeof(e1), &h);
		const struct json *b = json_parse(d, same[i], strlen(same[i]), e2, sizeof(e2));

		ok &= !a == !b && (a || !strcmp(e1, e2));
	}
#undef HP
	return ok;
}

/*
 * A tree the memory left cannot hold fails that parse with ENOMEM and the
 * bytes asked, and the doc parses again after it: in a child, under an
 * address space limit 64 MiB above what it holds, a 96 MiB string.
 * AddressSanitizer's shadow memory rules the limit out there.
 */
static void
test_nomem(void)
{
#ifdef ASAN
	printf("ok %d - # SKIP parse out of memory: no RLIMIT_AS under AddressSanitizer\n", ++test_n);
#else
	size_t n = (size_t)96 << 20;
	char *s = malloc(n + 2), why[128] = "";
	struct json_doc *doc = json_doc_new();
	int st = -1;
	pid_t pid;

	if (!s)
		abort();
	s[0] = '"';
	memset(s + 1, 'a', n);
	s[n + 1] = '"';
	if ((pid = fork()) == 0) {
		struct rlimit r = { (rlim_t)512 << 20, (rlim_t)512 << 20 };
		struct json *v;
		long pages = 0;
		FILE *f = fopen("/proc/self/statm", "r");

		if (!f || fscanf(f, "%ld", &pages) != 1)
			_exit(9);
		fclose(f);
		r.rlim_cur = r.rlim_max = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)64 << 20);
		if (setrlimit(RLIMIT_AS, &r) < 0)
			_exit(9);
		v = json_parse(doc, s, n + 2, why, sizeof(why));
		if (v || errno != ENOMEM || json_doc_nomem(doc) < n || !strstr(why, "out of memory"))
			_exit(1);
		json_doc_reset(doc);
		v = json_parse(doc, "{\"a\": [1, \"x\"]}", 15, why, sizeof(why));
		_exit(v && json_doc_nomem(doc) == 0 ? 0 : 2);
	}
	waitpid(pid, &st, 0);
	TEST("parse out of memory: ENOMEM, the bytes asked, the doc usable after",
	     WIFEXITED(st) && WEXITSTATUS(st) == 0);
	free(s);
	json_doc_free(doc);
#endif
}

int
main(void)
{
	int64_t i;
	struct json *v;

	d = json_doc_new();
	TEST("json_quote equals the byte-wise reference on random strings", quote_random());
	v = P("{\"a\":1759813207532900363,\"b\":[1,2.5,\"x\"],\"a\":3}");
	TEST("parse object", v && v->type == JSON_OBJECT && v->len == 3);
	TEST("duplicate key: last wins", json_int64(json_get(v, "a"), &i) == 0 && i == 3);
	v = P("{\"t\":1759813207532900363}");
	TEST("int64 exact", json_int64(json_get(v, "t"), &i) == 0 &&
	     i == INT64_C(1759813207532900363));
	TEST("not integral", json_int64(json_at(json_get(P("{\"b\":[2.5]}"), "b"), 0), &i) == -1);
	TEST("1.0 is integral", json_int64(P("1.0"), &i) == 0 && i == 1);
	TEST_STR("path", json_str_or(json_path(P("{\"u\":{\"v\":\"w\"}}"), "u.v"), ""), "w");
	TEST_STR("unicode escapes", json_str_or(P("\"\\u00e9\\ud83d\\ude00\""), ""), "\xc3\xa9\xf0\x9f\x98\x80");
	TEST_STR("lone surrogate", json_str_or(P("\"\\ud800x\""), ""), "\xef\xbf\xbdx");
	TEST("embedded NUL keeps length", P("\"a\\u0000b\"")->len == 3);
	TEST("reject trailing", P("{} x") == NULL && strstr(err, "trailing"));
	TEST("reject bad number", P("01") == NULL);
	TEST("reject leading plus", P("+1") == NULL);
	TEST("reject unterminated", P("\"abc") == NULL);
	TEST("reject control char", P("\"a\nb\"") == NULL);
	TEST("reject bad escape", P("\"\\x\"") == NULL);
	TEST("reject missing colon", P("{\"a\" 1}") == NULL && strstr(err, "':'"));
	TEST("reject empty", P("") == NULL);
	TEST("reject nan", P("NaN") == NULL);
	char deep[2000];
	memset(deep, '[', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = '\0';
	TEST("reject deep nesting", P(deep) == NULL && strstr(err, "deep"));
	TEST("  ... with its limit in the message", strstr(err, "deeper than 512 arrays and objects"));
	TEST("  ... and errno ELOOP", P(deep) == NULL && errno == ELOOP);
	TEST("other failures are EINVAL", P("[1,") == NULL && errno == EINVAL);
	TEST("  ... trailing text too", P("[] x") == NULL && errno == EINVAL);
	memset(deep, '[', JSON_MAX_DEPTH);
	memset(deep + JSON_MAX_DEPTH, ']', JSON_MAX_DEPTH);
	deep[2 * JSON_MAX_DEPTH] = '\0';
	TEST("JSON_MAX_DEPTH levels are read", P(deep) != NULL);
	memmove(deep + 1, deep, 2 * JSON_MAX_DEPTH);
	deep[0] = '[';
	deep[2 * JSON_MAX_DEPTH + 1] = ']';
	deep[2 * JSON_MAX_DEPTH + 2] = '\0';
	TEST("  ... one more is not", P(deep) == NULL && errno == ELOOP);
	TEST_STR("compact rewrite", W(" { \"a\" : [ 1 , 2e3 , true , null ] , \"b\" : \"\\/\" } ", 0),
		 "{\"a\":[1,2e3,true,null],\"b\":\"/\"}");
	TEST_STR("escape like orjson", W("\"\\u0001\\t\\\"\\u00e9\\u007f\"", 0),
		 "\"\\u0001\\t\\\"\xc3\xa9\x7f\"");
	TEST_STR("indent 2", W("{\"a\":[1,{}],\"b\":[]}", 2),
		 "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": []\n}");

	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;
	jw_init(&w, &b, 0);
	jw_obj(&w);
	jw_key(&w, "x");
	jw_double(&w, 1e16);
	jw_key(&w, "y");
	jw_double_py(&w, 1e16);
	jw_key(&w, "z");
	jw_int(&w, -5);
	jw_obj_end(&w);
	TEST_STR("writer numbers", buf_str(&b), "{\"x\":1e16,\"y\":1e+16,\"z\":-5}");
	TEST("json_parse_hook: taken, declined, root members only, same errors", hooked());
	TEST("string decoders agree on hostile strings", hostile_strings());
	TEST("json_double equals strtod bit for bit", doubles_exact());
	TEST("int64 max", json_int64(P("9223372036854775807"), &i) == 0 && i == INT64_MAX);
	TEST("int64 min", json_int64(P("-9223372036854775808"), &i) == 0 && i == INT64_MIN);
	TEST("int64 past max", json_int64(P("9223372036854775808"), &i) == -1);
	TEST("int64 past min", json_int64(P("-9223372036854775809"), &i) == -1);
	TEST("int64 of 19 nines", json_int64(P("9999999999999999999"), &i) == -1);
	TEST("int64 of 19 digits", json_int64(P("-1000000000000000000"), &i) == 0
	     && i == -INT64_C(1000000000000000000));
	TEST("obj array: objects", json_is_obj_array(P("[{}, {\"a\": 1}]")));
	TEST("obj array: empty", json_is_obj_array(P("[]")));
	TEST("obj array: a string inside", !json_is_obj_array(P("[{}, \"x\"]")));
	TEST("obj array: an object is no array", !json_is_obj_array(P("{}")));
	TEST("obj array: NULL", !json_is_obj_array(NULL));
	buf_release(&b);
	json_doc_free(d);
	test_nomem();
	return TEST_DONE();
}
