/* SPDX-License-Identifier: Apache-2.0 */
/* tiktoken rank files: base64 ranks become a byte-level BPE with merges derived from ranks. */
#include "tok/tiktoken.h"

#include <stdlib.h>
#include <string.h>

#include "b64.h"
#include "util.h"

#define MAX_FILE (64u << 20)

struct special {
	const char *s;
	int32_t id;
};

struct encoding {
	const char *name;
	const char *pat;	/* js-tiktoken's pat_str, run by Oniguruma */
	struct special sp[6];
};

#define CONTRACTIONS "'s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M" \
	"|'ll|'lL|'Ll|'LL|'d|'D"
#define UPPER "[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]"
#define LOWER "[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]"

static const struct encoding encodings[] = {
	{ "o200k_base",
	  "[^\\r\\n\\p{L}\\p{N}]?" UPPER "*" LOWER "+(" CONTRACTIONS ")?"
	  "|[^\\r\\n\\p{L}\\p{N}]?" UPPER "+" LOWER "*(" CONTRACTIONS ")?"
	  "|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+"
	  "|\\s+(?!\\S)|\\s+",
	  { { "<|endoftext|>", 199999 }, { "<|endofprompt|>", 200018 },
	    { NULL, 0 } } },
	{ "cl100k_base",
	  "(" CONTRACTIONS ")|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}"
	  "| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
	  { { "<|endoftext|>", 100257 }, { "<|fim_prefix|>", 100258 },
	    { "<|fim_middle|>", 100259 }, { "<|fim_suffix|>", 100260 },
	    { "<|endofprompt|>", 100276 }, { NULL, 0 } } },
};

static const struct encoding *
find_encoding(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(encodings) / sizeof(encodings[0]); i++)
		if (!strcmp(encodings[i].name, name))
			return &encodings[i];
	return NULL;
}

int
tiktoken_known(const char *name)
{
	return find_encoding(name) != NULL;
}

/* "<base64 token> <rank>": tmp has room for the token (the line is
 * shorter than it). */
static int
parse_line(struct bpe *b, const char *s, size_t n, char *tmp)
{
	const char *sp = memchr(s, ' ', n);
	long long rank;
	const char *why;
	char num[16];
	size_t len;

	if (!sp || (size_t)(s + n - sp - 1) >= sizeof(num) || sp == s)
		return -1;
	memcpy(num, sp + 1, (size_t)(s + n - sp - 1));
	num[s + n - sp - 1] = '\0';
	if (util_strtonum(num, 0, (1 << 24) - 1, &rank, &why) < 0)
		return -1;
	if (b64_decode(s, (size_t)(sp - s), 0, (unsigned char *)tmp, &len, NULL, 0) < 0 ||
	    !len || bpe_add(b, tmp, len, (int32_t)rank, 1) < 0)
		return -1;
	return 0;
}

static int
parse_ranks(struct bpe *b, const char *data, size_t len, const char *path,
	    char *err, size_t errlen)
{
	const char *s = data, *e = data + len, *nl;
	char tmp[1024];
	size_t line = 0, n;

	while (s < e) {
		line++;
		nl = memchr(s, '\n', (size_t)(e - s));
		n = nl ? (size_t)(nl - s) : (size_t)(e - s);
		if (n > 0 && (n >= sizeof(tmp) || parse_line(b, s, n, tmp) < 0)) {
			snprintf(err, errlen, "'%s': line %zu: expected "
				 "'<base64 token> <rank>'", path, line);
			return -1;
		}
		s += n + 1;
	}
	if (bpe_max_id(b) < 256) {
		snprintf(err, errlen, "'%s': no ranks", path);
		return -1;
	}
	return 0;
}

static const char *
base_name(const char *path, char *name, size_t cap)
{
	const char *b = strrchr(path, '/');
	size_t n;

	b = b ? b + 1 : path;
	n = strlen(b);
	if (n > 4 && !strcmp(b + n - 4, ".zst"))
		n -= 4;
	if (n > 9 && !strncmp(b + n - 9, ".tiktoken", 9))
		n -= 9;
	if (n >= cap)
		n = cap - 1;
	memcpy(name, b, n);
	name[n] = '\0';
	return name;
}

static int
setup(struct tokpipe *p, const struct encoding *enc, char *err, size_t errlen)
{
	const struct special *sp;

	p->byte_level = 1;
	p->match_added = 0;
	bpe_merges_from_ranks(p->bpe);
	bpe_set_ignore_merges(p->bpe, 1);
	bpe_seal(p->bpe);
	p->pre = pretok_new();
	if (pretok_add_split(p->pre, enc->pat, strlen(enc->pat), 1,
			     PRETOK_ISOLATED, 0, err, errlen) < 0)
		return -1;
	for (sp = enc->sp; sp->s; sp++)
		tokpipe_add_token(p, sp->s, strlen(sp->s), sp->id,
				  ADDED_SPECIAL);
	tokpipe_seal(p);
	tokpipe_add_dec(p, DEC_BYTELEVEL, NULL, 0, NULL, 0);
	p->has_decoder = 1;
	p->eos = enc->sp[0].id;
	return 0;
}

int
tiktoken_load(struct tokpipe *p, const char *path, char *err, size_t errlen)
{
	const struct encoding *enc;
	char name[64];
	size_t len;
	char *data;
	int rc;

	enc = find_encoding(base_name(path, name, sizeof(name)));
	if (!enc) {
		snprintf(err, errlen, "'%s': unknown tiktoken encoding '%s' "
			 "(supported: o200k_base, cl100k_base)", path, name);
		return -1;
	}
	data = util_readfile(path, MAX_FILE, &len);
	if (!data) {
		snprintf(err, errlen, "cannot read '%s': %s", path,
			 util_strerror(errno));
		return -1;
	}
	p->bpe = bpe_new(BPE_BYTES);
	rc = parse_ranks(p->bpe, data, len, path, err, errlen);
	free(data);
	if (rc == 0)
		rc = setup(p, enc, err, errlen);
	return rc;
}
