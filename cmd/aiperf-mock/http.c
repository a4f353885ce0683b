/* SPDX-License-Identifier: Apache-2.0 */
/* HTTP/1.1 on a connection: framing requests out of the input, response heads and errors. */
#include "mock.h"

#include <stdio.h>
#include <string.h>

#include "json/json.h"
#include "util.h"

const char *
http_reason(int status)
{
	switch (status) {
	case 100: return "Continue";
	case 200: return "OK";
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 408: return "Request Timeout";
	case 413: return "Content Too Large";
	case 417: return "Expectation Failed";
	case 422: return "Unprocessable Content";
	case 429: return "Too Many Requests";
	case 431: return "Request Header Fields Too Large";
	case 500: return "Internal Server Error";
	case 501: return "Not Implemented";
	case 502: return "Bad Gateway";
	case 503: return "Service Unavailable";
	case 504: return "Gateway Timeout";
	case 505: return "HTTP Version Not Supported";
	default: return "Status";
	}
}

void
http_head(struct buf *b, int status, const char *ctype, long long clen,
	  int keepalive)
{
	buf_addf(b, "HTTP/1.1 %d %s\r\nServer: aiperf-mock\r\nContent-Type: %s\r\n",
		 status, http_reason(status), ctype);
	if (clen >= 0)
		buf_addf(b, "Content-Length: %lld\r\n", clen);
	else
		buf_addstr(b, "Cache-Control: no-cache\r\n");
	if (clen == HTTP_CHUNKED)
		buf_addstr(b, "Transfer-Encoding: chunked\r\n");
	if (!keepalive)
		buf_addstr(b, "Connection: close\r\n");
	buf_addstr(b, "\r\n");
}

/* The fault that applies to c's current answer. */
static enum fault
fault_on(const struct conn *c)
{
	return (c->flags & CONN_FAULT) ? c->srv->opt->fault : FAULT_NONE;
}

void
http_head_on(struct conn *c, struct buf *b, int status, const char *ctype,
	     long long clen)
{
	size_t at = b->len;
	enum fault f = fault_on(c);

	http_head(b, status, ctype, clen, !(c->flags & CONN_CLOSE_AFTER));
	if (f == FAULT_HTTP10)
		b->s[at + 7] = '0';	/* "HTTP/1.1" becomes "HTTP/1.0" */
	if (f == FAULT_BIG_HEAD) {
		b->len -= 2;	/* before the empty line */
		buf_addstr(b, "X-Mock-Padding: ");
		buf_grow(b, MOCK_BIG_HEAD + 4);
		memset(b->s + b->len, 'x', MOCK_BIG_HEAD);
		b->len += MOCK_BIG_HEAD;
		buf_addstr(b, "\r\n\r\n");
	}
}

void
http_error(struct conn *c, int status, const char *type, const char *msg)
{
	struct server *s = c->srv;
	struct buf body = BUF_INIT(BUF_NOMAX);
	struct jw w;

	jw_init(&w, &body, 0);
	jw_obj(&w);
	jw_key(&w, "error");
	jw_obj(&w);
	jw_key(&w, "message");
	jw_str(&w, msg);
	jw_key(&w, "type");
	jw_str(&w, type);
	jw_key(&w, "code");
	jw_int(&w, status);
	jw_obj_end(&w);
	jw_obj_end(&w);
	buf_reset(&s->scratch);
	http_head_on(c, &s->scratch, status, "application/json", (long long)body.len);
	buf_add(&s->scratch, body.s, body.len);
	conn_send(c, s->scratch.s, s->scratch.len);
	s->c.responses[status / 100 % 6]++;
	c->status = status;
	buf_release(&body);
}

void
http_done(struct conn *c)
{
	if (c->r) {
		metrics_finish(c->srv, c->r, 0);
		resp_free(c->r);
		c->r = NULL;
		c->srv->c.in_flight--;
	}
	http_process(c);
	conn_idle(c);
}

/* Ask for the body when the client waits for it (curl does past 1 MiB). */
static void
send_continue(struct conn *c, const struct httpreq *req)
{
	static const char msg[] = "HTTP/1.1 100 Continue\r\n\r\n";

	if (!(req->flags & HTTPREQ_EXPECT) || (c->flags & CONN_CONTINUE))
		return;
	c->flags |= CONN_CONTINUE;
	conn_send(c, msg, sizeof(msg) - 1);
}

/* --fault on an LLM request: which framing the answer gets. */
static void
fault_flags(struct conn *c, const struct httpreq *req)
{
	enum fault f = c->srv->opt->fault;
	static const char *const llm_paths[] = {
		"/v1/chat/completions", "/v1/completions", "/v1/responses",
		"/generate", "/generate_stream", "/rag/api/prompt",
	};
	int llm = 0;

	for (size_t i = 0; i < sizeof(llm_paths) / sizeof(llm_paths[0]); i++)
		llm |= req->path_len == strlen(llm_paths[i]) &&
		       !memcmp(req->target, llm_paths[i], req->path_len);
	llm &= httpreq_is(req->method, req->method_len, "POST");

	c->flags &= ~(unsigned)CONN_FAULT;
	if (!llm || f == FAULT_NONE)
		return;
	c->flags |= CONN_FAULT;
	if (f == FAULT_CLOSE || f == FAULT_HTTP10)
		c->flags |= CONN_CLOSE_AFTER;
	if (f == FAULT_HTTP10)
		c->flags |= CONN_HTTP10;	/* streams end at close, unframed */
}

static int
bad_request(struct conn *c, int status, const char *msg)
{
	c->flags |= CONN_CLOSE_AFTER;
	http_error(c, status, "invalid_request_error", msg);
	return -1;
}

/* Frame one request out of c->in and answer it. Returns 1 when one was
 * handled, 0 when more bytes are needed, -1 after a framing error. */
static int
process_one(struct conn *c)
{
	struct httpreq req;
	struct buf chunked = BUF_INIT(MOCK_MAX_BODY);
	const char *body;
	size_t avail, blen, used;
	int rc = httpreq_parse_head(&req, c->in.s, c->in.len, MOCK_MAX_HEAD);

	if (rc < 0)
		return bad_request(c, req.status, "malformed request");
	if (rc == 0)
		return 0;
	body = c->in.s + req.head_len;
	avail = c->in.len - req.head_len;
	if (req.flags & HTTPREQ_CHUNKED) {
		rc = httpreq_dechunk(body, avail, &chunked, &used);
		if (rc != 1)
			buf_release(&chunked);
		if (rc < 0)
			return bad_request(c, 400, "malformed chunked body");
		body = chunked.s ? chunked.s : "";
		blen = chunked.len;
	} else {
		if (req.content_length > MOCK_MAX_BODY)
			return bad_request(c, 413, "request body too large");
		blen = used = req.content_length < 0 ? 0 : (size_t)req.content_length;
		rc = avail >= blen;
	}
	if (rc == 0) {
		send_continue(c, &req);
		return 0;
	}
	c->flags &= ~(unsigned)CONN_CONTINUE;
	if (!(req.flags & HTTPREQ_KEEPALIVE))
		c->flags |= CONN_CLOSE_AFTER;
	if (req.minor == 0)
		c->flags |= CONN_HTTP10;
	else
		c->flags &= ~(unsigned)CONN_HTTP10;
	fault_flags(c, &req);
	route_dispatch(c, &req, body, blen, clock_mono_ns());
	buf_release(&chunked);
	buf_consume(&c->in, req.head_len + used);
	return 1;
}

void
http_process(struct conn *c)
{
	while (!c->r && c->in.len &&
	       !(c->flags & (CONN_DEAD | CONN_CLOSE_AFTER)))
		if (process_one(c) <= 0)
			break;
	if (c->in.len == 0)
		buf_release(&c->in);
}
