/* SPDX-License-Identifier: Apache-2.0 */
/* One request from record to raw record: its fields, easy-handle setup and emission. */
#ifndef AIPERF_XFER_H
#define AIPERF_XFER_H

#include <stdint.h>
#include <string.h>
#include <curl/curl.h>
#include "buf.h"
#include "endpoint.h"
#include "json/json.h"
#include "http/sse.h"
#include "send.h"

enum xfer_err {
	XE_NONE,
	XE_HTTP,	/* non-2xx status */
	XE_SSE,		/* event: error in the stream */
	XE_TIMEOUT,
	XE_CONN,
	XE_CANCEL,	/* cancel_after_ns passed */
	XE_STOPPED,	/* a warmup request cancelled because its phase stopped */
	XE_NOTFIN,	/* in flight when the run stopped and its grace ran out */
	XE_NOTSENT,
	XE_TOOLARGE,
	XE_VIDEO,	/* video_generation: the job failed or answered nonsense (vjob.c) */
	XE_VTIMEOUT,	/* its polls outlasted --request-timeout-seconds */
	XE_VDOWNLOAD,	/* --download-video-content failed */
	XE_NOMEM,	/* a buffer of the response could not be allocated */
};

/* The native engine's own stamps for the record's "http" object (ns, bytes). */
struct xfer_http {
	int64_t dns_ns, connect_ns, ttfb_ns, total_ns, sent, received;
	int reused;
	const char *version;	/* "1.1" */
};

/* a record's own headers: how many, and the longest name or value */
#define XFER_MAX_HEADERS 64
#define XFER_MAX_HEADER_LEN 8192

/*
 * A struct xfer owns every string and buffer in it; xfer_free() releases
 * them. It lives from the moment its request record is read until its raw
 * record is written. The easy handle is borrowed from the sender's pool
 * while the request is in flight.
 */
struct xfer {
	struct xfer *next;	/* queue link */
	struct xfer *aprev, *anext;	/* in-flight list */
	struct sender *snd;
	CURL *h;
	struct curl_slist *hdrs;
	char *id, *corr, *conv, *etype, *input_text, *path, *url, *phase;
	const struct endpoint_type *type;	/* etype's (lib/endpoint.h) */
	char *response_field;	/* template endpoint: copied to the raw record */
	char **rec_headers;	/* the record's "headers": "Name: value" lines */
	size_t nrec_headers;
	char *body;		/* the payload as compact JSON */
	size_t body_len;
	int64_t session_num, turn_index, num_turns, max_tokens;
	int64_t at_ns, delay_ns, cancel_after_ns;	/* -1 when absent */
	int warmup, stream;
	/* times, monotonic ns; -1 when not reached */
	int64_t credit_ns, start_ns, ack_ns, end_ns, intended_ns, cancel_ns;
	/* when the request's bytes went out (-1: never); becomes start_ns */
	int64_t sent_ns;
	int64_t deadline;	/* cancel deadline in the timer heap */
	size_t hidx;
	uint64_t io_seq;
	int64_t io_ns;
	long status;
	char reason[64];
	char ctype[96];
	char http_version[4];	/* "1.0", "1.1", "2", "3"; "" when unknown */
	char curl_err[CURL_ERROR_SIZE];
	int is_sse, in_body;
	struct buf body_in;	/* non-streaming body, or error body */
	struct buf resp;	/* the responses array's members, as JSON */
	struct buf stamps;	/* server_stamps members */
	struct sse sse;
	int sse_on;
	enum xfer_err err;
	char *errmsg;
	long errcode;
	int nomem;		/* xfer_nomem(): the response is dropped */
	struct buf tmp;		/* scratch for SSE data */
	struct sess *sess;	/* multi-turn: its session */
	char *own;		/* history: this turn's own messages, as JSON items */
	size_t hist_at;		/* history: where in body the history goes, or -1 */
	int want_reply;		/* keep the assistant text for the next turn */
	int rsn_only;		/* reply holds reasoning, no content yet (dag) */
	/* dag_jsonl branches (man/aiperf-records.5): the record's dag_*
	 * fields; -1 when absent */
	int dag, dag_fork, dag_pre;
	char *dag_parent;
	int64_t dag_after, dag_join, dag_wait, dag_forks, dag_children;
	int prefill;		/* holds a prefill slot until its first content */
	struct buf reply;
	/* the native engine (h1conn.c): its connection, timeout list, stamps */
	struct h1conn *conn;
	struct xfer *tprev, *tnext;
	int retried, redo;
	struct xfer_http hs;
	struct vjob *vj;	/* video_generation: its job (vjob.c), or NULL */
};

/* Parse one request record line; NULL with *why set on malformed input. */
struct xfer *xfer_parse(struct sender *s, const char *line, size_t n,
			char *why, size_t whylen);
/* Configure h for x (URL, headers, body, callbacks); 0 or -1. */
int xfer_setup(struct xfer *x, CURL *h);
/*
 * Each request header line of x in order, as "Name: value" (NUL-terminated,
 * n bytes; valid during the call) to fn; "Name:" asks to drop a header the
 * client would add, "Name;" to send it empty (libcurl's rules).
 */
typedef void (*xfer_header_fn)(void *ctx, const char *line, size_t n);
void xfer_each_header(const struct xfer *x, xfer_header_fn fn, void *ctx);
/* Collect results after curl finished with code rc. */
void xfer_done(struct xfer *x, CURLcode rc);
/* Append x's raw record (one line) to out. */
void xfer_record(struct xfer *x, struct buf *out);
void xfer_fail(struct xfer *x, enum xfer_err e, long code, const char *msg);
/*
 * A buffer of x's response could not grow to n bytes: x's error becomes
 * XE_NOMEM, replacing any earlier one but a cancellation (the record loses
 * what it explained), and what the response held is freed by xfer_done()
 * or xfer_record(), whichever comes first (never inside a callback that
 * may be writing it); the transfer is to stop.
 */
void xfer_nomem(struct xfer *x, size_t n);
void xfer_free(struct xfer *x);

/*
 * Record writing (record.c): KEY is jw_key for a key known when compiling,
 * quoted by the compiler and added with one buf_add (raw records have no
 * indentation); xfer_int is jw_int without printf.
 */
struct jw;
#define KEY(w, k) xfer_key((w), "\"" k "\":", sizeof(k) + 2)
/* A member whose key and string value are literals needing no escapes. */
#define MEMBER(w, k, v) xfer_member((w), "\"" k "\":\"" v "\"", \
				    sizeof(k) + sizeof(v) + 3, sizeof(k) - 1)
void xfer_key_slow(struct jw *w, const char *q, size_t n);

/*
 * The fast path of KEY and MEMBER: q (n bytes, already JSON) after a comma
 * when one is due, copied inline so that constant lengths compile to a few
 * moves; -1 when the writer's state or the buffer needs the slow path.
 */
static inline int
xfer_put_member(struct jw *w, const char *q, size_t n)
{
	struct buf *b = w->b;

	if (w->indent || w->after_key || n + 1 >= b->cap - b->len ||
	    n + 1 > b->max - b->len)
		return -1;
	if (w->need_comma)
		b->s[b->len++] = ',';
	memcpy(b->s + b->len, q, n);
	b->len += n;
	b->s[b->len] = '\0';
	w->need_comma = 1;
	return 0;
}

/* KEY: q is "key": (n bytes). */
static inline void
xfer_key(struct jw *w, const char *q, size_t n)
{
	if (xfer_put_member(w, q, n) < 0)
		xfer_key_slow(w, q, n);
	else
		w->after_key = 1;
}

/* MEMBER: q is "key":"value" (n bytes), the key klen bytes. */
static inline void
xfer_member(struct jw *w, const char *q, size_t n, size_t klen)
{
	if (xfer_put_member(w, q, n) < 0) {
		jw_keyn(w, q + 1, klen);
		jw_strn(w, q + klen + 4, n - klen - 5);
	}
}

void xfer_int(struct jw *w, int64_t v);
/* Appends the body read, {"perf_ns": perf, "text", "content_type"}, as one
 * more member of x's responses (a plain reply; each poll of a video job);
 * 0, or -1 after xfer_nomem() when the memory for it cannot be had. */
int xfer_body_member(struct xfer *x, int64_t perf);
/* Room in b for p[0..n) as a JSON string and slack bytes more, checked:
 * 0, or -1 after xfer_nomem(). */
int xfer_room(struct xfer *x, struct buf *b, const char *p, size_t n, size_t slack);
/* The most bytes p[0..n) takes as a JSON string (its quotes included). */
size_t xfer_quoted_max(const char *p, size_t n);
/* json_quote() asks for room for its worst case, 6 bytes a byte, before it
 * writes a string of up to 64 KiB: a reservation made of xfer_quoted_max()
 * sizes needs this much more, or that request grows the buffer anyway. */
#define XFER_QUOTE_ROOM ((size_t)6 * 65536 + 2)

#endif
