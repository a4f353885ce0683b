/* SPDX-License-Identifier: Apache-2.0 */
/* dag_jsonl files: the DagConversation schema, branch desugaring and the loader's checks. */
#include "dataset/dag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "buf.h"
#include "util.h"

void
dag_init(struct dag *d, const char *file)
{
	memset(d, 0, sizeof(*d));
	d->file = file;
	d->doc = json_doc_new();
	hmap_init(&d->index, DAG_CONVS_MAX);
}

void
dag_release(struct dag *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->convs[i].turns);
	free(d->convs);
	free(d->branches);
	free(d->names);
	free(d->children);
	hmap_release(&d->index);
	json_doc_free(d->doc);
	memset(d, 0, sizeof(*d));
}

static void
hash(const char *s, size_t n, uint64_t h[2])
{
	h[0] = 1469598103934665603ULL;
	h[1] = 5381;
	for (size_t i = 0; i < n; i++) {
		h[0] = (h[0] ^ (unsigned char)s[i]) * 1099511628211ULL;
		h[1] = h[1] * 33 + (unsigned char)s[i];
	}
	h[1] ^= n;
}

/* The conversation named s[0..n), or DAG_NONE. */
static size_t
find(const struct dag *d, const char *s, size_t n)
{
	uint64_t h[2], *v;

	hash(s, n, h);
	v = hmap_find(&d->index, h[0], h[1]);
	if (!v || d->convs[*v].sid_len != n || memcmp(d->convs[*v].sid, s, n))
		return DAG_NONE;
	return (size_t)*v;
}

static int
is_type(const struct json *v, enum json_type t)
{
	return v && v->type == t;
}

static int
key_is(const struct json *m, const char *k)
{
	return m->keylen == strlen(k) && !memcmp(m->key, k, m->keylen);
}

/* "loc: msg" into why (pydantic's first error, as format_validation_error). */
static int
fail(char *why, size_t wl, const char *loc, const char *msg)
{
	if (loc && *loc)
		snprintf(why, wl, "%s: %s", loc, msg);
	else
		snprintf(why, wl, "%s", msg);
	return -1;
}

/* The first member of o not named in keys (extra="forbid"), or NULL. */
static const struct json *
unknown_key(const struct json *o, const char *const *keys)
{
	for (const struct json *m = o->child; m; m = m->next) {
		size_t i = 0;

		while (keys[i] && !key_is(m, keys[i]))
			i++;
		if (!keys[i])
			return m;
	}
	return NULL;
}

static int
extra_key(const struct json *m, const char *at, char *why, size_t wl)
{
	char loc[160];

	snprintf(loc, sizeof(loc), "%s%s%.*s", at, *at ? "." : "",
		 (int)(m->keylen > 64 ? 64 : m->keylen), m->key);
	return fail(why, wl, loc, "Extra inputs are not permitted");
}

/* A list of strings (pre_session_spawns, DagSpawn.children). */
static int
str_list(const struct json *v, const char *loc, int nonempty, char *why, size_t wl)
{
	char at[160];
	size_t i = 0;

	if (!is_type(v, JSON_ARRAY))
		return fail(why, wl, loc, "Input should be a valid list");
	for (const struct json *e = v->child; e; e = e->next, i++)
		if (!is_type(e, JSON_STRING)) {
			snprintf(at, sizeof(at), "%s.%zu", loc, i);
			return fail(why, wl, at, "Input should be a valid string");
		}
	if (nonempty && !v->len)
		return fail(why, wl, loc, "List should have at least 1 item after "
			    "validation, not 0");
	if (v->len > DAG_CHILDREN_MAX)
		return fail(why, wl, loc, "too many children (the cap is 1024)");
	return 0;
}

/* DagFork / DagSpawn objects: any fault is the union's first error. */
static int
branch_obj_ok(const struct json *e, int fork)
{
	static const char *const fk[] = { "child", "background", NULL };
	static const char *const sk[] = { "children", "join_at", NULL };
	const struct json *v;
	char why[8];

	if (!is_type(e, JSON_OBJECT) || unknown_key(e, fork ? fk : sk))
		return 0;
	if (fork) {
		v = json_get(e, "child");
		if (!is_type(v, JSON_STRING) || !v->len)
			return 0;
		v = json_get(e, "background");
		return !v || v->type == JSON_TRUE || v->type == JSON_FALSE;
	}
	if (str_list(json_get(e, "children"), "", 1, why, sizeof(why)) < 0)
		return 0;
	int64_t k;
	v = json_get(e, "join_at");
	return !v || v->type == JSON_NULL || json_int64(v, &k) == 0;
}

static int
branch_list(const struct json *v, const char *loc, int fork, char *why, size_t wl)
{
	char at[160];
	size_t i = 0;

	if (!v)
		return 0;
	if (!is_type(v, JSON_ARRAY))
		return fail(why, wl, loc, "Input should be a valid list");
	for (const struct json *e = v->child; e; e = e->next, i++)
		if (!is_type(e, JSON_STRING) && !branch_obj_ok(e, fork)) {
			snprintf(at, sizeof(at), "%s.%zu.str", loc, i);
			return fail(why, wl, at, "Input should be a valid string");
		}
	if (v->len > DAG_CHILDREN_MAX)
		return fail(why, wl, loc, "too many entries (the cap is 1024)");
	return 0;
}

/* A list of objects (messages, tools). */
static int
dict_list(const struct json *v, const char *loc, char *why, size_t wl)
{
	char at[160];
	size_t i = 0;

	if (!is_type(v, JSON_ARRAY))
		return fail(why, wl, loc, "Input should be a valid list");
	for (const struct json *e = v->child; e; e = e->next, i++)
		if (!is_type(e, JSON_OBJECT)) {
			snprintf(at, sizeof(at), "%s.%zu", loc, i);
			return fail(why, wl, at, "Input should be a valid dictionary");
		}
	return 0;
}

static int
check_max_tokens(const struct json *v, const char *loc, int64_t *out,
		 char *why, size_t wl)
{
	double x;

	*out = -1;
	if (!v || v->type == JSON_NULL)
		return 0;
	if (v->type == JSON_TRUE || v->type == JSON_FALSE) {
		snprintf(why, wl, "%s: Value error, max_tokens must be an integer, "
			 "not a boolean (got %s); check for a typo in your DAG "
			 "JSONL file", loc, v->type == JSON_TRUE ? "True" : "False");
		return -1;
	}
	if (v->type != JSON_NUMBER || json_double(v, &x) < 0)
		return fail(why, wl, loc, "Input should be a valid integer");
	if (x != (double)(int64_t)x || x > 9e18 || x < -9e18)
		return fail(why, wl, loc, "Input should be a valid integer, got a "
			    "number with a fractional part");
	if (x < 1)
		return fail(why, wl, loc, "Input should be greater than or equal to 1");
	*out = (int64_t)x;
	return 0;
}

static int
check_delay(const struct json *v, const char *loc, double *out, char *why, size_t wl)
{
	*out = 0;
	if (!v)
		return 0;
	if (v->type != JSON_NUMBER || json_double(v, out) < 0)
		return fail(why, wl, loc, "Input should be a valid number");
	if (!(*out >= 0))
		return fail(why, wl, loc, "Input should be greater than or equal to 0");
	return 0;
}

/* DagTurn: the fields in the model's order, the unknown keys, then
 * validate_chat_messages. */
static int
check_turn(const struct json *t, size_t k, struct dag_turn *out, char *why, size_t wl)
{
	static const char *const keys[] = {
		"messages", "model", "max_tokens", "tools", "extra", "forks",
		"spawns", "delay", NULL,
	};
	const struct json *v, *m;
	char at[64], loc[96];
	size_t i = 0;

	snprintf(at, sizeof(at), "turns.%zu", k);
	if (!is_type(t, JSON_OBJECT))
		return fail(why, wl, at, "Input should be a valid dictionary or "
			    "instance of DagTurn");
	memset(out, 0, sizeof(*out));
#define LOC(f) (snprintf(loc, sizeof(loc), "%s.%s", at, f), loc)
	if (!(m = json_get(t, "messages")))
		return fail(why, wl, LOC("messages"), "Field required");
	if (dict_list(m, LOC("messages"), why, wl) < 0)
		return -1;
	v = json_get(t, "model");
	if (v && v->type != JSON_NULL && v->type != JSON_STRING)
		return fail(why, wl, LOC("model"), "Input should be a valid string");
	if (check_max_tokens(json_get(t, "max_tokens"), LOC("max_tokens"),
			     &out->max_tokens, why, wl) < 0)
		return -1;
	v = json_get(t, "tools");
	if (v && v->type != JSON_NULL && dict_list(v, LOC("tools"), why, wl) < 0)
		return -1;
	v = json_get(t, "extra");
	if (v && v->type != JSON_NULL && v->type != JSON_OBJECT)
		return fail(why, wl, LOC("extra"), "Input should be a valid dictionary");
	if (branch_list(json_get(t, "forks"), LOC("forks"), 1, why, wl) < 0 ||
	    branch_list(json_get(t, "spawns"), LOC("spawns"), 0, why, wl) < 0 ||
	    check_delay(json_get(t, "delay"), LOC("delay"), &out->delay, why, wl) < 0)
		return -1;
#undef LOC
	if ((v = unknown_key(t, keys)))
		return extra_key(v, at, why, wl);
	if (!m->len)
		return fail(why, wl, at, "Value error, 'messages' must be a non-empty list");
	for (const struct json *e = m->child; e; e = e->next, i++)
		if (!json_get(e, "role")) {
			snprintf(why, wl, "%s: Value error, Each message must have a "
				 "'role' key, but message at index %zu does not", at, i);
			return -1;
		}
	out->messages = m;
	out->forks = json_get(t, "forks");
	out->spawns = json_get(t, "spawns");
	v = json_get(t, "tools");
	out->tools = is_type(v, JSON_ARRAY) ? v : NULL;
	v = json_get(t, "extra");
	out->extra = is_type(v, JSON_OBJECT) ? v : NULL;
	v = json_get(t, "model");
	if (is_type(v, JSON_STRING)) {
		out->model = v->str;
		out->model_len = v->len;
	}
	return 0;
}

/* DagConversation: session_id, turns, pre_session_spawns, unknown keys. */
static int
check_conv(const struct json *o, struct dag_conv *c, char *why, size_t wl)
{
	static const char *const keys[] = {
		"session_id", "turns", "pre_session_spawns", NULL,
	};
	const struct json *sid, *turns, *v;
	size_t k = 0;

	if (!is_type(o, JSON_OBJECT))
		return fail(why, wl, NULL, "Input should be a valid dictionary or "
			    "instance of DagConversation");
	if (!(sid = json_get(o, "session_id")))
		return fail(why, wl, "session_id", "Field required");
	if (sid->type != JSON_STRING)
		return fail(why, wl, "session_id", "Input should be a valid string");
	if (!sid->len)
		return fail(why, wl, "session_id", "String should have at least 1 character");
	if (!(turns = json_get(o, "turns")))
		return fail(why, wl, "turns", "Field required");
	if (turns->type != JSON_ARRAY)
		return fail(why, wl, "turns", "Input should be a valid list");
	if (turns->len > DAG_TURNS_MAX)
		return fail(why, wl, "turns", "more than 4096 turns (the cap)");
	c->turns = xcalloc(turns->len ? turns->len : 1, sizeof(*c->turns));
	for (v = turns->child; v; v = v->next, k++)
		if (check_turn(v, k, &c->turns[k], why, wl) < 0)
			return -1;
	if (!turns->len)
		return fail(why, wl, "turns", "List should have at least 1 item "
			    "after validation, not 0");
	v = json_get(o, "pre_session_spawns");
	if (v && str_list(v, "pre_session_spawns", 0, why, wl) < 0)
		return -1;
	if ((v = unknown_key(o, keys)))
		return extra_key(v, "", why, wl);
	c->pre = json_get(o, "pre_session_spawns");
	c->sid = sid->str;
	c->sid_len = sid->len;
	c->nturns = turns->len;
	return 0;
}

/* pre_session_spawns may not name a child twice. */
static int
pre_dups(const struct json *pre, char *why, size_t wl, const struct dag_conv *c)
{
	for (const struct json *a = pre ? pre->child : NULL; a; a = a->next)
		for (const struct json *b = pre->child; b != a; b = b->next)
			if (a->len == b->len && !memcmp(a->str, b->str, a->len)) {
				snprintf(why, wl, "session '%.*s' duplicate "
					 "child_conversation_id '%.*s' in "
					 "pre_session_spawns", (int)c->sid_len,
					 c->sid, (int)a->len, a->str);
				return -1;
			}
	return 0;
}

static int
add_conv(struct dag *d, const struct json *o, size_t lineno, char *err, size_t errlen)
{
	struct dag_conv c = { .lineno = lineno, .fork_parent = DAG_NONE };
	char why[512];
	uint64_t h[2], *slot;
	int created;

	if (check_conv(o, &c, why, sizeof(why)) < 0) {
		free(c.turns);
		return util_seterr(err, errlen, "failed to parse DAG JSONL '%s': "
				   "line %zu: %s", d->file, lineno, why);
	}
	hash(c.sid, c.sid_len, h);
	if (d->n >= DAG_CONVS_MAX || !(slot = hmap_put(&d->index, h[0], h[1], &created))) {
		free(c.turns);
		return util_seterr(err, errlen, "failed to parse DAG JSONL '%s' line "
				   "%zu: more than %d conversations (the cap)",
				   d->file, lineno, DAG_CONVS_MAX);
	}
	if (!created || pre_dups(json_get(o, "pre_session_spawns"), why, sizeof(why), &c) < 0) {
		if (!created)
			snprintf(why, sizeof(why), "duplicate session_id '%.*s'",
				 (int)c.sid_len, c.sid);
		free(c.turns);
		return util_seterr(err, errlen, "failed to parse DAG JSONL '%s' line "
				   "%zu: %s", d->file, lineno, why);
	}
	*slot = d->n;
	if (d->n == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 64;
		d->convs = xreallocarray(d->convs, d->cap, sizeof(*d->convs));
	}
	d->convs[d->n++] = c;
	return 1;
}

int
dag_add_line(struct dag *d, const char *s, size_t n, size_t lineno,
	     char *err, size_t errlen)
{
	char jerr[128];
	const struct json *o;

	if (lineno == 1 && n >= 3 && !memcmp(s, "\xef\xbb\xbf", 3)) {
		s += 3;
		n -= 3;
	}
	while (n && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n' ||
		     *s == '\f' || *s == '\v')) {
		s++;
		n--;
	}
	if (!n)
		return 0;
	if (!(o = json_parse(d->doc, s, n, jerr, sizeof(jerr))))
		return util_seterr(err, errlen, "failed to parse DAG JSONL '%s' line "
				   "%zu: invalid JSON: %s", d->file, lineno, jerr);
	return add_conv(d, o, lineno, err, errlen);
}

static size_t
add_branch(struct dag *d, size_t parent, size_t turn, enum dag_mode mode)
{
	if (d->nbranches == d->capb) {
		d->capb = d->capb ? d->capb * 2 : 64;
		d->branches = xreallocarray(d->branches, d->capb, sizeof(*d->branches));
	}
	d->branches[d->nbranches] = (struct dag_branch){
		.parent = parent, .turn = turn, .mode = mode,
		.join_at = DAG_NONE, .child0 = d->nchildren,
	};
	return d->nbranches++;
}

static void
add_child(struct dag *d, size_t b, const struct json *name)
{
	if (d->nchildren == d->capc) {
		d->capc = d->capc ? d->capc * 2 : 64;
		d->names = xreallocarray(d->names, d->capc, sizeof(*d->names));
	}
	d->names[d->nchildren++] = name;
	d->branches[b].nchildren++;
}

static int
same(const struct json *a, const struct json *b)
{
	return a->len == b->len && !memcmp(a->str, b->str, a->len);
}

/* The child a fork or spawn entry names (the object forms' too). */
static const struct json *
fork_child(const struct json *e)
{
	return e->type == JSON_STRING ? e : json_get(e, "child");
}

static int
is_bg(const struct json *e)
{
	return e->type == JSON_OBJECT && json_truthy(json_get(e, "background"));
}

/* check_branch_duplicates: in the forks, then within and across the
 * spawn groups (branches sb..d->nbranches). */
static int
turn_dups(struct dag *d, const struct dag_conv *c, size_t k, size_t sb,
	  char *err, size_t errlen)
{
	const struct dag_turn *t = &c->turns[k];
	const struct json *f = t->forks ? t->forks->child : NULL;

	for (; f; f = f->next)
		for (const struct json *g = t->forks->child; g != f; g = g->next)
			if (same(fork_child(f), fork_child(g)))
				return util_seterr(err, errlen, "session '%.*s' turn %zu: "
						   "duplicate child_conversation_id '%.*s' in "
						   "fork entries", (int)c->sid_len, c->sid, k,
						   (int)fork_child(f)->len, fork_child(f)->str);
	for (size_t b = sb; b < d->nbranches; b++) {
		const struct dag_branch *br = &d->branches[b];
		const struct json *dup = NULL;

		for (size_t i = 0; i < br->nchildren; i++)
			for (size_t j = 0; j < i; j++)
				if (same(d->names[br->child0 + i], d->names[br->child0 + j]))
					return util_seterr(err, errlen, "session '%.*s' turn "
							   "%zu: duplicate child_conversation_id "
							   "'%.*s' in spawn group", (int)c->sid_len,
							   c->sid, k, (int)d->names[br->child0 + i]->len,
							   d->names[br->child0 + i]->str);
		for (size_t i = 0; i < br->nchildren; i++) {
			const struct json *a = d->names[br->child0 + i];

			for (size_t j = d->branches[sb].child0; j < br->child0; j++)
				if (same(a, d->names[j]) && (!dup || memcmp(a->str, dup->str,
				    a->len < dup->len ? a->len : dup->len) < 0 ||
				    (!memcmp(a->str, dup->str, a->len < dup->len ? a->len :
				     dup->len) && a->len < dup->len)))
					dup = a;
		}
		if (dup)
			return util_seterr(err, errlen, "session '%.*s' turn %zu: duplicate "
					   "child_conversation_id '%.*s' across spawn groups",
					   (int)c->sid_len, c->sid, k, (int)dup->len, dup->str);
	}
	return 0;
}

/* The fork entries of turn k with background bg as one branch. */
static void
fork_branch(struct dag *d, size_t ci, size_t k, int bg)
{
	const struct json *f = d->convs[ci].turns[k].forks;
	size_t b = DAG_NONE;

	for (const struct json *e = f ? f->child : NULL; e; e = e->next) {
		if (is_bg(e) != bg)
			continue;
		if (b == DAG_NONE) {
			b = add_branch(d, ci, k, DAG_FORK);
			d->branches[b].background = bg;
		}
		add_child(d, b, fork_child(e));
	}
}

/* group_spawn_entries: bare strings in a row are one group, each object one. */
static void
spawn_branches(struct dag *d, size_t ci, size_t k)
{
	const struct json *sp = d->convs[ci].turns[k].spawns;
	size_t b = DAG_NONE;

	for (const struct json *e = sp ? sp->child : NULL; e; e = e->next) {
		const struct json *j;
		int64_t at;

		if (e->type == JSON_STRING) {
			if (b == DAG_NONE)
				b = add_branch(d, ci, k, DAG_SPAWN);
			add_child(d, b, e);
			continue;
		}
		b = add_branch(d, ci, k, DAG_SPAWN);
		for (const struct json *c = json_get(e, "children")->child; c; c = c->next)
			add_child(d, b, c);
		j = json_get(e, "join_at");
		if (j && j->type != JSON_NULL && json_int64(j, &at) == 0)
			d->branches[b].join_at = at < 0 ? (size_t)-2 : (size_t)at;
		else
			d->branches[b].join_at = DAG_NONE - 1;	/* default: k + 1 */
		b = DAG_NONE;
	}
}

/* validate_explicit_join_at, and the default join (none when terminal). */
static int
spawn_joins(struct dag *d, const struct dag_conv *c, size_t k, size_t sb,
	    char *err, size_t errlen)
{
	for (size_t b = sb; b < d->nbranches; b++) {
		struct dag_branch *br = &d->branches[b];
		size_t j = br->join_at;

		if (j == DAG_NONE || j == DAG_NONE - 1) {	/* bare, or null join_at */
			br->join_at = k + 1 < c->nturns ? k + 1 : DAG_NONE;
			continue;
		}
		if (j == (size_t)-2 || j <= k)
			return util_seterr(err, errlen, "session '%.*s' turn %zu: spawn "
					   "join_at=%lld must be strictly greater than the "
					   "spawning turn index", (int)c->sid_len, c->sid, k,
					   j == (size_t)-2 ? -1LL : (long long)j);
		if (j >= c->nturns)
			return util_seterr(err, errlen, "session '%.*s' turn %zu: spawn "
					   "join_at=%zu is out of range (conversation has "
					   "%zu turns)", (int)c->sid_len, c->sid, k, j, c->nturns);
	}
	return 0;
}

static int
desugar(struct dag *d, size_t ci, char *err, size_t errlen)
{
	struct dag_conv *c = &d->convs[ci];

	c->branch0 = d->nbranches;
	if (c->pre && c->pre->len) {
		size_t b = add_branch(d, ci, 0, DAG_PRE);

		for (const struct json *e = c->pre->child; e; e = e->next)
			add_child(d, b, e);
	}
	for (size_t k = 0; k < c->nturns; k++) {
		size_t fb = d->nbranches, sb;

		fork_branch(d, ci, k, 0);
		fork_branch(d, ci, k, 1);
		sb = d->nbranches;
		spawn_branches(d, ci, k);
		if (d->nchildren - (fb < d->nbranches ? d->branches[fb].child0 :
				    d->nchildren) > DAG_CHILDREN_MAX)
			return util_seterr(err, errlen, "session '%.*s' turn %zu: more "
					   "than %d children (the cap)", (int)c->sid_len,
					   c->sid, k, DAG_CHILDREN_MAX);
		if (turn_dups(d, c, k, sb, err, errlen) < 0)
			return -1;
		if (spawn_joins(d, c, k, sb, err, errlen) < 0)
			return -1;
	}
	c->nbranch = d->nbranches - c->branch0;
	return 0;
}

/* Python's repr of the first ten session ids, sorted. */
static int
cmp_sid(const void *x, const void *y)
{
	const struct dag_conv *a = *(const struct dag_conv *const *)x;
	const struct dag_conv *b = *(const struct dag_conv *const *)y;
	int r = memcmp(a->sid, b->sid, a->sid_len < b->sid_len ? a->sid_len : b->sid_len);

	return r ? r : (a->sid_len > b->sid_len) - (a->sid_len < b->sid_len);
}

static void
known(const struct dag *d, struct buf *b)
{
	const struct dag_conv **v = xcalloc(d->n, sizeof(*v));

	for (size_t i = 0; i < d->n; i++)
		v[i] = &d->convs[i];
	qsort(v, d->n, sizeof(*v), cmp_sid);
	buf_addch(b, '[');
	for (size_t i = 0; i < d->n && i < 10; i++) {
		int dq = memchr(v[i]->sid, '\'', v[i]->sid_len) &&
			 !memchr(v[i]->sid, '"', v[i]->sid_len);

		buf_addstr(b, i ? ", " : "");
		buf_addch(b, dq ? '"' : '\'');
		for (size_t j = 0; j < v[i]->sid_len && j < 64; j++) {
			char ch = v[i]->sid[j];

			if (ch == '\\' || (ch == '\'' && !dq))
				buf_addch(b, '\\');
			buf_addch(b, ch);
		}
		buf_addch(b, dq ? '"' : '\'');
	}
	buf_addch(b, ']');
	free(v);
}

/* validate_branch_targets_and_collect_parents */
static int
resolve(struct dag *d, char *err, size_t errlen)
{
	d->children = xcalloc(d->nchildren ? d->nchildren : 1, sizeof(*d->children));
	for (size_t b = 0; b < d->nbranches; b++) {
		const struct dag_branch *br = &d->branches[b];
		const struct dag_conv *p = &d->convs[br->parent];

		for (size_t i = br->child0; i < br->child0 + br->nchildren; i++) {
			size_t c = find(d, d->names[i]->str, d->names[i]->len);
			struct dag_conv *cc;

			if (c == DAG_NONE) {
				struct buf k = BUF_INIT(BUF_NOMAX);

				known(d, &k);
				util_seterr(err, errlen, "session '%.*s' turn %zu: branch "
					    "target '%.*s' not declared. Known sessions: %s",
					    (int)p->sid_len, p->sid, br->turn,
					    (int)(d->names[i]->len > 128 ? 128 : d->names[i]->len),
					    d->names[i]->str, buf_str(&k));
				buf_release(&k);
				return -1;
			}
			d->children[i] = c;
			cc = &d->convs[c];
			if (br->mode != DAG_FORK)
				continue;
			if (cc->fork_parent != DAG_NONE) {
				const struct dag_conv *q = &d->convs[cc->fork_parent];

				return util_seterr(err, errlen, "session '%.*s' forked by "
						   "both '%.*s' turn %zu and '%.*s' turn %zu; "
						   "FORK-mode children require a single parent",
						   (int)cc->sid_len, cc->sid, (int)q->sid_len,
						   q->sid, cc->depth, (int)p->sid_len, p->sid,
						   br->turn);
			}
			cc->fork_parent = br->parent;
			cc->depth = br->turn;	/* the fork turn, until depth() */
		}
	}
	return 0;
}

/* validate_non_terminal_branches */
static int
non_terminal(const struct dag *d, char *err, size_t errlen)
{
	for (size_t b = 0; b < d->nbranches; b++) {
		const struct dag_branch *br = &d->branches[b];
		const struct dag_conv *p = &d->convs[br->parent];

		if (br->mode == DAG_FORK && !br->background && br->turn + 1 < p->nturns)
			return util_seterr(err, errlen, "session '%.*s' turn %zu has "
					   "foreground FORK branches but is not the last "
					   "turn and no join is declared (use "
					   "``background=True`` on the fork entry to keep "
					   "the parent running, or move the forks to the "
					   "final turn)", (int)p->sid_len, p->sid, br->turn);
	}
	return 0;
}

/* validate_pre_session_spawns_disjoint_from_forks, then
 * validate_system_message_placement */
static int
pre_and_system(const struct dag *d, char *err, size_t errlen)
{
	for (size_t b = 0; b < d->nbranches; b++) {
		const struct dag_branch *br = &d->branches[b];
		const struct dag_conv *p = &d->convs[br->parent];

		for (size_t i = 0; br->mode == DAG_PRE && i < br->nchildren; i++) {
			const struct dag_conv *c = &d->convs[d->children[br->child0 + i]];

			if (c->fork_parent != DAG_NONE)
				return util_seterr(err, errlen, "session '%.*s' is "
						   "referenced by '%.*s' pre_session_spawns but "
						   "is also a FORK target; pre-session children "
						   "must be SPAWN-mode (no parent context to "
						   "inherit)", (int)c->sid_len, c->sid,
						   (int)p->sid_len, p->sid);
		}
	}
	for (size_t i = 0; i < d->n; i++) {
		const struct dag_conv *c = &d->convs[i];

		for (size_t k = c->fork_parent == DAG_NONE; k < c->nturns; k++)
			for (const struct json *m = c->turns[k].messages->child; m; m = m->next) {
				size_t n;
				const char *r = json_str(json_get(m, "role"), &n);

				if (r && n == 6 && !memcmp(r, "system", 6))
					return util_seterr(err, errlen, "session '%.*s' turn "
							   "%zu: non-root turns may not contain a "
							   "'system' message. Place the single system "
							   "prompt at the root turn only; popular chat "
							   "templates (e.g. Qwen3-VL) ignore system "
							   "messages after index 0.", (int)c->sid_len,
							   c->sid, k);
			}
	}
	return 0;
}

/* conversation c's children, all its branches': [*a, *b) of d->children */
static void
kids(const struct dag *d, size_t c, size_t *a, size_t *b)
{
	const struct dag_conv *v = &d->convs[c];
	const struct dag_branch *l;

	*a = *b = 0;
	if (!v->nbranch)
		return;
	l = &d->branches[v->branch0 + v->nbranch - 1];
	*a = d->branches[v->branch0].child0;
	*b = l->child0 + l->nchildren;
}

struct frame {
	size_t c, pos;
};

static int
cycle(const struct dag *d, const struct frame *st, size_t top, size_t c,
      char *err, size_t errlen)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	size_t i = top;

	while (i > 0 && st[i - 1].c != c)
		i--;
	for (i = i ? i - 1 : 0; i < top; i++)
		buf_addf(&b, "%.*s -> ", (int)d->convs[st[i].c].sid_len,
			 d->convs[st[i].c].sid);
	buf_addf(&b, "%.*s", (int)d->convs[c].sid_len, d->convs[c].sid);
	util_seterr(err, errlen, "cycle detected: %s", buf_str(&b));
	buf_release(&b);
	return -1;
}

/* A node's tree, done: its size (saturated) and height, within the caps. */
static int
done(const struct dag *d, size_t c, size_t *size, size_t *height, char *err,
     size_t errlen)
{
	size_t a, b;

	size[c] = 1;
	height[c] = 1;
	kids(d, c, &a, &b);
	for (size_t i = a; i < b; i++) {
		size_t k = d->children[i];

		size[c] += size[k];
		if (size[c] > DAG_TREE_MAX)
			size[c] = DAG_TREE_MAX + 1;
		if (height[k] + 1 > height[c])
			height[c] = height[k] + 1;
	}
	if (size[c] > DAG_TREE_MAX)
		return util_seterr(err, errlen, "session '%.*s' unfolds to more than "
				   "%d conversations (the cap on a DAG's size)",
				   (int)d->convs[c].sid_len, d->convs[c].sid, DAG_TREE_MAX);
	if (height[c] > DAG_DEPTH_MAX)
		return util_seterr(err, errlen, "session '%.*s' has branches more than "
				   "%d levels deep (the cap on a DAG's depth)",
				   (int)d->convs[c].sid_len, d->convs[c].sid, DAG_DEPTH_MAX);
	return 0;
}

/* detect_cycles (a depth-first walk in file order), then the caps. */
static int
walk(const struct dag *d, char *err, size_t errlen)
{
	unsigned char *state = xcalloc(d->n, 1);
	size_t *size = xcalloc(d->n, sizeof(*size)), *height = xcalloc(d->n, sizeof(*height));
	struct frame *st = xcalloc(d->n + 1, sizeof(*st));
	int rc = 0;

	for (size_t r = 0; r < d->n && !rc; r++) {
		size_t top = 0;

		if (state[r])
			continue;
		st[top++] = (struct frame){ r, 0 };
		state[r] = 1;
		while (top && !rc) {
			struct frame *f = &st[top - 1];
			size_t a, b, k;

			kids(d, f->c, &a, &b);
			if (a + f->pos >= b) {
				state[f->c] = 2;
				rc = done(d, f->c, size, height, err, errlen);
				top--;
				continue;
			}
			k = d->children[a + f->pos++];
			if (state[k] == 1)
				rc = cycle(d, st, top, k, err, errlen);
			else if (!state[k]) {
				state[k] = 1;
				st[top++] = (struct frame){ k, 0 };
			}
		}
	}
	free(st);
	free(height);
	free(size);
	free(state);
	return rc;
}

/* agent_depth (FORK levels), the joins' waits and the roots. */
static void
stamp(struct dag *d)
{
	unsigned char *named = xcalloc(d->n ? d->n : 1, 1);

	for (size_t i = 0; i < d->n; i++) {
		size_t n = 0;

		for (size_t p = d->convs[i].fork_parent; p != DAG_NONE;
		     p = d->convs[p].fork_parent)
			n++;
		d->convs[i].depth = n;
	}
	for (size_t b = 0; b < d->nbranches; b++) {
		const struct dag_branch *br = &d->branches[b];

		for (size_t i = 0; i < br->nchildren; i++)
			named[d->children[br->child0 + i]] = 1;
		if (br->mode == DAG_SPAWN && br->join_at != DAG_NONE)
			d->convs[br->parent].turns[br->join_at].nwait += br->nchildren;
	}
	d->nroots = 0;
	for (size_t i = 0; i < d->n; i++) {
		d->convs[i].root = !named[i];
		d->nroots += !named[i];
	}
	free(named);
}

int
dag_finish(struct dag *d, char *err, size_t errlen)
{
	if (!d->n)
		return util_seterr(err, errlen, "DAG JSONL file '%s' is empty (no "
				   "conversations parsed); supply at least one "
				   "conversation line", d->file);
	for (size_t i = 0; i < d->n; i++)
		if (desugar(d, i, err, errlen) < 0)
			return -1;
	if (resolve(d, err, errlen) < 0 || non_terminal(d, err, errlen) < 0 ||
	    pre_and_system(d, err, errlen) < 0 || walk(d, err, errlen) < 0)
		return -1;
	stamp(d);
	return 0;
}

void
dag_branches_of(const struct dag *d, size_t c, size_t *first, size_t *n)
{
	*first = d->convs[c].branch0;
	*n = d->convs[c].nbranch;
}
