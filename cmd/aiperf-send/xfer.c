/* SPDX-License-Identifier: Apache-2.0 */
/* One request record: parsing it, and setting up its libcurl easy handle. */
#include "xfer.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "cb.h"
#include "json/json.h"
#include "util.h"
#include "vjob.h"

/* The string at key (NULL when absent or not a string), or -1 when it
 * holds a NUL: a C string would silently cut it short. */
static int
dup_str(const struct json *r, const char *key, char **out)
{
	size_t n;
	const char *s = json_str(json_get(r, key), &n);

	*out = NULL;
	if (!s)
		return 0;
	if (memchr(s, '\0', n))
		return -1;
	*out = xstrndup(s, n);
	return 0;
}

/* Optional integer field: 0 ok (dflt when absent), -1 when present but not an integer. */
static int
opt_i64(const struct json *rec, const char *key, int64_t dflt, int64_t *out)
{
	const struct json *v = json_get(rec, key);
	*out = dflt;
	if (!v || v->type == JSON_NULL)
		return 0;
	return json_int64(v, out) < 0 || *out < 0 ? -1 : 0;
}

static int bad(char *why, size_t whylen, const char *fmt, ...) FMT(3, 4);

static int
bad(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -1;
}

static int
parse_ints(struct xfer *x, const struct json *r, char *why, size_t wl)
{
	static const char *const keys[] = {
		"session_num", "turn_index", "num_turns", "max_tokens",
		"at_ns", "delay_ns", "cancel_after_ns", "dag_after", "dag_join",
		"dag_wait", "dag_forks", "dag_children",
	};
	int64_t *dst[] = {
		&x->session_num, &x->turn_index, &x->num_turns, &x->max_tokens,
		&x->at_ns, &x->delay_ns, &x->cancel_after_ns, &x->dag_after,
		&x->dag_join, &x->dag_wait, &x->dag_forks, &x->dag_children,
	};
	const int64_t dflt[] = { 0, 0, 1, -1, -1, -1, -1, -1, -1, 0, 0, 0 };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (opt_i64(r, keys[i], dflt[i], dst[i]) < 0)
			return bad(why, wl, "'%s' is not a non-negative integer",
				   keys[i]);
	return 0;
}

/* The dag_* fields: a branch's child names its parent and the turn that
 * starts it; the numbers are bounded as a DAG file's are. */
static int
parse_dag(struct xfer *x, const struct json *r, char *why, size_t wl)
{
	const int64_t lim = 1 << 16;

	x->dag = json_truthy(json_get(r, "dag"));
	x->dag_fork = json_truthy(json_get(r, "dag_fork"));
	x->dag_pre = json_truthy(json_get(r, "dag_pre"));
	if (dup_str(r, "dag_parent", &x->dag_parent) < 0)
		return bad(why, wl, "%s", "'dag_parent' contains a NUL character");
	if (x->dag_after >= lim || x->dag_join >= lim || x->dag_wait >= lim ||
	    x->dag_forks >= lim || x->dag_children >= lim || x->num_turns >= lim)
		return bad(why, wl, "%s", "a dag_* field or num_turns is over 65535");
	if (x->dag_parent && (x->turn_index || (x->dag_after < 0) == !x->dag_pre))
		return bad(why, wl, "%s", "'dag_parent' needs turn_index 0 and one "
			   "of 'dag_after' or 'dag_pre'");
	if ((x->dag_fork || x->dag_join >= 0 || x->dag_pre) && !x->dag_parent)
		return bad(why, wl, "%s", "'dag_fork', 'dag_join' and 'dag_pre' "
			   "need 'dag_parent'");
	if (x->dag_parent)
		x->dag = 1;
	return 0;
}

/* An endpoint_type the table lacks makes the record malformed. */
static int
bad_type(const char *etype, char *why, size_t wl)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	endpoint_list(&b);
	bad(why, wl, "unknown endpoint_type '%.64s' (%s)", etype, buf_str(&b));
	buf_release(&b);
	return -1;
}

static int
parse_strs(struct xfer *x, const struct json *r, char *why, size_t wl)
{
	static const char *const keys[] = {
		"id", "x_correlation_id", "conversation_id", "endpoint_type",
		"input_text", "path", "phase", "response_field",
	};
	char **dst[] = {
		&x->id, &x->corr, &x->conv, &x->etype,
		&x->input_text, &x->path, &x->phase, &x->response_field,
	};
	const struct json *v;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (dup_str(r, keys[i], dst[i]) < 0)
			return bad(why, wl, "'%s' contains a NUL character",
				   keys[i]);
	if (!x->id)
		return bad(why, wl, "%s", "missing string 'id'");
	if (!x->corr)
		x->corr = xstrdup(x->id);
	if (!x->etype)
		x->etype = xstrdup(endpoint_get(ENDPOINT_CHAT)->name);
	if (!(x->type = endpoint_find_record(x->etype)))
		return bad_type(x->etype, why, wl);
	if (!x->path)	/* the type's default (spec 6.2) */
		x->path = xstrdup(endpoint_path(x->type, json_truthy(json_get(r, "stream"))));
	if (!x->phase)
		x->phase = xstrdup("profiling");
	if (strcmp(x->phase, "warmup") && strcmp(x->phase, "profiling"))
		return bad(why, wl, "unknown phase '%s'", x->phase);
	x->warmup = !strcmp(x->phase, "warmup");
	if ((v = json_get(r, "schema")) && (!json_is_str(v) ||
	    strncmp(v->str, "aiperf.request/1", v->len + 1)))
		return bad(why, wl, "%s", "unsupported schema (want 'aiperf.request/1')");
	return 0;
}

/* The record's own "headers": an object of strings, sent after --header's. */
static int
parse_headers(struct xfer *x, const struct json *r, char *why, size_t wl)
{
	const struct json *h = json_get(r, "headers");
	size_t n = 0;

	if (!h || h->type == JSON_NULL)
		return 0;
	if (h->type != JSON_OBJECT)
		return bad(why, wl, "%s", "'headers': expected an object");
	for (const struct json *c = h->child; c; c = c->next)
		n++;
	if (n > XFER_MAX_HEADERS)
		return bad(why, wl, "'headers': more than %d", XFER_MAX_HEADERS);
	x->rec_headers = xcalloc(n ? n : 1, sizeof(*x->rec_headers));
	for (const struct json *c = h->child; c; c = c->next) {
		char e[256];

		if (!json_is_str(c) || c->keylen > XFER_MAX_HEADER_LEN ||
		    c->len > XFER_MAX_HEADER_LEN)
			return bad(why, wl, "'headers.%.*s': expected a string of at "
				   "most %d bytes", (int)(c->keylen < 64 ? c->keylen : 64),
				   c->key, XFER_MAX_HEADER_LEN);
		if (hdr_check(c->key, c->keylen, c->str, c->len, e, sizeof(e)) < 0)
			return bad(why, wl, "'headers': %s", e);
		x->rec_headers[x->nrec_headers++] =
			xstrfmt("%.*s: %.*s", (int)c->keylen, c->key, (int)c->len, c->str);
	}
	return 0;
}

static struct xfer *
xfer_new(struct sender *s)
{
	struct xfer *x = xcalloc(1, sizeof(*x));
	x->snd = s;
	x->credit_ns = x->start_ns = x->ack_ns = x->end_ns = x->sent_ns = -1;
	x->intended_ns = x->cancel_ns = x->deadline = -1;
	x->hidx = x->hist_at = (size_t)-1;
	buf_init(&x->reply, s->o->max_response);
	buf_init(&x->body_in, s->o->max_response);
	buf_init(&x->resp, BUF_NOMAX);
	buf_init(&x->stamps, BUF_NOMAX);
	buf_init(&x->tmp, s->o->max_response);
	return x;
}

/* The payload with a mark where the session history goes: before its messages. */
static int
history_body(struct xfer *x, struct jw *w, const struct json *p)
{
	const struct json *m = json_get(p, "messages");

	if (!m || m->type != JSON_ARRAY)
		return -1;
	jw_obj(w);
	for (const struct json *c = p->child; c; c = c->next) {
		jw_keyn(w, c->key, c->keylen);
		if (c != m) {
			jw_value(w, c);
			continue;
		}
		jw_arr(w);
		x->hist_at = w->b->len;
		for (const struct json *e = m->child; e; e = e->next)
			jw_value(w, e);
		x->own = xstrndup(w->b->s + x->hist_at, w->b->len - x->hist_at);
		jw_arr_end(w);
	}
	jw_obj_end(w);
	return 0;
}

/* Absent, null, true or false: "stream":"yes" is a mistake, not true. */
static int
is_bool(const struct json *v)
{
	return !v || v->type == JSON_NULL || v->type == JSON_FALSE ||
	       v->type == JSON_TRUE;
}

static int
parse_body(struct xfer *x, const struct json *r, size_t n, char *why, size_t wl)
{
	const struct json *p = json_get(r, "payload"), *st;
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;

	if (!p || p->type != JSON_OBJECT)
		return bad(why, wl, "%s", "missing object 'payload'");
	if (!is_bool(json_get(r, "stream")))
		return bad(why, wl, "%s", "'stream': expected true or false");
	if (!is_bool(json_get(p, "stream")))
		return bad(why, wl, "%s", "'payload.stream': expected true or false");
	buf_grow(&b, n);	/* the payload is shorter than its record's line */
	st = json_get(r, "stream");
	x->stream = st ? json_truthy(st) : json_truthy(json_get(p, "stream"));
	x->want_reply = (x->num_turns > 1 && x->turn_index + 1 < x->num_turns) ||
			x->dag_forks > 0;
	jw_init(&w, &b, 0);
	/* Turns that feed or take history keep their messages apart. */
	int hist = json_truthy(json_get(r, "history"));
	if (!hist && !(x->want_reply && json_get(p, "messages")))
		jw_value(&w, p);
	else if (history_body(x, &w, p) < 0) {
		buf_release(&b);
		return bad(why, wl, "%s", "'history' needs a 'messages' array in 'payload'");
	}
	if (!hist)
		x->hist_at = (size_t)-1;
	x->body = buf_detach(&b, &x->body_len);
	x->body = xrealloc(x->body, x->body_len + 1);	/* many may wait (--read-all) */
	return 0;
}

struct xfer *
xfer_parse(struct sender *s, const char *line, size_t n, char *why,
	   size_t whylen)
{
	char err[128];
	struct json *r;
	struct xfer *x;

	json_doc_reset(s->doc);
	r = json_parse(s->doc, line, n, err, sizeof(err));
	if (!r) {
		snprintf(why, whylen, "invalid JSON: %s", err);
		return NULL;
	}
	if (r->type != JSON_OBJECT) {
		snprintf(why, whylen, "a request record must be a JSON object");
		return NULL;
	}
	x = xfer_new(s);
	if (parse_strs(x, r, why, whylen) < 0 || parse_ints(x, r, why, whylen) < 0 ||
	    parse_headers(x, r, why, whylen) < 0 ||
	    parse_dag(x, r, why, whylen) < 0 || parse_body(x, r, n, why, whylen) < 0 ||
	    (x->type->id == ENDPOINT_VIDEO_GENERATION &&
	     vjob_new(x, json_get(r, "payload"), why, whylen) < 0)) {
		xfer_free(x);
		return NULL;
	}
	return x;
}

/* "name: value" to fn, composed on the stack when it fits. */
static void
pair(xfer_header_fn fn, void *ctx, const char *name, const char *pre,
     const char *value)
{
	size_t n = strlen(name), p = strlen(pre), v = strlen(value);
	char line[512], *l = n + p + v + 3 <= sizeof(line) ? line : xmalloc(n + p + v + 3);

	memcpy(l, name, n);
	memcpy(l + n, ": ", 2);
	memcpy(l + n + 2, pre, p);
	memcpy(l + n + 2 + p, value, v + 1);
	fn(ctx, l, n + p + v + 2);
	if (l != line)
		free(l);
}

#define LIT(s) s, sizeof(s) - 1

void
xfer_each_header(const struct xfer *x, xfer_header_fn fn, void *ctx)
{
	const struct options *o = x->snd->o;

	fn(ctx, LIT("User-Agent: aiperf/" AIPERF_VERSION));
	pair(fn, ctx, "X-Request-ID", "", x->id);
	pair(fn, ctx, "X-Correlation-ID", "", x->corr);
	for (size_t i = 0; i < o->nheaders; i++)
		fn(ctx, o->headers[i], strlen(o->headers[i]));
	for (size_t i = 0; i < x->nrec_headers; i++)
		fn(ctx, x->rec_headers[i], strlen(x->rec_headers[i]));
	if (o->api_key)
		pair(fn, ctx, "Authorization", "Bearer ", o->api_key);
	if (x->stream)
		fn(ctx, LIT("Accept: text/event-stream"));
	else
		fn(ctx, LIT("Accept: application/json"));
	if (!x->vj)
		fn(ctx, LIT("Content-Type: application/json"));
	else if (vjob_ctype(x))
		fn(ctx, vjob_ctype(x), strlen(vjob_ctype(x)));
	/* No "Expect: 100-continue" round trip for large bodies. */
	fn(ctx, LIT("Expect:"));
}

static void
add_header(void *ctx, const char *line, size_t n)
{
	struct xfer *x = ctx;
	(void)n;
	x->hdrs = curl_slist_append(x->hdrs, line);
}

/*
 * Whether the connection closes after x: always with "never"; with
 * "sticky-user-sessions" after a session's final turn (a single-turn
 * record is a session of its own).
 */
static long
forbid_reuse(const struct xfer *x)
{
	switch (x->snd->o->reuse) {
	case REUSE_NEVER: return 1;
	case REUSE_STICKY: return x->turn_index + 1 >= x->num_turns;
	default: return 0;
	}
}

int
xfer_setup(struct xfer *x, CURL *h)
{
	const struct options *o = x->snd->o;
	CURLcode rc = CURLE_OK;

	x->h = h;
	xfer_each_header(x, add_header, x);
#define SET(opt, val) if (rc == CURLE_OK) rc = curl_easy_setopt(h, opt, val)
	SET(CURLOPT_URL, x->url);
	SET(CURLOPT_POSTFIELDS, x->body);
	SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)x->body_len);
	SET(CURLOPT_HTTPHEADER, x->hdrs);
	SET(CURLOPT_PRIVATE, x);
	SET(CURLOPT_WRITEFUNCTION, cb_write);
	SET(CURLOPT_WRITEDATA, x);
	SET(CURLOPT_HEADERFUNCTION, cb_header);
	SET(CURLOPT_HEADERDATA, x);
	SET(CURLOPT_NOSIGNAL, 1L);
	SET(CURLOPT_TIMEOUT_MS, (long)(o->timeout_ns / 1000000));
	SET(CURLOPT_ERRORBUFFER, x->curl_err);
	SET(CURLOPT_FORBID_REUSE, forbid_reuse(x));
	SET(CURLOPT_FRESH_CONNECT, forbid_reuse(x) && !sess_share(x) ? 1L : 0L);
	SET(CURLOPT_SHARE, sess_share(x));
	SET(CURLOPT_TCP_NODELAY, 1L);
	/*
	 * HTTP/2 (https, ALPN): new requests wait for the first connection's
	 * ALPN and then share it, instead of each opening its own at a cold
	 * start. Over HTTP/1.1 nothing can be shared: waiting would hold every
	 * request behind the first one's whole response (and behind a stall,
	 * for good). Pooled handles keep options: set it both ways.
	 */
	SET(CURLOPT_PIPEWAIT, strncasecmp(x->url, "https://", 8) ? 0L : 1L);
	if (vjob_get(x))
		SET(CURLOPT_HTTPGET, 1L);
	SET(CURLOPT_PREREQFUNCTION, cb_prereq);
	SET(CURLOPT_PREREQDATA, x);
	/* TLS: libcurl verifies peer and host name unless told not to. */
	SET(CURLOPT_SSL_VERIFYPEER, o->insecure ? 0L : 1L);
	SET(CURLOPT_SSL_VERIFYHOST, o->insecure ? 0L : 2L);
	if (o->ca_file)
		SET(CURLOPT_CAINFO, o->ca_file);
#undef SET
	x->curl_err[0] = '\0';
	return rc == CURLE_OK ? 0 : -1;
}

void
xfer_free(struct xfer *x)
{
	if (!x)
		return;
	vjob_free(x->vj);
	curl_slist_free_all(x->hdrs);
	free(x->id);
	free(x->corr);
	free(x->conv);
	free(x->etype);
	free(x->input_text);
	for (size_t i = 0; i < x->nrec_headers; i++)
		free(x->rec_headers[i]);
	free(x->rec_headers);
	free(x->response_field);
	free(x->path);
	free(x->url);
	free(x->phase);
	free(x->body);
	free(x->errmsg);
	free(x->own);
	free(x->dag_parent);
	buf_release(&x->reply);
	buf_release(&x->body_in);
	buf_release(&x->resp);
	buf_release(&x->stamps);
	buf_release(&x->tmp);
	if (x->sse_on)
		sse_release(&x->sse);
	free(x);
}
