/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-aggregate: profile_export_aiperf_collated.json: every run's per-request values pooled. */
#include "collate.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "json/jw.h"
#include "lines.h"
#include "stats/stats.h"
#include "util.h"

#define LINE_MAX_ (16u << 20)	/* a line of profile_export.jsonl */
#define MAX_METRICS 1024
#define MAX_VALUES 50000000u	/* pooled values, all metrics */

struct part {			/* one run's values of a metric: v[start, start+count) */
	size_t run, start, count;
	double mean;
};

struct metric {
	char *name;
	struct stats_vec v;
	struct part *parts;
	size_t nparts;
};

struct collate {
	struct metric *m;
	size_t n;
	size_t nvalues;
};

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

static void
add_value(struct collate *c, struct metric *m, size_t run, double v)
{
	struct part *p = m->nparts ? &m->parts[m->nparts - 1] : NULL;

	if (c->nvalues >= MAX_VALUES)
		return;
	if (!p || p->run != run) {
		m->parts = xreallocarray(m->parts, m->nparts + 1, sizeof(*m->parts));
		p = &m->parts[m->nparts++];
		*p = (struct part){ run, m->v.n, 0, NAN };
	}
	stats_vec_push(&m->v, v);
	p->count++;
	c->nvalues++;
}

/* A record's metric values, when it is of the profiling phase without error. */
static void
add_record(struct collate *c, const struct json *r, size_t run)
{
	const struct json *md = json_get(r, "metadata"), *e, *v;
	double x;

	if (!md || md->type != JSON_OBJECT ||
	    strcmp(json_str_or(json_get(md, "benchmark_phase"), ""), "profiling"))
		return;
	if ((e = json_get(r, "error")) && e->type != JSON_NULL)
		return;
	e = json_get(r, "metrics");
	for (e = e && e->type == JSON_OBJECT ? e->child : NULL; e; e = e->next) {
		struct metric *m;

		v = json_get(e, "value");
		if (!v || !json_is_num(v) || json_double(v, &x) < 0)
			continue;
		if ((m = metric_of(c, e->key, e->keylen)))
			add_value(c, m, run, x);
	}
}

static int
add_run(struct collate *c, const char *dir, const char *records, size_t run)
{
	char *p = xstrfmt("%s/%s", dir, records);
	struct json_doc *d;
	struct lines l;
	const char *s;
	size_t len, i;
	int rc;

	if (lines_open(&l, p, LINE_MAX_) < 0) {
		rc = errno == ENOENT ? 0 : error("cannot read '%s':", p);
		free(p);
		return rc;
	}
	d = json_doc_new();
	while ((rc = lines_next(&l, &s, &len)) == 1) {
		const struct json *r;
		char why[128];

		json_doc_reset(d);
		if ((r = json_parse(d, s, len, why, sizeof(why))) && r->type == JSON_OBJECT)
			add_record(c, r, run);
	}
	if (rc < 0)
		rc = error("cannot read all of '%s'", p);
	for (i = 0; i < c->n; i++) {
		struct metric *m = &c->m[i];
		struct part *q = m->nparts ? &m->parts[m->nparts - 1] : NULL;

		if (q && q->run == run)
			q->mean = stats_sum(m->v.v + q->start, q->count) / (double)q->count;
	}
	lines_close(&l);
	json_doc_free(d);
	free(p);
	return rc < 0 ? -1 : 0;
}

static int
cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/* "combined": numpy's mean, std (ddof 1; 0 for one value) and percentiles. */
static void
combined(struct jw *w, struct metric *m)
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

static void
metrics(struct jw *w, struct collate *c, const struct runagg *a)
{
	size_t i, k;

	jw_key(w, "metrics");
	jw_obj(w);
	for (i = 0; i < c->n; i++) {
		struct metric *m = &c->m[i];

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
		jw_obj_end(w);
	}
	jw_obj_end(w);
}

static void
metadata(struct jw *w, const struct runagg *a, double cooldown_s)
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
	jw_obj_end(w);
}

int
collate_json(struct buf *out, const struct runagg *a, char *const *dirs,
	     const char *records, double cooldown_s, const char *version)
{
	struct collate c = { 0 };
	const char *err;
	struct jw w;
	size_t i;
	int rc = 0;

	for (i = 0; runagg_label(a, i, &err) && rc == 0; i++)
		if (!err)
			rc = add_run(&c, dirs[i], records, i);
	if (rc == 0) {
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
		metadata(&w, a, cooldown_s);
		metrics(&w, &c, a);
		jw_obj_end(&w);
	}
	for (i = 0; i < c.n; i++) {
		free(c.m[i].name);
		stats_vec_release(&c.m[i].v);
		free(c.m[i].parts);
	}
	free(c.m);
	return rc;
}
