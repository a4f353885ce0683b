/* SPDX-License-Identifier: Apache-2.0 */
/* One finished request as a raw record (man 5 aiperf-records). */
#include "xfer.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "cb.h"
#include "clock.h"
#include "json.h"
#include "util.h"

/* jw_int without printf: records carry some twenty integers each. */
static void
put_int(struct jw *w, int64_t v)
{
	char d[24], *p = d + sizeof(d);
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	jw_raw(w, p, (size_t)(d + sizeof(d) - p));
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

static void
fail_curl(struct xfer *x, CURLcode rc)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	const struct options *o = x->snd->o;

	if (rc == CURLE_OPERATION_TIMEDOUT) {
		buf_addf(&b, "Request timed out after %.3fs",
			 (double)o->timeout_ns / 1e9);
		xfer_fail(x, XE_TIMEOUT, 0, buf_str(&b));
	} else {
		buf_addstr(&b, x->curl_err[0] ? x->curl_err : curl_easy_strerror(rc));
		xfer_fail(x, XE_CONN, 0, buf_str(&b));
	}
	buf_release(&b);
}

static void
http_error(struct xfer *x)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	sse_utf8_append(&b, x->body_in.s ? x->body_in.s : "", x->body_in.len);
	xfer_fail(x, XE_HTTP, x->status, buf_str(&b));
	buf_release(&b);
}

void
xfer_done(struct xfer *x, CURLcode rc)
{
	x->end_ns = clock_now_ns();
	/*
	 * The read that completed the transfer is its end, not the moment the
	 * loop got around to it after the other sockets of the same wake-up.
	 */
	if (rc == CURLE_OK && x->err == XE_NONE && x->io_ns > 0 && x->io_ns < x->end_ns)
		x->end_ns = x->io_ns;
	if (x->h && (rc == CURLE_OK || (x->status && !(x->status >= 200 && x->status <= 299))))
		curl_easy_getinfo(x->h, CURLINFO_RESPONSE_CODE, &x->status);
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
	struct jw w;
	if (x->want_reply)
		sess_reply(x->snd, x, buf_str(&x->body_in), x->body_in.len);
	cb_stamp(x, buf_str(&x->body_in), x->body_in.len);
	jw_init(&w, &x->resp, 0);
	jw_obj(&w);
	jw_key(&w, "perf_ns");
	put_int(&w, x->end_ns);
	jw_key(&w, "text");
	buf_reset(&x->tmp);
	sse_utf8_append(&x->tmp, buf_str(&x->body_in), x->body_in.len);
	jw_strn(&w, buf_str(&x->tmp), x->tmp.len);
	jw_key(&w, "content_type");
	jw_str(&w, x->ctype[0] ? x->ctype : "application/json");
	jw_obj_end(&w);
}

static int
secret_header(const char *h, size_t n)
{
	static const char *const names[] = {
		"authorization", "proxy-authorization", "x-api-key", "api-key",
		"cookie", "set-cookie",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == n && !strncasecmp(h, names[i], n))
			return 1;
	for (size_t i = 0; i + 5 <= n; i++)
		if (!strncasecmp(h + i, "token", 5) || !strncasecmp(h + i, "secret", 5))
			return 1;
	return n >= 4 && !strncasecmp(h + n - 4, "-key", 4);
}

static void
write_headers(struct jw *w, const struct xfer *x)
{
	jw_obj(w);
	for (const struct curl_slist *l = x->hdrs; l; l = l->next) {
		const char *c = strchr(l->data, ':');
		if (!c || c[1] == '\0')
			continue;	/* "Expect:" and other removals */
		const char *v = c + 1;
		while (*v == ' ')
			v++;
		jw_keyn(w, l->data, (size_t)(c - l->data));
		jw_str(w, secret_header(l->data, (size_t)(c - l->data))
			       ? "<redacted>" : v);
	}
	jw_obj_end(w);
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
		[XE_NOTSENT] = "NotSentError",
		[XE_TOOLARGE] = "ResponseTooLargeError",
	};
	jw_key(w, "error");
	jw_obj(w);
	if (x->errcode) {
		jw_key(w, "code");
		put_int(w, x->errcode);
	}
	jw_key(w, "type");
	jw_str(w, x->err == XE_HTTP ? (x->reason[0] ? x->reason
					: reason_phrase(x->status))
				     : types[x->err]);
	jw_key(w, "message");
	jw_str(w, x->errmsg ? x->errmsg : "");
	jw_obj_end(w);
}

static void
write_metadata(struct jw *w, const struct xfer *x)
{
	const struct sender *s = x->snd;
	int cancelled = x->err == XE_CANCEL || x->err == XE_STOPPED;

	jw_key(w, "metadata");
	jw_obj(w);
	jw_key(w, "session_num");
	put_int(w, x->session_num);
	jw_key(w, "x_request_id");
	jw_str(w, x->id);
	jw_key(w, "x_correlation_id");
	jw_str(w, x->corr);
	if (x->conv) {
		jw_key(w, "conversation_id");
		jw_str(w, x->conv);
	}
	jw_key(w, "turn_index");
	put_int(w, x->turn_index);
	jw_key(w, "credit_issued_ns");
	put_int(w, sender_wall(s, x->credit_ns));
	jw_key(w, "request_start_ns");
	put_int(w, sender_wall(s, x->start_ns));
	if (x->ack_ns >= 0) {
		jw_key(w, "request_ack_ns");
		put_int(w, sender_wall(s, x->ack_ns));
	}
	jw_key(w, "request_end_ns");
	put_int(w, sender_wall(s, x->end_ns));
	jw_key(w, "worker_id");
	jw_str(w, "worker_0");
	jw_key(w, "record_processor_id");
	jw_str(w, "record_processor_0");
	jw_key(w, "benchmark_phase");
	jw_str(w, x->phase);
	jw_key(w, "was_cancelled");
	jw_bool(w, cancelled);
	if (cancelled) {
		jw_key(w, "cancellation_time_ns");
		put_int(w, sender_wall(s, x->cancel_ns));
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

	jw_key(w, "http");
	jw_obj(w);
	jw_key(w, "dns_ns");
	put_int(w, h->dns_ns);
	jw_key(w, "connect_ns");
	put_int(w, h->connect_ns);
	jw_key(w, "tls_ns");
	put_int(w, 0);
	jw_key(w, "ttfb_ns");
	put_int(w, h->ttfb_ns);
	jw_key(w, "total_ns");
	put_int(w, h->total_ns);
	jw_key(w, "bytes_sent");
	put_int(w, h->sent);
	jw_key(w, "bytes_received");
	put_int(w, h->received);
	jw_key(w, "reused");
	jw_bool(w, h->reused && x->status > 0);
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
	jw_key(w, "http");
	jw_obj(w);
	jw_key(w, "dns_ns");
	put_int(w, dns * 1000);
	jw_key(w, "connect_ns");
	put_int(w, con > dns ? (con - dns) * 1000 : 0);
	jw_key(w, "tls_ns");
	put_int(w, tls > con ? (tls - con) * 1000 : 0);
	jw_key(w, "ttfb_ns");
	put_int(w, ttfb * 1000);
	jw_key(w, "total_ns");
	put_int(w, tot * 1000);
	jw_key(w, "bytes_sent");
	put_int(w, reqsz + info_us(x->h, CURLINFO_SIZE_UPLOAD_T));
	jw_key(w, "bytes_received");
	put_int(w, hdrsz + info_us(x->h, CURLINFO_SIZE_DOWNLOAD_T));
	jw_key(w, "reused");
	jw_bool(w, x->h && x->status > 0 && nconn == 0);
	jw_obj_end(w);
}

/* The sender's CPU time (user + system, all threads) so far. */
static int64_t
cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) < 0)
		return -1;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void
write_aiperf(struct jw *w, const struct xfer *x)
{
	jw_key(w, "aiperf");
	jw_obj(w);
	jw_key(w, "schema");
	jw_str(w, "aiperf.raw/1");
	jw_key(w, "endpoint_type");
	jw_str(w, x->etype);
	jw_key(w, "url");
	jw_str(w, x->url ? x->url : "");
	jw_key(w, "stream");
	jw_bool(w, x->stream);
	if (x->intended_ns >= 0) {
		jw_key(w, "intended_perf_ns");
		put_int(w, x->intended_ns);
	}
	if (x->ack_ns >= 0) {
		jw_key(w, "recv_start_perf_ns");
		put_int(w, x->ack_ns);
	}
	jw_key(w, "end_perf_ns");
	put_int(w, x->end_ns);
	if (x->input_text) {
		jw_key(w, "input_text");
		jw_str(w, x->input_text);
	}
	if (x->max_tokens >= 0) {
		jw_key(w, "max_tokens");
		put_int(w, x->max_tokens);
	}
	if (x->stamps.len) {
		jw_key(w, "server_stamps");
		jw_raw(w, "[", 1);
		buf_add(w->b, x->stamps.s, x->stamps.len);
		buf_addch(w->b, ']');
	}
	int64_t cpu = cpu_ns();
	if (cpu >= 0) {
		jw_key(w, "cpu_ns");
		put_int(w, cpu);
	}
	write_http(w, x);
	jw_obj_end(w);
}

void
xfer_record(struct xfer *x, struct buf *out)
{
	struct jw w;
	int http_err = x->err == XE_HTTP;

	jw_init(&w, out, 0);
	jw_obj(&w);
	write_metadata(&w, x);
	jw_key(&w, "start_perf_ns");
	put_int(&w, x->start_ns);
	jw_key(&w, "payload");
	jw_raw(&w, x->body, x->body_len);
	jw_key(&w, "request_headers");
	write_headers(&w, x);
	if (x->status > 0) {
		jw_key(&w, "status");
		put_int(&w, x->status);
	}
	jw_key(&w, "responses");
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
