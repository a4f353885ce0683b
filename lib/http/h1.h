/* SPDX-License-Identifier: Apache-2.0 */
/* An incremental HTTP/1.x response parser for clients: no I/O, any split of bytes. */
#ifndef AIPERF_H1_H
#define AIPERF_H1_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"

/*
 * Feed a response's bytes to h1_feed() as they arrive, split anywhere. The
 * parser hands every line of the head (status line, header fields, the
 * empty line that ends it; without their CR LF) to on_line, and the body's
 * bytes (de-chunked) to on_body, in order. Interim 1xx responses are passed
 * to on_line too and then skipped. A struct h1 owns one buffer (for lines
 * split across feeds, capped by max_line); h1_release() frees it. The
 * callbacks' pointers are valid only during the call.
 */
typedef int (*h1_line_fn)(void *ctx, const char *p, size_t n);
typedef int (*h1_body_fn)(void *ctx, const char *p, size_t n);

enum h1_flags {
	H1_KEEPALIVE = 1 << 0,	/* the connection may carry another request */
	H1_CHUNKED = 1 << 1,	/* Transfer-Encoding: chunked */
	H1_UNTIL_CLOSE = 1 << 2,	/* body delimited by the connection's close */
	H1_HEAD_DONE = 1 << 3,	/* the final response's head was read */
	H1_DONE = 1 << 4,	/* the response is complete */
	H1_ABORTED = 1 << 5,	/* a callback returned -1 */
};

struct h1 {
	int state;
	unsigned flags;
	int status;		/* the final (or current interim) status code */
	int minor;		/* HTTP/1.minor */
	int64_t clen;		/* Content-Length, -1 when absent */
	uint64_t left;		/* body or chunk bytes still to come */
	size_t head_bytes;	/* bytes of this head (or trailer section) so far */
	size_t max_line, max_head;
	uint64_t nbytes;	/* bytes consumed since h1_init/h1_reset */
	const char *err;	/* after -1: why, as a static string */
	struct buf line;	/* a line split across feeds */
	h1_line_fn on_line;
	h1_body_fn on_body;
	void *ctx;
};

/* Set up h for one response; max_line caps one line, max_head the head's bytes. */
void h1_init(struct h1 *h, size_t max_line, size_t max_head, h1_line_fn on_line,
	     h1_body_fn on_body, void *ctx);
/* Ready h for the next response on the same connection (callbacks kept). */
void h1_reset(struct h1 *h);
void h1_release(struct h1 *h);

/*
 * Consume bytes of p[0..n). Returns how many were used (fewer than n only
 * when the response completed: the rest belong to whatever follows), or -1
 * on malformed input, a cap exceeded or a callback's -1 (h->err says which;
 * H1_ABORTED is set for the callback). Feeding after completion or after
 * -1 returns 0 or -1 and does nothing.
 */
long h1_feed(struct h1 *h, const char *p, size_t n);

/*
 * The connection closed. Returns 0 when that completes the response (a
 * body delimited by close), -1 when the response was cut short (h->err).
 */
int h1_eof(struct h1 *h);

/* Whether any byte of a response was consumed since h1_init/h1_reset. */
int h1_started(const struct h1 *h);

#endif
