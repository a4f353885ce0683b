/* SPDX-License-Identifier: Apache-2.0 */
/* A binary min-heap over an array of fixed-size elements: its storage (the sifts are inline in heap.h). */
#include "heap.h"

#include <assert.h>
#include <stdlib.h>
#include "util.h"

void
heap_init(struct heap *h)
{
	h->v = NULL;
	h->n = h->cap = 0;
}

void
heap_release(struct heap *h)
{
	free(h->v);
	heap_init(h);
}

void
heap_reserve(struct heap *h, size_t size, size_t n)
{
	/* heap_fix() holds one element in a buffer of this size. */
	assert(size > 0 && size <= HEAP_ELEM_MAX);
	if (n <= h->cap)
		return;
	size_t cap = h->cap ? h->cap : 64;
	while (cap < n)
		cap = cap > SIZE_MAX / 2 ? n : 2 * cap;
	h->v = xreallocarray(h->v, cap, size);
	h->cap = cap;
}
