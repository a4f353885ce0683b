/* SPDX-License-Identifier: Apache-2.0 */
/* An incremental HTTP/1.x request-head parser and chunked-body decoder for servers. */
#ifndef AIPERF_HTTPREQ_H
#define AIPERF_HTTPREQ_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"

/*
 * httpreq_parse_head() reads one request line and its header fields from
 * the start of a byte buffer. It allocates nothing: every pointer in struct
 * httpreq borrows from that buffer and is valid until the caller moves or
 * frees it. It is restartable: call it again with more bytes until it stops
 * returning 0 (it rescans from the start; heads are small and capped).
 */
enum httpreq_flags {
	HTTPREQ_KEEPALIVE = 1 << 0, /* connection may be reused after this */
	HTTPREQ_CHUNKED = 1 << 1,   /* Transfer-Encoding: chunked body */
	HTTPREQ_EXPECT = 1 << 2,    /* Expect: 100-continue */
};

struct httpreq {
	const char *method;
	size_t method_len;
	const char *target;	/* request-target as sent, query included */
	size_t target_len;
	size_t path_len;	/* bytes of target before '?' */
	int minor;		/* HTTP/1.minor */
	unsigned flags;
	int64_t content_length;	/* -1 when absent */
	size_t head_len;	/* request line + fields + blank line */
	int status;		/* on -1: the HTTP status to answer with */
};

/*
 * Parse the head at s[0..n). Returns 1 when complete (r filled, body starts
 * at s + r->head_len), 0 when more bytes are needed, -1 when malformed with
 * r->status set to 400 (syntax), 431 (head longer than max_head), 501
 * (unsupported transfer coding) or 505 (not HTTP/1.x). Leading empty lines
 * are skipped as RFC 9112 allows; they count in head_len.
 */
int httpreq_parse_head(struct httpreq *r, const char *s, size_t n,
		       size_t max_head);

/*
 * Decode a chunked body at s[0..n) into out (whose cap bounds the body).
 * Returns 1 when the last chunk and trailers were read (*used = bytes of
 * s consumed), 0 when more bytes are needed (out is left as it was), -1
 * on a syntax error or when out's cap is exceeded.
 */
int httpreq_dechunk(const char *s, size_t n, struct buf *out, size_t *used);

/* Case-insensitive comparison of method (or any token) with a C string. */
int httpreq_is(const char *tok, size_t len, const char *want);

#endif
