/* SPDX-License-Identifier: Apache-2.0 */
/* Confidence statistics across runs (the original's orchestrator/aggregation). */
#include "runagg.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "csvfield.h"
#include "hmap.h"
#include "json/json.h"
#include "stats/numfmt.h"
#include "stats/unitconv.h"
#include "util.h"

/* The original's STAT_KEYS, in the order a pair's stat is looked for. */
static const char *const stat_keys[RUNAGG_NSTATS] = {
	"avg", "min", "max", "sum", "p1", "p5", "p10", "p25", "p50", "p75",
	"p90", "p95", "p99", "std",
};
#define NSTATS RUNAGG_NSTATS
#define MAX_NAME 256	/* a longer member name is no metric of ours */
#define MAX_UNIT 64
#define MAX_METRICS (2 * RUNAGG_MAX_PAIRS)	/* names kept, metrics or not */

/* Why a run is left out of a pair, by the JSON type of what stands there:
 * of a stat, of a metric. */
static const char *const why_type[][2] = {
	[JSON_NULL] = { "not a number but null", "not a metric object but null" },
	[JSON_FALSE] = { "not a number but false", "not a metric object but false" },
	[JSON_TRUE] = { "not a number but true", "not a metric object but true" },
	[JSON_NUMBER] = { "not a finite number", "not a metric object but a bare number" },
	[JSON_STRING] = { "not a number but a string", "not a metric object but a string" },
	[JSON_ARRAY] = { "not a number but an array", "not a metric object but an array" },
	[JSON_OBJECT] = { "not a number but an object", "an object without a unit" },
};
static const char no_metric[] = "no such metric in its summary";
static const char no_stat[] = "no such statistic in its summary";
static const char bad_unit[] = "its unit is not a string of at most 64 bytes";

struct cell {			/* the member of a metric's name in one run */
	size_t run;
	char *unit;		/* NULL: no metric object with a unit string */
	const char *why;	/* why none of its values count; NULL: they do */
	char *conv;		/* owned why: a unit that cannot be converted */
	double factor;		/* to the metric's unit */
	unsigned char bad[NSTATS];	/* a stat's JSON type + 1: no value */
};

struct metric {
	char *name;
	size_t len, next;	/* next: the next metric + 1 of the same hash */
	size_t pair[NSTATS];	/* a stat's pair + 1 */
	struct cell *c;		/* in run order, one a run at most */
	size_t nc;
	const struct json *cur;	/* its member in the run being added */
	size_t cur_run;		/* that run + 1 */
	const char *unit;	/* after runagg_finish(): one of its cells' */
};

struct pair {
	size_t m, s;		/* metric, stat_keys index */
	struct ent {
		size_t run;
		double v;
	} *e;			/* as given, in run order */
	size_t ne;
	double *v;		/* after runagg_finish(): in the metric's unit */
	size_t n;
	struct out {
		size_t run;
		const char *why;
	} *out;			/* the successful runs left out */
	size_t nout;
	double mean, std, min, max, cv, se, lo, hi, t;
};

struct note {			/* runs left out: one (run, metric, why) */
	size_t run, m, seq;
	const char *why;
	unsigned stats;		/* a bit a stat_keys index */
};

struct run {
	char *label;
	char *error;		/* NULL: successful */
};

struct runagg {
	double level;
	struct run *runs;
	size_t nruns, nok;
	struct metric *m;
	size_t nm;
	struct hmap names;	/* (hash, length) -> metric + 1 */
	struct pair *p;
	size_t np;
	size_t *touched;	/* runagg_add_json()'s metrics of the run */
	size_t ntouched, ncells, nleft;
	struct note *notes;
	size_t nnotes;
	int finished;
	int single_ok;		/* runagg_allow_single() */
};

/* Room for element n of an array grown by doubling (4, 8, 16 ...). */
static void *
grow(void *p, size_t n, size_t size)
{
	if (n == 0)
		return xreallocarray(p, 4, size);
	if (n >= 4 && !(n & (n - 1)))
		return xreallocarray(p, 2 * n, size);
	return p;
}

struct runagg *
runagg_new(double level)
{
	struct runagg *a = xcalloc(1, sizeof(*a));

	a->level = level;
	hmap_init(&a->names, MAX_METRICS);
	return a;
}

static void
metric_free(struct metric *m)
{
	for (size_t i = 0; i < m->nc; i++) {
		free(m->c[i].unit);
		free(m->c[i].conv);
	}
	free(m->c);
	free(m->name);
}

void
runagg_free(struct runagg *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nruns; i++) {
		free(a->runs[i].label);
		free(a->runs[i].error);
	}
	for (size_t i = 0; i < a->nm; i++)
		metric_free(&a->m[i]);
	for (size_t i = 0; i < a->np; i++) {
		free(a->p[i].e);
		free(a->p[i].v);
		free(a->p[i].out);
	}
	hmap_release(&a->names);
	free(a->runs);
	free(a->m);
	free(a->p);
	free(a->touched);
	free(a->notes);
	free(a);
}

static int
add_run(struct runagg *a, const char *label, const char *error)
{
	struct run *r;

	if (a->nruns >= RUNAGG_MAX_RUNS)
		return -1;
	a->runs = grow(a->runs, a->nruns, sizeof(*a->runs));
	r = &a->runs[a->nruns++];
	r->label = xstrdup(label);
	r->error = error ? xstrdup(error) : NULL;
	if (!error)
		a->nok++;
	return 0;
}

int
runagg_add_failed(struct runagg *a, const char *label, const char *error)
{
	return add_run(a, label, error ? error : "unknown error");
}

static uint64_t
name_hash(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return h;
}

static struct metric *
metric_find(const struct runagg *a, const char *name, size_t len)
{
	const uint64_t *head = hmap_find(&a->names, name_hash(name, len), len);

	for (size_t i = head ? (size_t)*head : 0; i; i = a->m[i - 1].next)
		if (a->m[i - 1].len == len && !memcmp(a->m[i - 1].name, name, len))
			return &a->m[i - 1];
	return NULL;
}

/* A new metric of that name; NULL past MAX_METRICS. */
static struct metric *
metric_add(struct runagg *a, const char *name, size_t len)
{
	uint64_t *head;
	struct metric *m;
	int created;

	if (a->nm >= MAX_METRICS ||
	    !(head = hmap_put(&a->names, name_hash(name, len), len, &created)))
		return NULL;
	a->m = grow(a->m, a->nm, sizeof(*a->m));
	m = &a->m[a->nm++];
	memset(m, 0, sizeof(*m));
	m->name = xstrndup(name, len);
	m->len = len;
	m->next = created ? 0 : (size_t)*head;
	*head = a->nm;
	return m;
}

/* A top-level member that is a metric: an object with a "unit". */
static int
is_metric(const struct json *m)
{
	return m->type == JSON_OBJECT && json_get(m, "unit");
}

/* A metric's unit, when it is a string fit to be one. */
static const char *
unit_of(const struct json *m, size_t *len)
{
	const char *u = json_str(json_get(m, "unit"), len);

	return u && *len <= MAX_UNIT && !memchr(u, '\0', *len) ? u : NULL;
}

static int
is_value(const struct json *v, double *d)
{
	return json_double(v, d) == 0 && isfinite(*d);
}

/*
 * The run's members into a->touched, each name once (its first place; the
 * last member of a repeated name counts), new names registered: every
 * metric's, and the others' while there is room (to say later why a run
 * lacks a metric). -1 when a metric finds no room.
 */
static int
collect(struct runagg *a, const struct json *root, size_t run)
{
	a->ntouched = 0;
	for (const struct json *j = root->child; j; j = j->next) {
		struct metric *m;

		if (j->keylen > MAX_NAME || memchr(j->key, '\0', j->keylen))
			continue;
		m = metric_find(a, j->key, j->keylen);
		if (!m && (is_metric(j) || a->nm < RUNAGG_MAX_PAIRS))
			m = metric_add(a, j->key, j->keylen);
		if (!m) {
			if (is_metric(j))
				return -1;
			continue;
		}
		if (m->cur_run != run + 1) {
			m->cur_run = run + 1;
			a->touched = grow(a->touched, a->ntouched, sizeof(*a->touched));
			a->touched[a->ntouched++] = (size_t)(m - a->m);
		}
		m->cur = j;
	}
	return 0;
}

/* How many values the collected run gives, and the pairs and cells it adds. */
static void
count_run(const struct runagg *a, size_t *vals, size_t *pairs, size_t *cells)
{
	*vals = *pairs = *cells = 0;
	for (size_t i = 0; i < a->ntouched; i++) {
		const struct metric *m = &a->m[a->touched[i]];
		size_t ulen;
		double d;

		if (!is_metric(m->cur))
			continue;
		(*cells)++;
		if (!unit_of(m->cur, &ulen))
			continue;
		for (size_t s = 0; s < NSTATS; s++)
			if (is_value(json_get(m->cur, stat_keys[s]), &d)) {
				(*vals)++;
				*pairs += !m->pair[s];
			}
	}
}

static void
pair_push(struct runagg *a, struct metric *m, size_t s, size_t run, double v)
{
	struct pair *p;

	if (!m->pair[s]) {
		a->p = grow(a->p, a->np, sizeof(*a->p));
		p = &a->p[a->np++];
		memset(p, 0, sizeof(*p));
		p->m = (size_t)(m - a->m);
		p->s = s;
		m->pair[s] = a->np;
	}
	p = &a->p[m->pair[s] - 1];
	p->e = grow(p->e, p->ne, sizeof(*p->e));
	p->e[p->ne].run = run;
	p->e[p->ne++].v = v;
}

/* The run's cell of metric m: its unit and values, or why it has none. */
static void
take_cell(struct runagg *a, struct metric *m, size_t run)
{
	struct cell *c;
	const char *u;
	size_t ulen;

	if (!is_metric(m->cur) && a->ncells >= RUNAGG_MAX_CELLS)
		return;
	m->c = grow(m->c, m->nc, sizeof(*m->c));
	c = &m->c[m->nc++];
	memset(c, 0, sizeof(*c));
	c->run = run;
	c->factor = 1;
	a->ncells++;
	if (!is_metric(m->cur)) {
		c->why = why_type[m->cur->type][1];
		return;
	}
	if (!(u = unit_of(m->cur, &ulen))) {
		c->why = bad_unit;
		return;
	}
	c->unit = xstrndup(u, ulen);
	for (size_t s = 0; s < NSTATS; s++) {
		const struct json *v = json_get(m->cur, stat_keys[s]);
		double d;

		if (is_value(v, &d))
			pair_push(a, m, s, run, d);
		else if (v)
			c->bad[s] = (unsigned char)(v->type + 1);
	}
}

int
runagg_add_json(struct runagg *a, const char *label, const char *text,
		size_t n, char *err, size_t errlen)
{
	struct json_doc *d = json_doc_new();
	const struct json *root;
	size_t vals, pairs, cells;
	char why[200];
	int rc = -1;

	if (a->nruns >= RUNAGG_MAX_RUNS) {
		snprintf(err, errlen, "more than %d runs", RUNAGG_MAX_RUNS);
		goto out;
	}
	root = json_parse(d, text, n, why, sizeof(why));
	if (!root) {
		snprintf(err, errlen, "invalid JSON: %s", why);
	} else if (root->type != JSON_OBJECT) {
		snprintf(err, errlen, "invalid JSON: not an object");
	} else if (collect(a, root, a->nruns) < 0) {
		snprintf(err, errlen, "more than %d metrics", MAX_METRICS);
	} else {
		count_run(a, &vals, &pairs, &cells);
		if (a->np + pairs > RUNAGG_MAX_PAIRS)
			snprintf(err, errlen, "more than %d metric statistics",
				 RUNAGG_MAX_PAIRS);
		else if (a->ncells + cells > RUNAGG_MAX_CELLS)
			snprintf(err, errlen, "more than %u metrics in all runs",
				 RUNAGG_MAX_CELLS);
		else if (!vals)
			snprintf(err, errlen, "no metric in the run's JSON");
		else
			rc = 0;
	}
	for (size_t i = 0; rc == 0 && i < a->ntouched; i++)
		take_cell(a, &a->m[a->touched[i]], a->nruns);
	add_run(a, label, rc ? err : NULL);
out:
	json_doc_free(d);
	return rc;
}

size_t
runagg_runs(const struct runagg *a)
{
	return a->nruns;
}

size_t
runagg_successful(const struct runagg *a)
{
	return a->nok;
}

const char *
runagg_label(const struct runagg *a, size_t i, const char **error)
{
	if (i >= a->nruns)
		return NULL;
	if (error)
		*error = a->runs[i].error;
	return a->runs[i].label;
}

static int
cmp_unit(const void *x, const void *y)
{
	const struct cell *a = *(const struct cell *const *)x;
	const struct cell *b = *(const struct cell *const *)y;
	int c = strcmp(a->unit, b->unit);

	return c ? c : (a->run > b->run) - (a->run < b->run);
}

/*
 * The metric's unit: the one most of its runs give it, the first met
 * among equals; each cell's factor to it, or why it has none.
 */
static void
resolve_unit(struct metric *m)
{
	struct cell **u = xcalloc(m->nc + 1, sizeof(*u));
	size_t n = 0, best = 0, bestn = 0;

	for (size_t i = 0; i < m->nc; i++)
		if (m->c[i].unit)
			u[n++] = &m->c[i];
	qsort(u, n, sizeof(*u), cmp_unit);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(u[j]->unit, u[i]->unit); j++)
			;
		if (j - i > bestn || (j - i == bestn && u[i]->run < u[best]->run)) {
			best = i;
			bestn = j - i;
		}
	}
	m->unit = n ? u[best]->unit : NULL;
	for (size_t i = 0; i < n; i++)
		if (unitconv_factor(u[i]->unit, m->unit, &u[i]->factor) < 0) {
			u[i]->conv = xstrfmt("in '%s', which cannot be converted "
					     "to '%s'", u[i]->unit, m->unit);
			u[i]->why = u[i]->conv;
		}
	free(u);
}

static void
left_out(struct runagg *a, struct pair *p, size_t run, const char *why)
{
	if (++a->nleft > RUNAGG_MAX_LEFT_OUT)
		return;
	p->out = grow(p->out, p->nout, sizeof(*p->out));
	p->out[p->nout].run = run;
	p->out[p->nout++].why = why;
}

/* The pair's values in its metric's unit, and the successful runs left out. */
static void
resolve_pair(struct runagg *a, struct pair *p)
{
	const struct metric *m = &a->m[p->m];
	size_t ci = 0, ei = 0;

	p->v = xcalloc(p->ne, sizeof(*p->v));
	for (size_t r = 0; r < a->nruns; r++) {
		const struct cell *c;
		int has = ei < p->ne && p->e[ei].run == r;

		if (a->runs[r].error)
			continue;
		while (ci < m->nc && m->c[ci].run < r)
			ci++;
		c = ci < m->nc && m->c[ci].run == r ? &m->c[ci] : NULL;
		if (has && c && !c->why)
			p->v[p->n++] = p->e[ei].v * c->factor;
		else if (!c)
			left_out(a, p, r, no_metric);
		else
			left_out(a, p, r, c->why ? c->why : c->bad[p->s] ?
				 why_type[c->bad[p->s] - 1][0] : no_stat);
		ei += has;
	}
}

/* Stat s of run's metric left out for why: into the run's note of that why. */
static void
note_stat(struct runagg *a, size_t first, size_t run, size_t m, const char *why,
	  size_t s)
{
	for (size_t i = first; i < a->nnotes; i++)
		if (!strcmp(a->notes[i].why, why)) {
			a->notes[i].stats |= 1u << s;
			return;
		}
	a->notes = grow(a->notes, a->nnotes, sizeof(*a->notes));
	a->notes[a->nnotes] = (struct note){ run, m, a->nnotes, why, 1u << s };
	a->nnotes++;
}

/* The notes of metric mi: its pairs' runs left out, a run at a time. */
static void
metric_notes(struct runagg *a, size_t mi)
{
	const struct metric *m = &a->m[mi];
	size_t at[NSTATS] = { 0 };

	for (;;) {
		size_t run = SIZE_MAX, first = a->nnotes;

		for (size_t s = 0; s < NSTATS; s++) {
			const struct pair *p = m->pair[s] ? &a->p[m->pair[s] - 1] : NULL;

			if (p && at[s] < p->nout && p->out[at[s]].run < run)
				run = p->out[at[s]].run;
		}
		if (run == SIZE_MAX)
			return;
		for (size_t s = 0; s < NSTATS; s++) {
			const struct pair *p = m->pair[s] ? &a->p[m->pair[s] - 1] : NULL;

			if (p && at[s] < p->nout && p->out[at[s]].run == run)
				note_stat(a, first, run, mi, p->out[at[s]++].why, s);
		}
	}
}

static int
cmp_note(const void *x, const void *y)
{
	const struct note *a = x, *b = y;

	if (a->run != b->run)
		return a->run < b->run ? -1 : 1;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

double
runagg_t_critical(double level, size_t n)
{
	if (n < 2)
		return NAN;
	return gsl_cdf_tdist_Pinv(1.0 - (1.0 - level) / 2.0, (double)(n - 1));
}

void
runagg_allow_single(struct runagg *a)
{
	a->single_ok = 1;
}

/* numpy's mean and std (ddof=1): pairwise sums aside, the same formulas;
 * of a single run (runagg_allow_single()), the original's point estimate. */
static void
pair_stats(struct pair *p, double level, int single)
{
	double sum = 0, ss = 0;

	if (!p->n)
		return;
	p->min = p->max = p->v[0];
	for (size_t i = 0; i < p->n; i++) {
		sum += p->v[i];
		p->min = fmin(p->min, p->v[i]);
		p->max = fmax(p->max, p->v[i]);
	}
	p->mean = sum / (double)p->n;
	for (size_t i = 0; i < p->n; i++)
		ss += (p->v[i] - p->mean) * (p->v[i] - p->mean);
	p->std = p->n > 1 ? sqrt(ss / (double)(p->n - 1)) : NAN;
	p->cv = p->mean != 0 ? p->std / p->mean : INFINITY;
	p->se = p->std / sqrt((double)p->n);
	p->t = runagg_t_critical(level, p->n);
	p->lo = p->mean - p->t * p->se;
	p->hi = p->mean + p->t * p->se;
	if (single) {
		p->std = p->cv = p->se = 0;
		p->lo = p->hi = p->mean;
	}
}

/* Units, values and the runs left out, once. */
static void
resolve(struct runagg *a)
{
	if (a->finished)
		return;
	a->finished = 1;
	for (size_t i = 0; i < a->nm; i++)
		resolve_unit(&a->m[i]);
	for (size_t i = 0; i < a->np; i++)
		resolve_pair(a, &a->p[i]);
	for (size_t i = 0; i < a->nm; i++)
		metric_notes(a, i);
	if (a->nnotes)
		qsort(a->notes, a->nnotes, sizeof(*a->notes), cmp_note);
}

int
runagg_finish(struct runagg *a, char *err, size_t errlen)
{
	size_t failed = a->nruns - a->nok;

	resolve(a);
	if (a->nok == 0) {
		snprintf(err, errlen, "All runs failed - cannot compute confidence "
			 "statistics. Total runs: %zu, Failed runs: %zu. Please check "
			 "the error messages in the logs and ensure your benchmark "
			 "configuration is correct.", a->nruns, failed);
		return -1;
	}
	if (a->nok < 2 && !(a->nok == 1 && a->single_ok)) {
		snprintf(err, errlen, "Insufficient successful runs for confidence "
			 "intervals. Got %zu successful run(s), but need at least 2. "
			 "Total runs: %zu, Failed runs: %zu. Consider increasing "
			 "--num-profile-runs or investigating why runs are failing.",
			 a->nok, a->nruns, failed);
		return -1;
	}
	if (a->nleft > RUNAGG_MAX_LEFT_OUT) {
		snprintf(err, errlen, "more than %u values of runs left out of "
			 "statistics: the runs do not share their metrics",
			 RUNAGG_MAX_LEFT_OUT);
		return -1;
	}
	for (size_t i = 0; i < a->np; i++)
		pair_stats(&a->p[i], a->level, a->nok == 1);
	return 0;
}

size_t
runagg_values(const struct runagg *a, const char *metric, const char *stat,
	      double *out, size_t max)
{
	const struct metric *m = metric_find(a, metric, strlen(metric));

	for (size_t s = 0; m && s < NSTATS; s++) {
		const struct pair *p = m->pair[s] ? &a->p[m->pair[s] - 1] : NULL;

		if (!p || strcmp(stat_keys[s], stat))
			continue;
		for (size_t k = 0; k < p->n && k < max; k++)
			out[k] = p->v[k];
		return p->n;
	}
	return 0;
}

int
runagg_left_out(const struct runagg *a, size_t i, struct runagg_note *note)
{
	const struct note *n;

	if (i >= a->nnotes)
		return 0;
	n = &a->notes[i];
	note->run = n->run;
	note->label = a->runs[n->run].label;
	note->metric = a->m[n->m].name;
	note->why = n->why;
	note->nstats = 0;
	for (size_t s = 0; s < NSTATS; s++)
		if (n->stats >> s & 1)
			note->stats[note->nstats++] = stat_keys[s];
	return 1;
}

int
runagg_stat(const struct runagg *a, size_t i, struct runagg_stat *st)
{
	for (size_t k = 0; k < a->np; k++) {
		const struct pair *p = &a->p[k];

		if (!p->n || i--)
			continue;
		st->metric = a->m[p->m].name;
		st->stat = stat_keys[p->s];
		st->unit = a->m[p->m].unit;
		st->mean = p->mean;
		st->std = p->std;
		st->min = p->min;
		st->max = p->max;
		st->cv = p->cv;
		st->lo = p->lo;
		st->hi = p->hi;
		return 1;
	}
	return 0;
}

static void
json_notes(struct jw *w, const struct runagg *a)
{
	struct runagg_note n;

	jw_key(w, "runs_left_out");
	jw_arr(w);
	for (size_t i = 0; runagg_left_out(a, i, &n); i++) {
		jw_obj(w);
		jw_key(w, "label");
		jw_str(w, n.label);
		jw_key(w, "metric");
		jw_str(w, n.metric);
		jw_key(w, "stats");
		jw_arr(w);
		for (size_t s = 0; s < n.nstats; s++)
			jw_str(w, n.stats[s]);
		jw_arr_end(w);
		jw_key(w, "error");
		jw_str(w, n.why);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

static void
json_metadata(struct jw *w, const struct runagg *a,
	      void (*extra)(struct jw *w, void *ctx), void *ctx)
{
	jw_key(w, "metadata");
	jw_obj(w);
	jw_key(w, "aggregation_type");
	jw_str(w, "confidence");
	jw_key(w, "num_profile_runs");
	jw_int(w, (int64_t)a->nruns);
	jw_key(w, "num_successful_runs");
	jw_int(w, (int64_t)a->nok);
	jw_key(w, "failed_runs");
	jw_arr(w);
	for (size_t i = 0; i < a->nruns; i++) {
		if (!a->runs[i].error)
			continue;
		jw_obj(w);
		jw_key(w, "label");
		jw_str(w, a->runs[i].label);
		jw_key(w, "error");
		jw_str(w, a->runs[i].error);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_key(w, "confidence_level");
	jw_double_py(w, a->level);
	jw_key(w, "run_labels");
	jw_arr(w);
	for (size_t i = 0; i < a->nruns; i++)
		if (!a->runs[i].error)
			jw_str(w, a->runs[i].label);
	jw_arr_end(w);
	if (a->nok == 1) {
		jw_key(w, "single_run");
		jw_bool(w, 1);
	}
	if (extra)
		extra(w, ctx);
	if (a->nnotes)
		json_notes(w, a);
	jw_obj_end(w);
}

static void
pair_key(char *key, size_t n, const struct runagg *a, const struct pair *p)
{
	snprintf(key, n, "%s_%s", a->m[p->m].name, stat_keys[p->s]);
}

static void
json_pair(struct jw *w, const struct runagg *a, const struct pair *p)
{
	const char *names[] = { "mean", "std", "min", "max", "cv", "se",
		"ci_low", "ci_high", "t_critical" };
	const double v[] = { p->mean, p->std, p->min, p->max, p->cv, p->se,
		p->lo, p->hi, p->t };
	char key[600];

	pair_key(key, sizeof(key), a, p);
	jw_key(w, key);
	jw_obj(w);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		jw_key(w, names[i]);
		jw_double_py(w, v[i]);	/* infinities and NaN: null */
	}
	jw_key(w, "unit");
	jw_str(w, a->m[p->m].unit);
	if (p->nout) {
		jw_key(w, "runs_left_out");
		jw_arr(w);
		for (size_t i = 0; i < p->nout; i++) {
			jw_obj(w);
			jw_key(w, "label");
			jw_str(w, a->runs[p->out[i].run].label);
			jw_key(w, "error");
			jw_str(w, p->out[i].why);
			jw_obj_end(w);
		}
		jw_arr_end(w);
	}
	jw_obj_end(w);
}

int
runagg_json(const struct runagg *a, const char *version, struct buf *out)
{
	return runagg_json_with(a, version, out, NULL, NULL);
}

int
runagg_json_with(const struct runagg *a, const char *version, struct buf *out,
		 void (*extra)(struct jw *w, void *ctx), void *ctx)
{
	struct jw w;
	size_t len0 = out->len;

	jw_init(&w, out, 2);
	jw_obj(&w);
	jw_key(&w, "schema_version");
	jw_str(&w, "1.0");
	jw_key(&w, "aiperf_version");
	jw_str(&w, version);
	json_metadata(&w, a, extra, ctx);
	jw_key(&w, "metrics");
	jw_obj(&w);
	for (size_t i = 0; i < a->np; i++)
		if (a->p[i].n)
			json_pair(&w, a, &a->p[i]);
	jw_obj_end(&w);
	jw_obj_end(&w);
	/* a cap reached anywhere shows as output shorter than its brackets */
	return out->len > len0 && out->s[out->len - 1] == '}' ? 0 : -1;
}

/* Python's f"{v:.{d}f}", with "inf" and "-inf" (and "nan") as it writes them. */
static void
csv_num(FILE *f, double v, int decimals)
{
	char s[400];

	if (isnan(v))
		snprintf(s, sizeof(s), "nan");
	else if (isinf(v))
		snprintf(s, sizeof(s), "%s", v > 0 ? "inf" : "-inf");
	else
		snprintf(s, sizeof(s), "%.*f", decimals, v);
	csv_field(f, s, 0);
}

/* Python's repr() of a str, as str() of a list shows its items. */
static void
py_repr(struct buf *b, const char *s)
{
	int q = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';

	buf_addch(b, q);
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c == '\\' || *c == q)
			buf_addf(b, "\\%c", *c);
		else if (*c == '\n')
			buf_addstr(b, "\\n");
		else if (*c == '\r')
			buf_addstr(b, "\\r");
		else if (*c == '\t')
			buf_addstr(b, "\\t");
		else if (*c < 0x20 || *c == 0x7f)
			buf_addf(b, "\\x%02x", *c);
		else
			buf_addch(b, *c);
	}
	buf_addch(b, q);
}

/* Python's str() of metadata's runs_left_out: a list of dicts. */
static void
py_notes(struct buf *b, const struct runagg *a)
{
	struct runagg_note n;

	buf_addch(b, '[');
	for (size_t i = 0; runagg_left_out(a, i, &n); i++) {
		buf_addstr(b, i ? ", {'label': " : "{'label': ");
		py_repr(b, n.label);
		buf_addstr(b, ", 'metric': ");
		py_repr(b, n.metric);
		buf_addstr(b, ", 'stats': [");
		for (size_t s = 0; s < n.nstats; s++) {
			buf_addstr(b, s ? ", " : "");
			py_repr(b, n.stats[s]);
		}
		buf_addstr(b, "], 'error': ");
		py_repr(b, n.why);
		buf_addch(b, '}');
	}
	buf_addch(b, ']');
}

static void
csv_metadata(const struct runagg *a, FILE *f)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	char num[64];
	int first = 1;

	fprintf(f, "Aggregation Type,confidence\r\nTotal Runs,%zu\r\n"
		"Successful Runs,%zu\r\n", a->nruns, a->nok);
	numfmt_repr(num, a->level, NUMFMT_PYREPR);
	fprintf(f, "Confidence Level,%s\r\n", num);
	buf_addch(&b, '[');
	for (size_t i = 0; i < a->nruns; i++) {
		if (a->runs[i].error)
			continue;
		if (!first)
			buf_addstr(&b, ", ");
		first = 0;
		py_repr(&b, a->runs[i].label);
	}
	buf_addch(&b, ']');
	fputs("Run Labels", f);
	csv_field(f, buf_str(&b), 0);
	fputs("\r\n", f);
	if (a->nnotes) {
		buf_reset(&b);
		py_notes(&b, a);
		fputs("Runs Left Out", f);
		csv_field(f, buf_str(&b), 0);
		fputs("\r\n", f);
	}
	buf_release(&b);
}

void
runagg_csv(const struct runagg *a, FILE *f)
{
	fputs("metric,mean,std,min,max,cv,se,ci_low,ci_high,t_critical,unit\r\n", f);
	for (size_t i = 0; i < a->np; i++) {
		const struct pair *p = &a->p[i];
		char key[600];

		if (!p->n)
			continue;
		pair_key(key, sizeof(key), a, p);
		csv_field(f, key, 1);
		csv_num(f, p->mean, 2);
		csv_num(f, p->std, 2);
		csv_num(f, p->min, 2);
		csv_num(f, p->max, 2);
		csv_num(f, p->cv, 4);
		csv_num(f, p->se, 4);
		csv_num(f, p->lo, 2);
		csv_num(f, p->hi, 2);
		csv_num(f, p->t, 4);
		csv_field(f, a->m[p->m].unit, 0);
		fputs("\r\n", f);
	}
	fputs("\r\n", f);
	csv_metadata(a, f);
}
