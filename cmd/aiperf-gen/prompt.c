/* SPDX-License-Identifier: Apache-2.0 */
/* Synthetic prompts of exact token length, as the original's PromptGenerator. */
#include <math.h>

#include "gen.h"
#include "pystr.h"
#include "util.h"

#define CORPUS_MAX (512u << 20)
#define CHUNK_CHARS 10000
#define DECODE_MAX (256u << 20)

struct prompt {
	const struct tok *tok;
	struct tok_ids corpus;
	struct rng length_rng;	/* dataset.prompt.length */
	struct rng corpus_rng;	/* dataset.prompt.corpus */
	struct buf out;
};

static void
encode_chunk(struct prompt *p, struct buf *chunk)
{
	tok_encode(p->tok, chunk->s, chunk->len, &p->corpus);
	buf_reset(chunk);
}

/*
 * _initialize_corpus: readlines (universal newlines), strip, drop empty
 * lines, close a chunk once its characters reach 10,000, join a chunk's
 * lines with one space, encode each chunk and concatenate the ids.
 */
static void
corpus_load(struct prompt *p, const char *text, size_t len)
{
	struct buf chunk = BUF_INIT(BUF_NOMAX);
	size_t chars = 0, i = 0;

	while (i < len) {
		size_t j = i, n;
		const char *line;

		while (j < len && text[j] != '\n' && text[j] != '\r')
			j++;
		n = j - i;
		line = pystr_strip(text + i, &n);
		i = j + (j < len);
		if (j < len && text[j] == '\r' && i < len && text[i] == '\n')
			i++;
		if (!n)
			continue;
		if (chunk.len)
			buf_addch(&chunk, ' ');
		buf_add(&chunk, line, n);
		chars += pystr_len(line, n);
		if (chars >= CHUNK_CHARS) {
			encode_chunk(p, &chunk);
			chars = 0;
		}
	}
	if (chunk.len)
		encode_chunk(p, &chunk);
	buf_release(&chunk);
}

struct prompt *
prompt_new(const struct tok *t, const char *path, uint64_t seed)
{
	struct prompt *p = xcalloc(1, sizeof(*p));
	size_t len;
	char *text = util_readfile(path, CORPUS_MAX, &len);

	if (!text)
		die("cannot read corpus '%s':", path);
	p->tok = t;
	corpus_load(p, text, len);
	free(text);
	if (!p->corpus.n)
		die("corpus '%s' has no tokens", path);
	rng_derive(&p->length_rng, seed, "dataset.prompt.length");
	rng_derive(&p->corpus_rng, seed, "dataset.prompt.corpus");
	buf_init(&p->out, DECODE_MAX);
	return p;
}

void
prompt_free(struct prompt *p)
{
	if (!p)
		return;
	tok_ids_release(&p->corpus);
	buf_release(&p->out);
	free(p);
}

size_t
prompt_corpus_size(const struct prompt *p)
{
	return p->corpus.n;
}

long long
gen_pni(struct rng *r, double mean, double stddev)
{
	double v = mean;

	if (stddev <= 0) {
		v = nearbyint(mean);	/* round(): half to even */
		return v < 1 ? 1 : (long long)v;
	}
	for (int i = 0; i < 10000; i++) {
		double n = rng_gauss(r, mean, stddev);

		if (n >= 0) {
			v = n;
			goto out;
		}
	}
	v = mean < 0 ? 0 : mean;
out:
	v = ceil(v);
	return v < 1 ? 1 : (long long)v;
}

/*
 * _sample_tokens(k): corpus[start:start+k] plus corpus[:start+k-N] when
 * the slice runs past the end (Python slices clamp, so at most N more),
 * then one decode of the whole list (special tokens kept, as the original).
 */
static char *
generate_prompt(struct prompt *p, size_t k)
{
	size_t n = p->corpus.n, start = (size_t)rng_below(&p->corpus_rng, n);
	size_t first = k < n - start ? k : n - start, rest = 0;
	const int32_t *ids = p->corpus.v + start;
	int32_t *tmp = NULL;
	int rc;

	if (k > n)
		warn("requested prompt length %zu is longer than the corpus; "
		     "returning a prompt of length %zu", k, n);
	if (k > n - start) {
		rest = k - (n - start) < n ? k - (n - start) : n;
		tmp = xreallocarray(NULL, first + rest, sizeof(*tmp));
		memcpy(tmp, ids, first * sizeof(*tmp));
		memcpy(tmp + first, p->corpus.v, rest * sizeof(*tmp));
		ids = tmp;
	}
	buf_reset(&p->out);
	rc = tok_decode(p->tok, ids, first + rest, 0, &p->out);
	free(tmp);
	if (rc)
		die("prompt of %zu tokens is too large to decode", k);
	return xstrndup(buf_str(&p->out), p->out.len);
}

char *
prompt_generate(struct prompt *p, double mean, double stddev)
{
	long long k = gen_pni(&p->length_rng, mean, stddev);

	return generate_prompt(p, (size_t)k);
}
