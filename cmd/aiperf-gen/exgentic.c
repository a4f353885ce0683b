/* SPDX-License-Identifier: Apache-2.0 */
/* --public-dataset exgentic and exgentic_v2: recorded agent sessions replayed as chat requests. */
#include "exgentic.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "dataset/exgentic.h"
#include "gen.h"
#include "hfpub.h"
#include "hub/rows.h"
#include "json/jw.h"
#include "util.h"

/* The --dataset-filter pairs as filters, checked. */
static int
filters_read(struct exg_filters *f, int v2, const struct gen_opts *o,
	     char *err, size_t errlen)
{
	exg_filters_init(f, v2);
	for (size_t i = 0; i < o->nfilters; i++)
		if (exg_filter_add(f, o->filters[i].key, o->filters[i].value, err,
				   errlen))
			return -1;
	return exg_filters_check(f, err, errlen);
}

/* ExgenticDatasetLoader._max_conversations, after _resolve_entries. */
static long long
bound(const struct gen_opts *o)
{
	if (o->entries_set)
		return o->num_entries;
	if (o->num_sessions)
		return o->num_sessions;
	return o->request_count >= 0 ? o->request_count : -1;
}

/* exgentic_check, its filters in *f. */
static int
check(const struct gen_opts *o, struct exg_filters *f, int v2, char *err,
      size_t errlen)
{
	if (filters_read(f, v2, o, err, errlen))
		return -1;
	if (o->ep != ENDPOINT_CHAT)
		return util_seterr(err, errlen, "Exgentic replays chat requests: "
				   "it needs --endpoint-type chat, not '%s'",
				   o->endpoint_type);
	if (bound(o) < 0)
		return util_seterr(err, errlen, "Exgentic requires a finite entry or "
				   "request count; set --num-conversations, "
				   "--num-dataset-entries, or --request-count");
	return 0;
}

int
exgentic_check(const struct gen_opts *o, int v2, char *err, size_t errlen)
{
	struct exg_filters f;

	return check(o, &f, v2, err, errlen);
}

/* The (harness, source model) pairs seen, each once. */
struct combos {
	char **h, **m;
	size_t n, cap;
};

static void
combos_add(struct combos *c, const struct exg_row *r)
{
	for (size_t i = 0; i < r->nmodels; i++) {
		size_t k;

		for (k = 0; k < c->n; k++)
			if (!strcmp(c->h[k], r->harness) && !strcmp(c->m[k], r->models[i]))
				break;
		if (k < c->n)
			continue;
		if (c->n == c->cap) {
			c->cap = c->cap ? 2 * c->cap : 16;
			c->h = xreallocarray(c->h, c->cap, sizeof(*c->h));
			c->m = xreallocarray(c->m, c->cap, sizeof(*c->m));
		}
		c->h[c->n] = r->harness;	/* borrowed: the row is kept */
		c->m[c->n++] = r->models[i];
	}
}

static const struct combos *sort_c;

static int
cmp_combo(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int d = strcmp(sort_c->h[i], sort_c->h[j]);

	return d ? d : strcmp(sort_c->m[i], sort_c->m[j]);
}

/* "No replayable Exgentic spans matched ...; available combinations: ..." */
static int
none_matched(const struct exg_filters *f, const struct combos *c, char *err,
	     size_t errlen)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	size_t *ord = xcalloc(c->n + 1, sizeof(*ord));

	for (size_t i = 0; i < c->n; i++)
		ord[i] = i;
	sort_c = c;
	qsort(ord, c->n, sizeof(*ord), cmp_combo);
	buf_addf(&b, "No replayable Exgentic spans matched harness=%s, "
		 "source_model=%s, benchmark=%s; available combinations: ",
		 f->harness < 0 ? "None" : exg_harnesses[f->harness],
		 f->model < 0 ? "None" : exg_models[f->model],
		 f->bench < 0 ? "None" : exg_benches[f->bench]);
	for (size_t i = 0; i < c->n; i++)
		buf_addf(&b, "%s%s/%s", i ? ", " : "", c->h[ord[i]], c->m[ord[i]]);
	if (!c->n)
		buf_addstr(&b, "none");
	util_seterr(err, errlen, "%s", buf_str(&b));
	buf_release(&b);
	free(ord);
	return -1;
}

/* A call as a turn: its snapshot taken over (the call keeps NULLs). */
static void
call_turn(struct turn *t, struct exg_call *c, const char *session)
{
	struct buf h = BUF_INIT(BUF_NOMAX);

	*t = (struct turn){ .max_tokens = c->max_tokens, .delay_ms = -1,
			    .at_ns = -1, .no_history = 1 };
	t->raw_messages = c->messages;
	t->raw_tools = c->tools;
	t->extra = c->extra;
	c->messages = c->tools = c->extra = NULL;
	/* extra_headers: the source session, for Dynamo's KV routing */
	buf_addstr(&h, "{\"x-dynamo-session-id\":");
	json_quote(&h, session, strlen(session));
	buf_addch(&h, '}');
	t->headers = buf_detach(&h, NULL);
}

/* _build_turns, or _build_fixed_schedule_conversations. */
static void
session_add(struct dataset *d, struct exg_row *r, const struct gen_opts *o)
{
	struct exg_call *c = r->calls;

	if (o->fixed_schedule) {
		for (size_t i = 0; i < r->ncalls; i++) {
			struct conv *cv = hfpub_conv_add(d, 1);

			cv->session_id = xstrfmt("%s:%zu", r->session_id, c[i].index);

			call_turn(&cv->turns[0], &c[i], r->session_id);
			cv->turns[0].at_ns = (long long)(c[i].start_us - c[0].start_us) * 1000;
		}
	} else {
		struct conv *cv = hfpub_conv_add(d, r->ncalls);

		cv->session_id = xstrdup(r->session_id);

		for (size_t i = 0; i < r->ncalls; i++) {
			call_turn(&cv->turns[i], &c[i], r->session_id);
			if (i > 0)
				cv->turns[i].delay_ms = c[i].start_us > c[i - 1].end_us ?
					(double)(c[i].start_us - c[i - 1].end_us) / 1000.0 : 0;
		}
	}
	d->lines += r->ncalls;
}

static int
seen_before(char **seen, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(seen[i], id))
			return 1;
	return 0;
}

/* The rows read so far, kept for the combinations' strings. */
struct kept {
	struct exg_row *v;
	size_t n, cap;
};

static struct exg_row *
kept_next(struct kept *k)
{
	if (k->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 64;
		k->v = xreallocarray(k->v, k->cap, sizeof(*k->v));
	}
	return &k->v[k->n++];
}

static int
convert_rows(struct dataset *d, const struct gen_opts *o,
	     const struct exg_filters *f, const struct rows *rows,
	     struct kept *k, struct combos *cb, char *err, size_t errlen)
{
	struct exg_stats st = { 0 };
	long long max = bound(o), sessions = 0;
	char **seen = xcalloc(rows->n + 1, sizeof(*seen));
	int rc = 0;

	for (size_t i = 0; i < rows->n && !rc && sessions < max; i++) {
		struct exg_row *r = kept_next(k);

		if ((rc = exg_row_parse(rows->v[i], rows->len[i], i + 1, f, r, &st,
					err, errlen)))
			break;
		combos_add(cb, r);
		if (!r->match || !r->ncalls)
			continue;
		if (seen_before(seen, (size_t)sessions, r->session_id)) {
			rc = util_seterr(err, errlen, "Duplicate Exgentic session_id '%s'",
					 r->session_id);
			break;
		}
		seen[sessions++] = r->session_id;
		session_add(d, r, o);
	}
	free(seen);
	/* a prefix of the split: hfpub asks for more rows */
	if (!rc && !d->n && !rows->prefix)
		rc = none_matched(f, cb, err, errlen);
	return rc;
}

int
exgentic_build(struct dataset *d, const struct gen_opts *o,
	       const struct hfpub_ds *ds, struct rows *rows, char *err,
	       size_t errlen)
{
	struct exg_filters f;
	struct kept k = { 0 };
	struct combos cb = { 0 };
	int rc;

	if (check(o, &f, ds->version == 2, err, errlen))
		return -1;
	rc = convert_rows(d, o, &f, rows, &k, &cb, err, errlen);
	for (size_t i = 0; i < k.n; i++)
		exg_row_release(&k.v[i]);
	free(k.v);
	free(cb.h);
	free(cb.m);
	return rc;
}
