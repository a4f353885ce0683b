/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-aggregate: profile_export_aiperf_collated.json: every run's per-request values pooled. */
#include "collate.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "json/jw.h"
#include "lines.h"
#include "stats/stats.h"
#include "stats/unitconv.h"
#include "util.h"

#define LINE_MAX_ (16u << 20)	/* a line of profile_export.jsonl */
#define MAX_METRICS 1024
#define MAX_VALUES 50000000u	/* pooled values, all metrics */
#define FILE_NOTE SIZE_MAX	/* a note's metric: the file, or its records */

struct part {			/* one run's values of a metric: v[start, start+count) */
	size_t run, start, count;
	double mean;
};

struct metric {
	char *name;
	char *unit;		/* its first value's; NULL: it had none */
	size_t unit_run;	/* + 1: the run that gave it; 0: none yet */
	struct stats_vec v;
	struct part *parts;
	size_t nparts;
	size_t note;		/* + 1: its note of the run being read */
};

struct note {
	size_t run, metric, count;
	char *why;		/* the first one's, until the run is read */
	int mixed;		/* not all for that why */
};

struct collate {
	const char *only;
	struct metric *m;
	size_t n;
	size_t nvalues;
	struct note *notes;
	size_t nnotes;
	size_t run_notes;	/* the first note of the run being read */
	size_t bad, bad_line, lost;	/* of the run being read */
	char *bad_why;
};

struct collate *
collate_new(const char *metric)
{
	struct collate *c = xcalloc(1, sizeof(*c));

	c->only = metric;
	return c;
}

void
collate_free(struct collate *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->m[i].name);
		free(c->m[i].unit);
		stats_vec_release(&c->m[i].v);
		free(c->m[i].parts);
	}
	for (size_t i = 0; i < c->nnotes; i++)
		free(c->notes[i].why);
	free(c->m);
	free(c->notes);
	free(c->bad_why);
	free(c);
}

static struct metric *
metric_of(struct collate *c, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (strlen(c->m[i].name) == len && !memcmp(c->m[i].name, name, len))
			return &c->m[i];
	if (c->n >= MAX_METRICS)
		return NULL;
	c->m = xreallocarray(c->m, c->n + 1, sizeof(*c->m));
	memset(&c->m[c->n], 0, sizeof(c->m[c->n]));
	c->m[c->n].name = xstrndup(name, len);
	stats_vec_init(&c->m[c->n].v);
	return &c->m[c->n++];
}

static struct note *
add_note(struct collate *c, size_t run, size_t metric, char *why)
{
	struct note *n;

	c->notes = xreallocarray(c->notes, c->nnotes + 1, sizeof(*c->notes));
	n = &c->notes[c->nnotes++];
	*n = (struct note){ run, metric, 1, why, 0 };
	return n;
}

/* A value of m left out of run for why (owned, taken). */
static void
left_out(struct collate *c, struct metric *m, size_t run, char *why)
{
	struct note *n;

	if (!m->note) {
		add_note(c, run, (size_t)(m - c->m), why);
		m->note = c->nnotes;
		return;
	}
	n = &c->notes[m->note - 1];
	n->count++;
	n->mixed |= strcmp(n->why, why) != 0;
	free(why);
}

static void
add_value(struct collate *c, struct metric *m, size_t run, double v)
{
	struct part *p = m->nparts ? &m->parts[m->nparts - 1] : NULL;

	if (!p || p->run != run) {
		m->parts = xreallocarray(m->parts, m->nparts + 1, sizeof(*m->parts));
		p = &m->parts[m->nparts++];
		*p = (struct part){ run, m->v.n, 0, NAN };
	}
	stats_vec_push(&m->v, v);
	p->count++;
	c->nvalues++;
}

/* The metric's value of a record, in the metric's unit, or left out. */
static void
take_value(struct collate *c, struct metric *m, size_t run, const struct json *e)
{
	const struct json *v = json_get(e, "value");
	const char *u = json_str_or(json_get(e, "unit"), NULL);
	double x, f = 1;

	if (!json_is_num(v) || json_double(v, &x) < 0)
		return;		/* a list (inter_chunk_latency), a flag: no value */
	if (!m->unit_run) {
		m->unit = u ? xstrdup(u) : NULL;
		m->unit_run = run + 1;
	}
	if (!isfinite(x))
		left_out(c, m, run, xstrdup("that are not finite numbers"));
	else if ((u || m->unit) && (!u || !m->unit || unitconv_factor(u, m->unit, &f) < 0))
		left_out(c, m, run, xstrfmt("in '%.64s', which cannot be converted to '%.64s'",
					    u ? u : "(no unit)", m->unit ? m->unit : "(no unit)"));
	else if (c->nvalues >= MAX_VALUES)
		left_out(c, m, run, xstrfmt("past the %u kept", MAX_VALUES));
	else
		add_value(c, m, run, x * f);
}

/* A record's metric values, when it is of the profiling phase without error. */
static void
add_record(struct collate *c, const struct json *r, size_t run)
{
	const struct json *md = json_get(r, "metadata"), *e;

	if (!md || md->type != JSON_OBJECT ||
	    strcmp(json_str_or(json_get(md, "benchmark_phase"), ""), "profiling"))
		return;
	if ((e = json_get(r, "error")) && e->type != JSON_NULL)
		return;
	e = json_get(r, "metrics");
	for (e = e && e->type == JSON_OBJECT ? e->child : NULL; e; e = e->next) {
		struct metric *m;

		if (c->only && (strlen(c->only) != e->keylen ||
				memcmp(c->only, e->key, e->keylen)))
			continue;
		if ((m = metric_of(c, e->key, e->keylen)))
			take_value(c, m, run, e);
		else
			c->lost += json_is_num(json_get(e, "value"));
	}
}

/* A record of the run that is left out: line ln, why (two parts). */
static void
bad_record(struct collate *c, size_t ln, const char *why, const char *more)
{
	if (!c->bad++) {
		c->bad_line = ln;
		c->bad_why = xstrfmt("%s%s", why, more);
	}
}

/* The run's notes made final: counts in their text. */
static void
close_notes(struct collate *c, size_t run)
{
	for (size_t i = c->run_notes; i < c->nnotes; i++) {
		struct note *n = &c->notes[i];
		char *why = n->mixed ? xstrfmt("%zu values, the first %s", n->count, n->why) :
			    xstrfmt("%zu value%s %s", n->count, n->count == 1 ? "" : "s",
				    n->why);

		free(n->why);
		n->why = why;
		c->m[n->metric].note = 0;
	}
	if (c->bad)
		add_note(c, run, FILE_NOTE, xstrfmt(c->bad == 1 ? "%zu of its records, "
			 "at line %zu: %s" : "%zu of its records, the first at line %zu: %s",
			 c->bad, c->bad_line, c->bad_why));
	if (c->lost)
		add_note(c, run, FILE_NOTE, xstrfmt("%zu values of metrics past the "
			 "first %d", c->lost, MAX_METRICS));
	free(c->bad_why);
	c->bad_why = NULL;
	c->bad = c->lost = 0;
}

/* Nothing of the run kept: its values and notes undone. */
static void
undo_run(struct collate *c, size_t run)
{
	for (size_t i = 0; i < c->n; i++) {
		struct metric *m = &c->m[i];
		struct part *q = m->nparts ? &m->parts[m->nparts - 1] : NULL;

		if (q && q->run == run) {
			m->v.n -= q->count;
			c->nvalues -= q->count;
			m->nparts--;
		}
		if (m->unit_run == run + 1) {
			free(m->unit);
			m->unit = NULL;
			m->unit_run = 0;
		}
		m->note = 0;
	}
	while (c->nnotes > c->run_notes)
		free(c->notes[--c->nnotes].why);
	free(c->bad_why);
	c->bad_why = NULL;
	c->bad = c->lost = 0;
}

/* The run's records read; 0, or the errno of a read that failed. */
static int
read_lines(struct collate *c, struct lines *l, size_t run)
{
	struct json_doc *d = json_doc_new();
	size_t len, skipped = 0;
	const char *s;
	int rc, e = 0;

	while ((rc = lines_next(l, &s, &len)) != 0) {
		const struct json *r;
		char why[160];

		/* a line over the cap is skipped, and counted; one that makes
		 * no progress is an error */
		if (rc < 0 && (errno != ENOBUFS || l->lineno == skipped)) {
			e = errno;
			break;
		}
		if (rc < 0) {
			skipped = l->lineno;
			bad_record(c, l->lineno, "longer than 16 MiB", "");
			continue;
		}
		json_doc_reset(d);
		if (!(r = json_parse(d, s, len, why, sizeof(why))))
			bad_record(c, l->lineno, "invalid JSON: ", why);
		else if (r->type != JSON_OBJECT)
			bad_record(c, l->lineno, "not a JSON object", "");
		else
			add_record(c, r, run);
	}
	json_doc_free(d);
	return e;
}

int
collate_add_run(struct collate *c, const char *dir, const char *records, size_t run)
{
	char *p = xstrfmt("%s/%s", dir, records);
	struct lines l;
	int e;

	c->run_notes = c->nnotes;
	if (lines_open(&l, p, LINE_MAX_) < 0) {
		add_note(c, run, FILE_NOTE, xstrfmt("%s %s: %s", errno == ENOENT ?
			 "missing" : "cannot read", records, util_strerror(errno)));
		free(p);
		return -1;
	}
	if ((e = read_lines(c, &l, run))) {
		undo_run(c, run);
		add_note(c, run, FILE_NOTE, xstrfmt("cannot read all of %s: %s",
						    records, util_strerror(e)));
	} else {
		close_notes(c, run);
	}
	for (size_t i = 0; i < c->n; i++) {
		struct metric *m = &c->m[i];
		struct part *q = m->nparts ? &m->parts[m->nparts - 1] : NULL;

		if (q && q->run == run)
			q->mean = stats_sum(m->v.v + q->start, q->count) / (double)q->count;
	}
	lines_close(&l);
	free(p);
	return e ? -1 : 0;
}

size_t
collate_values(const struct collate *c, const char *metric, size_t run,
	       const double **v)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct metric *m = &c->m[i];

		if (strcmp(m->name, metric))
			continue;
		for (size_t k = 0; k < m->nparts; k++)
			if (m->parts[k].run == run) {
				*v = m->v.v + m->parts[k].start;
				return m->parts[k].count;
			}
	}
	return 0;
}

int
collate_left_out(const struct collate *c, size_t i, size_t *run,
		 const char **metric, const char **why)
{
	if (i >= c->nnotes)
		return 0;
	*run = c->notes[i].run;
	*metric = c->notes[i].metric == FILE_NOTE ? NULL : c->m[c->notes[i].metric].name;
	*why = c->notes[i].why;
	return 1;
}

static int
cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/* "combined": numpy's mean, std (ddof 1; 0 for one value) and percentiles. */
static void
combined(struct jw *w, const struct metric *m)
{
	static const double ps[] = { 50, 90, 95, 99 };
	static const char *const keys[] = { "p50", "p90", "p95", "p99" };
	size_t n = m->v.n, k;
	double mean = stats_sum(m->v.v, n) / (double)n;
	double std = n > 1 ? stats_std(m->v.v, n, 1) : 0.0;
	double *sorted = xcalloc(n, sizeof(*sorted));

	memcpy(sorted, m->v.v, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	jw_key(w, "combined");
	jw_obj(w);
	jw_key(w, "mean");
	jw_double(w, mean);
	jw_key(w, "std");
	jw_double(w, std);
	for (k = 0; k < 4; k++) {
		jw_key(w, keys[k]);
		jw_double(w, stats_percentile(sorted, n, ps[k]));
	}
	jw_key(w, "count");
	jw_int(w, (int64_t)n);
	jw_obj_end(w);
	free(sorted);
}

/* "runs_left_out": the notes of metric mi (FILE_NOTE: of whole runs), if any. */
static void
json_notes(struct jw *w, const struct collate *c, const struct runagg *a, size_t mi)
{
	int any = 0;

	for (size_t i = 0; i < c->nnotes; i++) {
		if (c->notes[i].metric != mi)
			continue;
		if (!any++) {
			jw_key(w, "runs_left_out");
			jw_arr(w);
		}
		jw_obj(w);
		jw_key(w, "label");
		jw_str(w, runagg_label(a, c->notes[i].run, NULL));
		jw_key(w, "error");
		jw_str(w, c->notes[i].why);
		jw_obj_end(w);
	}
	if (any)
		jw_arr_end(w);
}

static void
metrics(struct jw *w, const struct collate *c, const struct runagg *a)
{
	size_t i, k;

	jw_key(w, "metrics");
	jw_obj(w);
	for (i = 0; i < c->n; i++) {
		const struct metric *m = &c->m[i];

		if (!m->v.n)
			continue;
		jw_key(w, m->name);
		jw_obj(w);
		combined(w, m);
		jw_key(w, "per_run");
		jw_arr(w);
		for (k = 0; k < m->nparts; k++) {
			jw_obj(w);
			jw_key(w, "label");
			jw_str(w, runagg_label(a, m->parts[k].run, NULL));
			jw_key(w, "mean");
			jw_double(w, m->parts[k].mean);
			jw_key(w, "count");
			jw_int(w, (int64_t)m->parts[k].count);
			jw_obj_end(w);
		}
		jw_arr_end(w);
		json_notes(w, c, a, i);
		jw_obj_end(w);
	}
	jw_obj_end(w);
}

static void
metadata(struct jw *w, const struct collate *c, const struct runagg *a,
	 double cooldown_s)
{
	const char *label, *err;
	size_t i;

	jw_key(w, "metadata");
	jw_obj(w);
	jw_key(w, "aggregation_type");
	jw_str(w, "detailed");
	jw_key(w, "num_profile_runs");
	jw_int(w, (int64_t)runagg_runs(a));
	jw_key(w, "num_successful_runs");
	jw_int(w, (int64_t)runagg_successful(a));
	jw_key(w, "failed_runs");
	jw_arr(w);
	for (i = 0; (label = runagg_label(a, i, &err)); i++)
		if (err) {
			jw_obj(w);
			jw_key(w, "label");
			jw_str(w, label);
			jw_key(w, "error");
			jw_str(w, err);
			jw_obj_end(w);
		}
	jw_arr_end(w);
	jw_key(w, "run_labels");
	jw_arr(w);
	for (i = 0; (label = runagg_label(a, i, &err)); i++)
		if (!err)
			jw_str(w, label);
	jw_arr_end(w);
	jw_key(w, "cooldown_seconds");
	jw_double(w, cooldown_s);
	json_notes(w, c, a, FILE_NOTE);
	jw_obj_end(w);
}

void
collate_json(struct buf *out, const struct collate *c, const struct runagg *a,
	     double cooldown_s, const char *version)
{
	struct jw w;

	jw_init(&w, out, 2);
	jw_obj(&w);
	jw_key(&w, "schema_version");
	jw_str(&w, "1.0.0");
	jw_key(&w, "aiperf_version");
	jw_str(&w, version);
	jw_key(&w, "description");
	jw_str(&w, "Collated per-request metrics across all runs: the request-level values "
		   "of every run pooled into one population, with combined percentiles "
		   "(p50, p90, p95, p99). profile_export_aiperf_aggregate.json instead "
		   "computes statistics over run-level summary values.");
	metadata(&w, c, a, cooldown_s);
	metrics(&w, c, a);
	jw_obj_end(&w);
}
