/* SPDX-License-Identifier: Apache-2.0 */
/* An open-addressing hash map from a pair of 64-bit keys to a 64-bit value. */
#include "hmap.h"

#include "util.h"

static uint64_t mix(uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL);

	h ^= h >> 32;
	h *= 0xD6E8FEB86659FD93ULL;
	h ^= h >> 32;
	return h;
}

void hmap_init(struct hmap *m, size_t max)
{
	memset(m, 0, sizeof(*m));
	m->max = max;
}

void hmap_release(struct hmap *m)
{
	size_t max = m->max;

	free(m->s);
	hmap_init(m, max);
}

static size_t slot_of(const struct hmap *m, uint64_t a, uint64_t b)
{
	size_t mask = m->cap - 1;
	size_t i = (size_t)mix(a, b) & mask;

	while (m->s[i].used && (m->s[i].a != a || m->s[i].b != b))
		i = (i + 1) & mask;
	return i;
}

uint64_t *hmap_find(const struct hmap *m, uint64_t a, uint64_t b)
{
	size_t i;

	if (m->cap == 0)
		return NULL;
	i = slot_of(m, a, b);
	return m->s[i].used ? &m->s[i].val : NULL;
}

static void grow(struct hmap *m)
{
	struct hmap old = *m;
	size_t i;

	m->cap = old.cap ? old.cap * 2 : 64;
	m->s = xcalloc(m->cap, sizeof(*m->s));
	for (i = 0; i < old.cap; i++) {
		if (old.s[i].used)
			m->s[slot_of(m, old.s[i].a, old.s[i].b)] = old.s[i];
	}
	free(old.s);
}

uint64_t *hmap_put(struct hmap *m, uint64_t a, uint64_t b, int *created)
{
	size_t i;

	*created = 0;
	if (m->cap == 0 || (m->len + 1) * 2 > m->cap)
		grow(m);
	i = slot_of(m, a, b);
	if (m->s[i].used)
		return &m->s[i].val;
	if (m->len >= m->max)
		return NULL;
	m->s[i].used = 1;
	m->s[i].a = a;
	m->s[i].b = b;
	m->s[i].val = 0;
	m->len++;
	*created = 1;
	return &m->s[i].val;
}

int hmap_next(const struct hmap *m, size_t *pos, uint64_t *a, uint64_t *b,
	      uint64_t *val)
{
	for (; *pos < m->cap; (*pos)++) {
		size_t i = *pos;

		if (!m->s[i].used)
			continue;
		*a = m->s[i].a;
		*b = m->s[i].b;
		*val = m->s[i].val;
		(*pos)++;
		return 1;
	}
	return 0;
}
