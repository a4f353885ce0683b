/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/heap: order against a sorted reference, deletes, fixes, ties, growth. */
#include "heap.h"

#include <stdint.h>
#include <stdlib.h>
#include "test.h"

#define N 5000

static uint64_t seed = 42;

static int64_t
rnd(int64_t mod)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (int64_t)((seed >> 33) % (uint64_t)mod);
}

/* Value elements: a key, and an id telling equal keys apart. */
struct rec {
	int64_t key;
	int32_t id;
};

static int
rec_less(const void *a, const void *b)
{
	return ((const struct rec *)a)->key < ((const struct rec *)b)->key;
}

static const struct heap_type rec_type = { sizeof(struct rec), rec_less, NULL };

/* Pointer elements with a back-pointer, as the timer heaps use them. */
struct obj {
	int64_t key;
	size_t idx;		/* SIZE_MAX when not queued */
};

static int
obj_less(const void *a, const void *b)
{
	return (*(struct obj *const *)a)->key < (*(struct obj *const *)b)->key;
}

static void
obj_moved(void *e, size_t i)
{
	(*(struct obj **)e)->idx = i;
}

static const struct heap_type obj_type = { sizeof(struct obj *), obj_less,
					   obj_moved };

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Heap property and back-pointers of an obj heap. */
static int
obj_valid(const struct heap *h)
{
	struct obj **v = h->v;

	for (size_t i = 0; i < h->n; i++) {
		if (v[i]->idx != i)
			return 0;
		if (i && v[(i - 1) / 2]->key > v[i]->key)
			return 0;
	}
	return 1;
}

static int
test_sorted(void)
{
	static int64_t ref[N];
	struct heap h;
	struct rec r;
	int ok = 1;

	heap_init(&h);
	for (int i = 0; i < N; i++) {
		r = (struct rec){ rnd(1000000) - 500000, i };
		ref[i] = r.key;
		heap_push(&h, &rec_type, &r);
	}
	qsort(ref, N, sizeof(*ref), cmp_i64);
	for (int i = 0; i < N; i++) {
		heap_pop(&h, &rec_type, &r);
		ok &= r.key == ref[i];
	}
	ok &= h.n == 0 && heap_top(&h) == NULL;
	heap_release(&h);
	return ok;
}

/* Pushes and pops interleaved: each pop is the least of what is queued. */
static int
test_interleaved(void)
{
	static int64_t ref[N];
	size_t nref = 0;
	struct heap h;
	struct rec r;
	int ok = 1;

	heap_init(&h);
	for (int i = 0; i < 4 * N; i++) {
		if (nref && rnd(3) == 0) {
			size_t m = 0;
			for (size_t j = 1; j < nref; j++)
				m = ref[j] < ref[m] ? j : m;
			heap_pop(&h, &rec_type, &r);
			ok &= r.key == ref[m];
			ref[m] = ref[--nref];
		} else if (nref < N) {
			r = (struct rec){ rnd(100), i };
			ref[nref++] = r.key;
			heap_push(&h, &rec_type, &r);
		}
	}
	ok &= h.n == nref;
	heap_release(&h);
	return ok;
}

/* Pop every obj; keys must not decrease and back-pointers are reset. */
static size_t
obj_drain(struct heap *h, int *ordered)
{
	int64_t last = INT64_MIN;
	size_t n = 0;
	struct obj *o;

	*ordered = 1;
	while (heap_top(h)) {
		heap_pop(h, &obj_type, &o);
		o->idx = SIZE_MAX;
		*ordered &= o->key >= last;
		last = o->key;
		n++;
	}
	return n;
}

/* Delete arbitrary objects and move keys both ways. */
static void
test_delete_fix(void)
{
	static struct obj objs[N];
	struct heap h;
	int ok = 1, ordered;

	heap_init(&h);
	for (int i = 0; i < N; i++) {
		objs[i].key = rnd(1000);
		struct obj *o = &objs[i];
		heap_push(&h, &obj_type, &o);
	}
	TEST("heap: pushes keep back-pointers", obj_valid(&h) && h.n == N);
	for (int i = 0; i < 5 * N; i++) {
		struct obj *o = &objs[rnd(N)];
		if (o->idx == SIZE_MAX) {
			heap_push(&h, &obj_type, &o);
		} else if (rnd(3) == 0) {
			heap_delete(&h, &obj_type, o->idx);
			o->idx = SIZE_MAX;
		} else {
			o->key = rnd(1000);
			heap_fix(&h, &obj_type, o->idx);
		}
		ok &= obj_valid(&h);
	}
	TEST("heap: random deletes and fixes keep it valid", ok);
	size_t queued = 0;
	for (int i = 0; i < N; i++)
		queued += objs[i].idx != SIZE_MAX;
	TEST("heap: size matches the queued objects", queued == h.n);
	TEST("heap: then pops come in key order",
	     obj_drain(&h, &ordered) == queued && ordered);
	heap_release(&h);
}

/*
 * The reference for ties: the binary heap each tool had before lib/heap
 * (aiperf-send's sched.c), recording ids. Equal keys must leave lib/heap in
 * exactly its order: the tokenizer's merges and the timers depend on it.
 */
struct ref {
	struct rec v[N];
	size_t n;
};

static void
ref_push(struct ref *h, struct rec x)
{
	size_t i = h->n++;

	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (h->v[p].key <= x.key)
			break;
		h->v[i] = h->v[p];
		i = p;
	}
	h->v[i] = x;
}

/* Remove index i: the last element fills it, sifted down then up. */
static void
ref_remove(struct ref *h, size_t i)
{
	struct rec x = h->v[--h->n];

	if (i == h->n)
		return;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->v[c + 1].key < h->v[c].key)
			c++;
		if (x.key <= h->v[c].key)
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (h->v[p].key <= x.key)
			break;
		h->v[i] = h->v[p];
		i = p;
	}
	h->v[i] = x;
}

static int
test_ties(void)
{
	static struct ref ref;
	struct heap h;
	struct rec r;
	int ok = 1;

	heap_init(&h);
	for (int i = 0; i < 6 * N; i++) {
		if (ref.n && rnd(4) == 0) {
			size_t at = rnd(5) ? 0 : (size_t)rnd((int64_t)ref.n);
			r = *(struct rec *)heap_at(&h, &rec_type, at);
			ok &= r.id == ref.v[at].id;
			heap_delete(&h, &rec_type, at);
			ref_remove(&ref, at);
		} else if (ref.n < N) {
			r = (struct rec){ rnd(8), i };
			heap_push(&h, &rec_type, &r);
			ref_push(&ref, r);
		}
	}
	while (ref.n) {
		heap_pop(&h, &rec_type, &r);
		ok &= r.id == ref.v[0].id;
		ref_remove(&ref, 0);
	}
	heap_release(&h);
	return ok;
}

static int
test_growth(void)
{
	struct heap h;
	struct rec r;
	int ok = 1;

	heap_init(&h);
	for (int i = N - 1; i >= 0; i--) {
		r = (struct rec){ i, i };
		heap_push(&h, &rec_type, &r);
		ok &= h.cap >= h.n && ((struct rec *)heap_top(&h))->key == i;
	}
	heap_reserve(&h, sizeof(r), 3 * N);
	ok &= h.cap >= 3 * N && h.n == N;
	for (int i = 0; i < N; i++) {
		heap_pop(&h, &rec_type, &r);
		ok &= r.key == i;
	}
	heap_release(&h);
	return ok && h.v == NULL && h.cap == 0;
}

int
main(void)
{
	struct heap h;

	heap_init(&h);
	TEST("heap: empty heap has no top", heap_top(&h) == NULL && h.n == 0);
	heap_release(&h);
	TEST("heap: pops match a sorted reference", test_sorted());
	TEST("heap: interleaved pushes and pops", test_interleaved());
	test_delete_fix();
	TEST("heap: ties come out in the old heaps' order", test_ties());
	TEST("heap: grows from empty and by reserve", test_growth());
	struct rec one = { 7, 1 }, out;
	heap_push(&h, &rec_type, &one);
	heap_pop(&h, &rec_type, &out);
	TEST("heap: one element in, out, empty again",
	     out.id == 1 && heap_top(&h) == NULL);
	heap_release(&h);
	return TEST_DONE();
}
