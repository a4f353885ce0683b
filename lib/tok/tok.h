/* SPDX-License-Identifier: Apache-2.0 */
/* Tokenizers: HuggingFace tokenizer.json (BPE) and tiktoken rank files, exact to the reference. */
#ifndef AIPERF_TOK_H
#define AIPERF_TOK_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"

/*
 * A struct tok is immutable after loading and may be shared by threads.
 * tok_open() loads one local file or directory; tok_load() (lib/tok/toksrc.c)
 * first resolves a user-facing name (builtin, o200k_base, a path, a
 * HuggingFace id) to such a file. On failure both return NULL and put a
 * message naming the file, the field and what is supported in err.
 * Ids go into a caller-owned struct tok_ids that tok functions grow.
 */
struct tok;

struct tok_ids {
	int32_t *v;
	size_t n, cap;
};

/*
 * Open a tokenizer.json, tokenizer.json.zst, a directory holding one (and
 * optionally tokenizer_config.json for the BOS token), or a NAME.tiktoken
 * rank file (NAME picks regex and specials: o200k_base, cl100k_base),
 * also zstd-compressed as NAME.tiktoken.zst.
 */
struct tok *tok_open(const char *path, char *err, size_t errlen);
void tok_free(struct tok *t);
/*
 * Match special-token strings inside text (tiktoken's allowed_special="all"),
 * as the original's --tokenizer builtin does; HF tokenizers always do.
 * Call right after loading, before t is shared.
 */
void tok_allow_specials(struct tok *t);

/* Encode without adding special tokens (add_special_tokens=False), but
 * matching added/special token strings inside text as the reference does.
 * Appends to ids (call with ids->n = 0 for a fresh list). Returns 0. */
int tok_encode(const struct tok *t, const char *s, size_t n, struct tok_ids *ids);
/* Number of ids tok_encode would produce, without storing them. */
size_t tok_count(const struct tok *t, const char *s, size_t n);
/* Decode ids to text, appending to out; skip_special drops special tokens.
 * Unknown ids are skipped. Returns 0, or -1 when out's cap is reached. */
int tok_decode(const struct tok *t, const int32_t *ids, size_t n,
	       int skip_special, struct buf *out);
/* BOS / EOS token id from the tokenizer config (bos_token, eos_token, as
 * transformers' bos_token_id whatever add_bos_token says), or -1 when it
 * has none. tiktoken encodings: no BOS, EOS <|endoftext|>. */
int32_t tok_bos(const struct tok *t);
int32_t tok_eos(const struct tok *t);
/* Take bos_token and eos_token (a string, or an object with "content")
 * from the text of a tokenizer_config.json; tok_open() does it for the file
 * beside the tokenizer. A token the tokenizer does not know gives -1.
 * Returns 0, or -1 (ids unchanged) when json is not a JSON document. */
int tok_set_config(struct tok *t, const char *json, size_t len);
/* One past the largest id (model vocabulary and added tokens). */
size_t tok_vocab_size(const struct tok *t);
/* A short description such as "hf-bpe byte-level (qwen3/tokenizer.json)". */
const char *tok_describe(const struct tok *t);

void tok_ids_release(struct tok_ids *ids);

#endif
