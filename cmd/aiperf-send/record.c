/* SPDX-License-Identifier: Apache-2.0 */
/* One finished request as a raw record (man 5 aiperf-records). */
#define _GNU_SOURCE	/* memmem */
#include "xfer.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "cb.h"
#include "clock.h"
#include "json/json.h"
#include "http/redact.h"
#include "util.h"
#include "vjob.h"

void
xfer_key_slow(struct jw *w, const char *q, size_t n)
{
	jw_keyn(w, q + 1, n - 3);
}

/* jw_int without printf: records carry some twenty integers each. */
void
xfer_int(struct jw *w, int64_t v)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	char d[24], *p = d + sizeof(d);
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	/* Two digits a step: nanosecond stamps have nineteen. */
	for (; u >= 100; u /= 100) {
		p -= 2;
		memcpy(p, pairs + 2 * (u % 100), 2);
	}
	if (u >= 10) {
		p -= 2;
		memcpy(p, pairs + 2 * u, 2);
	} else {
		*--p = (char)('0' + u);
	}
	if (v < 0)
		*--p = '-';
	if (w->indent || !w->after_key) {
		jw_raw(w, p, (size_t)(d + sizeof(d) - p));
		return;
	}
	w->after_key = 0;
	buf_put(w->b, p, (size_t)(d + sizeof(d) - p));
	w->need_comma = 1;
}

static const char *
reason_phrase(long st)
{
	static const struct { long st; const char *s; } t[] = {
		{ 400, "Bad Request" }, { 401, "Unauthorized" },
		{ 403, "Forbidden" }, { 404, "Not Found" },
		{ 405, "Method Not Allowed" }, { 408, "Request Timeout" },
		{ 409, "Conflict" }, { 413, "Payload Too Large" },
		{ 422, "Unprocessable Entity" }, { 429, "Too Many Requests" },
		{ 500, "Internal Server Error" }, { 501, "Not Implemented" },
		{ 502, "Bad Gateway" }, { 503, "Service Unavailable" },
		{ 504, "Gateway Timeout" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].st == st)
			return t[i].s;
	return "Unknown";
}

void
xfer_fail(struct xfer *x, enum xfer_err e, long code, const char *msg)
{
	if (x->err != XE_NONE)
		return;
	x->err = e;
	x->errcode = code;
	if (msg)
		x->errmsg = xstrdup(msg);
}

/*
 * A cancellation keeps its type (was_cancelled and the metrics' filters
 * depend on it) and says in its message what was dropped; any other error
 * becomes the memory error, as what it explained is gone.
 */
void
xfer_nomem(struct xfer *x, size_t n)
{
	char m[160];
	int keep = x->err == XE_CANCEL || x->err == XE_STOPPED ||
		   x->err == XE_NOTFIN || x->err == XE_NOTSENT;

	if (keep) {
		char *was = x->errmsg;
		if (!x->nomem) {
			x->errmsg = xstrfmt("%s; its responses were dropped: allocating "
					    "%zu bytes failed (out of memory)", was ? was : "", n);
			free(was);
		}
		x->nomem = 1;
		return;
	}
	x->nomem = 1;
	snprintf(m, sizeof(m), "Response dropped: allocating %zu bytes for it "
		 "failed (out of memory)", n);
	free(x->errmsg);
	x->errmsg = NULL;
	x->err = XE_NONE;
	x->errcode = 0;
	xfer_fail(x, XE_NOMEM, 0, m);
}

/* What a response held, given back once it cannot be recorded whole. */
static void
drop_response(struct xfer *x)
{
	buf_release(&x->body_in);
	buf_release(&x->resp);
	buf_release(&x->tmp);
	buf_release(&x->stamps);
	buf_release(&x->reply);
	if (x->sse_on)
		sse_release(&x->sse);
	x->sse_on = 0;
}

size_t
xfer_quoted_max(const char *p, size_t n)
{
	size_t k = n + 2;

	/* every escape json_quote() writes is 6 bytes at most */
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		k += (c < 0x20 || c == '"' || c == '\\') ? 5 : 0;
	}
	return k;
}

int
xfer_room(struct xfer *x, struct buf *b, const char *p, size_t n, size_t slack)
{
	size_t need;

	/* json_quote()'s worst case first: no scan of a text that fits it */
	if (n < BUF_NOMAX / 8 && buf_trygrow(b, 6 * n + 2 + slack) == 0)
		return 0;
	need = xfer_quoted_max(p, n) + slack + XFER_QUOTE_ROOM;
	if (buf_trygrow(b, need) == 0)
		return 0;
	xfer_nomem(x, b->len + need + 1);
	return -1;
}

static void
fail_curl(struct xfer *x, CURLcode rc)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	const struct options *o = x->snd->o;

	if (rc == CURLE_OPERATION_TIMEDOUT) {
		buf_addf(&b, "Request timed out after %.3fs",
			 (double)o->timeout_ns / 1e9);
		xfer_fail(x, XE_TIMEOUT, 0, buf_str(&b));
	} else if (rc == CURLE_OUT_OF_MEMORY && !x->curl_err[0] && x->status &&
		   x->ack_ns < 0) {
		/* libcurl's answer to a header past its size limit */
		buf_addstr(&b, "Invalid HTTP response: header too large for libcurl");
		xfer_fail(x, XE_CONN, 0, buf_str(&b));
	} else {
		buf_addstr(&b, x->curl_err[0] ? x->curl_err : curl_easy_strerror(rc));
		xfer_fail(x, XE_CONN, 0, buf_str(&b));
	}
	buf_release(&b);
}

/* The error body, made valid UTF-8, is the message (moved there, not copied). */
static void
http_error(struct xfer *x)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	size_t nomem = 0;

	if (buf_trygrow(&b, x->body_in.len) < 0 ||
	    sse_utf8_append(&b, buf_str(&x->body_in), x->body_in.len, &nomem) < 0) {
		buf_release(&b);
		xfer_nomem(x, nomem ? nomem : x->body_in.len + 1);
		return;
	}
	buf_release(&x->body_in);
	x->err = XE_HTTP;	/* xfer_done() comes here without an error */
	x->errcode = x->status;
	x->errmsg = buf_detach(&b, NULL);
}

/* Whether p[0..n) is all ASCII (then valid UTF-8 as it is), eight bytes at a time. */
static int
ascii(const char *p, size_t n)
{
	size_t i = 0;
	uint64_t acc = 0, v;

	for (; i + 8 <= n; i += 8) {
		memcpy(&v, p + i, 8);
		acc |= v;
	}
	for (; i < n; i++)
		acc |= (unsigned char)p[i];
	return !(acc & 0x8080808080808080u);
}

/* The HTTP version libcurl used, unless another engine already set it. */
static void
get_http_version(struct xfer *x)
{
	long v = 0;

	if (x->http_version[0] || !x->h ||
	    curl_easy_getinfo(x->h, CURLINFO_HTTP_VERSION, &v) != CURLE_OK)
		return;
	const char *s = v == CURL_HTTP_VERSION_1_0 ? "1.0"
		: v == CURL_HTTP_VERSION_1_1 ? "1.1"
		: v == CURL_HTTP_VERSION_2_0 ? "2"
		: v == CURL_HTTP_VERSION_3 ? "3" : "";
	memcpy(x->http_version, s, strlen(s) + 1);
}

void
xfer_done(struct xfer *x, CURLcode rc)
{
	get_http_version(x);
	/*
	 * The read that completed the transfer is its end, not the moment the
	 * loop got around to it after the other sockets of the same wake-up.
	 */
	if (rc == CURLE_OK && x->err == XE_NONE && x->io_ns > 0)
		x->end_ns = x->io_ns;
	else
		x->end_ns = clock_now_ns();
	if (x->h && (rc == CURLE_OK || (x->status && !(x->status >= 200 && x->status <= 299))))
		curl_easy_getinfo(x->h, CURLINFO_RESPONSE_CODE, &x->status);
	if (x->nomem)
		drop_response(x);
	if (x->err != XE_NONE)
		return;
	if (x->status && !(x->status >= 200 && x->status <= 299)) {
		http_error(x);
		return;
	}
	if (rc != CURLE_OK) {
		fail_curl(x, rc);
		return;
	}
	if (x->is_sse) {
		if (x->sse_on) {
			x->io_ns = x->end_ns;	/* a last undelimited message */
			sse_finish(&x->sse);
		}
		return;
	}
	if ((x->want_reply &&
	     sess_reply(x->snd, x, buf_str(&x->body_in), x->body_in.len) < 0) ||
	    cb_stamp(x, buf_str(&x->body_in), x->body_in.len) < 0 ||
	    xfer_body_member(x, x->end_ns) < 0) {
		drop_response(x);
		return;
	}
	buf_release(&x->body_in);	/* in the responses now */
}

/* The body as valid UTF-8: itself when all ASCII, else cleaned into x->tmp. */
static int
body_text(struct xfer *x, const char **t, size_t *n)
{
	size_t nomem = 0;

	*t = buf_str(&x->body_in);
	*n = x->body_in.len;
	if (ascii(*t, *n))
		return 0;
	buf_reset(&x->tmp);
	/* tmp's cap is the body's: a body that grows past it is cut, as before */
	if ((buf_trygrow(&x->tmp, *n) < 0 && errno == ENOMEM) ||
	    (sse_utf8_append(&x->tmp, *t, *n, &nomem) < 0 && errno == ENOMEM)) {
		xfer_nomem(x, nomem ? nomem : *n + 1);
		return -1;
	}
	*t = buf_str(&x->tmp);
	*n = x->tmp.len;
	return 0;
}

int
xfer_body_member(struct xfer *x, int64_t perf)
{
	const char *t;
	size_t n;
	struct jw w;

	if (body_text(x, &t, &n) < 0 ||
	    xfer_room(x, &x->resp, t, n, 64 + 6 * sizeof(x->ctype)) < 0)
		return -1;
	if (x->resp.len)
		buf_addch(&x->resp, ',');
	jw_init(&w, &x->resp, 0);
	jw_obj(&w);
	KEY(&w, "perf_ns");
	xfer_int(&w, perf);
	KEY(&w, "text");
	jw_strn(&w, t, n);
	KEY(&w, "content_type");
	jw_str(&w, x->ctype[0] ? x->ctype : "application/json");
	jw_obj_end(&w);
	return 0;
}

static void
header_member(void *ctx, const char *line, size_t n)
{
	struct jw *w = ctx;
	const char *c = memchr(line, ':', n);

	if (!c && n > 1 && line[n - 1] == ';') {
		jw_keyn(w, line, n - 1);	/* "Name;": sent empty */
		jw_str(w, "");
		return;
	}
	if (!c || c + 1 == line + n)
		return;	/* "Expect:" and other removals */
	const char *v = c + 1;
	while (*v == ' ')
		v++;
	jw_keyn(w, line, (size_t)(c - line));
	if (redact_header_name(line, (size_t)(c - line)))
		jw_str(w, REDACT_MARK);
	else
		jw_strn(w, v, n - (size_t)(v - line));
}

static void
write_headers_slow(struct jw *w, const struct xfer *x)
{
	jw_obj(w);
	xfer_each_header(x, header_member, w);
	jw_obj_end(w);
}

/*
 * The request_headers object is the same for every record but for the two
 * ids (and a record's own "headers", written the slow way): built once per stream flag with stand-in ids ("\u0001", "\u0002"),
 * then cut around them. tpl->cut[0..1] are where the ids go; 0 when the
 * stand-ins were not found once each, in order (then the slow path).
 */
static const struct hdrtpl *
headers_template(struct sender *s, const struct xfer *x)
{
	struct hdrtpl *t = &s->hdrtpl[x->stream != 0];
	static char id[] = "\x01", corr[] = "\x02";
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;

	if (t->text)
		return t;
	struct xfer fake = *x;
	fake.id = id;
	fake.corr = corr;
	fake.nrec_headers = 0;	/* a record's own headers are its own */
	jw_init(&w, &b, 0);
	write_headers_slow(&w, &fake);
	t->text = buf_detach(&b, &t->len);
	const char *a = strstr(t->text, "\"\\u0001\""), *c = strstr(t->text, "\"\\u0002\"");
	if (a && c && a < c && !strstr(a + 1, "\"\\u0001\"") && !strstr(c + 1, "\"\\u0002\"")) {
		t->cut[0] = (size_t)(a - t->text);
		t->cut[1] = (size_t)(c - t->text);
	}
	return t;
}

static void
write_headers(struct jw *w, const struct xfer *x)
{
	const struct hdrtpl *t = headers_template(x->snd, x);
	const size_t mark = 8;	/* strlen("\"\\u0001\"") */

	if (!t->cut[0] || x->vj || x->nrec_headers) {
		write_headers_slow(w, x);
		return;
	}
	jw_raw(w, t->text, t->cut[0]);
	json_quote(w->b, x->id, strlen(x->id));
	buf_add(w->b, t->text + t->cut[0] + mark, t->cut[1] - t->cut[0] - mark);
	json_quote(w->b, x->corr, strlen(x->corr));
	buf_add(w->b, t->text + t->cut[1] + mark, t->len - t->cut[1] - mark);
}

static void
write_error(struct jw *w, const struct xfer *x)
{
	static const char *const types[] = {
		[XE_SSE] = "SSEResponseError",
		[XE_TIMEOUT] = "RequestTimeoutError",
		[XE_CONN] = "ConnectionError",
		[XE_CANCEL] = "RequestCancellationError",
		[XE_STOPPED] = "RequestCancellationError",
		[XE_NOTFIN] = "NotFinishedError",
		[XE_NOTSENT] = "NotSentError",
		[XE_TOOLARGE] = "ResponseTooLargeError",
		[XE_VIDEO] = "VideoGenerationError",
		[XE_VTIMEOUT] = "TimeoutError",
		[XE_VDOWNLOAD] = "VideoDownloadError",
		[XE_NOMEM] = "MemoryError",
	};
	KEY(w, "error");
	jw_obj(w);
	if (x->errcode) {
		KEY(w, "code");
		xfer_int(w, x->errcode);
	}
	KEY(w, "type");
	jw_str(w, x->err == XE_HTTP ? (x->reason[0] ? x->reason
					: reason_phrase(x->status))
				     : types[x->err]);
	KEY(w, "message");
	jw_str(w, x->errmsg ? x->errmsg : "");
	jw_obj_end(w);
}

static void
write_metadata(struct jw *w, const struct xfer *x)
{
	const struct sender *s = x->snd;
	int cancelled = x->err == XE_CANCEL || x->err == XE_STOPPED || x->err == XE_NOTFIN;

	KEY(w, "metadata");
	jw_obj(w);
	KEY(w, "session_num");
	xfer_int(w, x->session_num);
	KEY(w, "x_request_id");
	jw_str(w, x->id);
	KEY(w, "x_correlation_id");
	jw_str(w, x->corr);
	if (x->conv) {
		KEY(w, "conversation_id");
		jw_str(w, x->conv);
	}
	KEY(w, "turn_index");
	xfer_int(w, x->turn_index);
	KEY(w, "credit_issued_ns");
	xfer_int(w, sender_wall(s, x->credit_ns));
	KEY(w, "request_start_ns");
	xfer_int(w, sender_wall(s, x->start_ns));
	if (x->ack_ns >= 0) {
		KEY(w, "request_ack_ns");
		xfer_int(w, sender_wall(s, x->ack_ns));
	}
	KEY(w, "request_end_ns");
	xfer_int(w, sender_wall(s, x->end_ns));
	KEY(w, "worker_id");
	jw_str(w, s->o->worker_id ? s->o->worker_id : "worker_0");
	MEMBER(w, "record_processor_id", "record_processor_0");
	KEY(w, "benchmark_phase");
	jw_str(w, x->phase);
	KEY(w, "was_cancelled");
	jw_bool(w, cancelled);
	if (cancelled) {
		KEY(w, "cancellation_time_ns");
		xfer_int(w, sender_wall(s, x->cancel_ns));
	}
	jw_obj_end(w);
}

static int64_t
info_us(CURL *h, CURLINFO what)
{
	curl_off_t v = 0;
	if (!h || curl_easy_getinfo(h, what, &v) != CURLE_OK)
		return 0;
	return (int64_t)v;
}

/* The native engine's stamps (h1conn.c): the same fields, no TLS. */
static void
write_http_h1(struct jw *w, const struct xfer *x)
{
	const struct xfer_http *h = &x->hs;

	KEY(w, "http");
	jw_obj(w);
	KEY(w, "dns_ns");
	xfer_int(w, h->dns_ns);
	KEY(w, "connect_ns");
	xfer_int(w, h->connect_ns);
	KEY(w, "tls_ns");
	xfer_int(w, 0);
	KEY(w, "ttfb_ns");
	xfer_int(w, h->ttfb_ns);
	KEY(w, "total_ns");
	xfer_int(w, h->total_ns);
	KEY(w, "bytes_sent");
	xfer_int(w, h->sent);
	KEY(w, "bytes_received");
	xfer_int(w, h->received);
	KEY(w, "reused");
	jw_bool(w, h->reused && x->status > 0);
	if (x->status > 0) {
		KEY(w, "http_version");
		jw_str(w, h->version);
	}
	jw_obj_end(w);
}

static void
write_http(struct jw *w, const struct xfer *x)
{
	if (!x->h && x->hs.version) {
		write_http_h1(w, x);
		return;
	}
	int64_t dns = info_us(x->h, CURLINFO_NAMELOOKUP_TIME_T);
	int64_t con = info_us(x->h, CURLINFO_CONNECT_TIME_T);
	int64_t tls = info_us(x->h, CURLINFO_APPCONNECT_TIME_T);
	int64_t ttfb = info_us(x->h, CURLINFO_STARTTRANSFER_TIME_T);
	int64_t tot = info_us(x->h, CURLINFO_TOTAL_TIME_T);
	long reqsz = 0, hdrsz = 0, nconn = 0;

	if (x->h) {
		curl_easy_getinfo(x->h, CURLINFO_REQUEST_SIZE, &reqsz);
		curl_easy_getinfo(x->h, CURLINFO_HEADER_SIZE, &hdrsz);
		curl_easy_getinfo(x->h, CURLINFO_NUM_CONNECTS, &nconn);
	}
	KEY(w, "http");
	jw_obj(w);
	KEY(w, "dns_ns");
	xfer_int(w, dns * 1000);
	KEY(w, "connect_ns");
	xfer_int(w, con > dns ? (con - dns) * 1000 : 0);
	KEY(w, "tls_ns");
	xfer_int(w, tls > con ? (tls - con) * 1000 : 0);
	KEY(w, "ttfb_ns");
	xfer_int(w, ttfb * 1000);
	KEY(w, "total_ns");
	xfer_int(w, tot * 1000);
	/*
	 * libcurl 7.88 sends an HTTP/1 body under 64 KiB with the head and
	 * counts it in both REQUEST_SIZE and SIZE_UPLOAD (measured against the
	 * native engine's exact count; HTTP/2 counts it once).
	 */
	int64_t up = info_us(x->h, CURLINFO_SIZE_UPLOAD_T);
	if (x->http_version[0] == '1' && x->body_len < 65536 && reqsz >= up)
		up = 0;
	KEY(w, "bytes_sent");
	xfer_int(w, reqsz + up);
	KEY(w, "bytes_received");
	xfer_int(w, hdrsz + info_us(x->h, CURLINFO_SIZE_DOWNLOAD_T));
	KEY(w, "reused");
	jw_bool(w, x->h && x->status > 0 && nconn == 0);
	if (x->http_version[0]) {
		KEY(w, "http_version");
		jw_str(w, x->http_version);
	}
	jw_obj_end(w);
}

/*
 * The sender's CPU time (user + system, all threads) so far. It costs a
 * system call (no vDSO for this clock): records written within CPU_EVERY_NS
 * of each other share one reading.
 */
#define CPU_EVERY_NS 1000000
static int64_t
cpu_ns(struct sender *s, int64_t now)
{
	struct timespec ts;

	if (s->cpu_read_ns && now - s->cpu_read_ns < CPU_EVERY_NS)
		return s->cpu_ns;
	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) < 0)
		return -1;
	s->cpu_read_ns = now;
	s->cpu_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	return s->cpu_ns;
}

/* The URL without its credentials; most have none to look for. */
static void
write_url(struct jw *w, const char *url)
{
	size_t n = strlen(url);
	struct buf b = BUF_INIT(BUF_NOMAX);

	if (!memchr(url, '@', n) && !memchr(url, '?', n)) {
		jw_strn(w, url, n);
		return;
	}
	redact_url(&b, url, n);
	jw_strn(w, buf_str(&b), b.len);
	buf_release(&b);
}

static void
write_aiperf(struct jw *w, const struct xfer *x)
{
	KEY(w, "aiperf");
	jw_obj(w);
	MEMBER(w, "schema", "aiperf.raw/1");
	KEY(w, "endpoint_type");
	jw_str(w, x->etype);
	KEY(w, "url");
	write_url(w, x->url ? x->url : "");
	KEY(w, "stream");
	jw_bool(w, x->stream);
	if (x->intended_ns >= 0) {
		KEY(w, "intended_perf_ns");
		xfer_int(w, x->intended_ns);
	}
	if (x->ack_ns >= 0) {
		KEY(w, "recv_start_perf_ns");
		xfer_int(w, x->ack_ns);
	}
	KEY(w, "end_perf_ns");
	xfer_int(w, x->end_ns);
	if (x->input_text) {
		KEY(w, "input_text");
		jw_str(w, x->input_text);
	}
	if (x->response_field) {
		KEY(w, "response_field");
		jw_str(w, x->response_field);
	}
	if (x->max_tokens >= 0) {
		KEY(w, "max_tokens");
		xfer_int(w, x->max_tokens);
	}
	if (x->stamps.len) {
		KEY(w, "server_stamps");
		jw_raw(w, "[", 1);
		buf_add(w->b, x->stamps.s, x->stamps.len);
		buf_addch(w->b, ']');
	}
	int64_t cpu = cpu_ns(x->snd, x->end_ns);	/* about now: no clock read */
	if (cpu >= 0) {
		KEY(w, "cpu_ns");
		xfer_int(w, cpu);
	}
	write_http(w, x);
	if (x->vj)
		vjob_write(w, x);
	jw_obj_end(w);
}

/* Shorter base64 strings stay: a marker is about 100 bytes. */
#define ELIDE_MIN 256

/*
 * The request body as sent, with base64 media (data: URLs, input_audio
 * "data") as "<elided: N base64 chars, sha256 HEX>" markers unless
 * --raw-full-media: the same form inputs.json has. A body without the
 * text "\"data" (every text-only one) is copied as it is, after one
 * memmem; one with media is scanned, and each base64 string seen lately
 * gets its marker from the memo instead of a decode and a SHA-256.
 */
static void
write_payload(struct jw *w, struct xfer *x)
{
	struct sender *s = x->snd;

	if (s->o->raw_full_media || x->body_len < ELIDE_MIN ||
	    !memmem(x->body, x->body_len, "\"data", 5)) {
		jw_raw(w, x->body, x->body_len);
		return;
	}
	jw_raw(w, "", 0);	/* the separator, if any */
	dataurl_elide_json_memo(w->b, x->body, x->body_len, ELIDE_MIN, &s->memo);
}

/* The room a string takes in a record at most: 6 bytes a byte when short. */
static size_t
str_room(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	return n < 1 << 16 ? 6 * n + 2 : xfer_quoted_max(s, n);
}

/* The record's size at most, the short strings (ids, URL, headers) aside:
 * those fit the slack, or grow it as any buffer does. */
static size_t
record_room(const struct xfer *x)
{
	return 8192 + XFER_QUOTE_ROOM + x->body_len + x->resp.len + x->stamps.len +
	       str_room(x->errmsg) + str_room(x->input_text);
}

/*
 * Room in out for x's record, asked for before any of it is written. When
 * it cannot be had the responses go (the error says so) and the rest,
 * the request's own, is written as ever.
 */
static void
record_grow(struct xfer *x, struct buf *out)
{
	size_t need = record_room(x);

	if (!x->nomem && buf_trygrow(out, need) == 0)
		return;
	if (!x->nomem)
		xfer_nomem(x, out->len + need + 1);
	drop_response(x);
	buf_grow(out, record_room(x));
}

void
xfer_record(struct xfer *x, struct buf *out)
{
	struct jw w;
	int http_err = x->err == XE_HTTP;

	record_grow(x, out);
	/* The next response's room at its first chunk: this one's, and a quarter. */
	x->snd->resp_hint = x->resp.len < RESP_HINT_MAX ? x->resp.len + x->resp.len / 4
							 : RESP_HINT_MAX;
	x->snd->stamps_hint = x->stamps.len < RESP_HINT_MAX ? x->stamps.len + x->stamps.len / 4
							     : RESP_HINT_MAX;
	jw_init(&w, out, 0);
	jw_obj(&w);
	write_metadata(&w, x);
	KEY(&w, "start_perf_ns");
	xfer_int(&w, x->start_ns);
	KEY(&w, "payload");
	if (x->vj) {
		size_t n;
		const char *p = vjob_json(x, &n);
		jw_raw(&w, p, n);
	} else {
		write_payload(&w, x);
	}
	KEY(&w, "request_headers");
	write_headers(&w, x);
	if (x->status > 0) {
		KEY(&w, "status");
		xfer_int(&w, x->status);
	}
	KEY(&w, "responses");
	jw_raw(&w, "[", 1);
	if (!http_err)
		buf_add(out, x->resp.s ? x->resp.s : "", x->resp.len);
	buf_addch(out, ']');
	if (x->err != XE_NONE)
		write_error(&w, x);
	write_aiperf(&w, x);
	jw_obj_end(&w);
	buf_addch(out, '\n');
}
