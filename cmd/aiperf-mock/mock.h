/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-mock internals: options, the server, connections and their responses. */
#ifndef AIPERF_MOCK_H
#define AIPERF_MOCK_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "buf.h"
#include "clock.h"
#include "heap.h"
#include "http/httpreq.h"

/*
 * One thread, one epoll set. The server owns every connection; a
 * connection owns its input/output buffers and at most one response in
 * progress (struct resp), which it frees when the response completes.
 * Every timed action (stall, token release, delayed body) is a deadline
 * in a binary min-heap of connections; the loop (lib/evloop) sleeps until
 * the earliest one, to the nanosecond.
 */
#define MOCK_MAX_HEAD (64 << 10)
#define MOCK_MAX_BODY (64 << 20)
#define MOCK_MAX_OUT (4 << 20)
#define MOCK_MAX_TOKENS (1 << 20)
#define MOCK_READ_SIZE (64 << 10)
#define MOCK_MAX_PORTS 64

/* --fault: one way of misbehaving for every LLM request (man aiperf-mock). */
enum fault {
	FAULT_NONE,
	FAULT_RESET,		/* RST (SO_LINGER 0) where --fail-after would close */
	FAULT_STALL_HEAD,	/* never answer */
	FAULT_STALL_BODY,	/* headers and --fail-after chunks, then nothing */
	FAULT_CLOSE,		/* Connection: close on every answer */
	FAULT_HTTP10,		/* HTTP/1.0 replies, streams ended by close */
	FAULT_BIG_HEAD,		/* a 1 MiB response header field */
	FAULT_BIG_BODY,		/* 2 MiB more text in the first token or the body */
	FAULT_BAD_CHUNK,	/* a chunk size line that is not hex */
	FAULT_BAD_UTF8,		/* invalid UTF-8 bytes in the first token's text */
	FAULT_SSE_ERROR,	/* event: error after --fail-after chunks */
};

#define MOCK_BIG_HEAD (1 << 20)
#define MOCK_BIG_BODY (2 << 20)

/* answers.c: --answer-key. A struct answers owns its answers; the
 * answers are read-only once loaded (the workers share them). */
struct answer {
	char *match;		/* the prompt text, exactly */
	size_t match_len;
	char *text;		/* the reply's pieces, each JSON-escaped */
	size_t *off;		/* piece i: text[off[i] .. off[i + 1]) */
	long n;			/* pieces: the reply's completion tokens */
	size_t line;
};

struct answers {
	struct answer *a;	/* sorted by match */
	size_t n, cap;
};

struct options {
	const char *host;
	int port;
	int64_t ttft_ns, itl_ns, jitter_ns, stall_ns;
	/* a server under load: TTFT and ITL grow by these per other request
	 * in flight when one arrives (--ttft-per-request-ms, --itl-per-request-ms) */
	int64_t ttft_load_ns, itl_load_ns;
	int64_t emb_base_ns, emb_per_ns;
	int64_t rank_base_ns, rank_per_ns;	/* rankings: base + per passage */
	int64_t img_base_ns, img_per_ns;	/* image retrieval: base + per image */
	double error_rate;	/* percent */
	uint64_t seed;
	long output_tokens;	/* 0: from the prompt */
	long reasoning_tokens;
	long fail_after;	/* -1: never */
	int status;		/* 0: normal answers */
	enum fault fault;
	long max_connections;	/* 0: unlimited */
	int embedding_dim;
	const char *model;
	int verbose;
	int workers;
	int ports;
	int dcgm_gpus;		/* --dcgm: /metrics as a DCGM exporter; 0: off */
	int64_t video_ns;	/* --video-time-ms: one video job's time */
	double video_fail_rate;	/* --video-fail-rate, percent */
	long video_bytes;	/* --video-content-bytes */
	size_t big_body;	/* --big-body-bytes: the text --fault big-body adds */
	const char *answer_key;	/* --answer-key */
	struct answers answers;
};

enum route {
	ROUTE_CHAT,
	ROUTE_COMPLETIONS,
	ROUTE_EMBEDDINGS,
	ROUTE_MODELS,
	ROUTE_HEALTH,
	ROUTE_METRICS,
	ROUTE_RESPONSES,	/* /v1/responses */
	ROUTE_GENERATE,		/* TGI /generate */
	ROUTE_GENERATE_STREAM,	/* TGI /generate_stream */
	ROUTE_RAG,		/* Solido /rag/api/prompt */
	ROUTE_NIM_RANKING,	/* NIM /v1/ranking */
	ROUTE_COHERE_RERANK,	/* Cohere /v2/rerank */
	ROUTE_TEI_RERANK,	/* HF TEI /rerank */
	ROUTE_IMAGES,		/* /v1/images/generations (images.c) */
	ROUTE_INFER,		/* NIM image retrieval /v1/infer (images.c) */
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

/* metrics.c: what the metrics routes report (finished requests). */
#define MOCK_HIST_MAX 32
struct mock_hist {
	uint64_t le[MOCK_HIST_MAX + 1];	/* per bucket, not cumulative; [n]: +Inf only */
	uint64_t count;
	double sum;
};

/* One histogram per server style and quantity (metrics.c's table). */
enum mock_hist_id {
	H_VLLM_TTFT, H_VLLM_E2E,	/* TRT-LLM uses the same bounds */
	H_TRT_TPOT,
	H_SGL_TTFT, H_SGL_E2E,
	H_DYN_TTFT, H_DYN_DURATION,
	H_DYN_PREFILL, H_DYN_DECODE,
	H_N
};

struct mock_prom {
	uint64_t prompt_tokens, generation_tokens;
	uint64_t finished[3];	/* stop, length, abort */
	struct mock_hist h[H_N];
	int64_t start_ns;	/* clock_mono_ns at startup, for --dcgm energy */
};

/* Which exposition a metrics route writes. */
enum mock_style {
	STYLE_MOCK,		/* /metrics: aiperf_mock_* and vllm:* (or --dcgm) */
	STYLE_VLLM,		/* /vllm/metrics */
	STYLE_SGLANG,		/* /sglang/metrics */
	STYLE_TRTLLM,		/* /trtllm/metrics */
	STYLE_DYN_FRONTEND,	/* /dynamo_frontend/metrics */
	STYLE_DYN_PREFILL,	/* /dynamo_component/prefill/metrics */
	STYLE_DYN_DECODE,	/* /dynamo_component/decode/metrics */
	STYLE_DCGM,		/* /dcgm{N}/metrics */
};
#define MOCK_DCGM_SETS 8	/* /dcgm1/metrics .. /dcgm8/metrics */

struct conn;

struct server {
	const struct options *opt;
	struct evloop *loop;
	volatile sig_atomic_t *stop;	/* main's flag: SIGINT, SIGTERM set it */
	int spare_fd;
	int lfds[MOCK_MAX_PORTS];	/* listeners, one per port */
	int nlfd;
	struct heap timers;	/* of struct conn *, by deadline */
	struct counters c;
	uint64_t next_id;
	unsigned worker, nworkers;	/* ids are next_id * nworkers + worker */
	int64_t created;	/* epoch seconds, the "created" field */
	struct conn *conns;	/* every open connection */
	struct conn *dead;	/* closed in this loop pass, freed after it */
	struct buf scratch;	/* formatting space for one write */
	char *rbuf;		/* MOCK_READ_SIZE bytes: every read lands here */
	struct json_doc *doc;	/* request bodies, reset per request */
	struct mock_prom prom;
};

enum resp_kind { RESP_FIXED, RESP_SSE };

/* Body formats: OpenAI chat/completions (sse.c, gen.c), the others formats.c. */
enum resp_fmt { FMT_OPENAI, FMT_RESPONSES, FMT_TGI, FMT_RAG, FMT_IMAGE };

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
	int whole;		/* fixed: the body is complete, no '}' to add */
	int abort;		/* fixed: close instead of answering */
	size_t big;		/* --fault big-body: the bytes of text it adds */
	/* SSE state */
	int chat, include_usage;
	enum resp_fmt fmt;
	int started;		/* the format's opening event is out */
	uint64_t id;
	char *head;		/* 'data: {"id":...,"choices":['; other formats:
				 * the model as a JSON string */
	size_t head_len;
	long n_reason, n_content, next, prompt_tokens;
	int64_t base;		/* first token due at base; token i at base + i*ITL */
	int64_t itl;		/* this answer's ITL: --itl-ms and its load share */
	int64_t due;		/* next token's deadline */
	uint64_t rng;
	unsigned word;
	const struct answer *key;	/* --answer-key's reply, or NULL: words */
	const char *finish;
	long fail_after;
	int64_t arrival, first_ns;	/* clock_mono_ns; first_ns 0 until sent */
	long img_partial;	/* images: partial images before each completed */
	int64_t img_created;	/* images: the events' created_at */
};

enum conn_flags {
	CONN_CLOSE_AFTER = 1 << 0,	/* close once the response is out */
	CONN_PEER_EOF = 1 << 1,
	CONN_WANT_OUT = 1 << 2,		/* EPOLLOUT registered */
	CONN_CONTINUE = 1 << 3,		/* sent 100 Continue for this request */
	CONN_DEAD = 1 << 4,
	CONN_HTTP10 = 1 << 5,		/* current request is HTTP/1.0 */
	CONN_FAULT = 1 << 6,		/* current request is an LLM one: --fault applies */
	CONN_ACCEPT_SSE = 1 << 7,	/* current request accepts text/event-stream */
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
	int status;		/* of the last answer started, for the log */
	struct conn *prev, *next;	/* server's list, or dead list (next) */
};

/* heap.c: the timer heap. timer_set() queues c or moves it to the new
 * deadline; timer_del() of an unqueued c does nothing. */
void timer_set(struct server *s, struct conn *c, int64_t deadline);
void timer_del(struct server *s, struct conn *c);
struct conn *timer_top(const struct server *s);

/* loop.c: sockets and the event loop. */
/* Bind and listen on one more port (SO_REUSEPORT when several workers
 * share it); writes its base URL. */
int server_listen(struct server *s, const char *host, int port, int reuseport,
		  char *url, size_t urlsz);
/* In a worker process: listeners of its own on the same addresses. */
int server_rebind(struct server *s);
/* The epoll set and timerfd: once per process, after any fork. */
int server_init(struct server *s);
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
/* clen: Content-Length, or HTTP_CHUNKED, or HTTP_TO_CLOSE (HTTP/1.0 stream). */
#define HTTP_CHUNKED (-1)
#define HTTP_TO_CLOSE (-2)
void http_head(struct buf *b, int status, const char *ctype, long long clen,
	       int keepalive);
/* http_head for an answer on c: keep-alive and version from c and --fault. */
void http_head_on(struct conn *c, struct buf *b, int status, const char *ctype,
		  long long clen);
/* Close c with a reset (RST) instead of a FIN. */
void conn_reset(struct conn *c);

void http_error(struct conn *c, int status, const char *type,
		const char *msg);
void http_done(struct conn *c);
const char *http_reason(int status);

/* videos.c: /v1/videos jobs; 0 when the path is not one of theirs. */
int videos_dispatch(struct conn *c, const struct httpreq *req, const char *body,
		    size_t blen);
/* route.c: which handler answers a request. */
void route_dispatch(struct conn *c, const struct httpreq *req,
		    const char *body, size_t blen, int64_t arrival);
/* A metrics route; set: the GPU set of /dcgm{N}/metrics (1..), else 0. */
void route_metrics(struct conn *c, enum mock_style style, int set);

/* gen.c: LLM requests, token text, SSE chunks and timed releases. */
void gen_request(struct conn *c, enum route rt, const char *body, size_t blen,
		 int64_t arrival);
void gen_embeddings(struct conn *c, const char *body, size_t blen,
		    int64_t arrival);
/* The three rankings routes. */
void gen_rankings(struct conn *c, enum route rt, const char *body, size_t blen,
		  int64_t arrival);
void gen_timer(struct conn *c, int64_t now);
void resp_free(struct resp *r);
double gen_rand01(uint64_t *state);
/* Uniform in [-j, j]. */
int64_t gen_jitter(uint64_t *state, int64_t j);
void gen_usage(struct buf *b, long prompt, long completion, long reasoning,
	       int chat);

/* gen.c, for the routes of other files: a request id, the --error-rate
 * draw (1: answered with the injected 500), a response started on c. */
uint64_t gen_next_id(struct server *s);
int gen_inject(struct conn *c, uint64_t *rng);
struct resp *gen_start(struct conn *c, enum route rt, uint64_t rng);

/* images.c: POST /v1/images/generations and /v1/infer; one SSE event of
 * an image stream (FMT_IMAGE), event i of r at stamp. */
void gen_images(struct conn *c, const char *body, size_t blen, int64_t arrival);
void gen_infer(struct conn *c, const char *body, size_t blen, int64_t arrival);
void images_event(struct buf *b, const struct resp *r, long i, int64_t stamp);

/* formats.c: the Responses API, TGI and RAG bodies and events. */
void fmt_fixed_body(struct server *s, struct resp *r, enum fault f);
struct json;
/* A rankings request's passage e as text: a string, or (NIM) an object
 * with a string "text"; else NULL. */
const struct json *fmt_passage_text(enum route rt, const struct json *e);
/* The passages of rankings request root (an object) for route rt, with
 * *query its query text, checked as the servers' schemas want them; NULL
 * with the reason in *why otherwise. */
const struct json *fmt_rankings_request(enum route rt, const struct json *root,
					const struct json **query, const char **why);
/* A rankings answer for route rt: score[i] for passage i (0..n), the best
 * top_n (<= 0: all) first, shaped as that server's; an object body
 * without its final '}' (the sender stamps it), a TEI list whole. */
void fmt_rankings(struct buf *b, enum route rt, const double *score, long n,
		  long top_n, long prompt_tokens, uint64_t id);
void fmt_token(struct buf *b, const struct resp *r, long i, int64_t stamp,
	       enum fault f);
void fmt_tail(struct buf *b, const struct server *s, const struct resp *r,
	      int64_t stamp);
void fmt_sse_start(struct buf *b, const struct server *s, const struct resp *r);

/* metrics.c: vLLM-style and DCGM-exporter-style /metrics. */
/* A response ends: done (sent whole) or cut short; counts its tokens. */
void metrics_finish(struct server *s, const struct resp *r, int aborted);
/* Append the vllm:* families to an exposition. */
void metrics_vllm(struct buf *b, const struct server *s);
/* The families of one other server style (STYLE_SGLANG .. STYLE_DYN_DECODE). */
void metrics_style(struct buf *b, const struct server *s, enum mock_style style);
/* A DCGM exporter's exposition for GPU set `set` (0: --dcgm's /metrics). */
void metrics_dcgm(struct buf *b, const struct server *s, int set);

/* sse.c: token words and the timed release of chunks. */
/* Word i (mod the list) of the response text, with its leading space. */
const char *gen_word(unsigned i, size_t *len);

/* --fault big-body, bad-utf8: the extra text of r's first token or body. */
void gen_fault_text(struct buf *b, const struct resp *r, enum fault f);

/* answers.c: load the key (-1 with "line N: ..." or the file's trouble
 * in err); the answer for a request body (chat: the last message's string
 * content, completions: the prompt string), or NULL; token i of r's text
 * (its key's piece, else its word), JSON-escaped, with its length. */
int answers_load(struct answers *k, const char *path, char *err, size_t errlen);
void answers_release(struct answers *k);
const struct answer *answers_find(const struct answers *k, const char *s, size_t n);
const struct answer *answers_match(const struct answers *k, enum route rt,
				   const struct json *root);
const char *resp_token(const struct resp *r, long i, size_t *len);

/* Fast decimal formatting: writes v at p, returns the length. */
size_t fmt_i64(char *p, int64_t v);

#endif
