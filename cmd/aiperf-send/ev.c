/* SPDX-License-Identifier: Apache-2.0 */
/* libcurl's sockets and timer on the sender's event loop (the hiperfifo glue). */
#include "send.h"

#include <string.h>
#include <unistd.h>
#include "clock.h"
#include "util.h"

/*
 * Per-descriptor epoll state. libcurl drops a kept-alive connection's socket
 * after every transfer and asks for it again on the next one; leaving it in
 * epoll saves those two epoll_ctl calls per request. A socket nobody wants
 * is removed when it first reports an event, and forgotten when libcurl
 * closes it (cb_close).
 */
enum { FD_IN_EPOLL = 1, FD_IN = 2, FD_OUT = 4, FD_WANTED = 8 };

static void on_curl(struct evloop *l, int fd, unsigned events, void *ud);

static unsigned char *
fd_slot(struct sender *s, int fd)
{
	if ((size_t)fd >= s->nfds) {
		size_t n = s->nfds ? s->nfds : 1024;
		while (n <= (size_t)fd)
			n *= 2;
		s->fds = xrealloc(s->fds, n);
		memset(s->fds + s->nfds, 0, n - s->nfds);
		s->nfds = n;
	}
	return &s->fds[fd];
}

static int
cb_socket(CURL *e, curl_socket_t fd, int what, void *userp, void *sockp)
{
	struct sender *s = userp;
	unsigned char *st = fd_slot(s, fd);

	(void)e;
	(void)sockp;
	if (what == CURL_POLL_REMOVE) {
		*st &= (unsigned char)~FD_WANTED;
		return 0;
	}
	unsigned char want = (what & CURL_POLL_IN ? FD_IN : 0) |
			     (what & CURL_POLL_OUT ? FD_OUT : 0);
	if ((*st & FD_IN_EPOLL) && (*st & (FD_IN | FD_OUT)) == want) {
		*st |= FD_WANTED;
		return 0;
	}
	unsigned ev = (want & FD_IN ? EVLOOP_IN : 0) | (want & FD_OUT ? EVLOOP_OUT : 0);
	/* evloop_add changes a watched descriptor; a stale one is re-added. */
	if ((!(*st & FD_IN_EPOLL) || evloop_mod(s->loop, fd, ev) < 0) &&
	    evloop_add(s->loop, fd, ev, on_curl, s) < 0)
		return -1;
	*st = FD_IN_EPOLL | FD_WANTED | want;
	return 0;
}

/* libcurl closes a socket: closing drops it from epoll too. */
static int
cb_close(void *clientp, curl_socket_t fd)
{
	struct sender *s = clientp;
	if ((size_t)fd < s->nfds)
		s->fds[fd] = 0;
	evloop_forget(s->loop, fd);
	return close(fd);
}

static int
cb_timer(CURLM *m, long ms, void *userp)
{
	struct sender *s = userp;
	(void)m;
	s->curl_due = ms < 0 ? -1 : clock_now_ns() + (int64_t)ms * 1000000;
	return 0;
}

/* Route libcurl's sockets and timer to this sender. */
void
ev_multi(struct sender *s)
{
	curl_multi_setopt(s->m, CURLMOPT_SOCKETFUNCTION, cb_socket);
	curl_multi_setopt(s->m, CURLMOPT_SOCKETDATA, s);
	curl_multi_setopt(s->m, CURLMOPT_TIMERFUNCTION, cb_timer);
	curl_multi_setopt(s->m, CURLMOPT_TIMERDATA, s);
}

/* Have h's connections closed through cb_close; 0 or -1. */
int
ev_handle(struct sender *s, CURL *h)
{
	if (curl_easy_setopt(h, CURLOPT_CLOSESOCKETFUNCTION, cb_close) != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_CLOSESOCKETDATA, s) != CURLE_OK)
		return -1;
	return 0;
}

/* A libcurl socket is ready. */
static void
on_curl(struct evloop *l, int fd, unsigned events, void *ud)
{
	struct sender *s = ud;
	int running, flags = 0;

	if ((size_t)fd < s->nfds && !(s->fds[fd] & FD_WANTED)) {
		/* An idle kept-alive socket: the server closed it, or sent junk. */
		evloop_del(l, fd);
		s->fds[fd] = 0;
		return;
	}
	if (events & (EVLOOP_IN | EVLOOP_HUP))
		flags |= CURL_CSELECT_IN;
	if (events & EVLOOP_OUT)
		flags |= CURL_CSELECT_OUT;
	if (events & EVLOOP_ERR)
		flags |= CURL_CSELECT_ERR;
	s->io_seq++;
	curl_multi_socket_action(s->m, fd, flags, &running);
}
