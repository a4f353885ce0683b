/* SPDX-License-Identifier: Apache-2.0 */
/* Incremental Server-Sent Events parser with the original aiperf's message and line rules. */
#ifndef AIPERF_SSE_H
#define AIPERF_SSE_H

#include <stddef.h>
#include "buf.h"

/*
 * Feed bytes as they arrive with sse_feed(); every complete message (ended
 * by "\n\n" or "\r\n\r\n", whichever comes first) is parsed and handed to the
 * callback, in order. sse_finish() hands over a last message that had no
 * delimiter. A message's bytes are decoded as UTF-8 with invalid sequences
 * replaced by U+FFFD, trimmed, and dropped when empty; lines are split at
 * \n, \r, \v, \f and \x1c-\x1e, trimmed, and empty ones skipped; each line is
 * "name: value" split at the first colon with both sides trimmed, an empty
 * name meaning "comment" and a line without colon a field without value.
 * The original's continuation quirk is kept: when the previous value starts
 * with '{' and does not end with '}', a line that does not start with
 * "data:" is appended to that value after a literal backslash-n.
 *
 * The struct sse_msg and every string it points to are borrowed and valid
 * only during the callback. Field strings are NUL-terminated. The parser
 * owns its buffers; sse_release() frees them. Results are the same however
 * the input is split into sse_feed() calls.
 */
struct sse_field {
	const char *name;
	size_t nlen;
	const char *value;	/* NULL when the line had no colon */
	size_t vlen;
};

struct sse_msg {
	const char *text;	/* the trimmed, UTF-8-clean message */
	size_t len;
	const struct sse_field *f;
	size_t n;
};

/* Return 0 to go on, -1 to stop sse_feed()/sse_finish() (which then return -1). */
typedef int (*sse_fn)(void *ctx, const struct sse_msg *m);

struct sse {
	struct buf in;		/* bytes not yet part of a complete message */
	size_t scanned;		/* bytes of in known to hold no delimiter start */
	struct buf text;	/* the current message, cleaned */
	struct buf strs;	/* field names and values */
	size_t *offs;		/* 4 offsets per field into strs (or -1) */
	size_t nf, capf;
	size_t nomem;		/* the size of the allocation that failed (ENOMEM) */
	sse_fn fn;
	void *ctx;
};

/* max caps the bytes of one message (and so every buffer). */
void sse_init(struct sse *s, size_t max, sse_fn fn, void *ctx);
void sse_release(struct sse *s);
/* Forget buffered input, ready for a new stream. */
void sse_reset(struct sse *s);
/*
 * Returns 0, or -1 when the callback asked to stop, a message grew past
 * max (errno ENOBUFS) or the memory for it could not be had (errno ENOMEM,
 * s->nomem the size that failed: a message is one response's, so its
 * failure is that response's and never an abort); the buffered input is
 * dropped.
 */
int sse_feed(struct sse *s, const char *p, size_t n);
/* End of stream: emits a trailing undelimited message; 0 or -1 as sse_feed. */
int sse_finish(struct sse *s);

/* Parse one message's text (as between delimiters) without a struct sse's stream. */
int sse_parse_message(struct sse *s, const char *p, size_t n);

/* Append the "data" values joined by '\n' to out; returns how many there were, or -1 past out's cap. */
int sse_msg_data(const struct sse_msg *m, struct buf *out);
/* 1 when the message has an "event" field whose value is "error" (any case). */
int sse_msg_is_error(const struct sse_msg *m);
/* The first comment field, or NULL. */
const struct sse_field *sse_msg_comment(const struct sse_msg *m);

/*
 * Append p[0..n) to b as valid UTF-8: each maximal invalid subsequence
 * becomes U+FFFD (Python's errors="replace"). Returns 0, or -1 past the
 * cap (ENOBUFS) or when b cannot grow (ENOMEM, with the size that failed
 * in *nomem unless nomem is NULL); b keeps what was appended before.
 */
int sse_utf8_append(struct buf *b, const char *p, size_t n, size_t *nomem);

#endif
