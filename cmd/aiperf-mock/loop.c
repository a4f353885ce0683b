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

#include "json.h"
#include "util.h"

/* epoll data tags for the two non-connection descriptors. */
static char tag_listen, tag_timer;

static int
listen_on(const struct addrinfo *ai)
{
	int fd, one = 1;

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    ai->ai_protocol);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, 65535) < 0) {
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

static int
epoll_add(struct server *s, int fd, void *ptr, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.ptr = ptr };

	return epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev);
}

int
server_listen(struct server *s, const char *host, int port, char *url,
	      size_t urlsz)
{
	struct addrinfo hints = { .ai_flags = AI_PASSIVE | AI_NUMERICSERV,
				  .ai_socktype = SOCK_STREAM }, *res, *ai;
	char portstr[16];
	int rc;

	snprintf(portstr, sizeof(portstr), "%d", port);
	rc = getaddrinfo(host, portstr, &hints, &res);
	if (rc)
		return error("cannot resolve '%s': %s", host, gai_strerror(rc));
	s->lfd = -1;
	for (ai = res; ai && s->lfd < 0; ai = ai->ai_next)
		s->lfd = listen_on(ai);
	freeaddrinfo(res);
	if (s->lfd < 0)
		return error("cannot listen on '%s' port %d:", host, port);
	format_url(s->lfd, host, url, urlsz);
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	s->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	s->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (s->epfd < 0 || s->tfd < 0 ||
	    epoll_add(s, s->lfd, &tag_listen, EPOLLIN) < 0 ||
	    epoll_add(s, s->tfd, &tag_timer, EPOLLIN) < 0)
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
	heap_del(s, c);
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
	heap_set(c->srv, c, deadline);
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
	c->out_off = 0;
	want_out(c, 0);
	conn_idle(c);
}

static void
on_readable(struct conn *c)
{
	for (;;) {
		if (buf_grow(&c->in, 16384) < 0) {
			if (c->r) {
				conn_close(c);
				return;
			}
			c->flags |= CONN_CLOSE_AFTER;
			http_error(c, 413, "invalid_request_error",
				   "request too large");
			conn_idle(c);
			return;
		}
		size_t room = c->in.cap - c->in.len - 1;
		ssize_t r = read(c->fd, c->in.s + c->in.len, room);
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
		c->in.len += (size_t)r;
		c->in.s[c->in.len] = '\0';
		if ((size_t)r < room)
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
	buf_init(&c->in, MOCK_MAX_HEAD + MOCK_MAX_BODY + 16384);
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
shed(struct server *s)
{
	static int warned;

	if (!warned++)
		warn("accept: out of file descriptors; dropping connections");
	close(s->spare_fd);
	int fd = accept(s->lfd, NULL, NULL);
	if (fd >= 0)
		close(fd);
	s->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static void
on_accept(struct server *s)
{
	for (int i = 0; i < 1024; i++) {
		int fd = accept4(s->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE)
				shed(s);
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

	while ((c = heap_top(s)) && c->deadline <= now) {
		heap_del(s, c);
		gen_timer(c, now);
	}
}

static void
rearm(struct server *s)
{
	struct conn *top = heap_top(s);
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

static void
dispatch(struct server *s, const struct epoll_event *ev)
{
	if (ev->data.ptr == &tag_listen) {
		on_accept(s);
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
	while (!*stop) {
		int n = epoll_pwait(s->epfd, evs, 1024, -1, &waitmask);
		if (n < 0 && errno != EINTR)
			return error("epoll_wait:");
		for (int i = 0; i < n; i++)
			dispatch(s, &evs[i]);
		run_timers(s);
		reap(s);
		rearm(s);
	}
	return 0;
}

void
server_release(struct server *s)
{
	if (s->lfd >= 0)
		close(s->lfd);
	while (s->conns)
		conn_close(s->conns);
	reap(s);
	close(s->epfd);
	close(s->tfd);
	close(s->spare_fd);
	free(s->heap);
	buf_release(&s->scratch);
	json_doc_free(s->doc);
}
