/* SPDX-License-Identifier: Apache-2.0 */
/* A binary min-heap over an array of fixed-size elements (the Linux kernel's min_heap shape). */
#ifndef AIPERF_HEAP_H
#define AIPERF_HEAP_H

#include <stddef.h>
#include <string.h>

/*
 * struct heap owns its array; the elements are copied in by value: plain
 * records (the BPE merge queue) or pointers to the caller's objects (timer
 * heaps). heap_init() does not allocate; heap_release() frees and re-inits.
 * Growth aborts on out-of-memory through xreallocarray; the heap holds at
 * most the elements pushed and not popped, so it needs no other cap.
 *
 * Every operation takes the element type, struct heap_type: its size, a
 * strict "less", and optionally "moved", told each time an element lands
 * at an index, so objects can keep a back-pointer for heap_delete() and
 * heap_fix() in O(log n). The sift functions are static inline, like
 * libuv's heap-inl.h: given a constant type, the compiler inlines less and
 * moved (the tokenizer's merge loop lives on them).
 *
 * Ties: an element moves past another only when strictly less, and a
 * right child is chosen over the left only when strictly less, so equal
 * keys come out in an order fixed by the sequence of operations alone.
 */
struct heap {
	void *v;		/* n elements of the type's size, room for cap */
	size_t n, cap;
};

struct heap_type {
	size_t size;		/* bytes per element, at most HEAP_ELEM_MAX */
	int (*less)(const void *a, const void *b);
	void (*moved)(void *e, size_t i);	/* NULL: no back-pointers */
};

#define HEAP_ELEM_MAX 32

/* Room for one element outside the array, where sifts can keep it. */
union heap_tmp_ {
	max_align_t align;
	unsigned char b[HEAP_ELEM_MAX];
};

void heap_init(struct heap *h);
void heap_release(struct heap *h);
/* Room for at least n elements of size bytes each (aborts on overflow). */
void heap_reserve(struct heap *h, size_t size, size_t n);

/* The element at index i (i < h->n). */
static inline void *
heap_at(const struct heap *h, const struct heap_type *t, size_t i)
{
	return (char *)h->v + i * t->size;
}

/* The least element, in place, or NULL when the heap is empty. */
static inline void *
heap_top(const struct heap *h)
{
	return h->n ? h->v : NULL;
}

/*
 * The sifts work on the array v, not on struct heap: the element copies
 * are char stores the compiler must assume alias h->v and h->n, which
 * would reload both on every step of the tokenizer's loop.
 */

/* Copy x into slot i of v. */
static inline void
heap_put_(char *v, const struct heap_type *t, size_t i, const void *x)
{
	memcpy(v + i * t->size, x, t->size);
	if (t->moved)
		t->moved(v + i * t->size, i);
}

/* Move the hole at i up past parents greater than x; its final index. */
static inline size_t
heap_up_(char *v, const struct heap_type *t, size_t i, const void *x)
{
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (!t->less(x, v + p * t->size))
			break;
		heap_put_(v, t, i, v + p * t->size);
		i = p;
	}
	return i;
}

/* Move the hole at i down past children less than x; its final index. */
static inline size_t
heap_down_(char *v, size_t n, const struct heap_type *t, size_t i,
	   const void *x)
{
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && t->less(v + (c + 1) * t->size, v + c * t->size))
			c++;
		if (!t->less(v + c * t->size, x))
			break;
		heap_put_(v, t, i, v + c * t->size);
		i = c;
	}
	return i;
}

/* Add a copy of the element at e (not one inside the heap). */
static inline void
heap_push(struct heap *h, const struct heap_type *t, const void *e)
{
	if (h->n == h->cap)
		heap_reserve(h, t->size, h->n + 1);
	char *v = h->v;
	size_t i = heap_up_(v, t, h->n++, e);
	heap_put_(v, t, i, e);
}

/*
 * Remove the element at index i (i < h->n). Its copy in the array is gone:
 * read it first. moved is not called for it; reset its back-pointer.
 */
static inline void
heap_delete(struct heap *h, const struct heap_type *t, size_t i)
{
	char *v = h->v;
	size_t n = --h->n;
	union heap_tmp_ x;

	if (n == i)
		return;
	/* The last element fills the hole. A copy, not a pointer into v:
	 * then the compiler may keep it in registers. */
	memcpy(x.b, v + n * t->size, t->size);
	size_t j = heap_down_(v, n, t, i, x.b);
	if (j == i)
		j = heap_up_(v, t, i, x.b);
	heap_put_(v, t, j, x.b);
}

/* Copy the least element to out and remove it; the heap is not empty. */
static inline void
heap_pop(struct heap *h, const struct heap_type *t, void *out)
{
	memcpy(out, h->v, t->size);
	heap_delete(h, t, 0);
}

/* Restore the order after the key of the element at index i changed. */
static inline void
heap_fix(struct heap *h, const struct heap_type *t, size_t i)
{
	union heap_tmp_ x;
	char *v = h->v;

	memcpy(x.b, v + i * t->size, t->size);
	size_t j = heap_up_(v, t, i, x.b);
	if (j == i)
		j = heap_down_(v, h->n, t, i, x.b);
	heap_put_(v, t, j, x.b);
}

#endif
