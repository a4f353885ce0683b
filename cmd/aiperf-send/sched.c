/* SPDX-License-Identifier: Apache-2.0 */
/* Timing: the cancel-deadline heap, when the next request is due, and the precise final wait. */
#include "send.h"

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
