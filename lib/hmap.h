/* SPDX-License-Identifier: Apache-2.0 */
/* An open-addressing hash map from a pair of 64-bit keys to a 64-bit value. */
#ifndef AIPERF_HMAP_H
#define AIPERF_HMAP_H

#include <stddef.h>
#include <stdint.h>

/*
 * struct hmap owns its three arrays (32 bytes a slot, at most half the
 * slots used). hmap_init() does not allocate; hmap_release() frees and
 * re-inits. Keys are any (a, b) pairs. Pointers returned into the map stay
 * valid only until the next insertion. max bounds the number of entries:
 * an insertion past it returns NULL (the caller reports it); allocation
 * failure aborts through xcalloc.
 */
struct hmap_slot {
	uint64_t a, b, val;
	uint64_t used;
};

struct hmap {
	struct hmap_slot *s;
	size_t cap;		/* slots, a power of two or 0 */
	size_t len;		/* entries */
	size_t max;
};

void hmap_init(struct hmap *m, size_t max);
void hmap_release(struct hmap *m);
/* The value for (a, b), or NULL when absent. */
uint64_t *hmap_find(const struct hmap *m, uint64_t a, uint64_t b);
/*
 * The value for (a, b), inserted as 0 when absent (*created set to 1,
 * else 0). NULL when the map already holds max entries.
 */
uint64_t *hmap_put(struct hmap *m, uint64_t a, uint64_t b, int *created);
/*
 * Iterate: start with *pos = 0; returns 1 and the next entry, or 0 at the
 * end. Order is the slot order (not insertion order).
 */
int hmap_next(const struct hmap *m, size_t *pos, uint64_t *a, uint64_t *b,
	      uint64_t *val);

#endif
