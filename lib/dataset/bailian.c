/* SPDX-License-Identifier: Apache-2.0 */
/* Alibaba bailian traces: the sessions of chat_id/parent_chat_id chains. */
#include "dataset/bailian.h"

#include "hmap.h"
#include "util.h"

struct walk {
	const int64_t *parent;
	struct hmap by, cache, seen;
	int64_t *path;
	size_t cap;
};

/* find_root(chat) for the call-th search; -1 when a map is full. */
static int find_root(struct walk *w, uint64_t call, int64_t chat, int64_t *out)
{
	const uint64_t *c = hmap_find(&w->cache, (uint64_t)chat, 0), *p;
	int64_t cur = chat;
	size_t np = 0;
	int created;

	if (c) {
		*out = (int64_t)*c;
		return 0;
	}
	while ((p = hmap_find(&w->by, (uint64_t)cur, 0)) && w->parent[*p] != -1) {
		int64_t up = w->parent[*p];

		if (!hmap_put(&w->seen, (uint64_t)cur, call, &created))
			return -1;
		if (!created || up == cur || !hmap_find(&w->by, (uint64_t)up, 0))
			break;
		if (np == w->cap) {
			w->cap = w->cap ? w->cap * 2 : 16;
			w->path = xreallocarray(w->path, w->cap, sizeof(*w->path));
		}
		w->path[np++] = cur;
		cur = up;
	}
	for (size_t i = 0; i <= np; i++) {
		uint64_t *slot;

		if (!(slot = hmap_put(&w->cache, (uint64_t)(i < np ? w->path[i] : chat),
				      0, &created)))
			return -1;
		*slot = (uint64_t)cur;
	}
	*out = cur;
	return 0;
}

int bailian_roots(const int64_t *chat, const int64_t *parent, size_t n,
		  size_t max, int64_t *root)
{
	struct walk w = { .parent = parent };
	int created, rc = 0;

	hmap_init(&w.by, max);
	hmap_init(&w.cache, max);
	hmap_init(&w.seen, max);
	for (size_t i = 0; i < n && !rc; i++) {
		uint64_t *slot = hmap_put(&w.by, (uint64_t)chat[i], 0, &created);

		if (slot)
			*slot = i;
		else
			rc = -1;
	}
	for (size_t i = 0; i < n && !rc; i++)
		rc = find_root(&w, i, chat[i], &root[i]);
	hmap_release(&w.by);
	hmap_release(&w.cache);
	hmap_release(&w.seen);
	free(w.path);
	return rc;
}

int
bailian_group(const int64_t *chat, const int64_t *parent, size_t n, size_t max,
		 int64_t *root, size_t *group)
{
	struct hmap groups;
	int created, rc = 0;

	if (bailian_roots(chat, parent, n, max, root) < 0)
		return -1;
	hmap_init(&groups, max);
	for (size_t i = 0; i < n && !rc; i++) {
		uint64_t *g = hmap_put(&groups, (uint64_t)root[i], 0, &created);

		if (!g)
			rc = -2;
		else if (created)
			*g = groups.len;
		if (g)
			group[i] = (size_t)*g;
	}
	hmap_release(&groups);
	return rc;
}
