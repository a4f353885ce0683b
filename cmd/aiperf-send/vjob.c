/* SPDX-License-Identifier: Apache-2.0 */
/* video_generation jobs: submit as a form, poll GET /v1/videos/{id}, optionally download the content. */
#define _GNU_SOURCE	/* memmem */
#include "vjob.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "clock.h"
#include "heap.h"
#include "stats/numfmt.h"
#include "util.h"

/*
 * One record, several HTTP transactions on the same struct xfer (the
 * original's _send_video_request_with_polling): POST the payload's fields
 * as multipart/form-data, GET {url}/{id} at once and then every
 * --video-poll-interval until the job is "completed" or "failed" or the
 * poll has lasted --request-timeout-seconds, then with
 * --download-video-content GET {url}/{id}/content. Between polls the xfer
 * stays in flight (its concurrency slot held, cancellable) and waits in
 * this module's heap; one loop timer is armed at the earliest poll.
 */

#define BOUNDARY "aiperf-form-7e3d91c0a5f24b68"
#define MAX_KEPT 1000		/* poll bodies kept in a record, the final one apart */

enum stage { VJ_SUBMIT, VJ_POLL, VJ_WAIT, VJ_DOWNLOAD };

struct vjob {
	struct xfer *x;
	enum stage stage;
	char *json;		/* the payload, given back to x->body at the end */
	size_t json_len;
	char *form;		/* the submit body */
	size_t form_len;
	char *base;		/* the submit URL */
	char *id;		/* the job's id */
	int64_t sent0, ack0;	/* the submit's first write and first response byte */
	int64_t poll_start, due;
	size_t hidx;		/* in the poll heap, or (size_t)-1 */
	uint64_t polls;
	int64_t dl_bytes;	/* content bytes read, -1: no download */
	size_t kept;
	struct buf last;	/* the last poll body kept */
};

struct vjobq {
	struct heap h;		/* jobs waiting for their next poll, by due */
	struct evloop_timer t;
	struct json_doc *doc;
};

static int
vj_less(const void *a, const void *b)
{
	return (*(struct vjob *const *)a)->due < (*(struct vjob *const *)b)->due;
}

static void
vj_moved(void *e, size_t i)
{
	(*(struct vjob **)e)->hidx = i;
}

static const struct heap_type vj_heap = { sizeof(struct vjob *), vj_less, vj_moved };

/* A form field name with '"', CR and LF percent-encoded (RFC 7578 4.2). */
static void
add_name(struct buf *b, const char *k, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (k[i] == '"' || k[i] == '\r' || k[i] == '\n' || k[i] == '%')
			buf_addf(b, "%%%02X", (unsigned char)k[i]);
		else
			buf_addch(b, k[i]);
	}
}

/* The form value of v as the original's str(): strings as they are, booleans
 * lowercase, numbers as written, objects and arrays as compact JSON; null: none. */
static int
add_value(struct buf *b, const struct json *v)
{
	struct jw w;

	switch (v->type) {
	case JSON_NULL:
		return 0;
	case JSON_TRUE:
		buf_addstr(b, "true");
		break;
	case JSON_FALSE:
		buf_addstr(b, "false");
		break;
	case JSON_STRING:
	case JSON_NUMBER:
		buf_add(b, v->str, v->len);
		break;
	default:
		jw_init(&w, b, 0);
		jw_value(&w, v);
		break;
	}
	return 1;
}

int
vjob_new(struct xfer *x, const struct json *payload, char *why, size_t whylen)
{
	struct buf f = BUF_INIT(BUF_NOMAX), val = BUF_INIT(BUF_NOMAX);
	struct vjob *j;

	for (const struct json *c = payload->child; c; c = c->next) {
		buf_reset(&val);
		if (!add_value(&val, c))
			continue;
		if (memmem(val.s, val.len, BOUNDARY, sizeof(BOUNDARY) - 1) ||
		    memmem(c->key, c->keylen, BOUNDARY, sizeof(BOUNDARY) - 1)) {
			snprintf(why, whylen, "payload field '%.*s' holds the form boundary",
				 (int)(c->keylen > 64 ? 64 : c->keylen), c->key);
			buf_release(&f);
			buf_release(&val);
			return -1;
		}
		buf_addstr(&f, "--" BOUNDARY "\r\nContent-Disposition: form-data; name=\"");
		add_name(&f, c->key, c->keylen);
		buf_addstr(&f, "\"\r\n\r\n");
		buf_add(&f, val.s, val.len);
		buf_addstr(&f, "\r\n");
	}
	buf_addstr(&f, "--" BOUNDARY "--\r\n");
	buf_release(&val);
	j = xcalloc(1, sizeof(*j));
	j->x = x;
	j->hidx = (size_t)-1;
	j->sent0 = j->ack0 = j->due = -1;
	j->dl_bytes = -1;
	buf_init(&j->last, BUF_NOMAX);
	j->json = x->body;
	j->json_len = x->body_len;
	j->form = buf_detach(&f, &j->form_len);
	x->body = j->form;
	x->body_len = j->form_len;
	x->vj = j;
	return 0;
}

void
vjob_free(struct vjob *j)
{
	if (!j)
		return;
	if (j->json) {	/* never finished: x owns its payload again */
		j->x->body = j->json;
		j->x->body_len = j->json_len;
		j->json = NULL;
	}
	free(j->json);
	free(j->form);
	free(j->base);
	free(j->id);
	buf_release(&j->last);
	free(j);
}

int
vjob_get(const struct xfer *x)
{
	return x->vj && x->vj->stage != VJ_SUBMIT;
}

const char *
vjob_ctype(const struct xfer *x)
{
	return vjob_get(x) ? NULL : "Content-Type: multipart/form-data; boundary=" BOUNDARY;
}

int
vjob_sink(struct xfer *x, size_t n)
{
	if (x->vj->stage != VJ_DOWNLOAD)
		return 0;
	x->vj->dl_bytes += (int64_t)n;
	return 1;
}

static struct vjobq *
queue(struct sender *s)
{
	if (!s->vjq) {
		s->vjq = xcalloc(1, sizeof(*s->vjq));
		heap_init(&s->vjq->h);
		s->vjq->t = (struct evloop_timer)EVLOOP_TIMER_INIT(NULL, NULL);
		s->vjq->doc = json_doc_new();
	}
	return s->vjq;
}

static void
arm(struct sender *s)
{
	struct vjobq *q = s->vjq;
	struct vjob **top = heap_top(&q->h);

	if (top)
		evloop_timer_arm(s->loop, &q->t, (*top)->due);
	else
		evloop_timer_stop(s->loop, &q->t);
}

static void
unschedule(struct sender *s, struct vjob *j)
{
	if (j->hidx == (size_t)-1 || !s->vjq)
		return;
	heap_delete(&s->vjq->h, &vj_heap, j->hidx);
	j->hidx = (size_t)-1;
	arm(s);
}

/* The next transaction of x on its engine, now. */
static void
issue(struct sender *s, struct xfer *x)
{
	x->status = 0;
	x->reason[0] = x->ctype[0] = x->curl_err[0] = '\0';
	x->is_sse = x->in_body = 0;
	x->retried = x->redo = 0;
	x->io_seq = 0;
	x->io_ns = 0;
	x->sent_ns = -1;
	buf_reset(&x->body_in);
	x->body = x->vj->form;	/* a GET: no body */
	x->body_len = 0;
	memset(&x->hs, 0, sizeof(x->hs));
	x->start_ns = clock_now_ns();
	if (!x->h) {
		h1conn_start(s, x);
		return;
	}
	curl_multi_remove_handle(s->m, x->h);
	curl_slist_free_all(x->hdrs);
	x->hdrs = NULL;
	if (xfer_setup(x, x->h) < 0 || curl_multi_add_handle(s->m, x->h) != CURLM_OK)
		die("cannot set up a curl handle");
}

static void
on_timer(struct evloop *l, struct evloop_timer *t)
{
	struct sender *s = t->ud;
	struct vjobq *q = s->vjq;
	struct vjob **top;
	int64_t now = clock_now_ns();

	(void)l;
	while ((top = heap_top(&q->h)) && (*top)->due <= now) {
		struct vjob *j = *top;
		heap_delete(&q->h, &vj_heap, 0);
		j->hidx = (size_t)-1;
		j->stage = VJ_POLL;
		issue(s, j->x);
	}
	arm(s);
}

static void
schedule(struct sender *s, struct vjob *j, int64_t due)
{
	struct vjobq *q = queue(s);

	q->t.fn = on_timer;
	q->t.ud = s;
	j->stage = VJ_WAIT;
	j->due = due;
	heap_push(&q->h, &vj_heap, &j);
	arm(s);
}

/* The URL path segment of the job id, percent-encoded where not unreserved. */
static void
add_id(struct buf *b, const char *id)
{
	for (const unsigned char *p = (const unsigned char *)id; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~", *p))
			buf_addch(b, (char)*p);
		else
			buf_addf(b, "%%%02X", *p);
	}
}

static void
set_url(struct xfer *x, const char *suffix)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	size_t n = strlen(x->vj->base);

	buf_add(&b, x->vj->base, n && x->vj->base[n - 1] == '/' ? n - 1 : n);
	buf_addch(&b, '/');
	add_id(&b, x->vj->id);
	buf_addstr(&b, suffix);
	free(x->url);
	x->url = buf_detach(&b, NULL);
}

/*
 * The download: the job's "url" when this engine can fetch it (an absolute
 * http URL; https too through libcurl), as the original; else
 * {url}/{id}/content. Only printable ASCII without blanks is followed.
 */
static void
content_url(struct xfer *x, const struct json *job)
{
	size_t n, i;
	const char *u = json_str(json_get(job, "url"), &n);

	for (i = 0; u && i < n; i++)
		if ((unsigned char)u[i] <= ' ' || (unsigned char)u[i] >= 0x7f)
			break;
	if (u && i == n && n > 8 && (!strncasecmp(u, "http://", 7) ||
	    (x->h && !strncasecmp(u, "https://", 8)))) {
		free(x->url);
		x->url = xstrndup(u, n);
		return;
	}
	set_url(x, "/content");
}

static void vfail(struct xfer *x, enum xfer_err e, long code, const char *fmt, ...) FMT(4, 5);

static void
vfail(struct xfer *x, enum xfer_err e, long code, const char *fmt, ...)
{
	char m[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m, sizeof(m), fmt, ap);
	va_end(ap);
	xfer_fail(x, e, code, m);
}

/* The start of a body for a message: at most 200 bytes, as the original's. */
static int
snip(const struct xfer *x)
{
	return x->body_in.len > 200 ? 200 : (int)x->body_in.len;
}

/* The record is written now: the payload and the submit's stamps back. */
static int
finish(struct xfer *x)
{
	struct vjob *j = x->vj;

	if (j->sent0 >= 0)
		x->sent_ns = j->sent0;
	if (j->ack0 >= 0)
		x->ack_ns = j->ack0;
	x->body = j->json;
	x->body_len = j->json_len;
	j->json = NULL;
	if (j->base) {	/* the record's URL is the submit's */
		free(x->url);
		x->url = j->base;
		j->base = NULL;
	}
	j->stage = VJ_SUBMIT;	/* the record's request headers are the submit's */
	return 0;
}

const char *
vjob_json(const struct xfer *x, size_t *n)
{
	*n = x->vj->json ? x->vj->json_len : x->body_len;
	return x->vj->json ? x->vj->json : x->body;
}

/* The record is due and xfer_done() adds this transaction's body to it
 * (xfer_body_member). */
static int
last(struct xfer *x)
{
	return finish(x);
}

/* "failed": the job's error.message, or the error as text. */
static void
job_failed(struct xfer *x, const struct json *o)
{
	const struct json *e = json_get(o, "error"), *m = json_get(e, "message");
	size_t n;
	const char *s = json_str(m, &n);

	if (!s)
		s = json_str(e, &n);
	if (!s)
		s = "Unknown error", n = 13;
	vfail(x, XE_VIDEO, 500, "Video generation failed: %.*s", (int)(n > 300 ? 300 : n), s);
}

/*
 * The submit answer's "id" becomes the job's: 0, or -1 with the record's
 * error. None, null, false or "" is the original's "No job ID returned";
 * another type, or a string holding a NUL (the id is kept as a C string),
 * is refused, and the message says why.
 */
static int
take_id(struct xfer *x, const struct json *v)
{
	static const char *const what[] = {
		[JSON_TRUE] = "it is a boolean, not a string",
		[JSON_NUMBER] = "it is a number, not a string",
		[JSON_ARRAY] = "it is an array, not a string",
		[JSON_OBJECT] = "it is an object, not a string",
	};
	size_t n = 0;
	const char *id = json_str(v, &n);

	if (!v || v->type == JSON_NULL || v->type == JSON_FALSE || (id && !n)) {
		vfail(x, XE_VIDEO, 500, "No job ID returned: %.*s", snip(x),
		      buf_str(&x->body_in));
		return -1;
	}
	if (!id || memchr(id, '\0', n)) {
		vfail(x, XE_VIDEO, 500, "Job ID refused: %s: %.*s",
		      id ? "it holds a NUL character" : what[v->type], snip(x),
		      buf_str(&x->body_in));
		return -1;
	}
	x->vj->id = xstrndup(id, n);
	return 0;
}

/* A poll said neither completed nor failed: the next one, or the timeout. */
static void
again(struct sender *s, struct xfer *x, int64_t now)
{
	struct vjob *j = x->vj;

	if (now - j->poll_start >= s->o->timeout_ns) {
		char t[40];
		t[numfmt_repr(t, (double)s->o->timeout_ns / 1e9, NUMFMT_PYREPR)] = '\0';
		vfail(x, XE_VTIMEOUT, 504, "Video generation timed out after %ss", t);
		return;
	}
	schedule(s, j, now + s->o->video_poll_ns);
}

/* A poll's body: kept when it differs from the last one kept (bounded);
 * -1 after xfer_nomem() when there is no memory for it. */
static int
keep_poll(struct xfer *x, int64_t perf)
{
	struct vjob *j = x->vj;

	if (j->kept >= MAX_KEPT || (j->last.len == x->body_in.len &&
	    !memcmp(j->last.s, x->body_in.s, x->body_in.len)))
		return 0;
	if (xfer_body_member(x, perf) < 0)
		return -1;
	j->kept++;
	buf_reset(&j->last);
	if (buf_tryadd(&j->last, x->body_in.s, x->body_in.len) < 0) {
		xfer_nomem(x, x->body_in.len + 1);
		return -1;
	}
	return 0;
}

int
vjob_step(struct sender *s, struct xfer *x, CURLcode rc)
{
	struct vjob *j = x->vj;
	int64_t now = clock_now_ns(), perf = x->io_ns > 0 ? x->io_ns : now;
	const struct json *o;
	char err[128];

	unschedule(s, j);
	if (j->stage == VJ_SUBMIT) {
		j->sent0 = x->sent_ns;
		j->ack0 = x->ack_ns;
	}
	if (j->stage == VJ_WAIT || rc != CURLE_OK || x->err != XE_NONE ||
	    !(x->status >= 200 && x->status <= 299)) {
		if (j->stage == VJ_DOWNLOAD && x->err == XE_NONE) {
			const char *why = x->curl_err[0] ? x->curl_err : curl_easy_strerror(rc);
			if (x->status && !(x->status >= 200 && x->status <= 299))
				vfail(x, XE_VDOWNLOAD, x->status, "Failed to download video %s: "
				      "HTTP %ld: %.*s", j->id, x->status, snip(x), buf_str(&x->body_in));
			else
				vfail(x, XE_VDOWNLOAD, 500, "Failed to download video %s: %s",
				      j->id, why);
		}
		return finish(x);	/* the usual error record (cancelled, HTTP, connection) */
	}
	if (j->stage == VJ_DOWNLOAD) {
		buf_reset(&x->body_in);	/* a download response with no text */
		if (!x->ctype[0])
			snprintf(x->ctype, sizeof(x->ctype), "%s", "video/mp4");
		return last(x);
	}
	json_doc_reset(queue(s)->doc);
	o = json_parse(s->vjq->doc, buf_str(&x->body_in), x->body_in.len, err, sizeof(err));
	if (!o && errno == ENOMEM) {
		xfer_nomem(x, json_doc_nomem(s->vjq->doc));
		return finish(x);
	}
	if (!o || o->type != JSON_OBJECT) {
		xfer_body_member(x, perf);
		vfail(x, XE_VIDEO, 500, "Invalid JSON in video %s response (status %ld): %.*s",
		      j->stage == VJ_SUBMIT ? "submit" : "poll", x->status, snip(x),
		      x->body_in.len ? buf_str(&x->body_in) : "<empty>");
		return finish(x);
	}
	if (j->stage == VJ_SUBMIT) {
		if (xfer_body_member(x, perf) < 0 || take_id(x, json_get(o, "id")) < 0)
			return finish(x);
		j->base = xstrdup(x->url);
		j->poll_start = now;
		j->stage = VJ_POLL;
		set_url(x, "");
		issue(s, x);	/* the first poll goes at once */
		return 1;
	}
	j->polls++;
	const char *st = json_str_or(json_get(o, "status"), "");
	if (!strcmp(st, "completed")) {
		if (!s->o->download_video)
			return last(x);
		if (xfer_body_member(x, perf) < 0)
			return finish(x);
		j->stage = VJ_DOWNLOAD;
		j->dl_bytes = 0;
		content_url(x, o);
		issue(s, x);
		return 1;
	}
	if (!strcmp(st, "failed")) {
		xfer_body_member(x, perf);
		job_failed(x, o);
		return finish(x);
	}
	if (keep_poll(x, perf) < 0)
		return finish(x);
	again(s, x, now);
	if (x->err != XE_NONE)
		return finish(x);
	return 1;
}

void
vjob_write(struct jw *w, const struct xfer *x)
{
	const struct vjob *j = x->vj;

	KEY(w, "video");
	jw_obj(w);
	if (j->id) {
		KEY(w, "job_id");
		jw_str(w, j->id);
	}
	KEY(w, "polls");
	xfer_int(w, (int64_t)j->polls);
	if (j->dl_bytes >= 0) {
		KEY(w, "content_bytes");
		xfer_int(w, j->dl_bytes);
	}
	jw_obj_end(w);
}

void
vjob_release(struct sender *s)
{
	if (!s->vjq)
		return;
	evloop_timer_stop(s->loop, &s->vjq->t);
	heap_release(&s->vjq->h);
	json_doc_free(s->vjq->doc);
	free(s->vjq);
	s->vjq = NULL;
}
