/* SPDX-License-Identifier: Apache-2.0 */
/* Synthetic prompts of exact token length, as the original's PromptGenerator. */

#include "gen.h"
#include "hmap.h"
#include "rand/pystr.h"
#include "util.h"

#define CORPUS_MAX (512u << 20)
#define CHUNK_CHARS 10000
#define DECODE_MAX (256u << 20)
#define CACHE_MAX ((size_t)1 << 26)	/* distinct hash ids / prompts */

struct prompt {
	const struct tok *tok;
	struct tok_ids corpus;
	struct rng length_rng;	/* dataset.prompt.length */
	struct rng corpus_rng;	/* dataset.prompt.corpus */
	struct rng prefix_rng;	/* dataset.prompt.prefix */
	char **prefixes;	/* the prefix prompt pool */
	size_t nprefixes;
	char *system;		/* the shared system prompt, or NULL */
	struct buf out;
	/* hash_ids -> blocks: _cache (id -> tokens) and _decoded_cache */
	struct hmap block_ix;	/* (hash id, 0) -> 1 + index in blocks */
	struct tok_ids *blocks;
	size_t nblocks;
	struct hmap text_ix;	/* (h1, h2) of (ids, n, b) -> 1 + index in texts */
	char **texts;
	size_t ntexts;
	struct tok_ids seq;	/* the token sequence being built */
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
	rng_derive(&p->prefix_rng, seed, "dataset.prompt.prefix");
	buf_init(&p->out, DECODE_MAX);
	hmap_init(&p->block_ix, CACHE_MAX);
	hmap_init(&p->text_ix, CACHE_MAX);
	return p;
}

void
prompt_check_corpus(const char *path)
{
	size_t len;
	char *text = util_readfile(path, CORPUS_MAX, &len);

	if (!text)
		die("cannot read corpus '%s':", path);
	/* a line left non-empty by strip() encodes to at least one token */
	if (pystr_isblank(text, len))
		die("corpus '%s' has no tokens", path);
	free(text);
}

void
prompt_free(struct prompt *p)
{
	if (!p)
		return;
	tok_ids_release(&p->corpus);
	buf_release(&p->out);
	for (size_t i = 0; i < p->nblocks; i++)
		tok_ids_release(&p->blocks[i]);
	free(p->blocks);
	for (size_t i = 0; i < p->ntexts; i++)
		free(p->texts[i]);
	free(p->texts);
	tok_ids_release(&p->seq);
	for (size_t i = 0; i < p->nprefixes; i++)
		free(p->prefixes[i]);
	free(p->prefixes);
	free(p->system);
	hmap_release(&p->block_ix);
	hmap_release(&p->text_ix);
	free(p);
}

size_t
prompt_corpus_size(const struct prompt *p)
{
	return p->corpus.n;
}

/*
 * _sample_tokens(k): corpus[start:start+k] plus corpus[:start+k-N] when
 * the slice runs past the end (Python slices clamp, so at most N more),
 * appended to out. start is drawn even for k = 0, as the original does.
 */
static void
sample_tokens(struct prompt *p, size_t k, struct tok_ids *out)
{
	size_t n = p->corpus.n, start = (size_t)rng_below(&p->corpus_rng, n);
	size_t first = k < n - start ? k : n - start, rest = 0;

	if (k > n)
		warn("requested prompt length %zu is longer than the corpus; "
		     "returning a prompt of length %zu", k, n);
	if (k > n - start)
		rest = k - (n - start) < n ? k - (n - start) : n;
	if (!first)
		return;	/* k = 0: the draw alone */
	if (out->n + first + rest > out->cap) {
		out->cap = out->n + first + rest;
		out->v = xreallocarray(out->v, out->cap, sizeof(*out->v));
	}
	memcpy(out->v + out->n, p->corpus.v + start, first * sizeof(*out->v));
	memcpy(out->v + out->n + first, p->corpus.v, rest * sizeof(*out->v));
	out->n += first + rest;
}

/* One decode of the whole list, special tokens kept, as the original. */
static char *
decode(struct prompt *p, const struct tok_ids *ids)
{
	buf_reset(&p->out);
	if (tok_decode(p->tok, ids->v, ids->n, 0, &p->out))
		die("prompt of %zu tokens is too large to decode", ids->n);
	return xstrndup(buf_str(&p->out), p->out.len);
}

static char *
generate_prompt(struct prompt *p, size_t k)
{
	p->seq.n = 0;
	sample_tokens(p, k, &p->seq);
	return decode(p, &p->seq);
}

char *
prompt_exact(struct prompt *p, long long k)
{
	return generate_prompt(p, (size_t)(k > 0 ? k : 0));
}

void
prompt_pools(struct prompt *p, long long pool, long long len,
	     long long system_len)
{
	if (pool > 0) {
		p->prefixes = xcalloc((size_t)pool, sizeof(*p->prefixes));
		for (; p->nprefixes < (size_t)pool; p->nprefixes++)
			p->prefixes[p->nprefixes] = prompt_exact(p, len);
	}
	if (system_len > 0)
		p->system = prompt_exact(p, system_len);
}

const char *
prompt_prefix(struct prompt *p)
{
	if (!p->nprefixes)
		return NULL;
	return p->prefixes[rng_below(&p->prefix_rng, p->nprefixes)];
}

const char *
prompt_system(const struct prompt *p)
{
	return p->system;
}

/* Empty prompts are left out, as the chat endpoint's "if system_message". */
void
prompt_inject(struct prompt *p, struct dataset *d, const struct gen_opts *o)
{
	for (size_t i = 0; i < d->n; i++) {
		struct conv *c = &d->convs[i];

		if (o->context_len > 0)
			c->context = prompt_exact(p, o->context_len);
		if (!c->nturns)
			continue;
		c->turns[0].system = p->system && *p->system ? p->system : NULL;
		c->turns[0].context = c->context && *c->context ? c->context : NULL;
		for (size_t k = 0; k < c->nturns; k++) {
			c->turns[k].conv_system = c->turns[0].system;
			c->turns[k].conv_context = c->turns[0].context;
		}
	}
}

char *
prompt_generate(struct prompt *p, double mean, double stddev)
{
	long long k = gen_pni(&p->length_rng, mean, stddev);

	return generate_prompt(p, (size_t)k);
}

/* Tokenizer.block_separation_token_id: BOS, else EOS, else none (-1). */
static int32_t
separator(const struct prompt *p)
{
	int32_t id = tok_bos(p->tok);

	return id >= 0 ? id : tok_eos(p->tok);
}

/* The cached block of hash id h, created with len tokens when new. */
static const struct tok_ids *
block(struct prompt *p, int64_t h, long long len)
{
	int created;
	uint64_t *ix = hmap_put(&p->block_ix, (uint64_t)h, 0, &created);
	struct tok_ids *b;
	int32_t sep = separator(p);

	if (!ix)
		die("more than %zu distinct hash ids", CACHE_MAX);
	if (!created)
		return &p->blocks[*ix - 1];
	p->blocks = xreallocarray(p->blocks, p->nblocks + 1, sizeof(*p->blocks));
	b = &p->blocks[p->nblocks++];
	*ix = p->nblocks;
	*b = (struct tok_ids){ 0 };
	if (sep >= 0) {
		b->v = xreallocarray(NULL, 1, sizeof(*b->v));
		b->cap = b->n = 1;
		b->v[0] = sep;
		sample_tokens(p, (size_t)(len - 1), b);
	} else {
		sample_tokens(p, (size_t)len, b);
	}
	return b;
}

/* Two independent 64-bit hashes of (ids, n, b): the decoded-cache key. */
static void
key_hash(const int64_t *ids, size_t nids, long long n, long long b,
	 uint64_t h[2])
{
	uint64_t v[2] = { (uint64_t)n, (uint64_t)b };

	h[0] = 0xcbf29ce484222325u;
	h[1] = 0x9e3779b97f4a7c15u;
	for (size_t i = 0; i < nids + 2; i++) {
		uint64_t x = i < nids ? (uint64_t)ids[i] : v[i - nids];

		for (int k = 0; k < 8; k++) {
			h[0] = (h[0] ^ ((x >> (8 * k)) & 0xff)) * 0x100000001b3u;
			h[1] = (h[1] ^ ((x >> (8 * k)) & 0xff)) * 0xff51afd7ed558ccdu;
			h[1] ^= h[1] >> 29;
		}
	}
}

/*
 * _build_token_sequence: the final block has n - (len(ids) - 1) * b tokens
 * and must be in (0, b]; every id's block is created on first sight (the
 * separator token, then a corpus slice) and reused after, so equal ids give
 * equal text. The decoded text is cached by (ids, n, b).
 */
int
prompt_blocks_fit(long long n, const int64_t *ids, size_t nids, long long b,
		  char *err, size_t errlen)
{
	long long final = n - ((long long)nids - 1) * b;
	struct buf m = BUF_INIT(BUF_NOMAX);

	if (final > 0 && final <= b)
		return 0;
	buf_addf(&m, "Input length: %lld, Hash IDs: [", n);
	for (size_t i = 0; i < nids; i++)
		buf_addf(&m, "%s%lld", i ? ", " : "", (long long)ids[i]);
	buf_addf(&m, "], Block size: %lld are not compatible. The final "
		 "hash block size: %lld must be greater than 0 and less "
		 "than or equal to %lld.", b, final, b);
	snprintf(err, errlen, "%s", buf_str(&m));
	buf_release(&m);
	return -1;
}

char *
prompt_blocks(struct prompt *p, long long n, const int64_t *ids, size_t nids,
	      long long b, char *err, size_t errlen)
{
	long long final = n - ((long long)nids - 1) * b;
	uint64_t h[2], *ix;
	int created;

	if (prompt_blocks_fit(n, ids, nids, b, err, errlen))
		return NULL;
	key_hash(ids, nids, n, b, h);
	if (!(ix = hmap_put(&p->text_ix, h[0], h[1], &created)))
		die("more than %zu distinct prompts", CACHE_MAX);
	if (!created)
		return xstrdup(p->texts[*ix - 1]);
	p->seq.n = 0;
	for (size_t i = 0; i < nids; i++) {
		const struct tok_ids *blk = block(p, ids[i], i + 1 < nids ? b : final);
		struct tok_ids *s = &p->seq;

		if (s->n + blk->n > s->cap) {
			s->cap = (s->n + blk->n) * 2;
			s->v = xreallocarray(s->v, s->cap, sizeof(*s->v));
		}
		memcpy(s->v + s->n, blk->v, blk->n * sizeof(*s->v));
		s->n += blk->n;
	}
	p->texts = xreallocarray(p->texts, p->ntexts + 1, sizeof(*p->texts));
	p->texts[p->ntexts++] = decode(p, &p->seq);
	*ix = p->ntexts;
	return xstrdup(p->texts[p->ntexts - 1]);
}
