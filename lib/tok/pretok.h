/* SPDX-License-Identifier: Apache-2.0 */
/* Pre-tokenizers: a chain of splitting steps (regex Split, ByteLevel, Digits, Metaspace) run on UTF-8 text. */
#ifndef AIPERF_PRETOK_H
#define AIPERF_PRETOK_H

#include <stddef.h>

/*
 * A struct pretok owns its steps and compiled regexes (Oniguruma, as the
 * reference engine); after building it is read-only and thread-safe.
 * pretok_run() splits text as HF tokenizers' PreTokenizedString does, each
 * step splitting every piece of the previous one, and hands each final
 * non-empty piece to a callback. Text must be valid UTF-8. Pieces are in
 * the input's byte space: ByteLevel's byte-to-unicode map is left to the
 * model (struct bpe in BPE_BYTES mode), so it must be the last step.
 */
enum pretok_behavior {
	PRETOK_REMOVED,
	PRETOK_ISOLATED,
	PRETOK_MERGED_PREV,
	PRETOK_MERGED_NEXT,
	PRETOK_CONTIGUOUS,
};

enum pretok_prepend { PRETOK_ALWAYS, PRETOK_FIRST, PRETOK_NEVER };

struct pretok;

/* Called with each piece; a non-zero return stops the run and is returned. */
typedef int (*pretok_fn)(void *ctx, const char *s, size_t n);

struct pretok *pretok_new(void);
void pretok_free(struct pretok *p);

/* Split on a regex (is_regex) or a literal string. Returns 0, or -1 with
 * the regex compiler's message in err. */
int pretok_add_split(struct pretok *p, const char *pat, size_t n, int is_regex,
		     enum pretok_behavior beh, int invert, char *err,
		     size_t errlen);
/* ByteLevel: optional prefix space and GPT-2 regex split. */
int pretok_add_bytelevel(struct pretok *p, int add_prefix_space, int use_regex,
			 char *err, size_t errlen);
void pretok_add_digits(struct pretok *p, int individual);
void pretok_add_metaspace(struct pretok *p, const char *repl, size_t n,
			  enum pretok_prepend scheme, int split);
size_t pretok_nsteps(const struct pretok *p);
/* The index of the last ByteLevel step, or -1. */
int pretok_bytelevel_at(const struct pretok *p);

/* at_start: s begins at offset 0 of the original text (Metaspace "first"). */
int pretok_run(const struct pretok *p, const char *s, size_t n, int at_start,
	       pretok_fn fn, void *ctx);

/* One-shot regex use for normalizers: replace every match of re in s. */
struct pretok_re;
struct pretok_re *pretok_re_new(const char *pat, size_t n, char *err,
				size_t errlen);
void pretok_re_free(struct pretok_re *re);
/* Find the next match at or after from; returns 1 with [*b, *e), else 0. */
int pretok_re_find(const struct pretok_re *re, const char *s, size_t n,
		   size_t from, size_t *b, size_t *e);

#endif
