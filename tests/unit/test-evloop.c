/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/evloop: pipe readiness, timer order and re-arming, signals, deletion mid-pass, io_uring receives. */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "evloop.h"
#include "test.h"

static int64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

struct seen {
	int calls, fd;
	unsigned events;
	char order[8];	/* timer names in firing order */
	int norder;
	int pair[2];	/* ready together: each deletes the other */
	int reuse[2];	/* and closes it, and a new pipe takes its number */
};

static struct evloop_timer *named[3];	/* 'a', 'b', 'c' in order[] */

static void
on_fd(struct evloop *l, int fd, unsigned events, void *ud)
{
	struct seen *s = ud;
	char c;

	s->calls++;
	s->fd = fd;
	s->events = events;
	if (read(fd, &c, 1) < 0 && errno != EAGAIN)
		s->calls += 100;
	if (s->pair[0] >= 0) {
		int other = s->pair[fd == s->pair[0]];
		evloop_del(l, other);
		if (s->reuse[0] >= 0) {
			evloop_forget(l, other);
			close(other);
			if (pipe(s->reuse) == 0)
				evloop_add(l, s->reuse[0], EVLOOP_IN, on_fd, s);
		}
		s->pair[0] = -1;
	}
}

static void
on_timer(struct evloop *l, struct evloop_timer *t)
{
	struct seen *s = t->ud;

	(void)l;
	for (int i = 0; i < 3; i++)
		if (named[i] == t)
			s->order[s->norder++] = (char)('a' + i);
}

/* Pass until every listed timer fired or a second went by. */
static void
run_until_idle(struct evloop *l, struct evloop_timer **ts, int n)
{
	int64_t end = now_ns() + 1000000000;

	for (;;) {
		int armed = 0;
		for (int i = 0; i < n; i++)
			armed |= ts[i]->at >= 0;
		if (!armed || now_ns() > end)
			return;
		evloop_run_once(l, 100000000);
	}
}

static void
test_pipe(void)
{
	struct evloop *l = evloop_new(16);
	struct seen s = { .pair = { -1, -1 }, .reuse = { -1, -1 } };
	int p[2];

	TEST("loop created", l != NULL && pipe(p) == 0);
	TEST("add a pipe", evloop_add(l, p[0], EVLOOP_IN, on_fd, &s) == 0);
	TEST("nothing ready: times out", evloop_run_once(l, 0) == 0 && s.calls == 0);
	TEST("write", write(p[1], "x", 1) == 1);
	TEST("readable", evloop_run_once(l, -1) == 1 && s.calls == 1 &&
	     s.fd == p[0] && (s.events & EVLOOP_IN));
	TEST("drained: quiet again", evloop_run_once(l, 0) == 0 && s.calls == 1);
	TEST("oneshot", evloop_mod(l, p[0], EVLOOP_IN | EVLOOP_ONESHOT) == 0 &&
	     write(p[1], "yy", 2) == 2 && evloop_run_once(l, 0) == 1 &&
	     evloop_run_once(l, 0) == 0 && s.calls == 2);
	TEST("mod re-enables a oneshot", evloop_mod(l, p[0], EVLOOP_IN) == 0 &&
	     evloop_run_once(l, 0) == 1 && s.calls == 3);
	TEST("del", evloop_del(l, p[0]) == 0 && write(p[1], "z", 1) == 1 &&
	     evloop_run_once(l, 0) == 0 && s.calls == 3);
	TEST("mod of an unwatched fd fails", evloop_mod(l, p[0], EVLOOP_IN) < 0 &&
	     errno == ENOENT);
	TEST("add twice replaces", evloop_add(l, p[0], EVLOOP_IN, on_fd, &s) == 0 &&
	     evloop_add(l, p[0], EVLOOP_IN, on_fd, &s) == 0 &&
	     evloop_run_once(l, 0) == 1 && s.calls == 4);
	evloop_forget(l, p[0]);
	close(p[0]);
	close(p[1]);
	evloop_free(l);
}

/* Two pipes ready in one pass; the first callback deletes the other. */
static void
test_delete_in_dispatch(void)
{
	struct evloop *l = evloop_new(16);
	struct seen s = { .pair = { -1, -1 }, .reuse = { -1, -1 } };
	int a[2], b[2];

	TEST("pipes", pipe(a) == 0 && pipe(b) == 0);
	evloop_add(l, a[0], EVLOOP_IN, on_fd, &s);
	evloop_add(l, b[0], EVLOOP_IN, on_fd, &s);
	TEST("both ready", write(a[1], "x", 1) == 1 && write(b[1], "x", 1) == 1);
	/* Whichever comes first deletes the other, whose event must go. */
	s.pair[0] = a[0];
	s.pair[1] = b[0];
	int n = evloop_run_once(l, 0);
	TEST("one pass fetched both", n == 2);
	TEST("deleted one not called back", s.calls == 1);
	close(a[0]);
	close(a[1]);
	close(b[0]);
	close(b[1]);

	/* Now the deleted number is reused at once: its old event must go too. */
	TEST("pipes again", pipe(a) == 0 && pipe(b) == 0);
	evloop_add(l, a[0], EVLOOP_IN, on_fd, &s);
	evloop_add(l, b[0], EVLOOP_IN, on_fd, &s);
	TEST("both ready again", write(a[1], "x", 1) == 1 && write(b[1], "x", 1) == 1);
	s.calls = 0;
	s.pair[0] = a[0];
	s.pair[1] = b[0];
	s.reuse[0] = 0;
	n = evloop_run_once(l, 0);
	int gone = s.fd == a[0] ? b[0] : a[0];
	TEST("number reused", s.reuse[0] == gone);
	TEST("stale event for the reused number dropped", n == 2 && s.calls == 1);
	close(s.fd);
	close(s.fd == a[0] ? a[1] : b[1]);
	close(gone == a[0] ? a[1] : b[1]);
	close(s.reuse[0]);
	close(s.reuse[1]);
	evloop_free(l);
}

static void
test_timers(void)
{
	struct evloop *l = evloop_new(16);
	struct seen s = { .pair = { -1, -1 }, .reuse = { -1, -1 } };
	struct evloop_timer t1 = EVLOOP_TIMER_INIT(on_timer, &s);
	struct evloop_timer t2 = EVLOOP_TIMER_INIT(on_timer, &s);
	struct evloop_timer t3 = EVLOOP_TIMER_INIT(on_timer, &s);
	struct evloop_timer *all[] = { &t1, &t2, &t3 };
	int64_t now = now_ns();

	named[0] = &t1;
	named[1] = &t2;
	named[2] = &t3;

	/* Armed out of order: they fire by deadline. */
	evloop_timer_arm(l, &t3, now + 3000000);
	evloop_timer_arm(l, &t1, now + 1000000);
	evloop_timer_arm(l, &t2, now + 2000000);
	run_until_idle(l, all, 3);
	TEST("timers fire", t1.at < 0 && t2.at < 0 && t3.at < 0 && s.norder == 3);
	TEST("in deadline order", s.order[0] == 'a' && s.order[1] == 'b' &&
	     s.order[2] == 'c');

	/* Re-arming moves a timer; a stopped one never fires. */
	s.norder = 0;
	named[0] = &t2;
	named[1] = &t1;
	now = now_ns();
	evloop_timer_arm(l, &t1, now + 1000000);
	evloop_timer_arm(l, &t2, now + 2000000);
	evloop_timer_arm(l, &t1, now + 4000000);
	evloop_timer_arm(l, &t3, now + 3000000);
	evloop_timer_stop(l, &t3);
	run_until_idle(l, all, 3);
	TEST("re-armed later fires once, after the other", s.norder == 2 &&
	     s.order[0] == 'a' && s.order[1] == 'b' && now_ns() >= now + 4000000);
	TEST("stopped timer stays unarmed", t3.at == -1);

	/* A deadline in the past fires on the next pass. */
	s.norder = 0;
	evloop_timer_arm(l, &t1, now_ns() - 1000);
	evloop_run_once(l, 100000000);
	TEST("past deadline fires at once", s.norder == 1 && t1.at == -1);

	/* The timeout alone ends a pass, near its length. */
	now = now_ns();
	TEST("timeout", evloop_run_once(l, 2500000) >= 0 &&
	     now_ns() - now >= 2500000 && now_ns() - now < 500000000);
	evloop_free(l);
}

static int nsig;

static void
on_sig(struct evloop *l, int sig, void *ud)
{
	(void)l;
	(void)ud;
	if (sig == SIGUSR1)
		nsig++;
}

static void
test_signal(void)
{
	struct evloop *l = evloop_new(16);

	TEST("signal registered", evloop_signal(l, SIGUSR1, on_sig, NULL) == 0);
	/* Sent between passes: no handler runs, the next pass sees it. */
	raise(SIGUSR1);
	TEST("signal not lost before the pass", nsig == 0);
	evloop_run_once(l, 1000000000);
	TEST("signal delivered once", nsig == 1);
	evloop_run_once(l, 0);
	TEST("and not again", nsig == 1);
	raise(SIGUSR1);
	evloop_run_once(l, 1000000000);
	TEST("a second one is a second event", nsig == 2);
	evloop_free(l);
}

struct got {
	int calls, fd;
	long last;		/* the last n */
	char data[64];
	size_t len;
};

static void
on_data(struct evloop *l, int fd, const char *p, long n, void *ud)
{
	struct got *g = ud;

	(void)l;
	g->calls++;
	g->fd = fd;
	g->last = n;
	if (n > 0 && g->len + (size_t)n <= sizeof(g->data)) {
		memcpy(g->data + g->len, p, (size_t)n);
		g->len += (size_t)n;
	}
}

/* Pass until g has n calls, or a second went by. */
static void
run_for(struct evloop *l, struct got *g, int n)
{
	int64_t end = now_ns() + 1000000000;

	while (g->calls < n && now_ns() < end)
		evloop_run_once(l, 100000000);
}

static void
test_uring(void)
{
	struct evloop *l = evloop_new(16);
	struct seen s = { .pair = { -1, -1 }, .reuse = { -1, -1 } };
	struct got g = { 0 }, h = { 0 };
	struct evloop_timer t = EVLOOP_TIMER_INIT(NULL, NULL);
	int sv[2], sw[2], p[2];

	TEST("epoll alone: no receives", !evloop_has_uring(l) &&
	     evloop_recv(l, 0, on_data, &g) < 0 && errno == ENOSYS);
	if (evloop_uring(l) < 0) {
		printf("# io_uring multishot receive unavailable (%s): its tests skipped\n",
		       strerror(errno));
		evloop_free(l);
		return;
	}
	TEST("on io_uring", evloop_has_uring(l) && evloop_uring(l) == 0);
	TEST("socket pair", socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0 && pipe(p) == 0);
	TEST("receive armed", evloop_recv(l, sv[0], on_data, &g) == 0);
	TEST("nothing yet", evloop_run_once(l, 0) == 0 && g.calls == 0);
	TEST("bytes arrive", write(sv[1], "hello", 5) == 5);
	run_for(l, &g, 1);
	TEST("as one completion", g.calls == 1 && g.fd == sv[0] && g.last == 5 &&
	     g.len == 5 && !memcmp(g.data, "hello", 5));
	TEST("and again (multishot)", write(sv[1], "ab", 2) == 2);
	run_for(l, &g, 2);
	TEST("second completion", g.calls == 2 && g.len == 7 && !memcmp(g.data + 5, "ab", 2));

	/* epoll descriptors and timers still work through the ring's poll */
	TEST("pipe watched", evloop_add(l, p[0], EVLOOP_IN, on_fd, &s) == 0 &&
	     write(p[1], "xy", 2) == 2);
	evloop_run_once(l, 1000000000);
	TEST("pipe readable", s.calls == 1);
	/* one byte read of two: level-triggered, it is reported again */
	evloop_run_once(l, 1000000000);
	TEST("level-triggered again", s.calls == 2);
	TEST("pipe quiet", evloop_run_once(l, 0) == 0 && s.calls == 2);
	evloop_timer_arm(l, &t, now_ns() + 2000000);
	evloop_run_once(l, -1);
	TEST("timer fires", t.at == -1);

	/* forgotten, closed, and the number reused: old bytes never come */
	TEST("bytes left unreceived", write(sv[1], "old", 3) == 3);
	evloop_forget(l, sv[0]);
	close(sv[0]);
	TEST("new pair", socketpair(AF_UNIX, SOCK_STREAM, 0, sw) == 0);
	TEST("new receive", evloop_recv(l, sw[0], on_data, &h) == 0 &&
	     write(sw[1], "new", 3) == 3);
	run_for(l, &h, 1);
	evloop_run_once(l, 10000000);
	TEST("only the new socket's bytes", g.calls == 2 && h.calls == 1 &&
	     h.len == 3 && !memcmp(h.data, "new", 3));
	close(sw[1]);
	run_for(l, &h, 2);
	TEST("end of stream: 0", h.calls == 2 && h.last == 0);
	evloop_run_once(l, 10000000);
	TEST("and nothing after it", h.calls == 2);
	evloop_forget(l, sw[0]);
	close(sw[0]);
	close(sv[1]);
	evloop_forget(l, p[0]);
	close(p[0]);
	close(p[1]);
	evloop_free(l);
}

int
main(void)
{
	test_pipe();
	test_delete_in_dispatch();
	test_timers();
	test_signal();
	test_uring();
	return TEST_DONE();
}
