/* SPDX-License-Identifier: Apache-2.0 */
/* Alibaba bailian traces: the sessions of chat_id/parent_chat_id chains. */
#include "dataset/bailian.h"

#include "dataset/field.h"
#include "hmap.h"
#include "util.h"

/* An integer field: 0 (*v = dflt when absent and not required), or -1. */
static int
int_field(const struct json *o, const char *key, int required, int64_t dflt,
	  int64_t *v)
{
	const struct json *x = json_get(o, key);

	*v = dflt;
	if (!x)
		return required ? -1 : 0;
	return json_int64(x, v);
}

static int
check(const char *key, enum field_kind kind, double v, char *err, size_t errlen)
{
	const char *why = field_check(kind, v);

	return why ? util_seterr(err, errlen, "%s: %s", key, why) : 0;
}

int
bailian_parse(const struct json *o, struct bailian_rec *r, char *err,
	      size_t errlen)
{
	const struct json *t, *h;

	if (!o || o->type != JSON_OBJECT || int_field(o, "chat_id", 1, 0, &r->chat) ||
	    int_field(o, "input_length", 1, 0, &r->in) ||
	    int_field(o, "output_length", 1, 0, &r->out) ||
	    int_field(o, "parent_chat_id", 0, -1, &r->parent) ||
	    int_field(o, "turn", 0, 1, &r->turn) ||
	    json_double(json_get(o, "timestamp"), &r->ts) < 0 ||
	    ((t = json_get(o, "type")) && t->type != JSON_STRING))
		return util_seterr(err, errlen, "not a bailian_trace record: "
				   "chat_id, input_length, output_length "
				   "(integers) and timestamp (seconds) are needed");
	h = r->hash_ids = json_get(o, "hash_ids");
	if (h && h->type != JSON_ARRAY)
		return util_seterr(err, errlen, "hash_ids: expected a list of integers");
	for (const struct json *e = h ? h->child : NULL; e; e = e->next) {
		int64_t id;

		if (json_int64(e, &id) < 0)
			return util_seterr(err, errlen,
					   "hash_ids: expected a list of integers");
	}
	if (check("input_length", FIELD_TOKENS, (double)r->in, err, errlen) < 0 ||
	    check("output_length", FIELD_TOKENS, (double)r->out, err, errlen) < 0 ||
	    check("timestamp", FIELD_SECONDS, r->ts, err, errlen) < 0)
		return -2;
	return 0;
}

/*
 * The original's search from a chat walks the whole chain every time
 * (its cache is read only for the chat it starts from), so one long
 * session costs O(n^2). Here every chat is walked once: a walk stops at
 * the first chat an earlier walk settled and takes its answer. That is
 * the original's answer too, since a walk through a chat goes on as the
 * walk from that chat would, but for a ring of chats (a cycle): a walk
 * ends at the ring chat it entered by, and the original's cache then
 * holds that entry for every chat of the ring, until the next walk into
 * the ring overwrites it. So ring chats keep their ring's number, and
 * each ring its last entry.
 */
struct walk {
	const int64_t *parent;
	struct hmap by;		/* chat -> its last record */
	struct hmap done;	/* settled chat off a ring -> its root */
	struct hmap ring;	/* settled chat on a ring -> the ring's number */
	struct hmap seen;	/* chat on the current walk -> its place */
	int64_t *path, *last;	/* the current walk; each ring's last entry */
	size_t np, cap, nring, capring;
};

static int64_t *
grow(int64_t *v, size_t n, size_t *cap)
{
	if (n < *cap)
		return v;
	*cap = *cap ? *cap * 2 : 16;
	return xreallocarray(v, *cap, sizeof(*v));
}

static int
push(struct walk *w, int64_t chat)
{
	int created;
	uint64_t *at = hmap_put(&w->seen, (uint64_t)chat, 0, &created);

	if (!at)
		return -1;
	*at = w->np;
	w->path = grow(w->path, w->np, &w->cap);
	w->path[w->np++] = chat;
	return 0;
}

/* The walk's chats from place k on are a new ring entered at path[k]. */
static int
add_ring(struct walk *w, size_t k)
{
	w->last = grow(w->last, w->nring, &w->capring);
	w->last[w->nring] = w->path[k];
	for (size_t i = k; i < w->np; i++) {
		int created;
		uint64_t *r = hmap_put(&w->ring, (uint64_t)w->path[i], 0, &created);

		if (!r)
			return -1;
		*r = w->nring;
	}
	w->np = k;	/* the rest of the walk leads into the ring */
	w->nring++;
	return 0;
}

/*
 * Walk on from chat until a settled chat (*root its answer), a root, a
 * parent that is no record's chat, a self link (*root that chat) or a
 * chat met before on this walk (a new ring). Returns 1 when the walk
 * ended on a new ring, whose chats path[*k..np) are, 0, or -1.
 */
static int
walk_on(struct walk *w, int64_t chat, int64_t *root, size_t *k)
{
	const uint64_t *p, *d, *at;

	for (int64_t cur = chat;;) {
		if ((d = hmap_find(&w->done, (uint64_t)cur, 0))) {
			*root = (int64_t)*d;
			return 0;
		}
		if (hmap_find(&w->ring, (uint64_t)cur, 0)) {
			*root = cur;
			return 0;
		}
		if ((at = hmap_find(&w->seen, (uint64_t)cur, 0))) {
			*root = cur;
			*k = (size_t)*at;
			return 1;
		}
		p = hmap_find(&w->by, (uint64_t)cur, 0);
		if (push(w, cur) < 0)
			return -1;
		if (w->parent[*p] == -1 || w->parent[*p] == cur ||
		    !hmap_find(&w->by, (uint64_t)w->parent[*p], 0)) {
			*root = cur;
			return 0;
		}
		cur = w->parent[*p];
	}
}

/* The root of chat, as the original's find_root() finds it; -1 when a
 * map is full. */
static int
find_root(struct walk *w, int64_t chat, int64_t *out)
{
	const uint64_t *c;
	size_t k = 0;
	int rc, created;

	if ((c = hmap_find(&w->done, (uint64_t)chat, 0))) {
		*out = (int64_t)*c;
		return 0;
	}
	if ((c = hmap_find(&w->ring, (uint64_t)chat, 0))) {
		*out = w->last[*c];
		return 0;
	}
	w->np = 0;
	if ((rc = walk_on(w, chat, out, &k)) < 0 || (rc && add_ring(w, k) < 0))
		return -1;
	for (size_t i = 0; i < w->np; i++) {
		uint64_t *slot = hmap_put(&w->done, (uint64_t)w->path[i], 0, &created);

		if (!slot)
			return -1;
		*slot = (uint64_t)*out;
	}
	if ((c = hmap_find(&w->ring, (uint64_t)*out, 0)))
		w->last[*c] = *out;
	return 0;
}

int
bailian_roots(const int64_t *chat, const int64_t *parent, size_t n, size_t max,
	      int64_t *root)
{
	struct walk w = { .parent = parent };
	int created, rc = 0;

	hmap_init(&w.by, max);
	hmap_init(&w.done, max);
	hmap_init(&w.ring, max);
	hmap_init(&w.seen, max);
	for (size_t i = 0; i < n && !rc; i++) {
		uint64_t *slot = hmap_put(&w.by, (uint64_t)chat[i], 0, &created);

		if (slot)
			*slot = i;
		else
			rc = -1;
	}
	for (size_t i = 0; i < n && !rc; i++)
		rc = find_root(&w, chat[i], &root[i]);
	hmap_release(&w.by);
	hmap_release(&w.done);
	hmap_release(&w.ring);
	hmap_release(&w.seen);
	free(w.path);
	free(w.last);
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
