/* SPDX-License-Identifier: Apache-2.0 */
/* The timer heap: lib/heap of connections keyed by their deadline. */
#include "mock.h"

#include <stdint.h>

static int
conn_less(const void *a, const void *b)
{
	return (*(struct conn *const *)a)->deadline <
	       (*(struct conn *const *)b)->deadline;
}

static void
conn_moved(void *e, size_t i)
{
	(*(struct conn **)e)->hidx = i;
}

static const struct heap_type conn_heap = { sizeof(struct conn *), conn_less,
					    conn_moved };

void
timer_set(struct server *s, struct conn *c, int64_t deadline)
{
	c->deadline = deadline;
	if (c->hidx != SIZE_MAX)
		heap_fix(&s->timers, &conn_heap, c->hidx);
	else
		heap_push(&s->timers, &conn_heap, &c);
}

void
timer_del(struct server *s, struct conn *c)
{
	size_t i = c->hidx;

	if (i == SIZE_MAX)
		return;
	c->hidx = SIZE_MAX;
	heap_delete(&s->timers, &conn_heap, i);
}

struct conn *
timer_top(const struct server *s)
{
	struct conn **top = heap_top(&s->timers);

	return top ? *top : NULL;
}
