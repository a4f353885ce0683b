/* SPDX-License-Identifier: Apache-2.0 */
/* A streaming splitter for a file that is one big JSON array: its elements, one at a time. */
#ifndef AIPERF_JARR_H
#define AIPERF_JARR_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/*
 * Feed the file's bytes in pieces of any size; each complete element of
 * the top-level array is handed to the callback as its exact text (no
 * surrounding blanks), with its index and the byte offset (0-based) where
 * it starts. The splitter checks only the array's own syntax: '[', the
 * commas, ']' and nothing but blanks after it. An element's text is
 * delimited by its brackets and strings, not validated: parse it (for
 * instance with json_parse, which checks it fully). Memory: the piece
 * fed, plus the one element that spans pieces (capped at max bytes).
 */
struct jarr {
	int state, depth, in_str, esc, scalar;
	uint64_t off;		/* bytes consumed */
	uint64_t start;		/* offset of the current element */
	size_t index;		/* elements completed */
	size_t max;		/* largest element, in bytes */
	struct buf el;		/* the current element, when it spans pieces */
};

/* Called for each element; a non-zero return stops jarr_feed(), which
 * returns that value. */
typedef int (*jarr_fn)(void *ud, const char *s, size_t n, size_t index,
		       uint64_t off);

void jarr_init(struct jarr *a, size_t max);
void jarr_release(struct jarr *a);
/*
 * Feed s[0..n). Returns 0; the callback's non-zero value; or -1 with a
 * message in err: "at byte N: not a JSON array (it starts with ...)",
 * "at byte N: expected ',' or ']' after element K", "at byte N: data
 * after the array", "at byte N: element K is larger than M bytes".
 */
int jarr_feed(struct jarr *a, const char *s, size_t n, jarr_fn fn, void *ud,
	      char *err, size_t errlen);
/* End of input: 0 when the array was closed, else -1 with a message
 * ("empty: not a JSON array", "truncated: ...", at the byte it stopped). */
int jarr_finish(struct jarr *a, char *err, size_t errlen);

#endif
