/* SPDX-License-Identifier: Apache-2.0 */
/* ShareGPT-format files: one JSON array of conversations, read as a stream and filtered by token counts. */
#ifndef AIPERF_SHAREGPT_H
#define AIPERF_SHAREGPT_H

#include <stddef.h>
#include <stdint.h>

#include "json/json.h"

/*
 * The file the original's --public-dataset sharegpt reads
 * (ShareGPT_V3_unfiltered_cleaned_split.json) is one JSON array of
 *   {"id": "...", "conversations": [{"from": "human", "value": "..."},
 *                                   {"from": "gpt", "value": "..."}, ...]}
 * The original's loader (dataset/loader/sharegpt.py) takes the "value" of
 * the first two turns as prompt and completion, whoever speaks them, and
 * skips an entry without "conversations" (or with null, or fewer than two
 * turns). Then the filter it took from vLLM (is_valid_sequence) keeps an
 * entry when, in tokens of the run's tokenizer,
 *   4 <= prompt <= 1024, prompt + completion <= 2048, and 4 <= completion
 * (the last one waived when --osl is given).
 *
 * Where the original would stop with an exception (an element that is not
 * an object, conversations of another type, a turn without a string
 * "value"), this is an error naming the element: "[5].conversations[1].
 * value: expected a string, not a number".
 */
#define SHAREGPT_MIN_LEN 4
#define SHAREGPT_MAX_PROMPT 1024
#define SHAREGPT_MAX_TOTAL 2048
#define SHAREGPT_MAX_ENTRY ((size_t)64 << 20)

/* is_valid_sequence with the original's defaults: 1 to keep, 0 not. */
int sharegpt_valid(size_t prompt, size_t completion, int skip_min_output);

/* The first two turns of an entry; the strings point into the JSON values. */
struct sharegpt_pair {
	const char *prompt, *completion;
	size_t plen, clen;
};

/* Entry index of array v: 1 with its turns in *p, 0 when the original
 * skips it, -1 with a message in err. */
int sharegpt_entry(const struct json *v, size_t index, struct sharegpt_pair *p,
		   char *err, size_t errlen);

/* What the loader hands over for each kept entry, in file order. */
struct sharegpt_item {
	const char *prompt;	/* valid during the call */
	size_t prompt_len;
	size_t prompt_tokens, completion_tokens;
	size_t index;		/* its index in the array */
};

struct sharegpt_opts {
	/* token count of s[0..n); called from several threads at once */
	size_t (*count)(void *ctx, const char *s, size_t n);
	void *count_ctx;
	/* each kept entry, on the calling thread; non-zero stops the load
	 * (the message is the callback's own: err is left empty) */
	int (*keep)(void *ud, const struct sharegpt_item *it);
	void *keep_ud;
	int skip_min_output;	/* --osl given */
	int threads;		/* 0: one per CPU, at most 16 */
	size_t max_entry;	/* bytes; 0: SHAREGPT_MAX_ENTRY */
};

struct sharegpt_stats {
	size_t entries, kept, skipped;
	uint64_t bytes;
};

/*
 * Read the array from fd to its end (or from s[0..n) with _mem), parse
 * and count entries in parallel, and call o->keep in file order. Returns
 * 0; the callback's non-zero value; or -1 with a message in err, the
 * first problem in file order: "at byte N: [5].conversations: expected a
 * list, not a string", "at byte N: truncated: ...", "cannot read: ...".
 * Memory: the kept entries' callbacks' own, plus about 16 MiB of batch.
 */
int sharegpt_load_fd(int fd, const struct sharegpt_opts *o,
		     struct sharegpt_stats *st, char *err, size_t errlen);
int sharegpt_load_mem(const char *s, size_t n, const struct sharegpt_opts *o,
		      struct sharegpt_stats *st, char *err, size_t errlen);

#endif
