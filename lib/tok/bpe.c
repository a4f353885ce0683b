/* SPDX-License-Identifier: Apache-2.0 */
/* BPE merge engine: vocabulary and merge hash tables, heap merging, per-thread word cache. */
#include "tok/bpe.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "heap.h"
#include "util.h"

#define MAX_ID (1 << 24)
#define EMPTY_KEY UINT64_MAX

struct merge_slot {
	uint64_t key;
	int32_t rank, result;
};

struct vslot {
	int32_t id;
	uint32_t h;
};

struct bpe {
	enum bpe_mode mode;
	uint64_t serial;
	char *pool;		/* symbol bytes of every id */
	size_t pool_len, pool_cap;
	uint32_t *off, *len;	/* per id; len UINT32_MAX = no such id */
	int32_t nid;		/* one past the largest id */
	size_t idcap;
	struct vslot *slot;	/* vocabulary hash: id or -1, hash bits */
	size_t nslot, nhashed, count;
	struct merge_slot *mslot;
	size_t nmslot, nmerge;
	int32_t byte_id[256];	/* one-byte symbols (BPE_BYTES) */
	int32_t fb_id[256];	/* "<0xNN>" tokens (byte_fallback) */
	int ignore_merges, fuse_unk, byte_fallback, rank_merges;
	int32_t unk;
};

static atomic_uint_fast64_t next_serial = 1;

static uint64_t
mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

static inline uint64_t
hash_bytes(const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ (n * 0x100000001b3ULL), w;

	while (n >= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
		h ^= h >> 29;
		s += 8;
		n -= 8;
	}
	/* The tail (n < 8) in two overlapping loads, not a byte loop; n is
	 * already in h, so the overlap loses nothing. */
	w = 0;
	if (n >= 4) {
		uint32_t a, c;

		memcpy(&a, s, 4);
		memcpy(&c, s + n - 4, 4);
		w = (uint64_t)a << 32 | c;
	} else {
		for (size_t i = 0; i < n; i++)
			w = w << 8 | (unsigned char)s[i];
	}
	return mix(h ^ w);
}

struct bpe *
bpe_new(enum bpe_mode mode)
{
	struct bpe *b = xcalloc(1, sizeof(*b));

	b->mode = mode;
	b->serial = atomic_fetch_add(&next_serial, 1);
	b->unk = -1;
	b->nslot = 1024;
	b->slot = xmalloc(b->nslot * sizeof(*b->slot));
	memset(b->slot, 0xff, b->nslot * sizeof(*b->slot));
	b->nmslot = 1024;
	b->mslot = xmalloc(b->nmslot * sizeof(*b->mslot));
	memset(b->mslot, 0xff, b->nmslot * sizeof(*b->mslot));
	return b;
}

void
bpe_free(struct bpe *b)
{
	if (!b)
		return;
	free(b->pool);
	free(b->off);
	free(b->len);
	free(b->slot);
	free(b->mslot);
	free(b);
}

const char *
bpe_name(const struct bpe *b, int32_t id, size_t *n)
{
	if (id < 0 || id >= b->nid || b->len[id] == UINT32_MAX)
		return NULL;
	*n = b->len[id];
	return b->pool + b->off[id];
}

int32_t
bpe_max_id(const struct bpe *b)
{
	return b->nid;
}

size_t
bpe_count(const struct bpe *b)
{
	return b->count;
}

int32_t
bpe_lookup(const struct bpe *b, const char *s, size_t n)
{
	uint64_t h = hash_bytes(s, n);
	size_t mask = b->nslot - 1, i = h & mask;
	const struct vslot *v;

	for (;; i = (i + 1) & mask) {
		v = &b->slot[i];
		if (v->id < 0)
			return -1;
		if (v->h == (uint32_t)(h >> 32) && b->len[v->id] == n &&
		    !memcmp(b->pool + b->off[v->id], s, n))
			return v->id;
	}
}

static void
slot_put(struct vslot *slot, size_t nslot, const struct bpe *b, int32_t id)
{
	size_t mask = nslot - 1;
	uint64_t h = hash_bytes(b->pool + b->off[id], b->len[id]);
	size_t i = h & mask;

	while (slot[i].id >= 0)
		i = (i + 1) & mask;
	slot[i].id = id;
	slot[i].h = (uint32_t)(h >> 32);
}

static void
vocab_grow(struct bpe *b)
{
	size_t n = b->nslot * 2, i;
	struct vslot *s = xmalloc(n * sizeof(*s));

	memset(s, 0xff, n * sizeof(*s));
	for (i = 0; i < b->nslot; i++)
		if (b->slot[i].id >= 0)
			slot_put(s, n, b, b->slot[i].id);
	free(b->slot);
	b->slot = s;
	b->nslot = n;
}

static void
ids_grow(struct bpe *b, int32_t id)
{
	size_t cap = b->idcap ? b->idcap : 1024, i;

	if ((size_t)id < b->idcap)
		return;
	while (cap <= (size_t)id)
		cap *= 2;
	b->off = xreallocarray(b->off, cap, sizeof(*b->off));
	b->len = xreallocarray(b->len, cap, sizeof(*b->len));
	for (i = b->idcap; i < cap; i++)
		b->len[i] = UINT32_MAX;
	b->idcap = cap;
}

int
bpe_add(struct bpe *b, const char *s, size_t n, int32_t id, int hashed)
{
	if (id < 0 || id >= MAX_ID || n >= UINT32_MAX / 2)
		return -1;
	if (id >= b->nid) {
		ids_grow(b, id);
		b->nid = id + 1;
	}
	if (b->len[id] != UINT32_MAX)
		return -1;
	if (b->pool_len + n + 1 > b->pool_cap) {
		b->pool_cap = (b->pool_len + n + 1) * 2;
		b->pool = xrealloc(b->pool, b->pool_cap);
	}
	memcpy(b->pool + b->pool_len, s, n);
	b->off[id] = (uint32_t)b->pool_len;
	b->len[id] = (uint32_t)n;
	b->pool_len += n;
	b->count++;
	if (!hashed || bpe_lookup(b, s, n) >= 0)
		return 0;
	if ((b->nhashed + 1) * 2 > b->nslot)
		vocab_grow(b);
	slot_put(b->slot, b->nslot, b, id);
	b->nhashed++;
	return 0;
}

static uint64_t
pair_key(int32_t l, int32_t r)
{
	return (uint64_t)(uint32_t)l << 32 | (uint32_t)r;
}

static const struct merge_slot *
merge_find(const struct bpe *b, int32_t l, int32_t r)
{
	uint64_t k = pair_key(l, r);
	size_t mask = b->nmslot - 1, i = mix(k) & mask;

	while (b->mslot[i].key != EMPTY_KEY) {
		if (b->mslot[i].key == k)
			return &b->mslot[i];
		i = (i + 1) & mask;
	}
	return NULL;
}

static void
merge_put(struct merge_slot *t, size_t n, const struct merge_slot *m)
{
	size_t mask = n - 1, i = mix(m->key) & mask;

	while (t[i].key != EMPTY_KEY)
		i = (i + 1) & mask;
	t[i] = *m;
}

void
bpe_add_merge(struct bpe *b, int32_t left, int32_t right, int32_t rank,
	      int32_t result)
{
	struct merge_slot m = { pair_key(left, right), rank, result };
	size_t i;

	if (merge_find(b, left, right))
		return;
	if ((b->nmerge + 1) * 2 > b->nmslot) {
		size_t n = b->nmslot * 2;
		struct merge_slot *t = xmalloc(n * sizeof(*t));
		memset(t, 0xff, n * sizeof(*t));
		for (i = 0; i < b->nmslot; i++)
			if (b->mslot[i].key != EMPTY_KEY)
				merge_put(t, n, &b->mslot[i]);
		free(b->mslot);
		b->mslot = t;
		b->nmslot = n;
	}
	merge_put(b->mslot, b->nmslot, &m);
	b->nmerge++;
}

void
bpe_merges_from_ranks(struct bpe *b)
{
	b->rank_merges = 1;
}

int
bpe_prefix_only(const struct bpe *b, const char *sym, size_t n)
{
	const char *s, *e, *hit;
	int32_t id;
	size_t len;

	if (b->ignore_merges || bpe_lookup(b, sym, n) < 0)
		return 0;
	for (id = 0; id < b->nid; id++) {
		if (!(s = bpe_name(b, id, &len)))
			continue;
		e = s + len;
		/* skip a leading run of sym, then sym must not appear */
		while ((size_t)(e - s) >= n && !memcmp(s, sym, n))
			s += n;
		for (hit = s; (size_t)(e - hit) >= n; hit++)
			if (!memcmp(hit, sym, n))
				return 0;
	}
	return 1;
}

void
bpe_set_ignore_merges(struct bpe *b, int on)
{
	b->ignore_merges = on;
}

void
bpe_set_unk(struct bpe *b, int32_t unk, int fuse_unk, int byte_fallback)
{
	b->unk = unk;
	b->fuse_unk = fuse_unk;
	b->byte_fallback = byte_fallback;
}

void
bpe_seal(struct bpe *b)
{
	char s[8], c;
	int i;

	for (i = 0; i < 256; i++) {
		c = (char)i;
		b->byte_id[i] = bpe_lookup(b, &c, 1);
		snprintf(s, sizeof(s), "<0x%02X>", i);
		b->fb_id[i] = bpe_lookup(b, s, 6);
	}
}

/* Per-thread scratch space and word cache. */
struct sym {
	int32_t id, prev, next;
	uint32_t start, len;
};

struct hent {
	int32_t rank, pos, result;
};

struct cslot {
	uint64_t hash;
	uint32_t koff, ioff;
	uint16_t klen, nids;
};

#define CACHE_SLOTS (1u << 17)
#define CACHE_KEYS (1u << 22)
#define CACHE_IDS (1u << 20)
#define CACHE_MAXKEY 255

struct tls {
	uint64_t serial;
	struct sym *sym;
	struct heap heap;	/* of struct hent */
	int32_t *out;
	size_t cap;
	struct cslot *slot;
	size_t nused, klen, ilen;
	char *keys;
	int32_t *ids;
};

static pthread_key_t tls_key;
static pthread_once_t tls_once = PTHREAD_ONCE_INIT;
/* This thread's struct tls: the key frees it at thread exit, this finds it
 * without a pthread_getspecific() per word. */
static _Thread_local struct tls *tls_cur;

static void
tls_free(void *p)
{
	struct tls *t = p;

	if (!t)
		return;
	free(t->sym);
	heap_release(&t->heap);
	free(t->out);
	free(t->slot);
	free(t->keys);
	free(t->ids);
	free(t);
}

static void
tls_init(void)
{
	(void)pthread_key_create(&tls_key, tls_free);
}

static void
cache_clear(struct tls *t)
{
	memset(t->slot, 0, CACHE_SLOTS * sizeof(*t->slot));
	t->nused = t->klen = t->ilen = 0;
}

static struct tls *
tls_get(const struct bpe *b, size_t n)
{
	struct tls *t;

	if (!(t = tls_cur)) {
		pthread_once(&tls_once, tls_init);
		t = xcalloc(1, sizeof(*t));
		t->slot = xmalloc(CACHE_SLOTS * sizeof(*t->slot));
		t->keys = xmalloc(CACHE_KEYS);
		t->ids = xmalloc(CACHE_IDS * sizeof(*t->ids));
		cache_clear(t);
		(void)pthread_setspecific(tls_key, t);
		tls_cur = t;
	}
	if (t->serial != b->serial) {
		cache_clear(t);
		t->serial = b->serial;
	}
	if (n > t->cap) {
		size_t cap = n < 256 ? 256 : n + n / 2;
		t->sym = xreallocarray(t->sym, cap, sizeof(*t->sym));
		/* A word of n symbols pushes under 3n pairs. */
		heap_reserve(&t->heap, sizeof(struct hent), 3 * cap);
		t->out = xreallocarray(t->out, cap, sizeof(*t->out));
		t->cap = cap;
	}
	return t;
}

/* memcmp(a, b, n) == 0 for the short words most pieces are: overlapping
 * loads of the first and last bytes cover all n, no call. */
static inline int
same_bytes(const char *a, const char *b, size_t n)
{
	uint64_t x, y, u, v;
	uint32_t p, q, r, w;

	if (n > 16)
		return !memcmp(a, b, n);
	if (n >= 8) {
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		memcpy(&u, a + n - 8, 8);
		memcpy(&v, b + n - 8, 8);
		return x == y && u == v;
	}
	if (n >= 4) {
		memcpy(&p, a, 4);
		memcpy(&q, b, 4);
		memcpy(&r, a + n - 4, 4);
		memcpy(&w, b + n - 4, 4);
		return p == q && r == w;
	}
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

static inline struct cslot *
cache_find(struct tls *t, const char *s, size_t n, uint64_t h)
{
	size_t mask = CACHE_SLOTS - 1, i = h & mask;
	struct cslot *c;

	for (;; i = (i + 1) & mask) {
		c = &t->slot[i];
		if (!c->klen && !c->nids)
			return c;
		if (c->hash == h && c->klen == n && same_bytes(t->keys + c->koff, s, n))
			return c;
	}
}

static void
cache_put(struct tls *t, const char *s, size_t n, uint64_t h,
	  const int32_t *ids, size_t nids)
{
	struct cslot *c;

	if (n > CACHE_MAXKEY || nids > 0xffff || nids == 0)
		return;
	if (t->nused * 2 >= CACHE_SLOTS || t->klen + n > CACHE_KEYS ||
	    t->ilen + nids > CACHE_IDS)
		cache_clear(t);
	c = cache_find(t, s, n, h);
	c->hash = h;
	c->koff = (uint32_t)t->klen;
	c->klen = (uint16_t)n;
	c->ioff = (uint32_t)t->ilen;
	c->nids = (uint16_t)nids;
	memcpy(t->keys + t->klen, s, n);
	memcpy(t->ids + t->ilen, ids, nids * sizeof(*ids));
	t->klen += n;
	t->ilen += nids;
	t->nused++;
}

static int
hless(const void *pa, const void *pb)
{
	const struct hent *a = pa, *b = pb;

	return a->rank < b->rank || (a->rank == b->rank && a->pos < b->pos);
}

static const struct heap_type hent_type = { sizeof(struct hent), hless, NULL };

/* The merge of the pair at pos: from the merge table, or (tiktoken) the
 * rank of the concatenated bytes. Returns 0 when there is none. */
static inline int
pair_merge(const struct bpe *b, const struct tls *t, const char *s,
	   int32_t pos, int32_t *rank, int32_t *result)
{
	const struct sym *l = &t->sym[pos], *r;
	const struct merge_slot *m;
	int32_t id;

	if (l->next < 0)
		return 0;
	r = &t->sym[l->next];
	if (b->rank_merges) {
		id = bpe_lookup(b, s + l->start, l->len + r->len);
		*rank = *result = id;
		return id >= 0;
	}
	m = merge_find(b, l->id, r->id);
	if (!m)
		return 0;
	*rank = m->rank;
	*result = m->result;
	return 1;
}

static void
push_pair(const struct bpe *b, struct tls *t, const char *s, int32_t pos)
{
	int32_t rank, result;

	if (pair_merge(b, t, s, pos, &rank, &result))
		heap_push(&t->heap, &hent_type, &(struct hent){ rank, pos, result });
}

/* HF tokenizers Word::merge_all: lowest rank first, then leftmost. */
static size_t
merge_all(const struct bpe *b, struct tls *t, const char *s, size_t n)
{
	size_t i, k = 0;
	int32_t pos, nx, rank, result;
	struct hent e;

	for (i = 0; i + 1 < n; i++)
		push_pair(b, t, s, (int32_t)i);
	while (t->heap.n > 0) {
		heap_pop(&t->heap, &hent_type, &e);
		pos = e.pos;
		nx = t->sym[pos].next;
		if (t->sym[pos].id < 0 || nx < 0)
			continue;
		if (!pair_merge(b, t, s, pos, &rank, &result) ||
		    result != e.result)
			continue;
		t->sym[pos].id = e.result;
		t->sym[pos].len += t->sym[nx].len;
		t->sym[pos].next = t->sym[nx].next;
		t->sym[nx].id = -1;
		if (t->sym[nx].next >= 0)
			t->sym[t->sym[nx].next].prev = pos;
		if (t->sym[pos].prev >= 0)
			push_pair(b, t, s, t->sym[pos].prev);
		push_pair(b, t, s, pos);
	}
	for (i = 0; i < n; i++)
		if (t->sym[i].id >= 0)
			t->out[k++] = t->sym[i].id;
	return k;
}

static void
sym_add(struct tls *t, size_t *n, int32_t id, size_t start, size_t len)
{
	t->sym[*n] = (struct sym){ id, (int32_t)*n - 1, (int32_t)*n + 1,
				   (uint32_t)start, (uint32_t)len };
	(*n)++;
}

static size_t
utf8_len(unsigned char c)
{
	return c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
}

static int
fallback(const struct bpe *b, struct tls *t, size_t *k, const char *s,
	 size_t n)
{
	size_t j;

	if (!b->byte_fallback)
		return 0;
	for (j = 0; j < n; j++)
		if (b->fb_id[(unsigned char)s[j]] < 0)
			return 0;
	for (j = 0; j < n; j++)
		sym_add(t, k, b->fb_id[(unsigned char)s[j]], 0, 0);
	return 1;
}

/* One symbol per character, with byte_fallback and unk (HF merge_word). */
static size_t
chars_to_syms(const struct bpe *b, struct tls *t, const char *s, size_t n)
{
	size_t i, k = 0, cl;
	int32_t id, unk = -1;

	for (i = 0; i < n; i += cl) {
		cl = utf8_len((unsigned char)s[i]);
		if (cl > n - i)
			cl = n - i;
		id = bpe_lookup(b, s + i, cl);
		if (id >= 0) {
			if (unk >= 0)
				sym_add(t, &k, unk, 0, 0);
			unk = -1;
			sym_add(t, &k, id, 0, 0);
		} else if (!fallback(b, t, &k, s + i, cl) && b->unk >= 0) {
			if (unk >= 0 && !b->fuse_unk)
				sym_add(t, &k, unk, 0, 0);
			unk = b->unk;
		}
	}
	if (unk >= 0)
		sym_add(t, &k, unk, 0, 0);
	return k;
}

static size_t
bytes_to_syms(const struct bpe *b, struct tls *t, const char *s, size_t n)
{
	size_t i, k = 0;
	int32_t id;

	for (i = 0; i < n; i++) {
		id = b->byte_id[(unsigned char)s[i]];
		if (id < 0)
			id = b->unk;
		if (id >= 0)
			sym_add(t, &k, id, i, 1);
	}
	return k;
}

const int32_t *
bpe_word(const struct bpe *b, const char *s, size_t n, size_t *nout)
{
	struct tls *t = tls_get(b, n);
	uint64_t h = hash_bytes(s, n);
	struct cslot *c;
	size_t k;
	int32_t id;

	if (n <= CACHE_MAXKEY) {
		c = cache_find(t, s, n, h);
		if (c->klen) {
			*nout = c->nids;
			return t->ids + c->ioff;
		}
	}
	if (b->ignore_merges && (id = bpe_lookup(b, s, n)) >= 0) {
		t->out[0] = id;
		k = 1;
	} else {
		k = b->mode == BPE_BYTES ? bytes_to_syms(b, t, s, n)
					 : chars_to_syms(b, t, s, n);
		if (k > 0)
			t->sym[k - 1].next = -1;
		k = merge_all(b, t, s, k);
	}
	cache_put(t, s, n, h, t->out, k);
	*nout = k;
	return t->out;
}
