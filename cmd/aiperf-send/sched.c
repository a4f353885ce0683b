/* SPDX-License-Identifier: Apache-2.0 */
/* Timing: the cancel-deadline and delay heaps, when the next request is due, and the precise final wait. */
#include "send.h"

#include <math.h>
#include <sys/resource.h>
#include "clock.h"
#include "util.h"
#include "xfer.h"

/* The timer and delay heaps hold xfer pointers keyed by deadline; hidx
 * is the back-pointer, (size_t)-1 when on neither. */
static int
xfer_less(const void *a, const void *b)
{
	return (*(struct xfer *const *)a)->deadline <
	       (*(struct xfer *const *)b)->deadline;
}

static void
xfer_moved(void *e, size_t i)
{
	(*(struct xfer **)e)->hidx = i;
}

static const struct heap_type xfer_heap = { sizeof(struct xfer *), xfer_less,
					    xfer_moved };

void
sched_push(struct heap *h, struct xfer *x)
{
	heap_push(h, &xfer_heap, &x);
}

void
sched_remove(struct heap *h, struct xfer *x)
{
	size_t i = x->hidx;

	/* hidx may be x's place in the other heap. */
	if (i >= h->n || *(struct xfer **)heap_at(h, &xfer_heap, i) != x)
		return;
	x->hidx = (size_t)-1;
	heap_delete(h, &xfer_heap, i);
}

struct xfer *
sched_top(const struct heap *h)
{
	struct xfer **top = heap_top(h);

	return top ? *top : NULL;
}

/*
 * When the queue head may start: now for closed-loop records, else its
 * intended time (phase start + at_ns). Records start in input order, so a
 * late at_ns behind an early one waits for it.
 */
int64_t
sched_next_due(struct sender *s, int64_t now)
{
	const struct xfer *x = s->qhead;
	if (!x || x->at_ns < 0 || !s->phase)
		return now;
	return s->phase_start + x->at_ns;
}

/* Spin for the last stretch: an epoll/timerfd wake-up is ~50 us coarse. */
void
sched_wait_until(int64_t due)
{
	while (clock_now_ns() < due)
		;
}

/*
 * A limit ramped linearly from 1 to target in +1 steps spread over dur ns
 * from start (spec 5.3): step k comes at start + k*dur/(target-1). The time
 * of the next step goes to *next when it is earlier.
 */
static size_t
ramp(size_t target, int64_t dur, int64_t start, int64_t now, int64_t *next)
{
	if (dur <= 0 || target <= 1 || now >= start + dur)
		return target;
	double step = (double)dur / (double)(target - 1);
	size_t l = 1 + (size_t)((double)(now - start) / step);
	if (l >= target)
		return target;
	int64_t t = start + (int64_t)ceil((double)l * step);
	if (t <= now)
		t = now + 1;
	if (*next < 0 || t < *next)
		*next = t;
	return l;
}

/* Concurrency slots x's phase allows now (warmup falls back to --concurrency). */
static size_t
conc_limit(struct sender *s, const struct xfer *x, int64_t now)
{
	const struct options *o = s->o;
	long c = x->warmup && o->wconcurrency ? o->wconcurrency : o->concurrency;

	if (!c)
		return x->at_ns >= 0 ? s->fd_cap : 1;
	size_t l = ramp((size_t)c, o->ramp_ns[x->warmup], s->phase_start, now,
			&s->ramp_due);
	return l < s->fd_cap ? l : s->fd_cap;
}

/*
 * Every request in flight holds a socket, so the descriptor limit caps
 * concurrency: past it the kernel refuses sockets and requests would fail
 * for the client's sake. Raise the soft limit to the hard one, keep a
 * reserve for stdio, epoll, the timer and libcurl's own descriptors, and say
 * so when --concurrency asks for more than that.
 */
void
sched_fd_limit(struct sender *s)
{
	struct rlimit r;
	const long reserve = 64;

	s->fd_cap = (size_t)-1;
	if (getrlimit(RLIMIT_NOFILE, &r) < 0)
		return;
	if (r.rlim_cur < r.rlim_max) {
		rlim_t cur = r.rlim_cur;
		r.rlim_cur = r.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &r) < 0)
			r.rlim_cur = cur;
	}
	if (r.rlim_cur == RLIM_INFINITY || r.rlim_cur > (rlim_t)1 << 40)
		return;
	s->fd_cap = r.rlim_cur > (rlim_t)reserve * 2 ? (size_t)(r.rlim_cur - reserve) :
						       (size_t)r.rlim_cur / 2;
	long want = s->o->concurrency > s->o->wconcurrency ? s->o->concurrency :
							    s->o->wconcurrency;
	if (want > 0 && (size_t)want > s->fd_cap)
		warn("--concurrency %ld needs more descriptors than RLIMIT_NOFILE (%llu) "
		     "allows: at most %zu requests run at once", want,
		     (unsigned long long)r.rlim_cur, s->fd_cap);
}

/* Prefill slots x's phase allows now, or 0 for no prefill limit. */
static size_t
prefill_limit(struct sender *s, const struct xfer *x, int64_t now)
{
	const struct options *o = s->o;
	long p = o->prefill[x->warmup];

	if (!p)
		return 0;
	return ramp((size_t)p, o->pramp_ns[x->warmup], s->phase_start, now,
		    &s->ramp_due);
}

/*
 * Whether x may start now: a free prefill slot, and for a first turn
 * (need_slot) a free concurrency slot. A ramp that holds it back sets
 * s->ramp_due to when its limit rises.
 */
int
sched_may_start(struct sender *s, const struct xfer *x, int need_slot, int64_t now)
{
	size_t p;

	if (need_slot && s->slots >= conc_limit(s, x, now))
		return 0;
	p = prefill_limit(s, x, now);
	return !p || s->prefill_held < p;
}

/* x starts: it takes a prefill slot when its phase has a prefill limit. */
void
sched_prefill_take(struct sender *s, struct xfer *x)
{
	if (s->o->prefill[x->warmup] && !x->prefill) {
		x->prefill = 1;
		s->prefill_held++;
	}
}

/* x's first content arrived, or it finished: its prefill slot is free. */
void
sched_prefill_release(struct sender *s, struct xfer *x)
{
	if (x->prefill) {
		x->prefill = 0;
		s->prefill_held--;
	}
}
