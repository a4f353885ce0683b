/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-plot --dashboard: serve the report folder over HTTP on one event loop, every connection bounded in number and time. */
#define _GNU_SOURCE	/* accept4 */
#include "plot.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "evloop.h"
#include "util.h"

/* The limits the man page states. */
#define MAX_CONNS 64
#define HEAD_NS ((int64_t)10 * 1000000000)	/* the whole head, from accept */
#define IDLE_NS ((int64_t)10 * 1000000000)	/* answering: no byte taken */
#define CHUNK ((size_t)1 << 20)			/* a file's bytes per turn */

/*
 * One connection, one request (Connection: close): its head is read, then
 * the answer's head (and short body) in out is sent, then the file's bytes
 * straight from it (sendfile). The list is in accept order, so the first
 * connection still reading is the one that has waited longest.
 */
struct conn {
	struct conn *prev, *next;
	struct server *srv;
	int fd;
	int answering;		/* the head is read */
	int file;		/* the file being sent, or -1 */
	off_t off, size;
	int64_t deadline;	/* CLOCK_MONOTONIC ns */
	size_t nin, nout, sent;
	char in[DASHREQ_MAX_HEAD];
	char out[512];
};

struct server {
	struct evloop *l;
	const char *dir;
	struct conn *first, *last;
	size_t n, max;		/* connections, and how many at most */
	int lfd;
	int spare;		/* /dev/null, given up when descriptors run out */
	int warned;
	volatile int stop;
};

static int
listen_on(const char *host, int port)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
	struct addrinfo *res, *a;
	char ps[16];
	int fd = -1, one = 1, rc;

	snprintf(ps, sizeof(ps), "%d", port);
	if ((rc = getaddrinfo(host, ps, &hints, &res)) != 0)
		return error("cannot resolve '%s': %s", host, gai_strerror(rc));
	for (a = res; a; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
			    a->ai_protocol);
		if (fd < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, a->ai_addr, a->ai_addrlen) == 0 && listen(fd, 128) == 0)
			break;
		rc = errno;
		close(fd);
		fd = -1;
		errno = rc;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return error("cannot listen on %s port %d:", host, port);
	return fd;
}

static int
bound_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t n = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &n) < 0)
		return -1;
	if (ss.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	return ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

static void
conn_close(struct server *s, struct conn *c)
{
	evloop_forget(s->l, c->fd);
	close(c->fd);
	if (c->file >= 0)
		close(c->file);
	if (c->prev)
		c->prev->next = c->next;
	else
		s->first = c->next;
	if (c->next)
		c->next->prev = c->prev;
	else
		s->last = c->prev;
	s->n--;
	free(c);
}

/* A connection given up on (its time ran out, or room was needed): reset,
 * so that what it would not take is dropped now, not kept for it by the
 * kernel after the close. */
static void
conn_abort(struct server *s, struct conn *c)
{
	struct linger lg = { 1, 0 };

	setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	conn_close(s, c);
}

static const char *
reason(int status)
{
	switch (status) {
	case 200: return "OK";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 417: return "Expectation Failed";
	case 431: return "Request Header Fields Too Large";
	case 501: return "Not Implemented";
	case 505: return "HTTP Version Not Supported";
	default: return "Bad Request";
	}
}

static const char *
mime(const char *name)
{
	const char *dot = strrchr(name, '.');

	if (!dot)
		return "application/octet-stream";
	if (!strcmp(dot, ".html"))
		return "text/html; charset=utf-8";
	if (!strcmp(dot, ".svg"))
		return "image/svg+xml";
	if (!strcmp(dot, ".png"))
		return "image/png";
	return "text/plain; charset=utf-8";
}

/* The file d names, when it is a regular file reached from the report
 * folder without a symbolic link: its descriptor, or -1. */
static int
open_served(const char *dir, const char *path, off_t *size)
{
	int at = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd;
	struct stat st;

	if (at < 0)
		return -1;
	fd = outdir_openfile(at, path, &st);
	close(at);
	*size = fd < 0 ? 0 : st.st_size;
	return fd;
}

static void send_more(struct server *s, struct conn *c);

/* The head is read: the answer's head in out, with the body of an error,
 * and the connection turned to sending. */
static void
answer(struct server *s, struct conn *c, const struct dashreq *d)
{
	int status = d->status, len;
	const char *body = "";

	if (status == 200 && (c->file = open_served(s->dir, d->path, &c->size)) < 0)
		status = 404;
	if (status != 200) {
		body = status == 404 ? "not found\n" : status == 405 ? "method not allowed\n" :
		       "bad request\n";
		c->size = (off_t)strlen(body);
	}
	len = snprintf(c->out, sizeof(c->out),
		       "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %lld\r\n"
		       "Cache-Control: no-store\r\nConnection: close\r\n\r\n%s",
		       status, reason(status), status == 200 ? mime(d->path) : "text/plain",
		       (long long)c->size, d->head ? "" : body);
	c->nout = (size_t)len < sizeof(c->out) ? (size_t)len : sizeof(c->out) - 1;
	if (d->head && c->file >= 0) {
		close(c->file);
		c->file = -1;
	}
	c->answering = 1;
	c->deadline = clock_mono_ns() + IDLE_NS;
	if (evloop_mod(s->l, c->fd, EVLOOP_OUT) < 0) {
		conn_close(s, c);
		return;
	}
	send_more(s, c);
}

static void
read_head(struct server *s, struct conn *c)
{
	struct dashreq d;
	ssize_t r = recv(c->fd, c->in + c->nin, sizeof(c->in) - c->nin, 0);

	if (r < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (r <= 0) {
		conn_close(s, c);
		return;
	}
	c->nin += (size_t)r;
	if (dashreq_parse(&d, c->in, c->nin))
		answer(s, c, &d);
}

/* The answer's head, then a turn of the file; the end closes. */
static void
send_more(struct server *s, struct conn *c)
{
	ssize_t w;

	while (c->sent < c->nout) {
		w = send(c->fd, c->out + c->sent, c->nout - c->sent, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN)
			return;
		if (w <= 0)
			goto done;
		c->sent += (size_t)w;
		c->deadline = clock_mono_ns() + IDLE_NS;
	}
	if (c->file >= 0 && c->off < c->size) {
		size_t want = (size_t)(c->size - c->off) < CHUNK ? (size_t)(c->size - c->off) : CHUNK;

		w = sendfile(c->fd, c->file, &c->off, want);
		if (w < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (w <= 0)	/* an error, or the file cut short */
			goto done;
		c->deadline = clock_mono_ns() + IDLE_NS;
		if (c->off < c->size)
			return;
	}
	shutdown(c->fd, SHUT_WR);
done:
	conn_close(s, c);
}

static void
on_conn(struct evloop *l, int fd, unsigned events, void *ud)
{
	struct conn *c = ud;

	(void)l;
	(void)fd;
	(void)events;
	if (c->answering)
		send_more(c->srv, c);
	else
		read_head(c->srv, c);
}

/* Full: the connection waiting longest for its head makes room, else the
 * oldest one (so that clients reading slowly cannot lock others out). */
static void
evict(struct server *s)
{
	struct conn *c;

	for (c = s->first; c && c->answering; c = c->next)
		;
	conn_abort(s, c ? c : s->first);
}

static void
add_conn(struct server *s, int fd)
{
	struct conn *c = xcalloc(1, sizeof(*c));

	c->srv = s;
	c->fd = fd;
	c->file = -1;
	c->deadline = clock_mono_ns() + HEAD_NS;
	if (evloop_add(s->l, fd, EVLOOP_IN | EVLOOP_RDHUP, on_conn, c) < 0) {
		close(fd);
		free(c);
		return;
	}
	c->prev = s->last;
	if (s->last)
		s->last->next = c;
	else
		s->first = c;
	s->last = c;
	s->n++;
}

/*
 * No descriptor left for a connection waiting in the listen queue (the
 * process's others, or a limit lowered since conns_max() ran): left
 * there, it would wake the level-triggered loop at once, forever. A
 * connection of ours makes room as one past the limit would (1: try
 * again); with none, the spare descriptor is given up to take the
 * waiting one and close it (0).
 */
static int
out_of_fds(struct server *s, int lfd)
{
	int fd;

	if (!s->warned++)
		warn("out of file descriptors (ulimit -n): connections beyond %zu are reset",
		     s->n);
	if (s->n) {
		evict(s);
		return 1;
	}
	if (s->spare >= 0)
		close(s->spare);
	if ((fd = accept(lfd, NULL, NULL)) >= 0)
		close(fd);
	s->spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
	return 0;
}

static void
on_accept(struct evloop *l, int lfd, unsigned events, void *ud)
{
	struct server *s = ud;
	int i, fd;

	(void)l;
	(void)events;
	for (i = 0; i < MAX_CONNS; i++) {
		if ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if ((errno == EMFILE || errno == ENFILE) && out_of_fds(s, lfd))
				continue;
			return;
		}
		if (s->n >= s->max)
			evict(s);
		add_conn(s, fd);
	}
}

static void
on_signal(struct evloop *l, int sig, void *ud)
{
	struct server *s = ud;

	(void)l;
	(void)sig;
	s->stop = 1;
}

/* Close the connections past their deadline; the earliest one left
 * (INT64_MAX: none). */
static int64_t
expire(struct server *s, int64_t now)
{
	struct conn *c, *next;
	int64_t first = INT64_MAX;

	for (c = s->first; c; c = next) {
		next = c->next;
		if (c->deadline <= now)
			conn_abort(s, c);
		else if (c->deadline < first)
			first = c->deadline;
	}
	return first;
}

/* A re-render held the loop for ns: no connection's time ran meanwhile. */
static void
postpone(struct server *s, int64_t ns)
{
	struct conn *c;

	for (c = s->first; c; c = c->next)
		c->deadline += ns;
}

/*
 * MAX_CONNS, or fewer under a descriptor limit: a connection holds two
 * (its socket and the file it sends), and FDS_KEPT are left for the
 * rest of the process (the loop, the listener, the report's renders).
 */
#define FDS_KEPT 24

static long
limit_fds(void)
{
	struct rlimit r;

	return getrlimit(RLIMIT_NOFILE, &r) < 0 ? -1 : (long)r.rlim_cur;
}

static size_t
conns_max(void)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r) < 0 || r.rlim_cur == RLIM_INFINITY ||
	    r.rlim_cur >= FDS_KEPT + 2 * MAX_CONNS)
		return MAX_CONNS;
	return r.rlim_cur > FDS_KEPT + 2 ? (r.rlim_cur - FDS_KEPT) / 2 : 1;
}

static int
setup(struct server *s, const char *host, int port)
{
	if ((s->lfd = listen_on(host, port)) < 0)
		return -1;
	if ((s->max = conns_max()) < MAX_CONNS)
		warn("a descriptor limit of %ld (ulimit -n): %zu connections at once, not %d",
		     (long)limit_fds(), s->max, MAX_CONNS);
	s->spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (!(s->l = evloop_new(MAX_CONNS)) ||
	    evloop_add(s->l, s->lfd, EVLOOP_IN, on_accept, s) < 0 ||
	    evloop_signal(s->l, SIGINT, on_signal, s) < 0 ||
	    evloop_signal(s->l, SIGTERM, on_signal, s) < 0)
		return error("cannot set up the event loop:");
	return 0;
}

int
serve_run(const char *host, int port, const char *dir, void (*rescan)(void *), void *arg,
	  int poll_s)
{
	struct server s = { .dir = dir, .lfd = -1, .spare = -1 };
	int64_t poll_ns = (int64_t)poll_s * 1000000000, next, now, until;
	int rc = 0;

	if (setup(&s, host, port) < 0) {
		rc = -1;
		goto out;
	}
	fprintf(stderr, "%s: serving http://%s%s%s:%d/ (the report in '%s'; Ctrl-C stops)\n",
		argv0, strchr(host, ':') ? "[" : "", host, strchr(host, ':') ? "]" : "",
		bound_port(s.lfd), dir);
	next = clock_mono_ns() + poll_ns;
	while (!s.stop) {
		now = clock_mono_ns();
		until = expire(&s, now);
		until = until < next ? until : next;
		if (evloop_run_once(s.l, until > now ? until - now : 0) < 0 && errno != EINTR) {
			rc = error("cannot wait for connections:");
			break;
		}
		if (!s.stop && (now = clock_mono_ns()) >= next) {
			rescan(arg);
			postpone(&s, clock_mono_ns() - now);
			next = clock_mono_ns() + poll_ns;
		}
	}
	fprintf(stderr, "%s: stopped\n", argv0);
out:
	while (s.first)
		conn_close(&s, s.first);
	if (s.l)
		evloop_free(s.l);
	if (s.lfd >= 0)
		close(s.lfd);
	if (s.spare >= 0)
		close(s.spare);
	return rc;
}
