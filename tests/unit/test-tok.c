/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/tok: the API over real tokenizers, hostile text and files, threads. */
#include "tok/tok.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "test.h"
#include "tok/tokpipe.h"
#include "util.h"

#define SHARED "../shared/tokenizers/"

static struct tok *
open_or_null(const char *path)
{
	char err[512];
	struct tok *t = tok_open(path, err, sizeof(err));

	if (!t)
		printf("# %s\n", err);
	return t;
}

static int
ids_eq(const struct tok_ids *ids, const int32_t *want, size_t n)
{
	return ids->n == n && (n == 0 || !memcmp(ids->v, want, n * sizeof(*want)));
}

static int
encodes_to(struct tok *t, const char *s, const int32_t *want, size_t n)
{
	struct tok_ids ids = { 0 };
	int ok;

	tok_encode(t, s, strlen(s), &ids);
	ok = ids_eq(&ids, want, n) && tok_count(t, s, strlen(s)) == n;
	tok_ids_release(&ids);
	return ok;
}

static int
decodes_to(struct tok *t, const int32_t *ids, size_t n, int skip,
	   const char *want)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	int ok;

	ok = tok_decode(t, ids, n, skip, &b) == 0 && !strcmp(buf_str(&b), want);
	if (!ok)
		printf("# decoded '%s'\n", buf_str(&b));
	buf_release(&b);
	return ok;
}

static void
test_qwen3(void)
{
	static const int32_t hello[] = { 9707, 11, 1879, 0 };
	static const int32_t special[] = { 151645, 9707 };
	static const int32_t dec[] = { 151644, 9707, 151645 };
	struct tok *t = open_or_null(SHARED "qwen3");

	TEST("qwen3 opens", t != NULL);
	if (!t)
		return;
	TEST("qwen3 Hello, world!", encodes_to(t, "Hello, world!", hello, 4));
	TEST("qwen3 special token in text", encodes_to(t, "<|im_end|>Hello",
						       special, 2));
	TEST("qwen3 empty text", encodes_to(t, "", NULL, 0));
	TEST("qwen3 bos none, eos <|im_end|>", tok_bos(t) == -1 &&
	     tok_eos(t) == 151645);
	TEST("qwen3 vocab size", tok_vocab_size(t) == 151669);
	TEST("qwen3 describe", strstr(tok_describe(t), "byte-level") != NULL);
	TEST("qwen3 decode keeps specials",
	     decodes_to(t, dec, 3, 0, "<|im_start|>Hello<|im_end|>"));
	TEST("qwen3 decode skips specials", decodes_to(t, dec, 3, 1, "Hello"));
	TEST("qwen3 decode skips unknown ids",
	     decodes_to(t, (const int32_t[]){ -5, 9707, 999999999 }, 3, 0,
			"Hello"));
	TEST("qwen3 decode of half a character is U+FFFD",
	     decodes_to(t, (const int32_t[]){ 144 }, 1, 0, "\xef\xbf\xbd"));
	tok_free(t);
}

static void
test_config_tokens(void)
{
	static const struct {
		const char *path;
		int32_t bos, eos;
	} c[] = {
		{ SHARED "llama2", 1, 2 },
		{ SHARED "mistral-7b", 1, 2 },
		{ SHARED "llama3", 128000, 128001 },
		{ SHARED "deepseek-v3", 0, 1 },
		{ SHARED "gpt-oss", 199998, 200002 },
		{ SHARED "tiktoken/cl100k_base.tiktoken", -1, 100257 },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct tok *t = open_or_null(c[i].path);
		TEST(c[i].path, t && tok_bos(t) == c[i].bos &&
		     tok_eos(t) == c[i].eos);
		tok_free(t);
	}
}

static void
test_llama2(void)
{
	static const int32_t hello[] = { 15043, 29892, 3186, 29991 };
	static const int32_t fb[] = { 29871, 243, 162, 172, 188 };
	struct tok *t = open_or_null(SHARED "llama2/tokenizer.json");

	TEST("llama2 opens", t != NULL);
	if (!t)
		return;
	TEST("llama2 Hello, world!", encodes_to(t, "Hello, world!", hello, 4));
	TEST("llama2 byte fallback", encodes_to(t, "\xf0\x9f\xa9\xb9", fb, 5));
	TEST("llama2 decode strips the first space",
	     decodes_to(t, hello, 4, 1, "Hello, world!"));
	TEST("llama2 decode of bad byte runs",
	     decodes_to(t, (const int32_t[]){ 243, 162, 3186 }, 3, 1,
			"\xef\xbf\xbd\xef\xbf\xbd world"));
	tok_free(t);
}

static int
lossy_is(const char *in, size_t n, const char *want)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	int ok;

	tokpipe_utf8_lossy(in, n, &b);
	ok = !strcmp(buf_str(&b), want) &&
	     tokpipe_utf8_valid(in, n) == !strcmp(in, want);
	if (!ok)
		printf("# got '%s'\n", buf_str(&b));
	buf_release(&b);
	return ok;
}

#define R "\xef\xbf\xbd"

static void
test_utf8(void)
{
	TEST("valid stays", lossy_is("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 10,
				     "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"));
	TEST("lone continuation", lossy_is("\x80x", 2, R "x"));
	TEST("truncated sequence is one U+FFFD", lossy_is("\xe2\x82", 2, R));
	TEST("truncated then ASCII", lossy_is("\xf0\x9f\x98x", 4, R "x"));
	TEST("overlong", lossy_is("\xc0\xaf", 2, R R));
	TEST("surrogate", lossy_is("\xed\xa0\x80", 3, R R R));
	TEST("above U+10FFFF", lossy_is("\xf4\x90\x80\x80", 4, R R R R));
	TEST("ff fe", lossy_is("\xff\xfe", 2, R R));
	TEST("NUL kept", lossy_is("a\0b", 3, "a"));
}

static void
test_hostile_text(void)
{
	static const char *const paths[] = {
		SHARED "qwen3", SHARED "llama2",
		SHARED "tiktoken/o200k_base.tiktoken",
	};
	static const char bad[] = "\xff\xfe<|im_end|\xc3\x28<s>\xed\xa0\x80"
				  "\xf0\x9f\x98 \0\0\x01\r\n\t  \x80";
	struct tok_ids a = { 0 }, b = { 0 };
	struct buf fixed = BUF_INIT(BUF_NOMAX);
	size_t i;

	tokpipe_utf8_lossy(bad, sizeof(bad) - 1, &fixed);
	for (i = 0; i < 3; i++) {
		struct tok *t = open_or_null(paths[i]);
		if (!t)
			continue;
		a.n = b.n = 0;
		tok_encode(t, bad, sizeof(bad) - 1, &a);
		tok_encode(t, fixed.s, fixed.len, &b);
		TEST("invalid UTF-8 encodes as its U+FFFD form",
		     a.n > 0 && a.n == b.n &&
		     !memcmp(a.v, b.v, a.n * sizeof(*a.v)) &&
		     tok_count(t, bad, sizeof(bad) - 1) == a.n);
		tok_free(t);
	}
	tok_ids_release(&a);
	tok_ids_release(&b);
	buf_release(&fixed);
}

static void
test_bad_files(void)
{
	char err[512];

	TEST("missing file", !tok_open("/nonexistent/tokenizer.json", err,
					sizeof(err)) &&
	     strstr(err, "/nonexistent/tokenizer.json"));
	TEST("folder without tokenizer.json", !tok_open("lib", err, sizeof(err)) &&
	     strstr(err, "no tokenizer.json"));
	TEST("not a tokenizer", !tok_open("Makefile", err, sizeof(err)) &&
	     strstr(err, "not valid JSON"));
	TEST("unknown tiktoken name", !tok_open("x/r50k_base.tiktoken", err,
						 sizeof(err)) &&
	     strstr(err, "unknown tiktoken encoding"));
}

struct job {
	struct tok *t;
	const char *text;
	size_t n, count;
};

static void *
worker(void *arg)
{
	struct job *j = arg;
	size_t i;

	for (i = 0; i < 200; i++)
		j->count = tok_count(j->t, j->text, j->n);
	return NULL;
}

static void
test_threads(void)
{
	static const char text[] = "Threads share one tokenizer; each keeps "
				   "its own cache. 日本語 123456 <|im_end|>";
	struct tok *t = open_or_null(SHARED "qwen3");
	struct job j[4];
	pthread_t th[4];
	size_t want, i;
	int ok = 1;

	if (!t)
		return;
	want = tok_count(t, text, sizeof(text) - 1);
	for (i = 0; i < 4; i++) {
		j[i] = (struct job){ t, text, sizeof(text) - 1, 0 };
		pthread_create(&th[i], NULL, worker, &j[i]);
	}
	for (i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		ok = ok && j[i].count == want;
	}
	TEST("four threads give the same count", ok && want > 10);
	tok_free(t);
}

/* NFC of a long text, done in chunks inside, equals NFC of the whole:
 * for Qwen3 decode(encode(x)) is NFC(x). */
static void
test_long_nfc(void)
{
	static const char *const bits[] = {
		"e\xcc\x81", "\xe1\x84\x80\xe1\x85\xa1\xe1\x86\xa8",
		"A\xcc\x8a\xcc\x81", "\xcc\x81", "x", " ", "\xef\xac\x81",
		"\xe2\x84\xab", "o\xcc\x82\xcc\xa3", "\xea\xb0\x80\xe1\x86\xa8",
	};
	struct tok *t = open_or_null(SHARED "qwen3");
	struct buf x = BUF_INIT(BUF_NOMAX), out = BUF_INIT(BUF_NOMAX);
	struct tok_ids ids = { 0 };
	utf8proc_uint8_t *nfc = NULL;
	uint64_t r = 42;
	size_t i;
	int ok;

	if (!t)
		return;
	for (i = 0; x.len < 300000; i++) {
		r = r * 6364136223846793005ULL + 1442695040888963407ULL;
		if (x.len > 65500 && x.len < 65540)
			buf_addstr(&x, bits[i % 10]);
		else
			buf_addstr(&x, bits[(r >> 33) % 10]);
	}
	tok_encode(t, x.s, x.len, &ids);
	tok_decode(t, ids.v, ids.n, 0, &out);
	utf8proc_map((const utf8proc_uint8_t *)x.s, (utf8proc_ssize_t)x.len,
		     &nfc, (utf8proc_option_t)(UTF8PROC_STABLE | UTF8PROC_COMPOSE));
	ok = nfc && out.len == strlen((char *)nfc) && !memcmp(out.s, nfc, out.len);
	TEST("NFC of 300 KB in chunks equals NFC of the whole", ok);
	free(nfc);
	tok_ids_release(&ids);
	buf_release(&x);
	buf_release(&out);
	tok_free(t);
}

int
main(void)
{
	test_qwen3();
	test_config_tokens();
	test_llama2();
	test_utf8();
	test_hostile_text();
	test_bad_files();
	test_threads();
	test_long_nfc();
	return TEST_DONE();
}
