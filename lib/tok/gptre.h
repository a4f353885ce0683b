/* SPDX-License-Identifier: Apache-2.0 */
/* Hand-written matchers for the GPT-4 and GPT-4o pre-tokenizer regexes, equal to Oniguruma's matches. */
#ifndef AIPERF_GPTRE_H
#define AIPERF_GPTRE_H

#include <stddef.h>

/*
 * The split patterns of cl100k_base, Qwen2/3, Llama 3 (the GPT-4 family)
 * and of o200k_base, gpt-oss (the GPT-4o family) are matched here by
 * code instead of by Oniguruma, several times faster. gptre_kind()
 * recognises a pattern by its exact text; only those patterns are
 * handled. Character classes (\p{L}, \p{N}, \s, ...) come from
 * Oniguruma's own Unicode tables, so both agree on every code point;
 * tests/unit/test-gptre.c compares the two. Stateless and thread-safe.
 */

/* A known pattern's kind (> 0), or 0. It also prepares the tables
 * gptre_match() reads: pass only kinds it returned. */
int gptre_kind(const char *pat, size_t n);

/*
 * The end of the match that starts at s[i] (i < n): every position of
 * valid UTF-8 text starts a non-empty match of these patterns, so the
 * matches of find_iter are consecutive.
 */
size_t gptre_match(int kind, const char *s, size_t n, size_t i);

#endif
