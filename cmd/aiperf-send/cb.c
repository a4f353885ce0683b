/* SPDX-License-Identifier: Apache-2.0 */
/* libcurl callbacks for one transfer: body bytes, header lines and SSE messages. */
#include "cb.h"

#include <errno.h>
#include <string.h>
#include "clock.h"
#include "json/json.h"
#include "vjob.h"
#include "xfer.h"

/* Every write of one socket event shares one arrival stamp. */
static void
stamp(struct xfer *x)
{
	if (x->io_seq != x->snd->io_seq) {
		x->io_seq = x->snd->io_seq;
		x->io_ns = clock_now_ns();
	}
}

/*
 * libcurl calls this once it has a connection for the transfer, right
 * before it writes the request: that is when the request starts, not when
 * it was handed to libcurl (a connect, or a wait for one, comes between).
 * A retry on a fresh connection stamps again.
 */
int
cb_prereq(void *clientp, char *ip, char *local_ip, int port, int local_port)
{
	struct xfer *x = clientp;

	(void)ip, (void)local_ip, (void)port, (void)local_port;
	x->sent_ns = clock_now_ns();
	return CURL_PREREQFUNC_OK;
}

static int
ok_status(long st)
{
	return st >= 200 && st <= 299;
}

/* The response went past --max-response-bytes: say the cap and how to raise it. */
static void
too_large(struct xfer *x)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	buf_addf(&b, "Response larger than %zu bytes (raise the cap with "
		 "--max-response-bytes)", x->snd->o->max_response);
	xfer_fail(x, XE_TOOLARGE, 0, buf_str(&b));
	buf_release(&b);
}

/* An error body becomes the message: what fits under the cap is kept. */
static size_t
error_body(struct xfer *x, const char *p, size_t len)
{
	struct buf *b = &x->body_in;
	size_t k = len < b->max - b->len ? len : b->max - b->len;

	if (buf_tryadd(b, p, k) < 0) {
		xfer_nomem(x, b->len + k + 1);
		return 0;
	}
	return len;
}

/* A body or an SSE message could not be kept: the transfer stops. */
static size_t
not_kept(struct xfer *x, size_t n)
{
	if (x->err != XE_NONE)
		return 0;	/* the callback's own: an SSE error, too large */
	if (errno == ENOMEM)
		xfer_nomem(x, n);
	else
		too_large(x);
	return 0;
}

size_t
cb_write(char *p, size_t size, size_t n, void *userdata)
{
	struct xfer *x = userdata;
	size_t len = size * n;

	stamp(x);
	if (!ok_status(x->status))
		return error_body(x, p, len);
	if (x->vj && vjob_sink(x, len))
		return len;	/* video content: counted, not kept */
	if (x->is_sse) {
		if (!x->sse_on) {
			sse_init(&x->sse, x->snd->o->max_response, cb_sse, x);
			x->sse_on = 1;
		}
		if (sse_feed(&x->sse, p, len) < 0)
			return not_kept(x, x->sse.nomem);
		return len;
	}
	/* One allocation for a small body instead of doubling from 64 bytes. */
	if (!x->body_in.cap && len < 4096)
		buf_trygrow(&x->body_in, 1024);
	if (buf_tryadd(&x->body_in, p, len) < 0)
		return not_kept(x, x->body_in.len + len + 1);
	return len;
}

static int
has_prefix_ci(const char *p, size_t n, const char *lit)
{
	size_t k = strlen(lit);
	if (n < k)
		return 0;
	for (size_t i = 0; i < k; i++) {
		char c = p[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != lit[i])
			return 0;
	}
	return 1;
}

/* "HTTP/1.1 500 Internal Server Error" → status and reason. */
static void
status_line(struct xfer *x, const char *p, size_t n)
{
	const char *sp = memchr(p, ' ', n);
	long st = 0;
	size_t i;

	x->reason[0] = '\0';
	if (!sp)
		return;
	i = (size_t)(sp - p) + 1;
	while (i < n && p[i] >= '0' && p[i] <= '9')
		st = st * 10 + (p[i++] - '0');
	x->status = st;
	while (i < n && p[i] == ' ')
		i++;
	size_t end = n;
	while (end > i && (p[end - 1] == '\r' || p[end - 1] == '\n' ||
			   p[end - 1] == ' '))
		end--;
	size_t rl = end - i < sizeof(x->reason) - 1 ? end - i
						     : sizeof(x->reason) - 1;
	memcpy(x->reason, p + i, rl);
	x->reason[rl] = '\0';
}

size_t
cb_header(char *p, size_t size, size_t n, void *userdata)
{
	struct xfer *x = userdata;
	size_t len = size * n;

	if (has_prefix_ci(p, len, "http/")) {
		status_line(x, p, len);
		x->is_sse = 0;
	} else if (has_prefix_ci(p, len, "content-type:")) {
		const char *v = p + 13;
		size_t vn = len - 13;
		while (vn && (*v == ' ' || *v == '\t'))
			v++, vn--;
		x->is_sse = has_prefix_ci(v, vn, "text/event-stream");
		size_t k = 0;
		while (k < vn && k < sizeof(x->ctype) - 1 && v[k] != ';' &&
		       v[k] != '\r' && v[k] != '\n' && v[k] != ' ')
			k++;
		memcpy(x->ctype, v, k);
		x->ctype[k] = '\0';
	} else if (len <= 2 && (len == 0 || p[0] == '\r' || p[0] == '\n')) {
		if (x->status >= 200 && ok_status(x->status))
			/* the native engine stamped this read already */
			x->ack_ns = x->h ? clock_now_ns() : x->io_ns;
	}
	return len;
}

/*
 * The first "aiperf_send_ns" key in d, found from its first '_', a byte
 * rarer in chunk JSON than its '"' (memmem readies a table each call).
 */
static const char *
find_stamp_key(const char *d, size_t n, const char *key, size_t klen)
{
	const size_t at = 7;	/* key[at] == '_' */
	size_t i = at;

	while (n >= klen && i <= n - klen + at) {
		const char *u = memchr(d + i, '_', n - klen + at + 1 - i);
		if (!u)
			return NULL;
		i = (size_t)(u - d);
		if (!memcmp(u - at, key, klen))
			return u - at;
		i++;
	}
	return NULL;
}

/* Find "aiperf_send_ns": <int> in a chunk the mock stamped. */
int
cb_stamp(struct xfer *x, const char *d, size_t n)
{
	static const char key[] = "\"aiperf_send_ns\"";
	const size_t klen = sizeof(key) - 1;
	const char *u = find_stamp_key(d, n, key, klen), *end = d + n;

	if (!u)
		return 0;
	const char *k = u + klen;
	while (k < end && (*k == ' ' || *k == ':'))
		k++;
	int64_t v = 0;
	const char *digits = k;
	while (k < end && *k >= '0' && *k <= '9' && k - digits < 19)
		v = v * 10 + (*k++ - '0');
	if (k > digits) {
		char num[24], *q = num + sizeof(num);
		do
			*--q = (char)('0' + v % 10);
		while (v /= 10);
		size_t len = (size_t)(num + sizeof(num) - q);
		if (!x->stamps.cap && x->snd->stamps_hint)
			buf_trygrow(&x->stamps, x->snd->stamps_hint);	/* one allocation */
		if (buf_trygrow(&x->stamps, len + 1) < 0) {
			xfer_nomem(x, x->stamps.len + len + 2);
			return -1;
		}
		if (x->stamps.len)
			buf_addch(&x->stamps, ',');
		buf_add(&x->stamps, q, len);
	}
	return 0;
}

static void
sse_error(struct xfer *x, const struct sse_msg *m)
{
	const struct sse_field *c = sse_msg_comment(m);
	struct buf b = BUF_INIT(BUF_NOMAX);

	buf_addstr(&b, "Error occurred in SSE response: ");
	if (c && c->value)
		buf_add(&b, c->value, c->vlen);
	else
		buf_add(&b, m->text, m->len);
	xfer_fail(x, XE_SSE, 502, buf_str(&b));
	buf_release(&b);
}

static int
nonempty(const struct json *v)
{
	size_t n;
	return json_str(v, &n) && n > 0;
}

/*
 * Whether a chunk's data carries content (spec 5.3: what frees a prefill
 * slot): a non-empty text, delta content or reasoning, a responses-API
 * delta or a generate token; data that is not JSON counts, "[DONE]" not
 * (-1 after xfer_nomem() when its tree cannot be had).
 */
static int
has_content(struct xfer *x, const char *d, size_t n)
{
	struct sender *s = x->snd;
	char err[64];
	const struct json *v, *c, *dl;

	if (n == 6 && !memcmp(d, "[DONE]", 6))
		return 0;
	json_doc_reset(s->doc);
	if (!(v = json_parse(s->doc, d, n, err, sizeof(err)))) {
		if (errno != ENOMEM)
			return 1;
		xfer_nomem(x, json_doc_nomem(s->doc));
		return -1;
	}
	c = json_at(json_get(v, "choices"), 0);
	dl = json_get(c, "delta");
	return nonempty(json_get(dl, "content")) ||
	       nonempty(json_get(dl, "reasoning_content")) ||
	       nonempty(json_get(dl, "reasoning")) ||
	       nonempty(json_get(c, "text")) || nonempty(json_get(v, "delta")) ||
	       nonempty(json_get(json_get(v, "token"), "text"));
}

/*
 * Room in x->resp for m's member, checked, so that writing it cannot fail
 * halfway: its field strings are at most twice its text (a continuation
 * line gains a "\\n") and 7 bytes a field (a "comment" name), each byte
 * at most 6 escaped; each packet takes 32 bytes of its own, the message
 * 64. A message too large for that bound is measured instead.
 */
static int
msg_room(struct xfer *x, const struct sse_msg *m)
{
	size_t strs = 2 * m->len + 7 * m->n, slack = 32 * m->n + 64;
	struct buf *r = &x->resp;

	if (strs < BUF_NOMAX / 8 && buf_trygrow(r, 6 * strs + slack) == 0)
		return 0;
	slack += XFER_QUOTE_ROOM;
	for (size_t i = 0; i < m->n; i++)
		slack += xfer_quoted_max(m->f[i].name, m->f[i].nlen) +
			 (m->f[i].value ? xfer_quoted_max(m->f[i].value, m->f[i].vlen) : 0);
	if (buf_trygrow(r, slack) == 0)
		return 0;
	xfer_nomem(x, r->len + slack + 1);
	return -1;
}

int
cb_sse(void *ctx, const struct sse_msg *m)
{
	struct xfer *x = ctx;
	struct buf *r = &x->resp;
	struct jw w;
	int rc = 0;

	if (sse_msg_is_error(m)) {
		sse_error(x, m);
		return -1;
	}
	size_t mark = r->len;
	/* One allocation, not a doubling from 64 bytes per response. */
	if (!r->cap && x->snd->resp_hint)
		buf_trygrow(r, x->snd->resp_hint);
	if (msg_room(x, m) < 0)
		return -1;
	if (r->len)
		buf_addch(r, ',');
	jw_init(&w, r, 0);
	jw_obj(&w);
	KEY(&w, "perf_ns");
	xfer_int(&w, x->io_ns);
	KEY(&w, "packets");
	jw_arr(&w);
	for (size_t i = 0; i < m->n; i++) {
		jw_obj(&w);
		KEY(&w, "name");
		jw_strn(&w, m->f[i].name, m->f[i].nlen);
		if (m->f[i].value) {
			KEY(&w, "value");
			jw_strn(&w, m->f[i].value, m->f[i].vlen);
			if (m->f[i].nlen == 4 && !memcmp(m->f[i].name, "data", 4)) {
				rc |= cb_stamp(x, m->f[i].value, m->f[i].vlen);
				if (x->prefill) {
					int k = has_content(x, m->f[i].value, m->f[i].vlen);
					if (k)	/* a failed one releases its slot too */
						sched_prefill_release(x->snd, x);
					rc |= k < 0 ? -1 : 0;
				}
				if (x->want_reply)
					rc |= sess_reply(x->snd, x, m->f[i].value, m->f[i].vlen);
			}
		}
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_obj_end(&w);
	if (rc < 0) {	/* a stamp or the reply could not be kept: xfer_nomem() */
		r->len = mark;
		return -1;
	}
	if (r->len > x->snd->o->max_response) {
		r->len = mark;
		too_large(x);
		return -1;
	}
	return 0;
}
