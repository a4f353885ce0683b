/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-mock internals: options, the server, connections and their responses. */
#ifndef AIPERF_MOCK_H
#define AIPERF_MOCK_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "buf.h"
#include "httpreq.h"

/*
 * One thread, one epoll set. The server owns every connection; a
 * connection owns its input/output buffers and at most one response in
 * progress (struct resp), which it frees when the response completes.
 * Every timed action (stall, token release, delayed body) is a deadline
 * in a binary min-heap of connections, served through one timerfd.
 */
#define MOCK_MAX_HEAD (64 << 10)
#define MOCK_MAX_BODY (64 << 20)
#define MOCK_MAX_OUT (4 << 20)
#define MOCK_MAX_TOKENS (1 << 20)

struct options {
	const char *host;
	int port;
	int64_t ttft_ns, itl_ns, jitter_ns, stall_ns;
	int64_t emb_base_ns, emb_per_ns;
	double error_rate;	/* percent */
	uint64_t seed;
	long output_tokens;	/* 0: from the prompt */
	long reasoning_tokens;
	long fail_after;	/* -1: never */
	int status;		/* 0: normal answers */
	long max_connections;	/* 0: unlimited */
	int embedding_dim;
	const char *model;
	int verbose;
};

enum route {
	ROUTE_CHAT,
	ROUTE_COMPLETIONS,
	ROUTE_EMBEDDINGS,
	ROUTE_MODELS,
	ROUTE_HEALTH,
	ROUTE_METRICS,
	ROUTE_OTHER,
	ROUTE_N
};

struct counters {
	uint64_t requests[ROUTE_N];
	uint64_t responses[6];	/* by status class: [2] = 2xx ... [5] = 5xx */
	uint64_t prompt_tokens, completion_tokens, reasoning_tokens;
	uint64_t chunks, late_chunks, injected_errors, aborted;
	uint64_t conns_total, conns_rejected;
	int64_t in_flight, conns_open;
	int64_t max_lag_ns;
};

struct conn;

struct server {
	const struct options *opt;
	int epfd, lfd, tfd, spare_fd;
	int64_t armed;		/* deadline the timerfd is set to, 0 none */
	struct conn **heap;
	size_t nheap, heapcap;
	struct counters c;
	uint64_t next_id;
	int64_t created;	/* epoch seconds, the "created" field */
	struct conn *conns;	/* every open connection */
	struct conn *dead;	/* closed in this loop pass, freed after it */
	struct buf scratch;	/* formatting space for one write */
	struct json_doc *doc;	/* request bodies, reset per request */
};

enum resp_kind { RESP_FIXED, RESP_SSE };

/* A response in progress: a fixed body sent at `at`, or an SSE stream. */
struct resp {
	enum resp_kind kind;
	enum route route;
	int status;
	int64_t at;		/* fixed: when to send; sse: when headers go */
	int headers_sent;
	char *body;		/* fixed: body without its final '}' when stamped */
	size_t body_len;
	int stamp;		/* fixed: append ,"aiperf_send_ns":N} */
	int abort;		/* fixed: close instead of answering */
	/* SSE state */
	int chat, include_usage;
	char *head;		/* 'data: {"id":...,"choices":[' */
	size_t head_len;
	long n_reason, n_content, next, prompt_tokens;
	int64_t base;		/* first token due at base; token i at base + i*ITL */
	int64_t due;		/* next token's deadline */
	uint64_t rng;
	unsigned word;
	const char *finish;
	long fail_after;
};

enum conn_flags {
	CONN_CLOSE_AFTER = 1 << 0,	/* close once the response is out */
	CONN_PEER_EOF = 1 << 1,
	CONN_WANT_OUT = 1 << 2,		/* EPOLLOUT registered */
	CONN_CONTINUE = 1 << 3,		/* sent 100 Continue for this request */
	CONN_DEAD = 1 << 4,
};

struct conn {
	struct server *srv;
	int fd;
	unsigned flags;
	struct buf in, out;
	size_t out_off;
	int64_t deadline;
	size_t hidx;		/* heap index, SIZE_MAX when not queued */
	struct resp *r;
	struct conn *prev, *next;	/* server's list, or dead list (next) */
};

static inline int64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* heap.c: the timer heap. */
void heap_set(struct server *s, struct conn *c, int64_t deadline);
void heap_del(struct server *s, struct conn *c);
struct conn *heap_top(const struct server *s);

/* loop.c: sockets and the event loop. */
int server_listen(struct server *s, const char *host, int port, char *url,
		  size_t urlsz);
int server_run(struct server *s, volatile sig_atomic_t *stop);
void server_release(struct server *s);
/* Queue bytes for the peer (direct write when nothing is pending). */
void conn_send(struct conn *c, const char *p, size_t n);
void conn_close(struct conn *c);
/* Close c when it has no response in progress, nothing queued, and the
 * peer hung up or asked for close. */
void conn_idle(struct conn *c);
void conn_arm(struct conn *c, int64_t deadline);

/* http.c: requests in, response framing out. */
void http_process(struct conn *c);
void http_head(struct buf *b, int status, const char *ctype, long long clen,
	       int keepalive);
void http_error(struct conn *c, int status, const char *type,
		const char *msg);
void http_done(struct conn *c);
const char *http_reason(int status);

/* route.c: which handler answers a request. */
void route_dispatch(struct conn *c, const struct httpreq *req,
		    const char *body, size_t blen, int64_t arrival);
void route_metrics(struct conn *c);

/* gen.c: LLM requests, token text, SSE chunks and timed releases. */
void gen_request(struct conn *c, enum route rt, const char *body, size_t blen,
		 int64_t arrival);
void gen_embeddings(struct conn *c, const char *body, size_t blen,
		    int64_t arrival);
void gen_timer(struct conn *c, int64_t now);
void resp_free(struct resp *r);
double gen_rand01(uint64_t *state);
/* Uniform in [-j, j]. */
int64_t gen_jitter(uint64_t *state, int64_t j);
void gen_usage(struct buf *b, long prompt, long completion, long reasoning,
	       int chat);

/* sse.c: token words and the timed release of chunks. */
/* Word i (mod the list) of the response text, with its leading space. */
const char *gen_word(unsigned i, size_t *len);

/* Fast decimal formatting: writes v at p, returns the length. */
size_t fmt_i64(char *p, int64_t v);

#endif
