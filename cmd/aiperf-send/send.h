/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-send's shared state: options, the sender loop and its queue of requests. */
#ifndef AIPERF_SEND_H
#define AIPERF_SEND_H

#include <stddef.h>
#include <stdint.h>
#include <curl/curl.h>
#include "buf.h"
#include "cue.h"
#include "media/dataurl.h"
#include "evloop.h"
#include "heap.h"
#include "lines.h"
#include "outq.h"
#include "progress.h"

struct xfer;
struct json_doc;
struct sess;
struct rawout;

/* Busy-wait the last 50 us before an intended send time (loop.c); reading
 * ahead stops that long before it too (input.c). */
#define SPIN_NS 50000

enum ui_type { UI_NONE, UI_SIMPLE, UI_DASHBOARD };
enum reuse { REUSE_POOLED, REUSE_NEVER, REUSE_STICKY };
enum engine { ENGINE_AUTO, ENGINE_H1, ENGINE_CURL };
enum io { IO_AUTO, IO_EPOLL, IO_URING };

/* Command-line options, filled once by parse_args() and read-only after. */
struct options {
	char **urls;
	size_t nurls;
	const char *endpoint;
	long concurrency;	/* 0: not given */
	int64_t timeout_ns;
	const char *api_key;	/* --api-key, the file's or $AIPERF_API_KEY */
	const char *api_key_file;	/* then api_key is ours to free */
	char **headers;		/* -H as header lines (hdr.c) */
	size_t nheaders;
	enum ui_type ui;
	int unbuffered;
	int raw_full_media;	/* --raw-full-media: payloads' base64 kept whole */
	size_t max_response;
	size_t max_line;
	enum reuse reuse;
	int64_t duration_ns;	/* 0: none */
	int64_t grace_ns;
	int64_t stop_grace_ns;	/* SIGINT: in-flight requests get this long */
	int verbose;
	const char *ca_file;	/* --ssl-ca-file: trust these CAs instead */
	int busy_poll;		/* spin instead of sleeping while requests are in flight */
	int insecure;		/* -k: no certificate or host name checks */
	long wconcurrency;	/* warmup records; 0: --concurrency */
	int64_t ramp_ns[2];	/* concurrency ramp: [0] profiling, [1] warmup */
	long prefill[2];	/* prefill concurrency; 0: none */
	int64_t pramp_ns[2];	/* its ramp */
	int64_t warmup_ns;	/* --warmup-duration; 0: none */
	int64_t wgrace_ns;	/* --warmup-grace-period; -1: infinite */
	int wgrace_set;
	enum engine engine;	/* --http-engine */
	enum io io;		/* --io: how the native engine receives */
	const char *raw_file;	/* --raw-file: records go there, not to stdout */
	size_t raw_buffer;	/* --raw-buffer: its queue's cap in bytes */
	size_t out_buffer;	/* --out-buffer: bytes that may wait for stdout's reader */
	long read_ahead;	/* --read-ahead: records queued ahead at most */
	int read_all;		/* --read-all: the whole input before the first send */
	int raw_buffer_set, out_buffer_set, read_ahead_set;
	char **cues;		/* --scrape-cue FIFOs, one a scraper */
	size_t ncues;
	const char *scrape_ack;	/* --scrape-ack: their acknowledgements */
	const char *phase_cue;	/* --phase-cue: the senders' phase barrier (cue.c) */
	const char *phase_ack;	/* --phase-ack: this sender's go lines */
	const char *worker_id;	/* --worker-id: the records' worker_id */
	int64_t video_poll_ns;	/* --video-poll-interval */
	int download_video;	/* --download-video-content */
	const char *start_at;	/* --start-at: the first phase's wall-clock start, as given */
	int64_t start_at_ns;	/* it, in epoch ns (cue.c) */
};

/* The raw records' request_headers text, the ids cut out (record.c). */
struct hdrtpl {
	char *text;
	size_t len, cut[2];
};

/* --ui-type simple: the sender's own progress bars (ui.c). */
struct send_ui {
	struct progress_screen screen;
	int64_t first_ns[2], last_ns[2];	/* by phase: first start, last end; 0: none */
	int64_t cpu_ns, cpu_at;		/* the last CPU sample: used, taken */
	double cpu;			/* % of one core since the sample before; < 0: none yet */
};

struct sender {
	const struct options *o;
	CURLM *m;
	struct evloop *loop;
	struct evloop_timer wake;	/* the next intended send time, less the spin */
	unsigned nsig;		/* SIGINT/SIGTERM received */
	int64_t curl_due;	/* curl's timeout as monotonic ns, or -1 */
	struct lines in;
	int in_state;		/* 0 reading, 1 eof, 2 bad input */
	int in_polled;		/* 1 in epoll, -1 a regular file (always readable) */
	int in_ready;		/* reading may give more without blocking */
	int in_flags;		/* stdin's file status flags before we started */
	int64_t next_due;	/* queue head waits for this time, or -1 */
	struct xfer *qhead, *qtail;	/* read, not yet started */
	size_t qlen, qmax, inflight;
	struct xfer *active;	/* in flight, newest first */
	int phase;		/* 0 none yet, 1 warmup, 2 profiling */
	int64_t phase_start, stop_issue_at, cancel_at;
	int stopping;		/* 1: no new requests; 2: cancel in flight */
	int downstream_gone;
	int status;		/* exit status */
	uint64_t io_seq;	/* one per socket event: reads share a stamp */
	struct buf out;
	int64_t flushed_ns;	/* last write of out */
	struct rawout *raw;	/* --raw-file's writer, or NULL (rawout.h) */
	struct outq outq;	/* standard output, never blocking (outq.h) */
	int out_watched;	/* stdout in the loop: bytes wait for the reader */
	uint64_t nread, nstarted, ndone, nerr;
	/* by phase, [1] warmup, [0] profiling: records read from the input,
	 * records written, errors among them (ui.c) */
	uint64_t nlines[2], nphase_done[2], nphase_err[2];
	uint64_t nnotsent, nstopped;	/* NotSentError; cancelled by the stop */
	int64_t ui_next;
	struct send_ui ui;	/* --ui-type's view (ui.c) */
	size_t url_rr;
	struct heap timers;	/* in flight, by cancel deadline */
	CURL **pool;
	size_t npool, cappool;
	int64_t wall0, mono0;
	char **bases;		/* normalized --url values */
	struct json_doc *doc;
	struct dataurl_memo memo;	/* markers of base64 elided from payloads */
	struct sess **sess;	/* multi-turn sessions by correlation id */
	size_t slots;		/* concurrency slots held (sessions) */
	size_t nparked;		/* later turns waiting in their sessions */
	struct heap delays;	/* next turns waiting for their delay */
	unsigned char *fds;	/* libcurl's sockets' epoll state (ev.c) */
	size_t nfds;
	int64_t ramp_due;	/* a ramp raises a limit that holds requests back, or -1 */
	size_t prefill_held;	/* prefill slots held */
	int turns_held;		/* a due later turn waits for a prefill slot */
	size_t fd_cap;		/* requests in flight the descriptor limit allows */
	struct hdrtpl hdrtpl[2];	/* by stream flag */
	/* warmup by duration (warmup.c) */
	struct wpool *wpool;	/* warmup records to send again */
	size_t wpending;	/* warmup records read or re-issued, not written */
	int warmup_over;	/* the warmup duration ended */
	struct h1eng *h1;	/* the native HTTP/1.1 engine (h1conn.c), or NULL */
	int64_t cpu_ns, cpu_read_ns;	/* the last CPU time reading (record.c) */
	size_t resp_hint;	/* the last record's responses, for the next one's room */
	size_t stamps_hint;	/* and its server_stamps, as resp_hint */
	int synced;		/* phase barriers passed (cue.c); 3: no more */
	int sync_fd;		/* --phase-ack, open, or -1 */
	struct cue_reader sync_in;	/* its lines */
	struct vjobq *vjq;	/* video jobs waiting to poll (vjob.c), or NULL */
};

/* At most this much room is reserved for a response before it grows. */
#define RESP_HINT_MAX ((size_t)4 << 20)

/* loop.c */
int sender_run(struct sender *s);
int64_t sender_wall(const struct sender *s, int64_t mono);
void sender_emit(struct sender *s, struct xfer *x);
void sender_stop(struct sender *s, int64_t grace_ns);
void sender_not_sent(struct sender *s, struct xfer *x);
void sender_finish(struct sender *s, struct xfer *x, CURLcode rc);

/* h1conn.c: the native HTTP/1.1 engine for http:// URLs */
struct h1conn;
int h1conn_wants(const struct sender *s, const char *base);
void h1conn_start(struct sender *s, struct xfer *x);
void h1conn_abort(struct sender *s, struct xfer *x);
void h1conn_drain(struct sender *s);
int64_t h1conn_due(const struct sender *s);
void h1conn_timers(struct sender *s, int64_t now);
void h1conn_close(struct sender *s, struct h1conn *c);
void h1conn_release(struct sender *s);

/* ev.c */
void ev_multi(struct sender *s);
int ev_handle(struct sender *s, CURL *h);

/* sched.c */
/* The timers and delays heaps (lib/heap of xfer pointers by deadline);
 * sched_remove() of an xfer not on h does nothing. */
void sched_push(struct heap *h, struct xfer *x);
void sched_remove(struct heap *h, struct xfer *x);
struct xfer *sched_top(const struct heap *h);
int64_t sched_next_due(struct sender *s, int64_t now);
void sched_wait_until(int64_t due);
int sched_may_start(struct sender *s, const struct xfer *x, int need_slot, int64_t now);
void sched_prefill_take(struct sender *s, struct xfer *x);
void sched_prefill_release(struct sender *s, struct xfer *x);
void sched_fd_limit(struct sender *s);

/* input.c */
void input_open(struct sender *s);
int input_pump(struct sender *s);
int input_wanted(const struct sender *s);
void input_read_all(struct sender *s);
struct xfer *input_pop(struct sender *s);
void input_close(struct sender *s);
void input_enqueue(struct sender *s, struct xfer *x);
void input_unshift(struct sender *s, struct xfer *x);

/* sess.c: multi-turn sessions (spec 5.8) */
struct sess *sess_get(struct sender *s, const char *corr, int create);
void sess_drop(struct sender *s, struct sess *e);
void sess_park(struct sender *s, struct xfer *x);
size_t sess_start(struct sender *s, struct xfer *x);
void sess_finish(struct sender *s, struct xfer *x);
void sess_sweep(struct sender *s);
void sess_release(struct sender *s);
void sess_stop(struct sender *s);
void sess_stop_warmup(struct sender *s);
void sess_body(struct xfer *x);
/* 0, or -1 after xfer_nomem() when the reply text cannot be kept. */
int sess_reply(struct sender *s, struct xfer *x, const char *json, size_t n);
CURLSH *sess_share(struct xfer *x);
struct h1conn **sess_conn(struct xfer *x);

/* cue.c: --scrape-cue, between warmup and profiling */
void cue_scrapers(struct sender *s);
/* --phase-cue: pass the barriers up to phase ph (1 warmup, 2 profiling);
 * the phase's shared start on our clock, -1 (none: start now) or -2 (a
 * signal ended the wait: start nothing before the loop has taken it). */
int64_t phase_sync(struct sender *s, int ph);
int64_t start_at_parse(const char *v);

/* ui.c: --ui-type's view on standard error, twice a second, and once
 * more at the end (final) */
void ui_update(struct sender *s, int final);
/* ui.c: x's record counted in its phase (sender_emit) */
void ui_count(struct sender *s, const struct xfer *x);

/* warmup.c: --warmup-duration (spec 5.7) */
void warmup_keep(struct sender *s, const struct xfer *x, const char *line, size_t n);
void warmup_refill(struct sender *s);
void warmup_stop(struct sender *s);
void warmup_release(struct sender *s);

/* hdr.c: -H values (a 'Name:Value' string, several split at commas, or a
 * JSON object of string values) become header lines "Name: value" ("Name;"
 * when empty) in o->headers, which it owns; a malformed one is die_usage(). */
void hdr_add(struct options *o, const char *arg);
void hdr_release(struct options *o);
/* Whether name[0..nl): v[0..n) may be sent as a header: the name a token,
 * not one the sender sets itself (Content-Length, Connection ...), the
 * value without control characters but tab. 0, or -1 with why (the value
 * never in it). -H's checks and a record's "headers" both. */
int hdr_check(const char *name, size_t nl, const char *v, size_t n, char *why,
	      size_t wl);
/* The length of a header line's name (up to ':' or ';'). */
size_t hdr_name_len(const char *line);

/* url.c */
char *url_base(const char *arg);
char *url_join(const char *base, const char *path);

#endif
