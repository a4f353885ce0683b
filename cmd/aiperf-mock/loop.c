/* SPDX-License-Identifier: Apache-2.0 */
/* The event loop: listener, connections, non-blocking I/O and timer dispatch. */
#define _GNU_SOURCE	/* accept4 */
#include "mock.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "evloop.h"
#include "json/json.h"
#include "util.h"

static int
listen_on(const struct sockaddr *sa, socklen_t salen, int reuseport)
{
	int fd, one = 1;

	fd = socket(sa->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (reuseport)
		setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one));
	if (bind(fd, sa, salen) < 0 || listen(fd, 65535) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static void
format_url(int fd, const char *host, char *url, size_t urlsz)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int port = 0;

	if (getsockname(fd, (struct sockaddr *)&ss, &len) == 0)
		port = ntohs(ss.ss_family == AF_INET6 ?
			     ((struct sockaddr_in6 *)&ss)->sin6_port :
			     ((struct sockaddr_in *)&ss)->sin_port);
	snprintf(url, urlsz, strchr(host, ':') ? "http://[%s]:%d" : "http://%s:%d",
		 host, port);
}

int
server_listen(struct server *s, const char *host, int port, int reuseport,
	      char *url, size_t urlsz)
{
	struct addrinfo hints = { .ai_flags = AI_PASSIVE | AI_NUMERICSERV,
				  .ai_socktype = SOCK_STREAM }, *res, *ai;
	char portstr[16];
	int rc;

	int fd = -1;

	snprintf(portstr, sizeof(portstr), "%d", port);
	rc = getaddrinfo(host, portstr, &hints, &res);
	if (rc)
		return error("cannot resolve '%s': %s", host, gai_strerror(rc));
	/* IPv4 first: "localhost" then means what most clients try first. */
	for (int pass = 0; pass < 2 && fd < 0; pass++)
		for (ai = res; ai && fd < 0; ai = ai->ai_next)
			if ((ai->ai_family == AF_INET) == (pass == 0))
				fd = listen_on(ai->ai_addr, ai->ai_addrlen,
					       reuseport);
	freeaddrinfo(res);
	if (fd < 0)
		return error("cannot listen on '%s' port %d:", host, port);
	format_url(fd, host, url, urlsz);
	s->lfds[s->nlfd++] = fd;
	return 0;
}

int
server_rebind(struct server *s)
{
	for (int i = 0; i < s->nlfd; i++) {
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);

		if (getsockname(s->lfds[i], (struct sockaddr *)&ss, &len) < 0)
			return error("getsockname:");
		int fd = listen_on((struct sockaddr *)&ss, len, 1);
		if (fd < 0)
			return error("cannot listen on the same port again:");
		close(s->lfds[i]);
		s->lfds[i] = fd;
	}
	return 0;
}

static void on_accept(struct evloop *l, int lfd, unsigned events, void *ud);

int
server_init(struct server *s)
{
	s->loop = evloop_new(1024);
	s->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (!s->loop)
		return error("cannot set up epoll:");
	for (int i = 0; i < s->nlfd; i++)
		if (evloop_add(s->loop, s->lfds[i], EVLOOP_IN, on_accept, s) < 0)
			return error("cannot set up epoll:");
	return 0;
}

static void
set_events(struct conn *c, unsigned events)
{
	evloop_mod(c->srv->loop, c->fd, events);
}

static unsigned
conn_events(const struct conn *c)
{
	unsigned ev = (c->flags & CONN_PEER_EOF) ? 0 : EVLOOP_IN | EVLOOP_RDHUP;

	return ev | ((c->flags & CONN_WANT_OUT) ? EVLOOP_OUT : 0);
}

void
conn_close(struct conn *c)
{
	struct server *s = c->srv;

	if (c->flags & CONN_DEAD)
		return;
	c->flags |= CONN_DEAD;
	timer_del(s, c);
	if (c->r) {
		metrics_finish(s, c->r, 1);
		resp_free(c->r);
		c->r = NULL;
		s->c.in_flight--;
		s->c.aborted++;
	}
	evloop_forget(s->loop, c->fd);
	close(c->fd);
	s->c.conns_open--;
	if (c->prev)
		c->prev->next = c->next;
	else
		s->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	c->next = s->dead;
	s->dead = c;
}

void
conn_reset(struct conn *c)
{
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };

	if (!(c->flags & CONN_DEAD))
		setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	conn_close(c);
}

static void
conn_free(struct conn *c)
{
	buf_release(&c->in);
	buf_release(&c->out);
	free(c);
}

void
conn_arm(struct conn *c, int64_t deadline)
{
	timer_set(c->srv, c, deadline);
}

static void
want_out(struct conn *c, int on)
{
	unsigned was = c->flags & CONN_WANT_OUT;

	if (on)
		c->flags |= CONN_WANT_OUT;
	else
		c->flags &= ~(unsigned)CONN_WANT_OUT;
	if (was != (c->flags & CONN_WANT_OUT))
		set_events(c, conn_events(c));
}

void
conn_send(struct conn *c, const char *p, size_t n)
{
	ssize_t w = 0;

	if (c->flags & CONN_DEAD)
		return;
	if (c->out.len == c->out_off) {
		w = write(c->fd, p, n);
		if (w < 0 && errno != EAGAIN && errno != EINTR) {
			conn_close(c);
			return;
		}
		if (w < 0)
			w = 0;
	}
	if ((size_t)w == n)
		return;
	/* The cap stops a peer that does not read; one answer larger than
	 * it (a huge non-streaming body, a huge event) may still be queued
	 * whole, with the cap's room after it for what follows (a chunk's
	 * CRLF, the next events). */
	if (c->out.len == 0 && n - (size_t)w > MOCK_MAX_OUT)
		c->out.max = n - (size_t)w + MOCK_MAX_OUT;
	if (buf_add(&c->out, p + w, n - (size_t)w) < 0) {
		conn_close(c);	/* peer stopped reading: MOCK_MAX_OUT queued */
		return;
	}
	want_out(c, 1);
}

void
conn_idle(struct conn *c)
{
	if ((c->flags & CONN_DEAD) || c->r || c->out.len != c->out_off)
		return;
	if (c->flags & (CONN_CLOSE_AFTER | CONN_PEER_EOF))
		conn_close(c);
}

static void
on_writable(struct conn *c)
{
	while (c->out_off < c->out.len) {
		ssize_t w = write(c->fd, c->out.s + c->out_off,
				  c->out.len - c->out_off);
		if (w < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (w <= 0) {
			conn_close(c);
			return;
		}
		c->out_off += (size_t)w;
	}
	buf_release(&c->out);
	c->out.max = MOCK_MAX_OUT;
	c->out_off = 0;
	want_out(c, 0);
	conn_idle(c);
}

/* The input grew past its cap: refuse the request (or drop a stream). */
static void
too_large(struct conn *c)
{
	if (c->r) {
		conn_close(c);
		return;
	}
	c->flags |= CONN_CLOSE_AFTER;
	http_error(c, 413, "invalid_request_error", "request too large");
	conn_idle(c);
}

/* Reads go through one shared buffer so an idle connection holds no
 * input memory; only bytes not yet consumed are copied to c->in. */
static void
on_readable(struct conn *c)
{
	char *rbuf = c->srv->rbuf;

	for (;;) {
		ssize_t r = read(c->fd, rbuf, MOCK_READ_SIZE);
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			break;
		if (r < 0) {
			conn_close(c);
			return;
		}
		if (r == 0) {
			c->flags |= CONN_PEER_EOF;
			set_events(c, conn_events(c));
			break;
		}
		if (buf_add(&c->in, rbuf, (size_t)r) < 0) {
			too_large(c);
			return;
		}
		if (r < MOCK_READ_SIZE)
			break;
	}
	if (!c->r)
		http_process(c);
	conn_idle(c);
}

static void
reject(struct server *s, int fd)
{
	static const char msg[] =
		"HTTP/1.1 503 Service Unavailable\r\n"
		"Content-Type: application/json\r\nContent-Length: 85\r\n"
		"Connection: close\r\n\r\n"
		"{\"error\":{\"message\":\"too many connections\","
		"\"type\":\"service_unavailable\",\"code\":503}}\n";
	ssize_t w = write(fd, msg, sizeof(msg) - 1);

	(void)w;
	close(fd);
	s->c.conns_rejected++;
}

static void on_conn(struct evloop *l, int fd, unsigned events, void *ud);

static void
add_conn(struct server *s, int fd)
{
	struct conn *c = xcalloc(1, sizeof(*c));
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	c->srv = s;
	c->fd = fd;
	c->hidx = SIZE_MAX;
	buf_init(&c->in, MOCK_MAX_HEAD + MOCK_MAX_BODY + MOCK_READ_SIZE);
	buf_init(&c->out, MOCK_MAX_OUT);
	if (evloop_add(s->loop, fd, conn_events(c), on_conn, c) < 0) {
		close(fd);
		free(c);
		return;
	}
	c->next = s->conns;
	if (s->conns)
		s->conns->prev = c;
	s->conns = c;
	s->c.conns_open++;
	s->c.conns_total++;
}

/* Out of descriptors: take the pending connection with the spare one and
 * drop it, so a level-triggered listener does not spin. */
static void
shed(struct server *s, int lfd)
{
	static int warned;

	if (!warned++)
		warn("accept: out of file descriptors; dropping connections");
	close(s->spare_fd);
	int fd = accept(lfd, NULL, NULL);
	if (fd >= 0)
		close(fd);
	s->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static void
on_accept(struct evloop *l, int lfd, unsigned events, void *ud)
{
	struct server *s = ud;

	(void)l;
	(void)events;
	for (int i = 0; i < 1024; i++) {
		int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE)
				shed(s, lfd);
			else if (errno == EINTR || errno == ECONNABORTED)
				continue;
			return;
		}
		if (s->opt->max_connections &&
		    s->c.conns_open >= s->opt->max_connections)
			reject(s, fd);
		else
			add_conn(s, fd);
	}
}

static void
run_timers(struct server *s)
{
	int64_t now = clock_mono_ns();
	struct conn *c;

	while ((c = timer_top(s)) && c->deadline <= now) {
		timer_del(s, c);
		gen_timer(c, now);
	}
}

static void
on_conn(struct evloop *l, int fd, unsigned events, void *ud)
{
	struct conn *c = ud;

	(void)l;
	(void)fd;
	if (!(c->flags & CONN_DEAD) && (events & EVLOOP_OUT))
		on_writable(c);
	if (!(c->flags & CONN_DEAD) &&
	    (events & (EVLOOP_IN | EVLOOP_RDHUP | EVLOOP_HUP | EVLOOP_ERR)))
		on_readable(c);
}

static void
reap(struct server *s)
{
	while (s->dead) {
		struct conn *c = s->dead;
		s->dead = c->next;
		conn_free(c);
	}
}

static void
on_signal(struct evloop *l, int sig, void *ud)
{
	struct server *s = ud;

	(void)l;
	(void)sig;
	*s->stop = 1;
}

/* Wait for events until the earliest deadline, to the nanosecond. */
static int
wait_events(struct server *s)
{
	struct conn *top = timer_top(s);
	int64_t d = -1;

	if (top) {
		d = top->deadline - clock_mono_ns();
		if (d < 0)
			d = 0;
	}
	return evloop_run_once(s->loop, d);
}

int
server_run(struct server *s, volatile sig_atomic_t *stop)
{
	s->stop = stop;
	if (evloop_signal(s->loop, SIGINT, on_signal, s) < 0 ||
	    evloop_signal(s->loop, SIGTERM, on_signal, s) < 0)
		return error("cannot set up signals:");
	while (!*stop) {
		if (wait_events(s) < 0)
			return error("epoll_wait:");
		run_timers(s);
		reap(s);
	}
	return 0;
}

void
server_release(struct server *s)
{
	for (int i = 0; i < s->nlfd; i++)
		close(s->lfds[i]);
	while (s->conns)
		conn_close(s->conns);
	reap(s);
	evloop_free(s->loop);
	close(s->spare_fd);
	heap_release(&s->timers);
	buf_release(&s->scratch);
	free(s->rbuf);
	json_doc_free(s->doc);
}
