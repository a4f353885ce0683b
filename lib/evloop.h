/* SPDX-License-Identifier: Apache-2.0 */
/* One event loop core: descriptors with callbacks, monotonic timers and signals on one epoll set. */
#ifndef AIPERF_EVLOOP_H
#define AIPERF_EVLOOP_H

#include <stdint.h>

/*
 * The loop owns its epoll set, one timerfd and one signalfd, and nothing
 * else: it never closes the caller's descriptors, and timers live in the
 * caller's own structures. Callbacks run only inside evloop_run_once, one
 * event at a time in the kernel's order; the caller keeps its own loop and
 * decides what runs between passes and how long each pass may sleep.
 *
 * A callback may add, change or delete any descriptor or timer. An event
 * already fetched for a descriptor deleted (or forgotten) earlier in the
 * same pass is dropped, even when its number was reused meanwhile.
 *
 * Timers are absolute CLOCK_MONOTONIC nanoseconds of the kernel's clock,
 * not clock.h's fake clock, which the loop never reads. They are meant for
 * a handful of deadlines (a list, not a heap): keep many deadlines in a
 * heap of your own and pass the earliest to evloop_run_once, or arm one
 * timer at it.
 */

/* The epoll(7) bits themselves, so nothing is translated on the way. */
enum evloop_events {
	EVLOOP_IN = 0x001,
	EVLOOP_OUT = 0x004,
	EVLOOP_ERR = 0x008,
	EVLOOP_HUP = 0x010,
	EVLOOP_RDHUP = 0x2000,
	EVLOOP_ONESHOT = 1 << 30,	/* one event, then disabled until evloop_mod */
};

struct evloop;

/* fd became ready: events holds what happened (EVLOOP_* bits). */
typedef void evloop_fn(struct evloop *l, int fd, unsigned events, void *ud);
/*
 * A receive on fd (evloop_recv) completed: n > 0 bytes at p (the loop's
 * buffer, valid only during the call), 0 at the end of the stream, or
 * -errno. After 0 or -errno the receive is over.
 */
typedef void evloop_data_fn(struct evloop *l, int fd, const char *p, long n, void *ud);
/* Signal sig arrived (once per delivery the kernel did not merge). */
typedef void evloop_sig_fn(struct evloop *l, int sig, void *ud);

struct evloop_timer;
typedef void evloop_timer_fn(struct evloop *l, struct evloop_timer *t);

/* A one-shot deadline; the caller owns it, the loop only links it. */
struct evloop_timer {
	int64_t at;		/* armed: when (ns); -1: not armed */
	evloop_timer_fn *fn;	/* NULL: firing only wakes the loop */
	void *ud;
	struct evloop_timer *next;	/* the loop's, while armed */
};

#define EVLOOP_TIMER_INIT(fn, ud) { -1, (fn), (ud), 0 }

/*
 * A new loop that fetches at most max_events events per pass; NULL with
 * errno set when the kernel refuses an epoll set or timerfd.
 */
struct evloop *evloop_new(int max_events);
/*
 * Free l and its own descriptors. Signals given to evloop_signal stay
 * blocked (a late one is then never acted on: the process is ending).
 */
void evloop_free(struct evloop *l);

/*
 * Watch fd for events, calling fn(l, fd, revents, ud); when fd is already
 * watched, its events and callback are replaced. 0, or -1 with errno from
 * epoll_ctl (EPERM: fd is a regular file, which is always ready).
 */
int evloop_add(struct evloop *l, int fd, unsigned events, evloop_fn *fn, void *ud);
/* Change the events of a watched fd (and re-enable a ONESHOT one); 0 or -1. */
int evloop_mod(struct evloop *l, int fd, unsigned events);
/* Stop watching fd for readiness (an evloop_recv on it goes on); 0 or -1. */
int evloop_del(struct evloop *l, int fd);
/*
 * fd is being closed: stop calling back for it without a system call
 * (close(2) takes a descriptor out of epoll when no duplicate of it is
 * open; a receive on it is cancelled with the next pass's submission).
 * Call it before close, as the number may be reused at once.
 */
void evloop_forget(struct evloop *l, int fd);

/*
 * io_uring: evloop_uring moves l's waiting onto an io_uring (the epoll set
 * is then one of the ring's polls) and enables evloop_recv: a multishot
 * receive into the loop's provided buffers, so a socket's bytes arrive as
 * completions, with no readiness event and no read(2) each. It needs
 * Linux 6.0 (checked on a socket pair); 0, or -1 with errno (ENOSYS: the
 * kernel, liburing or a seccomp policy has none of it), and l stays on
 * epoll alone. Call it once, before any evloop_recv, from the thread that
 * runs the loop (the ring accepts no other).
 */
int evloop_uring(struct evloop *l);
/* Whether l runs on an io_uring (evloop_uring succeeded). */
int evloop_has_uring(const struct evloop *l);
/*
 * Receive on socket fd until its end or an error, calling fn(l, fd, p, n,
 * ud) in evloop_run_once for every completion; a receive already running
 * on fd is replaced. Independent of evloop_add: a socket may also be
 * watched for EVLOOP_OUT, and is then best not watched for EVLOOP_IN.
 * 0, or -1 with errno (ENOSYS: l is not on io_uring).
 */
int evloop_recv(struct evloop *l, int fd, evloop_data_fn *fn, void *ud);

/*
 * Deliver signal sig as an event: fn(l, sig, ud) runs inside
 * evloop_run_once. The signal is blocked in this thread and given a
 * handler (so that an inherited SIG_IGN does not discard it); one sent
 * before this call, or between two passes, is not lost. 0, or -1 with errno.
 */
int evloop_signal(struct evloop *l, int sig, evloop_sig_fn *fn, void *ud);

/* Arm t to fire at monotonic time at (ns), moving it when armed already. */
void evloop_timer_arm(struct evloop *l, struct evloop_timer *t, int64_t at);
/* Disarm t; nothing when it is not armed. */
void evloop_timer_stop(struct evloop *l, struct evloop_timer *t);

/*
 * One pass: sleep until an event, a timer or timeout_ns from now (-1: no
 * limit, 0: do not sleep), then run the callbacks of what was fetched.
 * Returns the number of events fetched (the loop's own timerfd and
 * signalfd and the ring's completions included), 0 on a timeout or an
 * interrupted sleep, or -1 with errno when epoll or the ring fails.
 */
int evloop_run_once(struct evloop *l, int64_t timeout_ns);

#endif
