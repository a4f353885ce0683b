/* SPDX-License-Identifier: Apache-2.0 */
/* One event loop core: descriptors with callbacks, monotonic timers and signals on one epoll set. */
#define _GNU_SOURCE	/* epoll_pwait2 */
#include "evloop.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <liburing.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
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
	evloop_data_fn *rfn;	/* NULL: no receive on the ring */
	void *rud;
	uint32_t rgen;		/* the receive's, as gen is the watch's */
};

/*
 * The io_uring: one multishot poll of the epoll set, and a multishot
 * receive per evloop_recv socket into one ring of provided buffers. A
 * completion's user_data is kind << 62 | generation << 32 | fd, so one
 * that comes after its receive was cancelled (or replaced) is dropped; its
 * buffer goes back to the ring all the same.
 */
#define U_ENTRIES 1024		/* submission queue */
#define U_CQ_ENTRIES 16384	/* completion queue */
#define U_NBUF 512		/* provided buffers (a power of two) */
#define U_BUFSZ (8 << 10)
#define U_BGID 0
enum { U_POLL = 1, U_RECV = 2, U_CANCEL = 3 };

struct uring {
	struct io_uring ring;
	struct io_uring_buf_ring *br;
	size_t brlen;
	char *bufs;
	int ep_ready;		/* the epoll set may have events to fetch */
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
	struct uring *u;	/* NULL: epoll alone */
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

static void recv_cancel(struct evloop *l, int fd);

void
evloop_forget(struct evloop *l, int fd)
{
	if (fd >= 0 && (size_t)fd < l->nslots) {
		l->slots[fd].fn = NULL;
		l->slots[fd].gen++;
		if (l->slots[fd].rfn)
			recv_cancel(l, fd);
	}
}

int
evloop_del(struct evloop *l, int fd)
{
	if (fd >= 0 && (size_t)fd < l->nslots) {
		l->slots[fd].fn = NULL;
		l->slots[fd].gen++;
	}
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

static void uring_free(struct uring *u);

void
evloop_free(struct evloop *l)
{
	if (!l)
		return;
	uring_free(l->u);
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

static void
dispatch(struct evloop *l, int n)
{
	for (int i = 0; i < n; i++) {
		uint64_t u = l->ev[i].data.u64;
		int fd = (int)(uint32_t)u;
		struct slot *sl = &l->slots[fd];
		if (sl->fn && sl->gen == (uint32_t)(u >> 32))
			sl->fn(l, fd, l->ev[i].events, sl->ud);
	}
}

static int uring_run_once(struct evloop *l, int64_t timeout_ns);

int
evloop_run_once(struct evloop *l, int64_t timeout_ns)
{
	if (l->u)
		return uring_run_once(l, timeout_ns);
	int n = wait_events(l, timeout_ns);

	if (n < 0)
		return errno == EINTR ? 0 : -1;
	dispatch(l, n);
	return n;
}

/* --- io_uring --- */

static uint64_t
udata(int kind, uint32_t gen, int fd)
{
	return (uint64_t)kind << 62 | (uint64_t)(gen & 0x3fffffff) << 32 | (uint32_t)fd;
}

/* A submission queue entry, submitting what is queued when it is full. */
static struct io_uring_sqe *
sqe_get(struct uring *u)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);

	if (!sqe) {
		io_uring_submit(&u->ring);
		sqe = io_uring_get_sqe(&u->ring);
	}
	return sqe;
}

static int
arm_poll(struct evloop *l)
{
	struct io_uring_sqe *sqe = sqe_get(l->u);

	if (!sqe)
		return -1;
	io_uring_prep_poll_multishot(sqe, l->ep, POLLIN);
	io_uring_sqe_set_data64(sqe, udata(U_POLL, 0, l->ep));
	return 0;
}

static int
arm_recv(struct evloop *l, int fd, uint32_t gen)
{
	struct io_uring_sqe *sqe = sqe_get(l->u);

	if (!sqe)
		return -1;
	io_uring_prep_recv_multishot(sqe, fd, NULL, 0, 0);
	sqe->flags |= IOSQE_BUFFER_SELECT;
	sqe->buf_group = U_BGID;
	io_uring_sqe_set_data64(sqe, udata(U_RECV, gen, fd));
	return 0;
}

static void
recv_cancel(struct evloop *l, int fd)
{
	struct slot *sl = &l->slots[fd];
	struct io_uring_sqe *sqe = sqe_get(l->u);

	/* The socket stays open (the receive holds it) until this is submitted. */
	if (sqe) {
		io_uring_prep_cancel64(sqe, udata(U_RECV, sl->rgen, fd), 0);
		io_uring_sqe_set_data64(sqe, udata(U_CANCEL, 0, fd));
	}
	sl->rfn = NULL;
	sl->rgen++;
}

int
evloop_has_uring(const struct evloop *l)
{
	return l->u != NULL;
}

int
evloop_recv(struct evloop *l, int fd, evloop_data_fn *fn, void *ud)
{
	struct slot *sl;

	if (!l->u) {
		errno = ENOSYS;
		return -1;
	}
	if (fd < 0 || !(sl = slot_get(l, fd))) {
		errno = fd < 0 ? EBADF : ENOMEM;
		return -1;
	}
	if (sl->rfn)
		recv_cancel(l, fd);
	sl->rgen++;
	if (arm_recv(l, fd, sl->rgen) < 0) {
		errno = EBUSY;
		return -1;
	}
	sl->rfn = fn;
	sl->rud = ud;
	return 0;
}

static void
buf_recycle(struct uring *u, unsigned bid)
{
	io_uring_buf_ring_add(u->br, u->bufs + (size_t)bid * U_BUFSZ, U_BUFSZ,
			      (unsigned short)bid, io_uring_buf_ring_mask(U_NBUF), 0);
	io_uring_buf_ring_advance(u->br, 1);
}

/* One completion: its callback, its buffer back to the ring, a receive or
 * the poll armed again when the kernel ended it early. */
static void
complete(struct evloop *l, uint64_t ud, int res, unsigned flags)
{
	struct uring *u = l->u;
	int kind = (int)(ud >> 62), fd = (int)(uint32_t)ud;
	uint32_t gen = (uint32_t)(ud >> 32) & 0x3fffffff;
	int more = (flags & IORING_CQE_F_MORE) != 0;

	if (kind == U_POLL) {
		u->ep_ready = 1;
		if (!more)
			arm_poll(l);
		return;
	}
	if (kind != U_RECV)
		return;
	struct slot *sl = (size_t)fd < l->nslots ? &l->slots[fd] : NULL;
	int live = sl && sl->rfn && (sl->rgen & 0x3fffffff) == gen;
	unsigned bid = flags >> IORING_CQE_BUFFER_SHIFT;
	if (res > 0 && !(flags & IORING_CQE_F_BUFFER))
		live = 0;	/* cannot happen: every receive selects a buffer */
	if (live && res != -ENOBUFS) {
		evloop_data_fn *fn = sl->rfn;
		if (!more && res <= 0)
			sl->rfn = NULL;	/* the end, or an error: over */
		fn(l, fd, res > 0 ? u->bufs + (size_t)bid * U_BUFSZ : NULL, res, sl->rud);
	}
	if (res > 0 && (flags & IORING_CQE_F_BUFFER))
		buf_recycle(u, bid);
	/* Out of buffers or completion room: the bytes wait in the socket. */
	if (!more && (res > 0 || res == -ENOBUFS) && sl && sl->rfn &&
	    (sl->rgen & 0x3fffffff) == gen)
		arm_recv(l, fd, sl->rgen);
}

/* Fetch and run what the epoll set has, without sleeping. */
static int
ep_pass(struct evloop *l)
{
	int n = epoll_wait(l->ep, l->ev, l->max, 0);

	/* Level-triggered events fetched now may stand again without a new
	 * wake-up of the set's poll: look once more next pass. */
	l->u->ep_ready = n > 0;
	if (n <= 0)
		return 0;
	dispatch(l, n);
	return n;
}

static int
uring_run_once(struct evloop *l, int64_t timeout_ns)
{
	struct uring *u = l->u;
	struct io_uring_cqe *cqe;
	int n = 0, r;

	if (u->ep_ready && (n = ep_pass(l)) > 0)
		timeout_ns = 0;
	if (u->ep_ready)
		timeout_ns = 0;
	if (timeout_ns == 0) {
		r = io_uring_submit_and_get_events(&u->ring);
	} else if (timeout_ns < 0) {
		r = io_uring_submit_and_wait(&u->ring, 1);
	} else {
		struct __kernel_timespec ts = { .tv_sec = timeout_ns / NS,
						.tv_nsec = timeout_ns % NS };
		r = io_uring_submit_and_wait_timeout(&u->ring, &cqe, 1, &ts, NULL);
	}
	if (r < 0 && r != -ETIME && r != -EINTR && r != -EAGAIN && r != -EBUSY) {
		errno = -r;
		return -1;
	}
	/* One completion at a time: a callback may queue submissions. */
	while (io_uring_peek_cqe(&u->ring, &cqe) == 0) {
		uint64_t ud = cqe->user_data;
		int res = cqe->res;
		unsigned flags = cqe->flags;
		io_uring_cqe_seen(&u->ring, cqe);
		complete(l, ud, res, flags);
		n++;
	}
	if (u->ep_ready)
		n += ep_pass(l);
	return n;
}

static void
uring_free(struct uring *u)
{
	if (!u)
		return;
	io_uring_queue_exit(&u->ring);
	if (u->br)
		munmap(u->br, u->brlen);
	free(u->bufs);
	free(u);
}

/*
 * Whether the kernel takes a multishot receive into provided buffers
 * (Linux 6.0): one byte through a socket pair. 0, or -1 with errno.
 */
static int
probe_recv(struct evloop *l)
{
	struct uring *u = l->u;
	struct io_uring_cqe *cqe;
	int sv[2], ok = 0, over = 0;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
	io_uring_prep_recv_multishot(sqe, sv[0], NULL, 0, 0);
	sqe->flags |= IOSQE_BUFFER_SELECT;
	sqe->buf_group = U_BGID;
	io_uring_sqe_set_data64(sqe, udata(U_RECV, 0, sv[0]));
	if (write(sv[1], "x", 1) != 1 || io_uring_submit_and_wait(&u->ring, 1) < 0)
		goto out;
	for (int i = 0; i < 8 && !over; i++) {
		if (io_uring_wait_cqe(&u->ring, &cqe) < 0)
			break;
		if (cqe->user_data == udata(U_RECV, 0, sv[0])) {
			if (cqe->res == 1 && (cqe->flags & IORING_CQE_F_BUFFER)) {
				buf_recycle(u, cqe->flags >> IORING_CQE_BUFFER_SHIFT);
				ok = (cqe->flags & IORING_CQE_F_MORE) != 0;
			}
			over = !(cqe->flags & IORING_CQE_F_MORE);
			if (!over) {
				sqe = io_uring_get_sqe(&u->ring);
				io_uring_prep_cancel64(sqe, udata(U_RECV, 0, sv[0]), 0);
				io_uring_sqe_set_data64(sqe, udata(U_CANCEL, 0, sv[0]));
				io_uring_submit(&u->ring);
			}
		}
		io_uring_cqe_seen(&u->ring, cqe);
	}
	/* the cancel's own completion, if it has not come yet */
	while (io_uring_peek_cqe(&u->ring, &cqe) == 0)
		io_uring_cqe_seen(&u->ring, cqe);
out:
	close(sv[0]);
	close(sv[1]);
	if (!ok || !over)
		errno = ENOSYS;
	return ok && over ? 0 : -1;
}

int
evloop_uring(struct evloop *l)
{
	static const unsigned tries[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_COOP_TASKRUN, 0
	};
	struct io_uring_params p;
	struct uring *u;
	int r = -ENOSYS;

	if (l->u)
		return 0;
	if (!(u = calloc(1, sizeof(*u))))
		return -1;
	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		memset(&p, 0, sizeof(p));
		p.flags = tries[i] | IORING_SETUP_CQSIZE | IORING_SETUP_CLAMP;
		p.cq_entries = U_CQ_ENTRIES;
		if ((r = io_uring_queue_init_params(U_ENTRIES, &u->ring, &p)) == 0)
			break;
		if (r != -EINVAL)
			break;
	}
	if (r < 0) {
		free(u);
		errno = -r;
		return -1;
	}
	u->brlen = U_NBUF * sizeof(struct io_uring_buf);
	u->br = mmap(NULL, u->brlen, PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
	if (u->br == MAP_FAILED) {
		u->br = NULL;
		goto fail;
	}
	struct io_uring_buf_reg reg = { .ring_addr = (uintptr_t)u->br, .ring_entries = U_NBUF,
					.bgid = U_BGID };
	if ((r = io_uring_register_buf_ring(&u->ring, &reg, 0)) < 0) {
		errno = -r;
		goto fail;
	}
	if (!(u->bufs = malloc((size_t)U_NBUF * U_BUFSZ)))
		goto fail;
	io_uring_buf_ring_init(u->br);
	for (unsigned i = 0; i < U_NBUF; i++)
		io_uring_buf_ring_add(u->br, u->bufs + (size_t)i * U_BUFSZ, U_BUFSZ,
				      (unsigned short)i, io_uring_buf_ring_mask(U_NBUF), (int)i);
	io_uring_buf_ring_advance(u->br, U_NBUF);
	l->u = u;
	if (probe_recv(l) < 0 || arm_poll(l) < 0)
		goto fail;
	return 0;
fail:
	r = errno ? errno : ENOSYS;
	l->u = NULL;
	uring_free(u);
	errno = r;
	return -1;
}
