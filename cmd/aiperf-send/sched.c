/* SPDX-License-Identifier: Apache-2.0 */
/* Timing: the cancel-deadline heap, when the next request is due, and the precise final wait. */
#include "send.h"

#include <math.h>
#include <sys/resource.h>
#include "clock.h"
#include "util.h"
#include "xfer.h"

static void
heap_set(struct heap *h, size_t i, struct xfer *x)
{
	h->v[i] = x;
	x->hidx = i;
}

static void
sift_up(struct heap *h, size_t i)
{
	struct xfer *x = h->v[i];
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (h->v[p]->deadline <= x->deadline)
			break;
		heap_set(h, i, h->v[p]);
		i = p;
	}
	heap_set(h, i, x);
}

static void
sift_down(struct heap *h, size_t i)
{
	struct xfer *x = h->v[i];
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->v[c + 1]->deadline < h->v[c]->deadline)
			c++;
		if (x->deadline <= h->v[c]->deadline)
			break;
		heap_set(h, i, h->v[c]);
		i = c;
	}
	heap_set(h, i, x);
}

void
heap_push(struct heap *h, struct xfer *x)
{
	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 64;
		h->v = xreallocarray(h->v, h->cap, sizeof(*h->v));
	}
	heap_set(h, h->n++, x);
	sift_up(h, h->n - 1);
}

void
heap_remove(struct heap *h, struct xfer *x)
{
	size_t i = x->hidx;
	if (i >= h->n || h->v[i] != x)
		return;
	x->hidx = (size_t)-1;
	struct xfer *last = h->v[--h->n];
	if (last == x)
		return;
	heap_set(h, i, last);
	sift_down(h, i);
	sift_up(h, last->hidx);
}

struct xfer *
heap_top(const struct heap *h)
{
	return h->n ? h->v[0] : NULL;
}

void
heap_release(struct heap *h)
{
	free(h->v);
	h->v = NULL;
	h->n = h->cap = 0;
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
