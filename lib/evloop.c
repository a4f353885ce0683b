/* SPDX-License-Identifier: Apache-2.0 */
/* One event loop core: descriptors with callbacks, monotonic timers and signals on one epoll set. */
#define _GNU_SOURCE	/* epoll_pwait2 */
#include "evloop.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>
#include "clock.h"

#define NS 1000000000
#define MAXSIG 65	/* signal numbers are below this (SIGRTMAX is 64) */

_Static_assert((unsigned)EVLOOP_IN == EPOLLIN && (unsigned)EVLOOP_OUT == EPOLLOUT &&
	       (unsigned)EVLOOP_ERR == EPOLLERR && (unsigned)EVLOOP_HUP == EPOLLHUP &&
	       (unsigned)EVLOOP_RDHUP == EPOLLRDHUP &&
	       (unsigned)EVLOOP_ONESHOT == EPOLLONESHOT,
	       "EVLOOP_* are the epoll bits");

/*
 * What one descriptor number calls. An event carries the number and the
 * slot's generation (data.u64 = gen << 32 | fd); deleting bumps the
 * generation, so an event fetched before a deletion no longer matches.
 */
struct slot {
	evloop_fn *fn;		/* NULL: not watched */
	void *ud;
	uint32_t gen;
};

struct sigslot {
	evloop_sig_fn *fn;
	void *ud;
};

struct evloop {
	int ep, tfd, sfd;
	int max;
	int pwait2;		/* 0: the kernel has no epoll_pwait2 (before 5.11) */
	struct epoll_event *ev;
	struct slot *slots;
	size_t nslots;
	struct evloop_timer *timers;	/* armed, earliest first */
	int64_t armed;		/* what the timerfd is set to, or -1 */
	struct evloop_timer tick;	/* sub-millisecond waits without epoll_pwait2 */
	sigset_t sigs;
	struct sigslot sig[MAXSIG];
};

static struct slot *
slot_get(struct evloop *l, int fd)
{
	if ((size_t)fd >= l->nslots) {
		size_t n = l->nslots ? l->nslots : 1024;
		while (n <= (size_t)fd)
			n *= 2;
		struct slot *p = realloc(l->slots, n * sizeof(*p));
		if (!p)
			return NULL;
		memset(p + l->nslots, 0, (n - l->nslots) * sizeof(*p));
		l->slots = p;
		l->nslots = n;
	}
	return &l->slots[fd];
}

static int
ctl(struct evloop *l, int op, int fd, unsigned events, const struct slot *sl)
{
	struct epoll_event ev = { .events = events };

	ev.data.u64 = (uint64_t)sl->gen << 32 | (uint32_t)fd;
	return epoll_ctl(l->ep, op, fd, &ev);
}

int
evloop_add(struct evloop *l, int fd, unsigned events, evloop_fn *fn, void *ud)
{
	struct slot *sl = fd < 0 ? NULL : slot_get(l, fd);

	if (!sl) {
		errno = fd < 0 ? EBADF : ENOMEM;
		return -1;
	}
	int op = sl->fn ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
	sl->gen++;	/* a stale registration's events are dropped */
	if (ctl(l, op, fd, events, sl) < 0) {
		/* The number was closed and reused, or watched behind our back. */
		if (errno != ENOENT && errno != EEXIST)
			goto err;
		op = op == EPOLL_CTL_MOD ? EPOLL_CTL_ADD : EPOLL_CTL_MOD;
		if (ctl(l, op, fd, events, sl) < 0)
			goto err;
	}
	sl->fn = fn;
	sl->ud = ud;
	return 0;
err:
	sl->fn = NULL;
	return -1;
}

int
evloop_mod(struct evloop *l, int fd, unsigned events)
{
	if (fd < 0 || (size_t)fd >= l->nslots || !l->slots[fd].fn) {
		errno = ENOENT;
		return -1;
	}
	return ctl(l, EPOLL_CTL_MOD, fd, events, &l->slots[fd]);
}

void
evloop_forget(struct evloop *l, int fd)
{
	if (fd >= 0 && (size_t)fd < l->nslots) {
		l->slots[fd].fn = NULL;
		l->slots[fd].gen++;
	}
}

int
evloop_del(struct evloop *l, int fd)
{
	evloop_forget(l, fd);
	return epoll_ctl(l->ep, EPOLL_CTL_DEL, fd, NULL);
}

/* Set the timerfd to the earliest timer; left armed when none is (a
 * spurious wake-up is cheaper than a system call per disarm). */
static void
timer_sync(struct evloop *l)
{
	struct itimerspec its = { 0 };
	int64_t t = l->timers ? l->timers->at : -1;

	if (t < 0 || t == l->armed)
		return;
	its.it_value.tv_sec = t / NS;
	its.it_value.tv_nsec = t % NS;
	if (!t)
		its.it_value.tv_nsec = 1;	/* zero would disarm it */
	if (timerfd_settime(l->tfd, TFD_TIMER_ABSTIME, &its, NULL) == 0)
		l->armed = t;
}

static void
timer_unlink(struct evloop *l, struct evloop_timer *t)
{
	struct evloop_timer **p = &l->timers;

	while (*p && *p != t)
		p = &(*p)->next;
	if (*p)
		*p = t->next;
	t->next = NULL;
	t->at = -1;
}

void
evloop_timer_stop(struct evloop *l, struct evloop_timer *t)
{
	if (t->at >= 0)
		timer_unlink(l, t);
}

void
evloop_timer_arm(struct evloop *l, struct evloop_timer *t, int64_t at)
{
	struct evloop_timer **p = &l->timers;

	if (t->at == at && at >= 0)
		return;
	evloop_timer_stop(l, t);
	if (at < 0)
		return;
	while (*p && (*p)->at <= at)
		p = &(*p)->next;
	t->at = at;
	t->next = *p;
	*p = t;
	timer_sync(l);
}

/* The timerfd fired: run every timer due by now, earliest first. */
static void
on_timerfd(struct evloop *l, int fd, unsigned events, void *ud)
{
	uint64_t n;
	struct evloop_timer *t;

	(void)events;
	(void)ud;
	if (read(fd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		return;
	l->armed = -1;	/* fired: it is disarmed now */
	int64_t now = clock_mono_ns();
	while ((t = l->timers) && t->at <= now) {
		l->timers = t->next;
		t->next = NULL;
		t->at = -1;
		if (t->fn)
			t->fn(l, t);
	}
	timer_sync(l);
}

static void
on_signalfd(struct evloop *l, int fd, unsigned events, void *ud)
{
	struct signalfd_siginfo si;

	(void)events;
	(void)ud;
	while (read(fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		unsigned sig = si.ssi_signo;
		if (sig < MAXSIG && l->sig[sig].fn)
			l->sig[sig].fn(l, (int)sig, l->sig[sig].ud);
	}
}

static void
nop_handler(int sig)
{
	(void)sig;
}

int
evloop_signal(struct evloop *l, int sig, evloop_sig_fn *fn, void *ud)
{
	struct sigaction sa;

	if (sig <= 0 || sig >= MAXSIG) {
		errno = EINVAL;
		return -1;
	}
	/* A blocked signal still reaches the signalfd; SIG_IGN would have
	 * the kernel drop it once the mask is restored, so give it a handler. */
	if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = nop_handler;
		sigemptyset(&sa.sa_mask);
		sigaction(sig, &sa, NULL);
	}
	sigaddset(&l->sigs, sig);
	if (sigprocmask(SIG_BLOCK, &l->sigs, NULL) < 0)
		return -1;
	int fd = signalfd(l->sfd, &l->sigs, SFD_NONBLOCK | SFD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (l->sfd < 0 && evloop_add(l, fd, EVLOOP_IN, on_signalfd, NULL) < 0) {
		close(fd);
		return -1;
	}
	l->sfd = fd;
	l->sig[sig].fn = fn;
	l->sig[sig].ud = ud;
	return 0;
}

struct evloop *
evloop_new(int max_events)
{
	struct evloop *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->max = max_events > 0 ? max_events : 64;
	l->ev = calloc((size_t)l->max, sizeof(*l->ev));
	l->ep = epoll_create1(EPOLL_CLOEXEC);
	l->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	l->sfd = -1;
	l->armed = -1;
	l->pwait2 = 1;
	l->tick.at = -1;
	sigemptyset(&l->sigs);
	if (!l->ev || l->ep < 0 || l->tfd < 0 ||
	    evloop_add(l, l->tfd, EVLOOP_IN, on_timerfd, NULL) < 0) {
		int e = errno;
		evloop_free(l);
		errno = e;
		return NULL;
	}
	return l;
}

void
evloop_free(struct evloop *l)
{
	if (!l)
		return;
	if (l->ep >= 0)
		close(l->ep);
	if (l->tfd >= 0)
		close(l->tfd);
	if (l->sfd >= 0)
		close(l->sfd);
	free(l->ev);
	free(l->slots);
	free(l);
}

/*
 * A whole number of milliseconds (or none) goes to epoll_wait as it is.
 * A finer timeout goes to epoll_pwait2 (Linux 5.11), or else arms the
 * timerfd (two more system calls) rather than sleep too long.
 */
static int
wait_events(struct evloop *l, int64_t timeout_ns)
{
	int ms = -1;

	if (timeout_ns >= 0 && timeout_ns % 1000000 == 0)
		return epoll_wait(l->ep, l->ev, l->max, timeout_ns / 1000000 > INT_MAX ?
			INT_MAX : (int)(timeout_ns / 1000000));
	if (timeout_ns > 0 && l->pwait2) {
		struct timespec ts = { .tv_sec = timeout_ns / NS, .tv_nsec = timeout_ns % NS };
		int n = epoll_pwait2(l->ep, l->ev, l->max, &ts, NULL);
		if (n >= 0 || errno != ENOSYS)
			return n;
		l->pwait2 = 0;
	}
	if (timeout_ns > 0)
		evloop_timer_arm(l, &l->tick, clock_mono_ns() + timeout_ns);
	return epoll_wait(l->ep, l->ev, l->max, ms);
}

int
evloop_run_once(struct evloop *l, int64_t timeout_ns)
{
	int n = wait_events(l, timeout_ns);

	if (n < 0)
		return errno == EINTR ? 0 : -1;
	for (int i = 0; i < n; i++) {
		uint64_t u = l->ev[i].data.u64;
		int fd = (int)(uint32_t)u;
		struct slot *sl = &l->slots[fd];
		if (sl->fn && sl->gen == (uint32_t)(u >> 32))
			sl->fn(l, fd, l->ev[i].events, sl->ud);
	}
	return n;
}
