/* SPDX-License-Identifier: Apache-2.0 */
/* Hand-written matchers for the GPT-4 and GPT-4o split regexes, with Oniguruma's Unicode classes. */
#include "tok/gptre.h"

#include <oniguruma.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

enum {
	F_L = 1,	/* \p{L} */
	F_U = 2,	/* [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}] */
	F_W = 4,	/* [\p{Ll}\p{Lm}\p{Lo}\p{M}] */
	F_N = 8,	/* \p{N} */
	F_S = 16,	/* \s */
	F_NL = 32,	/* \r or \n */
	F_DONE = 128,
};

struct kind {
	const char *pat;
	int family;	/* 'A': GPT-4, 'B': GPT-4o */
	int ndigits;	/* \p{N}{1,ndigits} */
	int fold;	/* (?i:'s...) also matches U+017F for s */
};

#define GPT4_TAIL "|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}%s| ?[^\\s\\p{L}\\p{N}]+" \
	"[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"
#define CI "(?i:'s|'t|'re|'ve|'m|'ll|'d)"
#define JS "'s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D"
#define UC "[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]"
#define LC "[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]"
#define X "[^\\r\\n\\p{L}\\p{N}]?"
#define GPT4O(c) X UC "*" LC "+" c "?|" X UC "+" LC "*" c "?|\\p{N}{1,3}" \
	"| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"

static const struct kind kinds[] = {
	{ NULL, 0, 0, 0 },
	{ CI "|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+"
	  "[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+", 'A', 1, 1 },
	{ CI "|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+"
	  "[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+", 'A', 3, 1 },
	{ "(" JS ")|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}"
	  "\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+", 'A', 3, 0 },
	{ GPT4O(CI), 'B', 3, 1 },
	{ GPT4O("(" JS ")"), 'B', 3, 0 },
};

#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

/* Block 0's ASCII half, filled once by gptre_kind() before it returns a
 * kind, so gptre_match() (which needs one) reads it without atomics. */
static uint8_t ascii[128];
static pthread_once_t ascii_once = PTHREAD_ONCE_INIT;

static uint8_t *build_block(size_t b);

static void
ascii_init(void)
{
	memcpy(ascii, build_block(0), sizeof(ascii));
}

int
gptre_kind(const char *pat, size_t n)
{
	size_t k;

	for (k = 1; k < NKINDS; k++)
		if (strlen(kinds[k].pat) == n && !memcmp(kinds[k].pat, pat, n)) {
			pthread_once(&ascii_once, ascii_init);
			return (int)k;
		}
	return 0;
}

/* Class flags per code point, computed from Oniguruma's tables one block
 * of 256 code points at a time, on first use. */
#define NBLOCK (0x110000 >> 8)

static _Atomic(uint8_t *) blocks[NBLOCK];
static pthread_mutex_t block_lock = PTHREAD_MUTEX_INITIALIZER;

static OnigCtype
ctype_of(const char *name)
{
	OnigEncoding enc = ONIG_ENCODING_UTF8;

	return (OnigCtype)ONIGENC_PROPERTY_NAME_TO_CTYPE(enc,
		(OnigUChar *)(uintptr_t)name,
		(OnigUChar *)(uintptr_t)(name + strlen(name)));
}

/* t: L, Lu, Lt, Lm, Lo, M, N, Ll. */
static uint8_t
flags_of(OnigCodePoint c, const OnigCtype *t)
{
	OnigEncoding enc = ONIG_ENCODING_UTF8;
	uint8_t f = 0, in[8];
	int k;

	for (k = 0; k < 8; k++)
		in[k] = ONIGENC_IS_CODE_CTYPE(enc, c, t[k]) != 0;
	if (in[0])
		f |= F_L;
	if (in[1] || in[2] || in[3] || in[4] || in[5])
		f |= F_U;
	if (in[7] || in[3] || in[4] || in[5])
		f |= F_W;
	if (in[6])
		f |= F_N;
	if (ONIGENC_IS_CODE_CTYPE(enc, c, ONIGENC_CTYPE_SPACE))
		f |= F_S;
	if (c == '\r' || c == '\n')
		f |= F_NL;
	return f | F_DONE;
}

static uint8_t *
build_block(size_t b)
{
	static const char *const names[] = {
		"L", "Lu", "Lt", "Lm", "Lo", "M", "N", "Ll",
	};
	OnigCtype t[8];
	uint8_t *blk;
	size_t i;

	pthread_mutex_lock(&block_lock);
	blk = atomic_load(&blocks[b]);
	if (!blk) {
		for (i = 0; i < 8; i++)
			t[i] = ctype_of(names[i]);
		blk = xmalloc(256);
		for (i = 0; i < 256; i++)
			blk[i] = flags_of((OnigCodePoint)(b << 8 | i), t);
		atomic_store(&blocks[b], blk);
	}
	pthread_mutex_unlock(&block_lock);
	return blk;
}

/* The code point at s[i] (valid UTF-8) and its length. */
static uint32_t
decode(const char *s, size_t n, size_t i, size_t *len)
{
	const unsigned char *u = (const unsigned char *)s + i;
	size_t l = u[0] < 0x80 ? 1 : u[0] < 0xe0 ? 2 : u[0] < 0xf0 ? 3 : 4;

	if (l > n - i)
		l = n - i;
	*len = l;
	switch (l) {
	case 1: return u[0];
	case 2: return (uint32_t)(u[0] & 0x1f) << 6 | (u[1] & 0x3f);
	case 3: return (uint32_t)(u[0] & 0x0f) << 12 |
		       (uint32_t)(u[1] & 0x3f) << 6 | (u[2] & 0x3f);
	default: return (uint32_t)(u[0] & 0x07) << 18 |
			(uint32_t)(u[1] & 0x3f) << 12 |
			(uint32_t)(u[2] & 0x3f) << 6 | (u[3] & 0x3f);
	}
}

static unsigned
cls_slow(const char *s, size_t n, size_t i, size_t *len)
{
	uint32_t c;
	uint8_t *blk;

	if (i >= n) {
		*len = 0;
		return 0;
	}
	c = decode(s, n, i, len);
	if (c >= 0x110000)
		return F_DONE;
	blk = atomic_load_explicit(&blocks[c >> 8], memory_order_acquire);
	if (!blk)
		blk = build_block(c >> 8);
	return blk[c & 0xff];
}

/* Flags of the character at s[i] (0 at the end), its length in *len.
 * ASCII (most text) is one load from the first block. */
static inline unsigned
cls(const char *s, size_t n, size_t i, size_t *len)
{
	if (i < n && (unsigned char)s[i] < 0x80) {
		*len = 1;
		return ascii[(unsigned char)s[i]];
	}
	return cls_slow(s, n, i, len);
}

static int
is_x(unsigned f)
{
	return f && !(f & (F_L | F_N | F_NL));
}

static int
is_p(unsigned f)
{
	return f && !(f & (F_S | F_L | F_N));
}

/* End of the run of characters with any of flags want, from i. */
static size_t
run(const char *s, size_t n, size_t i, unsigned want)
{
	size_t l;

	/* ASCII runs (most words) byte by byte on the table */
	while (i < n && (unsigned char)s[i] < 0x80 && (ascii[(unsigned char)s[i]] & want))
		i++;
	while (i < n && (cls(s, n, i, &l) & want))
		i += l;
	return i;
}

static int
lower_is(const char *s, size_t n, size_t i, char c, int fold, size_t *len)
{
	size_t l;
	uint32_t cp;

	if (i >= n)
		return 0;
	cp = decode(s, n, i, &l);
	*len = l;
	if (cp == (uint32_t)c || cp == (uint32_t)c - 32)
		return 1;
	return fold && c == 's' && cp == 0x17f;
}

/* (?i:'s|'t|'re|'ve|'m|'ll|'d) at i: its end, or 0. */
static size_t
contraction(const char *s, size_t n, size_t i, int fold)
{
	static const char one[] = "stmd", *two[] = { "re", "ve", "ll" };
	size_t l, l2, k;

	if (i >= n || s[i] != '\'')
		return 0;
	i++;
	for (k = 0; k < 4; k++)
		if (lower_is(s, n, i, one[k], fold, &l))
			return i + l;
	for (k = 0; k < 3; k++)
		if (lower_is(s, n, i, two[k][0], fold, &l) &&
		    lower_is(s, n, i + l, two[k][1], fold, &l2))
			return i + l + l2;
	return 0;
}

static size_t
opt_contraction(const char *s, size_t n, size_t i, int fold)
{
	size_t e = contraction(s, n, i, fold);

	return e ? e : i;
}

/* \s*[\r\n]+ | \s+(?!\S) | \s+ at a space. */
static size_t
spaces(const char *s, size_t n, size_t i)
{
	size_t j = i, l, last = i, nl = 0;

	while (j < n) {
		unsigned f = cls(s, n, j, &l);
		if (!(f & F_S))
			break;
		if (f & F_NL)
			nl = j + 1;
		last = j;
		j += l;
	}
	if (nl)
		return nl;
	if (j == n || last == i)
		return j;
	return last;
}

/* ' ?[^\s\p{L}\p{N}]+' then [\r\n]* (or [\r\n/]*), or 0. */
static size_t
punct(const char *s, size_t n, size_t i, unsigned f0, int slash)
{
	size_t l, j;

	if (s[i] == ' ' && is_p(cls(s, n, i + 1, &l)))
		j = i + 1;
	else if (is_p(f0))
		j = i;
	else
		return 0;
	while (j < n && is_p(cls(s, n, j, &l)))
		j += l;
	while (j < n && (s[j] == '\r' || s[j] == '\n' || (slash && s[j] == '/')))
		j++;
	return j;
}

static size_t
digits(const char *s, size_t n, size_t i, int max)
{
	size_t l;
	int k;

	for (k = 0; k < max && i < n && (cls(s, n, i, &l) & F_N); k++)
		i += l;
	return i;
}

static size_t
gpt4(const struct kind *k, const char *s, size_t n, size_t i)
{
	size_t l0, l, e;
	unsigned f0 = cls(s, n, i, &l0);

	if ((e = contraction(s, n, i, k->fold)))
		return e;
	if (is_x(f0) && (cls(s, n, i + l0, &l) & F_L))
		return run(s, n, i + l0, F_L);
	if (f0 & F_L)
		return run(s, n, i, F_L);
	if (f0 & F_N)
		return digits(s, n, i, k->ndigits);
	if ((e = punct(s, n, i, f0, 0)))
		return e;
	if (f0 & F_S)
		return spaces(s, n, i);
	return i + l0;
}

/* [\p{Lu}...]*[\p{Ll}...]+ from start, with the regex's backtracking. */
static size_t
upper_lower(const char *s, size_t n, size_t start, int fold)
{
	size_t j = start, l, q = 0, hasq = 0;
	unsigned f;

	while ((f = cls(s, n, j, &l)) & F_U) {
		if (f & F_W) {
			q = j + l;
			hasq = 1;
		}
		j += l;
	}
	/* f, l: the character at j (0 at the end) */
	if (f & F_W)
		return opt_contraction(s, n, run(s, n, j + l, F_W), fold);
	return hasq ? opt_contraction(s, n, q, fold) : 0;
}

/* [\p{Lu}...]+[\p{Ll}...]* from start. */
static size_t
upper_then(const char *s, size_t n, size_t start, int fold)
{
	size_t l;

	if (!(cls(s, n, start, &l) & F_U))
		return 0;
	return opt_contraction(s, n, run(s, n, run(s, n, start, F_U), F_W),
			       fold);
}

static size_t
gpt4o(const struct kind *k, const char *s, size_t n, size_t i)
{
	size_t l0, l1, e;
	unsigned f0 = cls(s, n, i, &l0);
	int x = is_x(f0);
	/* the letter alternatives need a U or W character where they start */
	unsigned f1 = x && i + l0 < n ? cls(s, n, i + l0, &l1) : 0;

	if (((f1 & (F_U | F_W)) && (e = upper_lower(s, n, i + l0, k->fold))) ||
	    ((f0 & (F_U | F_W)) && (e = upper_lower(s, n, i, k->fold))) ||
	    ((f1 & F_U) && (e = upper_then(s, n, i + l0, k->fold))) ||
	    ((f0 & F_U) && (e = upper_then(s, n, i, k->fold))))
		return e;
	if (f0 & F_N)
		return digits(s, n, i, 3);
	if ((e = punct(s, n, i, f0, 1)))
		return e;
	if (f0 & F_S)
		return spaces(s, n, i);
	return i + l0;
}

size_t
gptre_match(int kind, const char *s, size_t n, size_t i)
{
	const struct kind *k = &kinds[kind];

	return k->family == 'A' ? gpt4(k, s, n, i) : gpt4o(k, s, n, i);
}
