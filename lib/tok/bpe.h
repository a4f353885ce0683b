/* SPDX-License-Identifier: Apache-2.0 */
/* BPE merge engine: a vocabulary of symbol strings, ranked pair merges, a per-thread word cache. */
#ifndef AIPERF_BPE_H
#define AIPERF_BPE_H

#include <stddef.h>
#include <stdint.h>

/*
 * A struct bpe owns its vocabulary and merge tables; after loading it is
 * read-only and may be shared by threads (each thread keeps its own word
 * cache, about 11 MB, and scratch space, freed at thread exit; the cache
 * is emptied when a thread switches to another struct bpe). Symbols are byte strings
 * in the model's own space: raw bytes for byte-level models (the loader
 * undoes the byte-to-unicode map), UTF-8 text for SentencePiece-style ones.
 *
 * Encoding a word follows HF tokenizers' BPE: start from one symbol per
 * byte (BPE_BYTES) or per UTF-8 character (BPE_CHARS, with byte_fallback to
 * "<0xNN>" and unk), then repeatedly merge the adjacent pair with the
 * lowest rank, leftmost first. With ignore_merges a word that is itself in
 * the vocabulary is returned as one id (also tiktoken's rule).
 */
enum bpe_mode { BPE_BYTES, BPE_CHARS };

struct bpe;

struct bpe *bpe_new(enum bpe_mode mode);
void bpe_free(struct bpe *b);

/* Add vocabulary entry s[0..n) with id (ids < 1<<24). hashed = 0 records
 * the name for decoding only. Returns 0, or -1 on a duplicate id. */
int bpe_add(struct bpe *b, const char *s, size_t n, int32_t id, int hashed);
/* Id of s[0..n), or -1. */
int32_t bpe_lookup(const struct bpe *b, const char *s, size_t n);
/* The symbol string of id (NULL when unknown), length in *n. */
const char *bpe_name(const struct bpe *b, int32_t id, size_t *n);
/* One past the largest id added. */
int32_t bpe_max_id(const struct bpe *b);
/* The number of vocabulary entries. */
size_t bpe_count(const struct bpe *b);

/* Merge pair (left, right) into result with rank (lower merges first).
 * A repeated pair keeps its first (lowest) rank. */
void bpe_add_merge(struct bpe *b, int32_t left, int32_t right, int32_t rank,
		   int32_t result);
/* Merge as tiktoken does (BPE_BYTES only): two adjacent symbols merge
 * when their bytes together are a token, whose id is the rank. */
void bpe_merges_from_ranks(struct bpe *b);

void bpe_set_ignore_merges(struct bpe *b, int on);
/*
 * Whether sym[0..n) is a token that appears in other tokens only as a
 * leading run (SentencePiece's U+2581 in Llama 2): then no merge crosses
 * the point before a sym that follows another character, and a word may be
 * cut there and encoded piece by piece with the same ids. Always 0 with
 * ignore_merges (a whole word would be looked up). Call after loading.
 */
int bpe_prefix_only(const struct bpe *b, const char *sym, size_t n);
/* unk id (-1 for none), fuse_unk, byte_fallback (BPE_CHARS only). */
void bpe_set_unk(struct bpe *b, int32_t unk, int fuse_unk, int byte_fallback);
/* Finish loading (builds the byte tables). Call once before encoding. */
void bpe_seal(struct bpe *b);

/*
 * Encode one word s[0..n) (n > 0). Returns a pointer to *nout ids in
 * per-thread storage, valid until the next bpe_word() call in this thread.
 */
const int32_t *bpe_word(const struct bpe *b, const char *s, size_t n,
			size_t *nout);

#endif
