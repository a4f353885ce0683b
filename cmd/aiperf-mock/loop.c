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
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <unistd.h>

#include "json/json.h"
#include "util.h"

/* epoll data tag of the timerfd; listeners are tagged with &s->lfds[i]. */
static char tag_timer;

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

static int
epoll_add(struct server *s, int fd, void *ptr, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.ptr = ptr };

	return epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev);
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

int
server_init(struct server *s)
{
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	s->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	s->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (s->epfd < 0 || s->tfd < 0 ||
	    epoll_add(s, s->tfd, &tag_timer, EPOLLIN) < 0)
		return error("cannot set up epoll:");
	for (int i = 0; i < s->nlfd; i++)
		if (epoll_add(s, s->lfds[i], &s->lfds[i], EPOLLIN) < 0)
			return error("cannot set up epoll:");
	return 0;
}

static void
set_events(struct conn *c, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.ptr = c };

	epoll_ctl(c->srv->epfd, EPOLL_CTL_MOD, c->fd, &ev);
}

static uint32_t
conn_events(const struct conn *c)
{
	uint32_t ev = (c->flags & CONN_PEER_EOF) ? 0 : EPOLLIN | EPOLLRDHUP;

	return ev | ((c->flags & CONN_WANT_OUT) ? EPOLLOUT : 0);
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
		resp_free(c->r);
		c->r = NULL;
		s->c.in_flight--;
		s->c.aborted++;
	}
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
	 * it (a huge non-streaming body) may still be queued whole. */
	if (c->out.len == 0 && n - (size_t)w > MOCK_MAX_OUT)
		c->out.max = n - (size_t)w;
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
	if (epoll_add(s, fd, c, conn_events(c)) < 0) {
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
on_accept(struct server *s, int lfd)
{
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
	int64_t now = mono_ns();
	struct conn *c;

	while ((c = timer_top(s)) && c->deadline <= now) {
		timer_del(s, c);
		gen_timer(c, now);
	}
}

static void
rearm(struct server *s)
{
	struct conn *top = timer_top(s);
	int64_t want = top ? top->deadline : 0;
	struct itimerspec its = { 0 };

	if (want == s->armed)
		return;
	if (want > 0) {
		its.it_value.tv_sec = want / 1000000000;
		its.it_value.tv_nsec = want % 1000000000;
	}
	timerfd_settime(s->tfd, TFD_TIMER_ABSTIME, &its, NULL);
	s->armed = want;
}

/* The listening socket an epoll tag stands for, or -1. */
static int
listener(const struct server *s, const void *tag)
{
	for (int i = 0; i < s->nlfd; i++)
		if (tag == &s->lfds[i])
			return s->lfds[i];
	return -1;
}

static void
dispatch(struct server *s, const struct epoll_event *ev)
{
	int lfd = listener(s, ev->data.ptr);

	if (lfd >= 0) {
		on_accept(s, lfd);
	} else if (ev->data.ptr == &tag_timer) {
		uint64_t n;
		if (read(s->tfd, &n, sizeof(n)) < 0)
			return;
		s->armed = 0;	/* fired: it is disarmed now */
	} else {
		struct conn *c = ev->data.ptr;
		if (!(c->flags & CONN_DEAD) && (ev->events & EPOLLOUT))
			on_writable(c);
		if (!(c->flags & CONN_DEAD) &&
		    (ev->events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)))
			on_readable(c);
	}
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

/* Wait for events until the earliest deadline. epoll_pwait2 (Linux 5.11)
 * takes a nanosecond timeout, which saves the timerfd's two system calls
 * per wake-up; older kernels fall back to the timerfd. */
static int
wait_events(struct server *s, struct epoll_event *evs, int max,
	    const sigset_t *mask)
{
	struct conn *top = timer_top(s);
	struct timespec ts;

	if (s->use_pwait2) {
		int64_t d = top ? top->deadline - mono_ns() : -1;
		if (d < 0 && top)
			d = 0;
		ts.tv_sec = d / 1000000000;
		ts.tv_nsec = d % 1000000000;
		int n = epoll_pwait2(s->epfd, evs, max, top ? &ts : NULL, mask);
		if (n >= 0 || errno != ENOSYS)
			return n;
		s->use_pwait2 = 0;
	}
	rearm(s);
	return epoll_pwait(s->epfd, evs, max, -1, mask);
}

int
server_run(struct server *s, volatile sig_atomic_t *stop)
{
	struct epoll_event evs[1024];
	sigset_t block, waitmask;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &waitmask);
	sigdelset(&waitmask, SIGINT);
	sigdelset(&waitmask, SIGTERM);
	s->use_pwait2 = 1;
	while (!*stop) {
		int n = wait_events(s, evs, 1024, &waitmask);
		if (n < 0 && errno != EINTR)
			return error("epoll_wait:");
		for (int i = 0; i < n; i++)
			dispatch(s, &evs[i]);
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
	close(s->epfd);
	close(s->tfd);
	close(s->spare_fd);
	heap_release(&s->timers);
	buf_release(&s->scratch);
	free(s->rbuf);
	json_doc_free(s->doc);
}
