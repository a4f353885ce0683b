/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for aiperf-mock's timer heap: random inserts, moves and deletes pop in deadline order. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The binding is private to the tool; test it from its source. */
#include "../../cmd/aiperf-mock/heap.c"
#include "test.h"

#define N 2000

static uint64_t seed = 42;

static int64_t
rnd(int64_t mod)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (int64_t)((seed >> 33) % (uint64_t)mod);
}

/* Heap property and index back-pointers. */
static int
valid(const struct server *s)
{
	struct conn **v = s->timers.v;

	for (size_t i = 0; i < s->timers.n; i++) {
		if (v[i]->hidx != i)
			return 0;
		if (i && v[(i - 1) / 2]->deadline > v[i]->deadline)
			return 0;
	}
	return 1;
}

/* Pop everything; deadlines must not decrease. Returns the count. */
static size_t
drain(struct server *s, int *ordered)
{
	int64_t last = INT64_MIN;
	size_t n = 0;
	struct conn *c;

	*ordered = 1;
	while ((c = timer_top(s))) {
		if (c->deadline < last)
			*ordered = 0;
		last = c->deadline;
		timer_del(s, c);
		if (c->hidx != SIZE_MAX)
			*ordered = 0;
		n++;
	}
	return n;
}

int
main(void)
{
	static struct conn conns[N];
	struct server s = { 0 };
	int ok = 1, ordered;

	for (int i = 0; i < N; i++) {
		conns[i].hidx = SIZE_MAX;
		timer_set(&s, &conns[i], rnd(1000));
	}
	TEST("inserts keep the heap valid", valid(&s) && s.timers.n == N);
	for (int i = 0; i < 5 * N; i++) {
		struct conn *c = &conns[rnd(N)];
		if (rnd(3) == 0)
			timer_del(&s, c);
		else
			timer_set(&s, c, rnd(1000));
		ok &= valid(&s);
	}
	TEST("random moves and deletes keep it valid", ok);
	size_t queued = 0;
	for (int i = 0; i < N; i++)
		queued += conns[i].hidx != SIZE_MAX;
	TEST("size matches the queued connections", queued == s.timers.n);
	TEST("pops come in deadline order", drain(&s, &ordered) == queued && ordered);
	TEST("empty heap has no top", timer_top(&s) == NULL);
	timer_del(&s, &conns[0]);
	TEST("deleting an unqueued connection is a no-op", s.timers.n == 0);
	timer_set(&s, &conns[0], 5);
	timer_set(&s, &conns[1], 3);
	timer_set(&s, &conns[0], 1);
	TEST("moving earlier takes the top", timer_top(&s) == &conns[0]);
	timer_set(&s, &conns[0], 9);
	TEST("moving later gives it up", timer_top(&s) == &conns[1]);
	heap_release(&s.timers);
	return TEST_DONE();
}
