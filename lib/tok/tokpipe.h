/* SPDX-License-Identifier: Apache-2.0 */
/* The tokenizer pipeline: added tokens, normalizers, pre-tokenizers, BPE model, decoders. */
#ifndef AIPERF_TOKPIPE_H
#define AIPERF_TOKPIPE_H

#include <stddef.h>
#include <stdint.h>
#include "tok/bpe.h"
#include "buf.h"
#include "tok/pretok.h"

/*
 * A struct tokpipe is what the loaders (lib/tok/hftok.c, lib/tok/tiktoken.c) build
 * and lib/tok/tok.c runs. It owns every part; tokpipe_release() frees them.
 * After loading it is read-only (encode state lives in per-thread storage
 * and on the stack), so one pipeline may serve many threads.
 */
enum norm_kind {
	NORM_NFC,
	NORM_NFD,
	NORM_NFKC,
	NORM_NFKD,
	NORM_PREPEND,
	NORM_REPLACE,		/* literal pattern */
	NORM_REPLACE_RE,	/* regex pattern */
	NORM_STRIP,
};

enum dec_kind {
	DEC_BYTELEVEL,
	DEC_METASPACE,
	DEC_REPLACE,
	DEC_BYTEFALLBACK,
	DEC_FUSE,
	DEC_STRIP,
};

/* A normalizer or decoder step; a and b are its strings (pattern and
 * content, prepend text, Metaspace replacement), i and j its numbers. */
struct tokstep {
	int kind;
	char *a, *b;
	size_t alen, blen;
	int i, j;
	struct pretok_re *re;
};

enum added_flags {
	ADDED_SPECIAL = 1 << 0,
	ADDED_NORMALIZED = 1 << 1,
	ADDED_LSTRIP = 1 << 2,
	ADDED_RSTRIP = 1 << 3,
	ADDED_SINGLE_WORD = 1 << 4,
};

struct added {
	char *s;
	size_t n;
	int32_t id;
	int flags;
};

#define TOKPIPE_MAX_STEPS 16

struct tokpipe {
	struct bpe *bpe;
	int byte_level;		/* bpe symbols are raw bytes */
	struct bpe *odd;	/* byte-level vocabulary outside the byte map */
	int cut_meta;		/* cut words before U+2581 (bpe_prefix_only) */
	int match_added;	/* find added tokens inside text (HF yes, tiktoken no) */
	struct pretok *pre;	/* NULL: each segment is one word */
	struct tokstep norm[TOKPIPE_MAX_STEPS];
	size_t nnorm;
	struct tokstep dec[TOKPIPE_MAX_STEPS];
	size_t ndec;
	int has_decoder;
	struct added *added;
	size_t nadded;
	int32_t *bucket;	/* match index: first two bytes -> list */
	int32_t *chain;
	/* per pass (raw 0, normalized 1): bytes an added token of that pass
	 * starts with, how many distinct ones, and the first of them */
	unsigned char starts[2][256];
	int nstarts[2];
	unsigned char start1[2];
	struct added **byid;	/* added tokens sorted by id */
	int32_t bos, eos;
};

void tokpipe_init(struct tokpipe *p);
void tokpipe_release(struct tokpipe *p);

/* Record an added token (content s[0..n)); call tokpipe_seal() after the
 * last one. Returns -1 when id is out of range or s is empty. */
int tokpipe_add_token(struct tokpipe *p, const char *s, size_t n, int32_t id,
		      int flags);
/* The added token with content s[0..n), or NULL. */
const struct added *tokpipe_find_token(const struct tokpipe *p, const char *s,
				       size_t n);
/* Append a normalizer or decoder step (kind from enum norm_kind or
 * enum dec_kind); strings are copied. Returns the step, or NULL when full. */
struct tokstep *tokpipe_add_norm(struct tokpipe *p, int kind, const char *a,
				 size_t alen, const char *b, size_t blen);
struct tokstep *tokpipe_add_dec(struct tokpipe *p, int kind, const char *a,
				size_t alen, const char *b, size_t blen);
/* Build the match index. Call once, after the last tokpipe_add_token(). */
void tokpipe_seal(struct tokpipe *p);

/* Encode s[0..n) (any bytes: invalid UTF-8 becomes U+FFFD first). Ids
 * are appended to *ids (grown with xrealloc) when ids is not NULL; the
 * number of ids produced is returned either way. */
size_t tokpipe_encode(const struct tokpipe *p, const char *s, size_t n,
		      int32_t **ids, size_t *nids, size_t *cap);
/* The added token with this id, or NULL (after tokpipe_seal()). */
const struct added *tokpipe_token_by_id(const struct tokpipe *p, int32_t id);

/* Whether s[0..n) is valid UTF-8 (1) or not (0). */
int tokpipe_utf8_valid(const char *s, size_t n);
/* Append s to out with invalid UTF-8 replaced as WHATWG and Rust's
 * String::from_utf8_lossy do: U+FFFD for each maximal invalid subpart. */
void tokpipe_utf8_lossy(const char *s, size_t n, struct buf *out);

/* GPT-2 bytes_to_unicode: the byte that code point c stands for, or -1. */
int tokpipe_bl_byte(int32_t c);
/* Map byte-level text back to bytes, appending to out. Returns 0, or -1
 * (out unchanged) when a character is outside the map. */
int tokpipe_bl_decode(const char *s, size_t n, struct buf *out);

#endif
