/* SPDX-License-Identifier: Apache-2.0 */
/* The timer heap: a binary min-heap of connections keyed by their deadline. */
#include "mock.h"

#include <stdint.h>

static void
place(struct server *s, size_t i, struct conn *c)
{
	s->heap[i] = c;
	c->hidx = i;
}

static void
sift_up(struct server *s, size_t i)
{
	struct conn *c = s->heap[i];

	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (s->heap[p]->deadline <= c->deadline)
			break;
		place(s, i, s->heap[p]);
		i = p;
	}
	place(s, i, c);
}

static void
sift_down(struct server *s, size_t i)
{
	struct conn *c = s->heap[i];

	for (;;) {
		size_t l = 2 * i + 1, m = l;
		if (l >= s->nheap)
			break;
		if (l + 1 < s->nheap && s->heap[l + 1]->deadline < s->heap[l]->deadline)
			m = l + 1;
		if (s->heap[m]->deadline >= c->deadline)
			break;
		place(s, i, s->heap[m]);
		i = m;
	}
	place(s, i, c);
}

void
heap_set(struct server *s, struct conn *c, int64_t deadline)
{
	if (c->hidx != SIZE_MAX) {
		int64_t old = c->deadline;
		c->deadline = deadline;
		if (deadline < old)
			sift_up(s, c->hidx);
		else
			sift_down(s, c->hidx);
		return;
	}
	if (s->nheap == s->heapcap) {
		s->heapcap = s->heapcap ? 2 * s->heapcap : 1024;
		s->heap = xreallocarray(s->heap, s->heapcap, sizeof(*s->heap));
	}
	c->deadline = deadline;
	place(s, s->nheap++, c);
	sift_up(s, c->hidx);
}

void
heap_del(struct server *s, struct conn *c)
{
	size_t i = c->hidx;

	if (i == SIZE_MAX)
		return;
	c->hidx = SIZE_MAX;
	if (--s->nheap == i)
		return;
	struct conn *m = s->heap[s->nheap];
	place(s, i, m);
	sift_up(s, i);
	sift_down(s, m->hidx);
}

struct conn *
heap_top(const struct server *s)
{
	return s->nheap ? s->heap[0] : NULL;
}
