/* SPDX-License-Identifier: Apache-2.0 */
/* lib/gptre against Oniguruma on the same patterns: random strings of tricky characters and every BMP code point. */
#include "tok/gptre.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "tok/pretok.h"
#include "test.h"
#include "util.h"

static const char *const pats[] = {
	/* Qwen2/3 */
	"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?"
	"[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
	/* Llama 3 */
	"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}|"
	" ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
	/* cl100k_base (js-tiktoken) */
	"('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|"
	"'d|'D)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+"
	"[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
	/* gpt-oss */
	"[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}"
	"\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\\r\\n\\p{L}"
	"\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}"
	"\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\\p{N}{1,3}| ?[^\\s\\p{L}"
	"\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
	/* o200k_base (js-tiktoken) */
	"[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}"
	"\\p{Lm}\\p{Lo}\\p{M}]+('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|"
	"'m|'M|'ll|'lL|'Ll|'LL|'d|'D)?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}"
	"\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*('s|'S|'t|'T|"
	"'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)?|"
	"\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|"
	"\\s+(?!\\S)|\\s+",
};

#define NPATS (sizeof(pats) / sizeof(pats[0]))

static struct pretok_re *re[NPATS];
static int kind[NPATS];

/* Oniguruma's find_iter and gptre give the same matches. */
static int
same(size_t p, const char *s, size_t n)
{
	size_t i = 0, b, e, f;

	while (i < n) {
		if (!pretok_re_find(re[p], s, n, i, &b, &e) || b != i)
			return 0;
		f = gptre_match(kind[p], s, n, i);
		if (f != e)
			return 0;
		i = e;
	}
	return 1;
}

static void
put(struct buf *b, uint32_t c)
{
	char u[4];

	if (c < 0x80) {
		buf_addch(b, (int)c);
	} else if (c < 0x800) {
		u[0] = (char)(0xc0 | c >> 6);
		u[1] = (char)(0x80 | (c & 0x3f));
		buf_add(b, u, 2);
	} else if (c < 0x10000) {
		u[0] = (char)(0xe0 | c >> 12);
		u[1] = (char)(0x80 | (c >> 6 & 0x3f));
		u[2] = (char)(0x80 | (c & 0x3f));
		buf_add(b, u, 3);
	} else {
		u[0] = (char)(0xf0 | c >> 18);
		u[1] = (char)(0x80 | (c >> 12 & 0x3f));
		u[2] = (char)(0x80 | (c >> 6 & 0x3f));
		u[3] = (char)(0x80 | (c & 0x3f));
		buf_add(b, u, 4);
	}
}

/* Characters of every class the patterns tell apart. */
static const uint32_t pool[] = {
	'a', 'b', 's', 'S', 't', 'T', 'r', 'R', 'e', 'E', 'v', 'V', 'l', 'L',
	'm', 'M', 'd', 'D', 'x', 'Z', '\'', '\'', '\'', ' ', ' ', ' ', '\t',
	'\r', '\n', '\v', '\f', '/', '.', '!', '-', '0', '7', '9', '_', 0,
	1, 0x17f, 0x212a, 0xc9, 0xe9, 0x1c5, 0x2b0, 0x5d0, 0x4e2d, 0x3042,
	0x301, 0x308, 0x903, 0x20dd, 0x663, 0x216b, 0xbd, 0xb2, 0xa0, 0x85,
	0xfeff, 0x2028, 0x2029, 0x3000, 0x200b, 0x200d, 0x1680, 0x180e,
	0x1f600, 0x1f3fd, 0xe0041, 0x10ffff, 0xfffd, 0x2019, 0xff07, 0x1d400,
};

static void
test_random(void)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	size_t p, k, len, bad[NPATS] = { 0 };
	uint64_t x = 88172645463325252ULL;
	int t;

	for (t = 0; t < 20000; t++) {
		buf_reset(&b);
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		len = 1 + x % 24;
		for (k = 0; k < len; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			put(&b, pool[x % (sizeof(pool) / sizeof(pool[0]))]);
		}
		for (p = 0; p < NPATS; p++)
			if (!same(p, b.s, b.len) && bad[p]++ < 3)
				printf("# pattern %zu differs on %zu bytes\n", p,
				       b.len);
	}
	for (p = 0; p < NPATS; p++)
		TEST("random strings match Oniguruma", bad[p] == 0);
	buf_release(&b);
}

/* Each code point in a few contexts; all planes step 1 below U+30000. */
static void
test_code_points(void)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	size_t p, bad[NPATS] = { 0 };
	uint32_t c;

	for (c = 1; c < 0x30000; c++) {
		if (c >= 0xd800 && c < 0xe000)
			continue;
		buf_reset(&b);
		put(&b, ' ');
		put(&b, c);
		put(&b, 'a');
		put(&b, '\'');
		put(&b, c);
		put(&b, c);
		put(&b, ' ');
		put(&b, c);
		put(&b, '1');
		for (p = 0; p < NPATS; p++)
			if (!same(p, b.s, b.len) && bad[p]++ < 3)
				printf("# pattern %zu differs at U+%04X\n", p,
				       (unsigned)c);
	}
	for (p = 0; p < NPATS; p++)
		TEST("every code point below U+30000 matches Oniguruma",
		     bad[p] == 0);
	buf_release(&b);
}

int
main(void)
{
	char err[256];
	size_t p;

	for (p = 0; p < NPATS; p++) {
		kind[p] = gptre_kind(pats[p], strlen(pats[p]));
		re[p] = pretok_re_new(pats[p], strlen(pats[p]), err, sizeof(err));
		TEST("known pattern compiles", kind[p] > 0 && re[p]);
		if (!re[p] || !kind[p])
			return TEST_DONE();
	}
	TEST("unknown pattern", gptre_kind("\\s+", 3) == 0);
	test_random();
	test_code_points();
	for (p = 0; p < NPATS; p++)
		pretok_re_free(re[p]);
	return TEST_DONE();
}
