/* SPDX-License-Identifier: Apache-2.0 */
/* The native HTTP/1.1 engine for http:// URLs: keep-alive pools on the sender's event loop (wrk-style). */
#include "send.h"

#include <stdarg.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>
#include "cb.h"
#include "clock.h"
#include "http/h1.h"
#include "util.h"
#include "vjob.h"
#include "xfer.h"

#define MAX_ADDRS 4
#define READ_BUF (256 << 10)
#define MAX_LINE (64 << 10)
#define MAX_HEAD (256 << 10)

/* One base URL's host: resolved once, with its idle connections. */
struct origin {
	char *key;		/* the URL's authority, user info included */
	size_t keylen;
	char *auth;		/* "host:port" for the Host header */
	size_t authlen;
	char *host, *port;
	struct sockaddr_storage addr[MAX_ADDRS];
	socklen_t alen[MAX_ADDRS];
	int naddr;		/* 0: not resolved yet, -1: failed */
	struct h1conn *idle;	/* kept-alive connections, newest first */
};

enum cstate { C_CONNECTING, C_BUSY, C_IDLE };

/*
 * A connection owns its socket, its response parser and its request bytes.
 * It is in exactly one place: busy with c->x, on its origin's idle list, or
 * kept by a sticky session (*c->owner == c).
 */
struct h1conn {
	int fd;
	enum cstate st;
	struct origin *org;
	struct h1conn *prev, *next;	/* the origin's idle list */
	struct h1conn *aprev, *anext;	/* every connection */
	struct h1conn **owner;	/* sticky: the session's slot */
	struct xfer *x;
	struct h1 p;
	unsigned events;	/* what the loop watches (EVLOOP_*), 0: not yet */
	int ai;			/* the address being tried */
	int cerr;		/* connect() failed at once with this errno */
	int64_t t0;		/* connect() began */
	uint64_t nreq;		/* requests it carried */
	struct buf head;	/* the request line and header fields */
	size_t wlen, woff;	/* request bytes in all, written so far */
};

struct h1eng {
	struct origin **orgs;
	size_t norgs;
	struct h1conn **byfd;
	size_t nbyfd;
	struct h1conn *all;
	size_t nconns;		/* on the all list: busy, idle and sessions' */
	size_t nidle, maxidle;
	int own_host;		/* -H gave a Host header */
	struct xfer *thead, *ttail;	/* in flight, oldest first: timeouts */
	struct xfer *dhead, *dtail;	/* ended or to be resent: drained by the loop */
	char *rbuf;		/* epoll's reads; NULL on io_uring */
	int uring;		/* the loop's ring receives (evloop_recv) */
};

int
h1conn_wants(const struct sender *s, const char *base)
{
	switch (s->o->engine) {
	case ENGINE_H1: return 1;
	case ENGINE_CURL: return 0;
	default: return !strncasecmp(base, "http://", 7);
	}
}

/* Whether -H gave a Host header of its own ("Host: ..." or "Host;"). */
static int
own_host(const struct options *o)
{
	for (size_t i = 0; i < o->nheaders; i++)
		if (!strncasecmp(o->headers[i], "host", 4) &&
		    (o->headers[i][4] == ':' || o->headers[i][4] == ';'))
			return 1;
	return 0;
}

static struct h1eng *
eng(struct sender *s)
{
	if (!s->h1) {
		s->h1 = xcalloc(1, sizeof(*s->h1));
		s->h1->uring = evloop_has_uring(s->loop);
		if (!s->h1->uring)
			s->h1->rbuf = xmalloc(READ_BUF);
		s->h1->own_host = own_host(s->o);
		s->h1->maxidle = s->o->concurrency ? (size_t)s->o->concurrency : 1024;
		if (s->o->wconcurrency > (long)s->h1->maxidle)
			s->h1->maxidle = (size_t)s->o->wconcurrency;
		if (s->h1->maxidle > s->fd_cap)
			s->h1->maxidle = s->fd_cap;
	}
	return s->h1;
}

/* "http://user@host:port/path?q" → its authority and request target. */
static void
split_url(const char *url, const char **auth, size_t *alen, const char **target)
{
	const char *p = strstr(url, "://");

	p = p ? p + 3 : url;
	*auth = p;
	*alen = strcspn(p, "/?#");
	*target = p + *alen;
}

static void
origin_init(struct origin *o, const char *auth, size_t alen)
{
	const char *at = memchr(auth, '@', alen), *h = at ? at + 1 : auth;
	size_t hl = alen - (size_t)(h - auth);
	const char *c = NULL;

	memset(o, 0, sizeof(*o));
	o->key = xstrndup(auth, alen);
	o->keylen = alen;
	o->auth = xstrndup(h, hl);
	o->authlen = hl;
	if (h[0] == '[') {
		const char *rb = memchr(h, ']', hl);
		size_t e = rb ? (size_t)(rb - h) : hl;
		o->host = xstrndup(h + 1, e ? e - 1 : 0);
		c = rb && rb + 1 < h + hl && rb[1] == ':' ? rb + 1 : NULL;
	} else {
		for (size_t i = hl; i-- > 0;)
			if (h[i] == ':') {
				c = h + i;
				break;
			}
		o->host = xstrndup(h, c ? (size_t)(c - h) : hl);
	}
	o->port = c && c + 1 < h + hl ? xstrndup(c + 1, hl - (size_t)(c + 1 - h))
				      : xstrdup("80");
}

static struct origin *
origin_get(struct h1eng *e, const char *auth, size_t alen)
{
	for (size_t i = 0; i < e->norgs; i++)
		if (e->orgs[i]->keylen == alen && !memcmp(e->orgs[i]->key, auth, alen))
			return e->orgs[i];
	e->orgs = xreallocarray(e->orgs, e->norgs + 1, sizeof(*e->orgs));
	e->orgs[e->norgs] = xmalloc(sizeof(struct origin));
	origin_init(e->orgs[e->norgs], auth, alen);
	return e->orgs[e->norgs++];
}

/* getaddrinfo once per origin; its time goes to the request that waited. */
static int
resolve(struct origin *o, struct xfer *x)
{
	struct addrinfo hints = { 0 }, *res, *ai;
	int64_t t0 = clock_now_ns();

	if (o->naddr > 0)
		return 0;
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(o->host, o->port, &hints, &res) != 0) {
		snprintf(x->curl_err, sizeof(x->curl_err), "Could not resolve host: %s", o->host);
		return -1;
	}
	/* IPv4 first: servers listening on 0.0.0.0 are the common case. */
	for (int v6 = 0; v6 < 2; v6++)
		for (ai = res; ai && o->naddr < MAX_ADDRS; ai = ai->ai_next)
			if ((ai->ai_family == AF_INET6) == v6 &&
			    ai->ai_addrlen <= sizeof(o->addr[0])) {
				memcpy(&o->addr[o->naddr], ai->ai_addr, ai->ai_addrlen);
				o->alen[o->naddr++] = ai->ai_addrlen;
			}
	freeaddrinfo(res);
	x->hs.dns_ns = clock_now_ns() - t0;
	if (o->naddr > 0)
		return 0;
	snprintf(x->curl_err, sizeof(x->curl_err), "Could not resolve host: %s", o->host);
	return -1;
}

static void on_event(struct evloop *l, int fd, unsigned events, void *ud);

/*
 * Watch c's socket for events (EVLOOP_*). On io_uring the ring receives
 * (on_data), so epoll only ever watches for writability: a socket that
 * waits for nothing else is not in the epoll set at all.
 */
static void
watch(struct sender *s, struct h1conn *c, unsigned events)
{
	int r;

	if (s->h1->uring)
		events &= ~(unsigned)EVLOOP_IN;
	if (c->events == events)
		return;
	if (!events)
		r = evloop_del(s->loop, c->fd);
	else if (c->events)
		r = evloop_mod(s->loop, c->fd, events);
	else
		r = evloop_add(s->loop, c->fd, events, on_event, s);
	if (r < 0)
		die("epoll:");
	c->events = events;
}

static void
idle_unlink(struct h1eng *e, struct h1conn *c)
{
	if (c->prev)
		c->prev->next = c->next;
	else
		c->org->idle = c->next;
	if (c->next)
		c->next->prev = c->prev;
	c->prev = c->next = NULL;
	e->nidle--;
}

/* Close c wherever it is: busy (its transfer is detached), idle or a session's. */
void
h1conn_close(struct sender *s, struct h1conn *c)
{
	struct h1eng *e = s->h1;

	if (c->st == C_IDLE && !c->owner)
		idle_unlink(e, c);
	if (c->owner && *c->owner == c)
		*c->owner = NULL;
	if (c->x)
		c->x->conn = NULL;
	if (c->aprev)
		c->aprev->anext = c->anext;
	else
		e->all = c->anext;
	if (c->anext)
		c->anext->aprev = c->aprev;
	e->nconns--;
	if (c->fd >= 0) {	/* -1: a retry on the next address found no socket */
		e->byfd[c->fd] = NULL;
		evloop_forget(s->loop, c->fd);
		close(c->fd);
	}
	h1_release(&c->p);
	buf_release(&c->head);
	free(c);
}

static int on_line(void *ctx, const char *p, size_t n);
static int on_body(void *ctx, const char *p, size_t n);

static void
track_fd(struct h1eng *e, struct h1conn *c)
{
	if ((size_t)c->fd >= e->nbyfd) {
		size_t n = e->nbyfd ? e->nbyfd : 1024;
		while (n <= (size_t)c->fd)
			n *= 2;
		e->byfd = xreallocarray(e->byfd, n, sizeof(*e->byfd));
		memset(e->byfd + e->nbyfd, 0, (n - e->nbyfd) * sizeof(*e->byfd));
		e->nbyfd = n;
	}
	e->byfd[c->fd] = c;
}

/* Start connecting to address c->ai; 0, or -1 when the socket cannot be made. */
static int
dial(struct sender *s, struct h1conn *c)
{
	const struct origin *o = c->org;
	int one = 1;

	c->fd = socket(o->addr[c->ai].ss_family,
		       SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return -1;
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	track_fd(s->h1, c);
	c->events = 0;
	c->cerr = 0;
	c->st = C_CONNECTING;
	if (connect(c->fd, (const struct sockaddr *)&o->addr[c->ai], o->alen[c->ai]) < 0 &&
	    errno != EINPROGRESS)
		c->cerr = errno ? errno : ECONNREFUSED;	/* EVLOOP_OUT comes at once */
	watch(s, c, EVLOOP_IN | EVLOOP_OUT);
	return 0;
}

static struct h1conn *
conn_new(struct sender *s, struct origin *o)
{
	struct h1eng *e = s->h1;
	struct h1conn *c = xcalloc(1, sizeof(*c));

	c->org = o;
	c->t0 = clock_now_ns();
	if (dial(s, c) < 0) {
		free(c);
		return NULL;
	}
	h1_init(&c->p, MAX_LINE, MAX_HEAD, on_line, on_body, NULL);
	buf_init(&c->head, BUF_NOMAX);
	c->anext = e->all;
	if (e->all)
		e->all->aprev = c;
	e->all = c;
	e->nconns++;
	return c;
}

/* The end of a transfer goes through the loop's drain, never from inside an event. */
static void
defer(struct h1eng *e, struct xfer *x)
{
	x->next = NULL;
	if (e->dtail)
		e->dtail->next = x;
	else
		e->dhead = x;
	e->dtail = x;
}

static void
undefer(struct h1eng *e, struct xfer *x)
{
	struct xfer *prev = NULL;

	for (struct xfer *p = e->dhead; p; prev = p, p = p->next) {
		if (p != x)
			continue;
		if (prev)
			prev->next = p->next;
		else
			e->dhead = p->next;
		if (e->dtail == p)
			e->dtail = prev;
		x->next = NULL;
		return;
	}
}

static void
tlist_unlink(struct h1eng *e, struct xfer *x)
{
	if (x->tprev)
		x->tprev->tnext = x->tnext;
	else if (e->thead == x)
		e->thead = x->tnext;
	else
		return;		/* not on the list */
	if (x->tnext)
		x->tnext->tprev = x->tprev;
	else
		e->ttail = x->tprev;
	x->tprev = x->tnext = NULL;
}

static void
detach(struct xfer *x)
{
	if (x->conn) {
		x->conn->x = NULL;
		x->conn = NULL;
	}
}

/* x ended with rc (its message in x->curl_err): off its connection, to the drain. */
static void
end(struct sender *s, struct xfer *x, CURLcode rc)
{
	tlist_unlink(s->h1, x);
	x->hs.total_ns = (rc == CURLE_OK && x->io_ns > 0 ? x->io_ns : clock_now_ns()) -
			 x->start_ns;
	x->redo = -(int)rc;
	detach(x);
	defer(s->h1, x);
}

static void conn_fail(struct sender *s, struct h1conn *c, CURLcode rc,
		      const char *fmt, ...) FMT(4, 5);

/* c's transfer fails with this message; c closes. */
static void
conn_fail(struct sender *s, struct h1conn *c, CURLcode rc, const char *fmt, ...)
{
	va_list ap;
	struct xfer *x = c->x;

	if (x) {
		va_start(ap, fmt);
		vsnprintf(x->curl_err, sizeof(x->curl_err), fmt, ap);
		va_end(ap);
		end(s, x, rc);
	}
	h1conn_close(s, c);
}

/*
 * A kept-alive connection the server had closed before it saw our request:
 * resend once on a fresh connection, as libcurl does.
 */
static int
retry(struct sender *s, struct h1conn *c)
{
	struct xfer *x = c->x;

	if (!x || x->retried || !x->hs.reused || h1_started(&c->p))
		return 0;
	x->retried = 1;
	x->redo = 1;
	x->hs.sent = 0;
	x->sent_ns = -1;
	detach(x);
	defer(s->h1, x);
	h1conn_close(s, c);
	return 1;
}

/* Write the request head and body: 0, or -1 on a send error (errno). */
static int
send_some(struct sender *s, struct h1conn *c)
{
	struct xfer *x = c->x;
	size_t hl = c->head.len;

	while (c->woff < c->wlen) {
		struct iovec iov[2];
		int n = 0;
		if (c->woff < hl)
			iov[n++] = (struct iovec){ c->head.s + c->woff, hl - c->woff };
		size_t b = c->woff > hl ? c->woff - hl : 0;
		if (x->body_len > b)
			iov[n++] = (struct iovec){ x->body + b, x->body_len - b };
		ssize_t w = writev(c->fd, iov, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN) {
			watch(s, c, EVLOOP_IN | EVLOOP_OUT);
			return 0;
		}
		if (w < 0)
			return -1;
		if (!c->woff)	/* its first bytes are on the wire: it starts now */
			x->sent_ns = clock_now_ns();
		c->woff += (size_t)w;
		x->hs.sent += w;
	}
	watch(s, c, EVLOOP_IN);
	return 0;
}

static void
send_or_fail(struct sender *s, struct h1conn *c)
{
	if (send_some(s, c) == 0)
		return;
	if ((errno == EPIPE || errno == ECONNRESET) && retry(s, c))
		return;
	conn_fail(s, c, CURLE_SEND_ERROR, "Send failure: %s", util_strerror(errno));
}

/* One header line onto the wire, by libcurl's rules for its header list. */
static void
wire_header(void *ctx, const char *d, size_t n)
{
	struct buf *b = ctx;
	const char *colon = memchr(d, ':', n);

	if (colon && !colon[1 + strspn(colon + 1, " \t")])
		return;		/* "Name:" drops a header; we add none but Host */
	if (!colon && n && d[n - 1] == ';') {
		buf_add(b, d, n - 1);
		buf_add(b, ":\r\n", 3);
		return;
	}
	buf_add(b, d, n);
	buf_add(b, "\r\n", 2);
}

/* The request head: request line, Host, x's header lines, Content-Length. */
static void
build_head(struct sender *s, struct h1conn *c, struct xfer *x, const char *target)
{
	struct buf *b = &c->head;
	char num[24], *p = num + sizeof(num);
	size_t len = x->body_len;

	buf_reset(b);
	if (vjob_get(x))
		buf_add(b, "GET ", 4);
	else
		buf_add(b, "POST ", 5);
	if (*target != '/')
		buf_addch(b, '/');
	buf_addstr(b, target);
	buf_add(b, " HTTP/1.1\r\n", 11);
	if (!s->h1->own_host) {
		buf_add(b, "Host: ", 6);
		buf_add(b, c->org->auth, c->org->authlen);
		buf_add(b, "\r\n", 2);
	}
	xfer_each_header(x, wire_header, b);
	do
		*--p = (char)('0' + len % 10);
	while (len /= 10);
	buf_add(b, "Content-Length: ", 16);
	buf_add(b, p, (size_t)(num + sizeof(num) - p));
	buf_add(b, "\r\n\r\n", 4);
}

/* Hand x to c and send it (at once, or when c has connected). */
static void
assign(struct sender *s, struct h1conn *c, struct xfer *x, const char *target)
{
	c->x = x;
	x->conn = c;
	if (c->st == C_IDLE)
		c->st = C_BUSY;
	x->hs.reused = c->nreq > 0;
	h1_reset(&c->p);
	c->p.ctx = x;
	build_head(s, c, x, target);
	c->wlen = c->head.len + x->body_len;
	c->woff = 0;
	c->nreq++;
	if (c->st == C_BUSY)
		send_or_fail(s, c);
}

/* Whether x's connection must close after it (--connection-reuse-strategy). */
static int
forbid_reuse(struct sender *s, struct xfer *x)
{
	switch (s->o->reuse) {
	case REUSE_NEVER: return 1;
	case REUSE_STICKY: return !sess_conn(x) || x->turn_index + 1 >= x->num_turns;
	default: return 0;
	}
}

/* An idle connection to reuse for x, or NULL (taken off its list). */
static struct h1conn *
reuse(struct sender *s, struct xfer *x, struct origin *o)
{
	struct h1conn **slot = sess_conn(x), *c;

	if (s->o->reuse == REUSE_NEVER || (s->o->reuse == REUSE_STICKY && !slot))
		return NULL;
	if (slot) {
		if ((c = *slot) && c->org != o) {
			h1conn_close(s, c);
			c = NULL;
		}
		return c;
	}
	if ((c = o->idle))
		idle_unlink(s->h1, c);
	return c;
}

/*
 * At the descriptor cap, idle kept-alive connections (to other origins:
 * this one had none to reuse) give way to a new one, as libcurl's
 * connection cache does under CURLMOPT_MAX_TOTAL_CONNECTIONS.
 */
static void
make_room(struct sender *s)
{
	struct h1eng *e = s->h1;

	for (size_t i = 0; i < e->norgs && e->nconns >= s->fd_cap; i++)
		while (e->orgs[i]->idle && e->nconns >= s->fd_cap)
			h1conn_close(s, e->orgs[i]->idle);
}

/* A new connection for x; NULL when x has ended. */
static struct h1conn *
fresh(struct sender *s, struct xfer *x, struct origin *o)
{
	struct h1conn **slot = sess_conn(x), *c;

	if (resolve(o, x) < 0) {
		end(s, x, CURLE_COULDNT_RESOLVE_HOST);
		return NULL;
	}
	make_room(s);
	if (!(c = conn_new(s, o))) {
		snprintf(x->curl_err, sizeof(x->curl_err),
			 "Could not create a socket: %s", util_strerror(errno));
		end(s, x, CURLE_COULDNT_CONNECT);
		return NULL;
	}
	if (slot) {
		if (*slot)
			h1conn_close(s, *slot);
		*slot = c;
		c->owner = slot;
	}
	return c;
}

static void
send_on(struct sender *s, struct xfer *x)
{
	const char *auth, *target;
	size_t alen;

	split_url(x->url, &auth, &alen, &target);
	struct origin *o = origin_get(s->h1, auth, alen);
	struct h1conn *c = x->retried ? NULL : reuse(s, x, o);
	if (!c && !(c = fresh(s, x, o)))
		return;
	assign(s, c, x, target);
}

void
h1conn_start(struct sender *s, struct xfer *x)
{
	struct h1eng *e = eng(s);

	x->hs.version = "1.1";
	x->tprev = e->ttail;
	x->tnext = NULL;
	if (e->ttail)
		e->ttail->tnext = x;
	else
		e->thead = x;
	e->ttail = x;
	send_on(s, x);
}

/* Parser callbacks: the libcurl path's, so records come out the same. */
static int
on_line(void *ctx, const char *p, size_t n)
{
	struct xfer *x = ctx;

	/* the version the server answered with (h1.c takes only 1.0 and 1.1) */
	if (n > 8 && !memcmp(p, "HTTP/1.", 7))
		x->hs.version = p[7] == '0' ? "1.0" : "1.1";
	cb_header((char *)p, 1, n, ctx);
	return 0;
}

static int
on_body(void *ctx, const char *p, size_t n)
{
	return cb_write((char *)p, 1, n, ctx) == n ? 0 : -1;
}

/* The response is complete; junk: bytes came after it. */
static void
complete(struct sender *s, struct h1conn *c, int junk)
{
	struct xfer *x = c->x;
	struct h1eng *e = s->h1;
	/* A response before the whole request went out leaves the stream unusable. */
	int keep = (c->p.flags & H1_KEEPALIVE) && !junk && c->woff == c->wlen &&
		   !forbid_reuse(s, x);

	x->hs.received = (int64_t)c->p.nbytes;
	end(s, x, CURLE_OK);
	if (!keep || (!c->owner && e->nidle >= e->maxidle)) {
		h1conn_close(s, c);
		return;
	}
	c->st = C_IDLE;
	if (c->owner)
		return;		/* the session keeps it */
	c->prev = NULL;
	c->next = c->org->idle;
	if (c->next)
		c->next->prev = c;
	c->org->idle = c;
	e->nidle++;
}

static void
closed(struct sender *s, struct h1conn *c)
{
	struct h1 *p = &c->p;

	if (h1_eof(p) == 0) {
		c->x->hs.received = (int64_t)p->nbytes;
		complete(s, c, 1);
	} else if (retry(s, c)) {
		return;
	} else if (!h1_started(p)) {
		conn_fail(s, c, CURLE_GOT_NOTHING, "Empty reply from server");
	} else if ((p->flags & H1_HEAD_DONE) && !(p->flags & H1_CHUNKED)) {
		conn_fail(s, c, CURLE_PARTIAL_FILE,
			  "transfer closed with %llu bytes remaining to read",
			  (unsigned long long)p->left);
	} else {
		conn_fail(s, c, CURLE_PARTIAL_FILE, "%s", p->err);
	}
}

/*
 * One read's outcome: n bytes at p, 0 at the end of the stream, or -errno.
 * 1: c is done with (its response ended, or it closed), 0: read on.
 */
static int
got(struct sender *s, struct h1conn *c, const char *p, long n)
{
	struct xfer *x = c->x;

	if (n < 0) {
		if (n == -ECONNRESET && retry(s, c))
			return 1;
		conn_fail(s, c, CURLE_RECV_ERROR, "Recv failure: %s", util_strerror((int)-n));
		return 1;
	}
	if (n == 0) {
		closed(s, c);
		return 1;
	}
	x->hs.received += n;	/* complete() counts exactly, without junk */
	/* One arrival stamp per socket event (cb.c stamps the same way). */
	if (x->io_seq != s->io_seq) {
		x->io_seq = s->io_seq;
		x->io_ns = clock_now_ns();
	}
	if (!h1_started(&c->p))
		x->hs.ttfb_ns = x->io_ns - x->start_ns;
	long u = h1_feed(&c->p, p, (size_t)n);
	if (u < 0) {
		if (c->p.flags & H1_ABORTED)
			conn_fail(s, c, CURLE_WRITE_ERROR, "%s", "");
		else
			conn_fail(s, c, CURLE_RECV_ERROR, "Invalid HTTP response: %s", c->p.err);
		return 1;
	}
	if (c->p.flags & H1_DONE) {
		complete(s, c, u < n);
		return 1;
	}
	return 0;
}

/* epoll: read what the socket has, up to a short read. */
static void
readable(struct sender *s, struct h1conn *c)
{
	struct h1eng *e = s->h1;

	for (;;) {
		ssize_t n = read(c->fd, e->rbuf, READ_BUF);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (got(s, c, e->rbuf, n < 0 ? -(long)errno : (long)n) || n < READ_BUF)
			return;
	}
}

/*
 * The connection on fd that an event (epoll) or a completion (io_uring)
 * woke, counted in io_seq; NULL when fd is none of ours, or when it was an
 * idle kept-alive one (the server closed it, or sent junk: closed here).
 */
static struct h1conn *
woken(struct sender *s, int fd)
{
	struct h1eng *e = s->h1;
	struct h1conn *c;

	if (!e || (size_t)fd >= e->nbyfd || !(c = e->byfd[fd]))
		return NULL;
	s->io_seq++;
	if (!c->x) {
		h1conn_close(s, c);
		return NULL;
	}
	return c;
}

/* io_uring: a receive on a connection's socket completed (evloop_data_fn). */
static void
on_data(struct evloop *l, int fd, const char *p, long n, void *ud)
{
	struct sender *s = ud;
	struct h1conn *c = woken(s, fd);

	(void)l;
	if (c)
		got(s, c, p, n);
}

/* The socket of a connection in progress is writable: connected, or not. */
static void
connected(struct sender *s, struct h1conn *c)
{
	int err = c->cerr;
	socklen_t len = sizeof(err);
	struct origin *o = c->org;

	if (!err && getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
		err = errno;
	if (err && c->ai + 1 < o->naddr) {
		s->h1->byfd[c->fd] = NULL;
		evloop_forget(s->loop, c->fd);
		close(c->fd);
		c->ai++;
		if (dial(s, c) == 0)
			return;
	}
	if (err) {
		conn_fail(s, c, CURLE_COULDNT_CONNECT,
			  "Failed to connect to %s port %s after %lld ms: Couldn't connect to server",
			  o->host, o->port, (long long)((clock_now_ns() - c->t0) / 1000000));
		return;
	}
	c->st = C_BUSY;
	c->x->hs.connect_ns = clock_now_ns() - c->t0;
	if (s->h1->uring && evloop_recv(s->loop, c->fd, on_data, s) < 0)
		die("io_uring:");
	send_or_fail(s, c);
}

/* One of our sockets is ready. */
static void
on_event(struct evloop *l, int fd, unsigned events, void *ud)
{
	struct sender *s = ud;
	struct h1eng *e = s->h1;
	struct h1conn *c = woken(s, fd);

	(void)l;
	if (!c)
		return;
	if (c->st == C_CONNECTING) {
		if (events & (EVLOOP_OUT | EVLOOP_ERR | EVLOOP_HUP))
			connected(s, c);
		return;
	}
	/* On io_uring an error wakes only a socket that waits to write: it writes. */
	if ((events & (EVLOOP_OUT | (e->uring ? EVLOOP_ERR | EVLOOP_HUP : 0u))) &&
	    c->woff < c->wlen) {
		send_or_fail(s, c);
		if (!e->byfd[fd] || c->x == NULL)
			return;
	}
	/* On io_uring the ring reports the end or the error (on_data). */
	if (!e->uring && (events & (EVLOOP_IN | EVLOOP_HUP | EVLOOP_ERR)))
		readable(s, c);
}

/* x is cancelled: its connection closes (the loop records it). */
void
h1conn_abort(struct sender *s, struct xfer *x)
{
	struct h1eng *e = s->h1;

	if (!e)
		return;
	tlist_unlink(e, x);
	undefer(e, x);
	if (x->conn)
		h1conn_close(s, x->conn);
	x->hs.total_ns = clock_now_ns() - x->start_ns;
}

/* Record what ended, resend what must be resent. */
void
h1conn_drain(struct sender *s)
{
	struct h1eng *e = s->h1;
	struct xfer *x;

	while (e && (x = e->dhead)) {
		e->dhead = x->next;
		if (!e->dhead)
			e->dtail = NULL;
		x->next = NULL;
		if (x->redo == 1) {
			x->redo = 0;
			send_on(s, x);
			continue;
		}
		CURLcode rc = (CURLcode)-x->redo;
		x->redo = 0;
		sender_finish(s, x, rc);
	}
}

/* When h1conn_timers must run next (monotonic ns), or -1. */
int64_t
h1conn_due(const struct sender *s)
{
	const struct h1eng *e = s->h1;

	if (!e)
		return -1;
	if (e->dhead)
		return 0;
	return e->thead ? e->thead->start_ns + s->o->timeout_ns : -1;
}

/* --request-timeout-seconds: every request has the same, so the oldest goes first. */
void
h1conn_timers(struct sender *s, int64_t now)
{
	struct h1eng *e = s->h1;
	struct xfer *x;

	while (e && (x = e->thead) && x->start_ns + s->o->timeout_ns <= now) {
		if (x->redo == 1) {	/* waiting to be resent */
			tlist_unlink(e, x);
			x->redo = -(int)CURLE_OPERATION_TIMEDOUT;
			continue;
		}
		if (x->conn)
			h1conn_close(s, x->conn);
		end(s, x, CURLE_OPERATION_TIMEDOUT);
	}
}

void
h1conn_release(struct sender *s)
{
	struct h1eng *e = s->h1;

	if (!e)
		return;
	while (e->all)
		h1conn_close(s, e->all);
	for (size_t i = 0; i < e->norgs; i++) {
		free(e->orgs[i]->key);
		free(e->orgs[i]->auth);
		free(e->orgs[i]->host);
		free(e->orgs[i]->port);
		free(e->orgs[i]);
	}
	free(e->orgs);
	free(e->byfd);
	free(e->rbuf);
	free(e);
	s->h1 = NULL;
}
