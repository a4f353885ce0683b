/* SPDX-License-Identifier: Apache-2.0 */
/* dag_jsonl datasets: conversations with FORK and SPAWN branches as request records with dag_* fields. */
#include <errno.h>
#include <string.h>
#include "gen.h"
#include "json/json.h"
#include "lines.h"
#include "dataset/dag.h"
#include "util.h"

#define LINE_MAX_BYTES ((size_t)64 << 20)

struct gen_dag {
	struct dag dag;
};

/* The file loaded and checked as DagJsonlLoader.load_dataset; exits 1
 * with the loader's message. */
static struct gen_dag *
load_file(const struct gen_opts *o)
{
	struct gen_dag *g = xcalloc(1, sizeof(*g));
	struct lines l;
	const char *s;
	char err[1024];
	size_t n;
	int rc;

	dag_init(&g->dag, o->input_file);
	if (lines_open(&l, o->input_file, LINE_MAX_BYTES) < 0)
		die("cannot open '%s':", o->input_file);
	while ((rc = lines_next(&l, &s, &n)) == 1)
		if (dag_add_line(&g->dag, s, n, l.lineno, err, sizeof(err)) < 0)
			die("%s", err);
	if (rc < 0 && errno == ENOBUFS)
		die("%s:%zu: line longer than %zu bytes", o->input_file, l.lineno,
		    LINE_MAX_BYTES);
	if (rc < 0)
		die("cannot read '%s':", o->input_file);
	lines_close(&l);
	if (dag_finish(&g->dag, err, sizeof(err)) < 0)
		die("%s", err);
	return g;
}

static char *
compact(const struct json *v)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;

	jw_init(&w, &b, 0);
	jw_value(&w, v);
	return buf_detach(&b, NULL);
}

static int
has_key(const struct json *o, const char *k, size_t n)
{
	return o && json_getn(o, k, n) != NULL;
}

/* The body with the turn's model and its "extra" keys merged at the top
 * (payload.update(extra_body): a key kept in place, new ones after). */
static void
patch_payload(struct turn *t, const struct dag_turn *dt)
{
	struct json_doc *doc;
	const struct json *p;
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;

	if (!dt->extra && !dt->model)
		return;
	doc = json_doc_new();
	if (!(p = json_parse(doc, t->payload, strlen(t->payload), NULL, 0)))
		die("cannot parse a dag_jsonl payload");
	jw_init(&w, &b, 0);
	jw_obj(&w);
	for (const struct json *m = p->child; m; m = m->next) {
		jw_keyn(&w, m->key, m->keylen);
		if (has_key(dt->extra, m->key, m->keylen))
			jw_value(&w, json_getn(dt->extra, m->key, m->keylen));
		else if (dt->model && m->keylen == 5 && !memcmp(m->key, "model", 5))
			jw_strn(&w, dt->model, dt->model_len);
		else
			jw_value(&w, m);
	}
	for (const struct json *m = dt->extra ? dt->extra->child : NULL; m; m = m->next)
		if (!has_key(p, m->key, m->keylen) && json_getn(dt->extra, m->key, m->keylen) == m) {
			jw_keyn(&w, m->key, m->keylen);
			jw_value(&w, m);
		}
	jw_obj_end(&w);
	json_doc_free(doc);
	free(t->payload);
	t->payload = buf_detach(&b, &t->payload_len);
}

static void
build_turn(const struct gen_opts *o, struct turn *t, const struct dag_turn *dt, size_t k)
{
	memset(t, 0, sizeof(*t));
	t->max_tokens = dt->max_tokens;
	t->delay_ms = k && dt->delay > 0 ? dt->delay : -1;
	t->at_ns = -1;
	t->raw_messages = compact(dt->messages);
	t->raw_tools = dt->tools ? compact(dt->tools) : NULL;
	payload_render(o, t, k);
	patch_payload(t, dt);
}

void
dag_dataset_build(struct dataset *d, const struct gen_opts *o)
{
	struct gen_dag *g = load_file(o);
	const struct dag *dg = &g->dag;

	if (o->ep != ENDPOINT_CHAT)
		die("dag_jsonl datasets need --endpoint-type chat (their turns "
		    "are chat messages)");
	d->dag = g;
	d->n = dg->n;
	d->lines = dg->n;
	d->convs = xcalloc(dg->n, sizeof(*d->convs));
	for (size_t i = 0; i < dg->n; i++) {
		const struct dag_conv *c = &dg->convs[i];
		struct conv *v = &d->convs[i];

		v->session_id = xstrndup(c->sid, c->sid_len);
		v->nturns = c->nturns;
		v->turns = xcalloc(c->nturns, sizeof(*v->turns));
		for (size_t k = 0; k < c->nturns; k++)
			build_turn(o, &v->turns[k], &c->turns[k], k);
	}
}

void
dag_check_first(const struct gen_opts *o)
{
	struct gen_dag *g = load_file(o);

	dag_free(g);
}

void
dag_free(struct gen_dag *g)
{
	if (!g)
		return;
	dag_release(&g->dag);
	free(g);
}

size_t
dag_roots(const struct gen_dag *g)
{
	return g ? g->dag.nroots : 0;
}

/* One conversation of a tree being written: how it is started. */
struct inst {
	size_t c;
	char corr[37];
	size_t parent;		/* index into the tree, or DAG_NONE */
	size_t branch;		/* the branch that starts it */
};

/* The children conversation c starts, over all its branches. */
static size_t
nkids(const struct dag *d, size_t c)
{
	size_t b0, nb, n = 0;

	dag_branches_of(d, c, &b0, &nb);
	for (size_t b = b0; b < b0 + nb; b++)
		n += d->branches[b].nchildren;
	return n;
}

/* Fork children started when turn k of c returns. */
static size_t
nforks(const struct dag *d, size_t c, size_t k)
{
	size_t b0, nb, n = 0;

	dag_branches_of(d, c, &b0, &nb);
	for (size_t b = b0; b < b0 + nb; b++)
		if (d->branches[b].mode == DAG_FORK && d->branches[b].turn == k)
			n += d->branches[b].nchildren;
	return n;
}

/* The dag_* fields of turn k of tree member i (man/aiperf-gen.1). */
static void
dag_fields(struct buf *b, const struct dag *d, const struct inst *v, size_t i, size_t k)
{
	const struct inst *me = &v[i];
	const struct dag_conv *c = &d->convs[me->c];
	size_t n;

	buf_addstr(b, ",\"dag\":true");
	buf_addf(b, ",\"agent_depth\":%zu", c->depth);
	if (k == 0 && (n = nkids(d, me->c)))
		buf_addf(b, ",\"dag_children\":%zu", n);
	if ((n = nforks(d, me->c, k)))
		buf_addf(b, ",\"dag_forks\":%zu", n);
	if (c->turns[k].nwait)
		buf_addf(b, ",\"dag_wait\":%zu", c->turns[k].nwait);
	if (k || me->parent == DAG_NONE)
		return;
	const struct dag_branch *br = &d->branches[me->branch];

	buf_addf(b, ",\"dag_parent\":\"%s\"", v[me->parent].corr);
	if (br->mode == DAG_PRE)
		buf_addstr(b, ",\"dag_pre\":true");
	else
		buf_addf(b, ",\"dag_after\":%zu", br->turn);
	if (br->mode == DAG_FORK)
		buf_addstr(b, ",\"dag_fork\":true,\"history\":true");
	if (br->mode == DAG_SPAWN && br->join_at != DAG_NONE)
		buf_addf(b, ",\"dag_join\":%zu", br->join_at);
}

static int
put(struct stream *s, const struct inst *v, size_t i, size_t k, long long num, long long at)
{
	const struct dag *d = &s->d->dag->dag;
	const struct conv *c = &s->d->convs[v[i].c];
	const struct turn *t = &c->turns[k];
	char id[37];

	gen_uuid4(&s->ids, id);
	if (!s->mine)
		return 0;
	buf_reset(&s->line);
	buf_addf(&s->line, "{\"schema\":\"aiperf.request/1\",\"id\":\"%s\","
		 "\"session_num\":%lld,\"conversation_id\":", id, num);
	json_quote(&s->line, c->session_id, strlen(c->session_id));
	buf_addf(&s->line, ",\"x_correlation_id\":\"%s\",\"turn_index\":%zu,"
		 "\"num_turns\":%zu,\"phase\":\"profiling\",", v[i].corr, k, c->nturns);
	buf_add(&s->line, t->head, t->head_len);
	if (at >= 0)
		buf_addf(&s->line, ",\"at_ns\":%lld", at);
	buf_add(&s->line, t->mid, t->mid_len);
	dag_fields(&s->line, d, v, i, k);
	buf_add(&s->line, t->end, t->end_len);
	buf_add(&s->line, t->payload, t->payload_len);
	buf_add(&s->line, "}\n", 2);
	return fwrite(s->line.s, 1, s->line.len, stdout) == s->line.len ? 0 : -1;
}

/* The tree of root r, breadth first: each conversation's turns, then
 * its children's, so that a child's record follows its parent's. */
static int
put_tree(struct stream *s, size_t r, long long *num, long long at)
{
	const struct dag *d = &s->d->dag->dag;
	struct inst *v = xcalloc(DAG_TREE_MAX, sizeof(*v));
	size_t n = 1;
	int rc = 0;

	v[0] = (struct inst){ .c = r, .parent = DAG_NONE, .branch = DAG_NONE };
	gen_uuid4(&s->ids, v[0].corr);
	for (size_t i = 0; i < n && !rc; i++) {
		size_t b0, nb;

		for (size_t k = 0; k < d->convs[v[i].c].nturns && !rc; k++)
			rc = put(s, v, i, k, (*num)++, i || k ? -1 : at);
		dag_branches_of(d, v[i].c, &b0, &nb);
		for (size_t b = b0; b < b0 + nb; b++)
			for (size_t j = 0; j < d->branches[b].nchildren && n < DAG_TREE_MAX; j++) {
				v[n] = (struct inst){ .c = d->children[d->branches[b].child0 + j],
						      .parent = i, .branch = b };
				gen_uuid4(&s->ids, v[n++].corr);
			}
	}
	free(v);
	return rc;
}

/*
 * The profiling phase: roots in file order (again from the first when
 * more are asked), each with its whole tree, until sessions roots were
 * written or count records (checked between trees).
 */
int
dag_emit(struct stream *s, long long count, long long sessions, uint64_t root)
{
	const struct dag *d = &s->d->dag->dag;
	long long num = 0, started = 0;
	size_t r = 0;

	sched_init(&s->sched, &s->o->sched, root);
	while (num < count && (!sessions || started < sessions)) {
		long long at = sched_next(&s->sched);

		while (!d->convs[r].root)
			r = (r + 1) % d->n;
		stream_session(s, s->index++);
		if (put_tree(s, r, &num, at) < 0)
			return -1;
		started++;
		r = (r + 1) % d->n;
	}
	return 0;
}
