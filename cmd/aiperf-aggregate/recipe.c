/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-aggregate --sweep: a grid recipe's post-processing (the original's search_recipes handlers). */
#include "recipe.h"

#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "outfile.h"
#include "rundir.h"
#include "stats/pareto.h"
#include "stats/polyfit.h"
#include "util.h"

struct point {
	double x, y;
};

struct handler {
	const char *recipe, *handler, *file;
	/* 0, or -1 with why in err (the original's ValueError) */
	int (*run)(const struct sweep *s, struct buf *out, char *err, size_t n);
};

/* The recipe's string member KEY, or dflt. */
static const char *
recipe_str(const struct sweep *s, const char *key, const char *dflt)
{
	return json_str_or(json_get(s->p->recipe, key), dflt);
}

static double
recipe_num(const struct sweep *s, const char *key, double dflt)
{
	double v;

	return sweepplan_recipe_num(s->p, key, &v) == 0 ? v : dflt;
}

int
recipe_param_value(const struct sweep *s, size_t var, const char *path, double *x)
{
	const char *leaf = strrchr(path, '.');
	const struct json *found = NULL;

	leaf = leaf ? leaf + 1 : path;
	for (const struct json *m = s->p->vars[var].values->child; m; m = m->next) {
		const char *name = sweep_name_of(s, m->key);

		if (!strcmp(name, path) || !strcmp(m->key, path))
			found = m;
		else if (!found && !strcmp(name, leaf))
			found = m;
	}
	return found && found->type == JSON_NUMBER && json_double(found, x) == 0 ? 0 : -1;
}

static int
cmp_point(const void *a, const void *b)
{
	const struct point *p = a, *q = b;

	return (p->x > q->x) - (p->x < q->x);
}

/* The original's _extract_points: (swept value, metric mean), sorted by x
 * (ties in row order: the sort is made stable by the row index). */
static size_t
extract(const struct sweep *s, const char *param, const char *tag,
	const char *stat, struct point *pt, char *err, size_t n)
{
	char flat[600];
	size_t k = 0;

	snprintf(flat, sizeof(flat), "%s_%s", tag, stat);
	for (size_t i = 0; i < s->nc; i++) {
		const struct sweep_metric *m = sweep_find(&s->c[i], flat);
		double x;

		if (!m)
			m = sweep_find(&s->c[i], tag);
		if (!m || recipe_param_value(s, s->c[i].var, param, &x) < 0)
			continue;
		pt[k].x = x;
		pt[k++].y = m->mean.d;
	}
	if (!k)
		snprintf(err, n, "post-process: sweep aggregate has no rows with "
			 "parameter '%s' and metric '%s' (flat key '%s'); check that "
			 "the recipe swept that parameter and that the metric is "
			 "enabled (e.g. --streaming for time_to_first_token).", param,
			 tag, flat);
	/* insertion sort: stable, as Python's sort */
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && cmp_point(&pt[j], &pt[j - 1]) < 0; j--) {
			struct point t = pt[j];

			pt[j] = pt[j - 1];
			pt[j - 1] = t;
		}
	return k;
}

static int
stat_ok(const char *stat, const char *handler, char *err, size_t n)
{
	static const char *const ok[] = { "avg", "p50", "p90", "p95", "p99" };

	for (size_t i = 0; i < 5; i++)
		if (!strcmp(stat, ok[i]))
			return 0;
	snprintf(err, n, "%s: params['stat']='%s' is not a recognized statistic; "
		 "expected one of ('avg', 'p50', 'p90', 'p95', 'p99').", handler, stat);
	return -1;
}

/* x as the original writes a swept value: an int when integral. */
static void
jw_x(struct jw *w, double x)
{
	if (x == floor(x) && fabs(x) < 9e15)
		jw_int(w, (int64_t)x);
	else
		jw_double(w, x);
}

static void
knee_json(struct buf *out, const char *leaf, const char *stat, const struct point *pt,
	  size_t k, size_t knee, double thr, const char *tag, const char *param)
{
	char key[300];
	struct jw w;

	jw_init(&w, out, 2);
	jw_obj(&w);
	snprintf(key, sizeof(key), "baseline_%s", leaf);
	jw_key(&w, key);
	jw_x(&w, pt[0].x);
	snprintf(key, sizeof(key), "baseline_%s", stat);
	jw_key(&w, key);
	jw_double(&w, pt[0].y);
	snprintf(key, sizeof(key), "knee_%s", leaf);
	jw_key(&w, key);
	if (knee < k)
		jw_x(&w, pt[knee].x);
	else
		jw_null(&w);
	snprintf(key, sizeof(key), "knee_%s", stat);
	jw_key(&w, key);
	if (knee < k)
		jw_double(&w, pt[knee].y);
	else
		jw_null(&w);
	jw_key(&w, "threshold_pct");
	jw_double(&w, thr);
	jw_key(&w, "swept_metric");
	jw_str(&w, tag);
	jw_key(&w, "stat");
	jw_str(&w, stat);
	jw_key(&w, "swept_param");
	jw_str(&w, param);
	jw_key(&w, "all_points");
	jw_arr(&w);
	for (size_t i = 0; i < k; i++) {
		jw_obj(&w);
		jw_key(&w, leaf);
		jw_x(&w, pt[i].x);
		jw_key(&w, stat);
		jw_double(&w, pt[i].y);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_obj_end(&w);
}

/* The original's DegradationKneeDetect (concurrency-ramp). */
static int
knee(const struct sweep *s, struct buf *out, char *err, size_t n)
{
	const char *tag = recipe_str(s, "degradation_metric_tag", "request_latency");
	const char *stat = recipe_str(s, "degradation_stat", "p99");
	const char *param = "phases.profiling.concurrency", *leaf = "concurrency";
	double thr = recipe_num(s, "degradation_threshold", 0.20), cut;
	struct point *pt = xcalloc(s->nc + 1, sizeof(*pt));
	size_t k, i = 1;
	int rc = -1;

	if (stat_ok(stat, "degradation_knee_detect", err, n) < 0 ||
	    !(k = extract(s, param, tag, stat, pt, err, n)))
		goto out;
	if (!isfinite(pt[0].y)) {
		snprintf(err, n, "degradation_knee_detect: baseline %s for '%s' is "
			 "non-finite", stat, tag);
		goto out;
	}
	if (pt[0].y <= 0) {
		snprintf(err, n, "degradation_knee_detect: baseline %s for '%s' must "
			 "be positive (got %g, which is zero or negative)", stat, tag,
			 pt[0].y);
		goto out;
	}
	cut = pt[0].y * (1.0 + thr);
	while (i < k && !(pt[i].y > cut))
		i++;
	knee_json(out, leaf, stat, pt, k, i, thr, tag, param);
	rc = 0;
out:
	free(pt);
	return rc;
}


struct fit {
	const char *form;
	double c[POLYFIT_MAX_DEG + 1], r2;
	int deg, below;
};

/* The original's TTFTCurveFit: linear, quadratic when r² is under the
 * floor and the quadratic fits better; below_floor when the chosen fit
 * is under it or not finite. */
static void
ttft_fit(const struct point *pt, size_t k, double floor_r2, struct fit *f)
{
	double *x = xcalloc(k + 1, sizeof(*x)), *y = xcalloc(k + 1, sizeof(*y));
	struct fit q = { "quadratic", { 0 }, 0, 2, 0 };
	size_t n = 0;

	for (size_t i = 0; i < k; i++)
		if (isfinite(pt[i].x) && isfinite(pt[i].y)) {
			x[n] = pt[i].x;
			y[n++] = pt[i].y;
		}
	f->form = "linear";
	f->deg = 1;
	(void)polyfit(x, y, n, 1, f->c, &f->r2);
	if (f->r2 < floor_r2 && n >= 3 && polyfit(x, y, n, 2, q.c, &q.r2) == 0 &&
	    q.r2 > f->r2)
		*f = q;
	f->below = isnan(f->r2) || f->r2 < floor_r2;
	for (int i = 0; i <= f->deg; i++)
		f->below |= !isfinite(f->c[i]);
	free(x);
	free(y);
}

static void
fit_json(struct buf *out, const struct fit *f, double floor_r2, const char *why,
	 const struct point *pt, size_t k, const char *tag, const char *stat,
	 const char *param)
{
	struct jw w;

	jw_init(&w, out, 2);
	jw_obj(&w);
	jw_key(&w, "fit_form");
	jw_str(&w, f->form);
	jw_key(&w, "coefficients");
	jw_arr(&w);
	for (int i = 0; !why && i <= f->deg; i++)
		jw_double(&w, f->c[i]);
	jw_arr_end(&w);
	jw_key(&w, "r_squared");
	jw_double(&w, why ? 0.0 : f->r2);
	jw_key(&w, "below_floor");
	jw_bool(&w, why || f->below);
	jw_key(&w, "r_squared_floor");
	jw_double(&w, floor_r2);
	if (why) {
		jw_key(&w, "error_reason");
		jw_str(&w, why);
	}
	jw_key(&w, "raw_points");
	jw_arr(&w);
	for (size_t i = 0; i < k; i++) {
		jw_obj(&w);
		jw_key(&w, "isl");
		jw_double(&w, pt[i].x);
		jw_key(&w, "ttft_ms");
		jw_double(&w, pt[i].y);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_key(&w, "swept_metric");
	jw_str(&w, tag);
	jw_key(&w, "stat");
	jw_str(&w, stat);
	jw_key(&w, "swept_param");
	jw_str(&w, param);
	jw_obj_end(&w);
}

/* prefill-ttft-curve: prefill_curve.json. */
static int
prefill(const struct sweep *s, struct buf *out, char *err, size_t n)
{
	const char *tag = "time_to_first_token", *stat = "avg";
	const char *param = "datasets.main.prompts.isl";
	double floor_r2 = recipe_num(s, "r_squared_floor", 0.85);
	struct point *pt = xcalloc(s->nc + 1, sizeof(*pt));
	struct fit f = { 0 };
	size_t k, finite = 0;
	char why[300];

	if (!(k = extract(s, param, tag, stat, pt, err, n)) || k < 2) {
		if (k)
			snprintf(err, n, "ttft_curve_fit: need >= 2 sweep points to fit "
				 "a curve (got %zu for '%s'/'%s'); widen the recipe's ISL "
				 "range or sweep more steps.", k, tag, stat);
		free(pt);
		return -1;
	}
	for (size_t i = 0; i < k; i++)
		finite += isfinite(pt[i].x) && isfinite(pt[i].y);
	snprintf(why, sizeof(why), "ttft_curve_fit: fewer than 2 finite trial points "
		 "after dropping non-finite metric values (got %zu of %zu); check "
		 "that swept cells produced successful requests.", finite, k);
	if (finite >= 2)
		ttft_fit(pt, k, floor_r2, &f);
	else
		f.form = "linear";
	fit_json(out, &f, floor_r2, finite >= 2 ? NULL : why, pt, k, tag, stat, param);
	free(pt);
	return 0;
}

/* Variation var's value of the parameter displayed as NAME (exactly). */
static int
named_value(const struct sweep *s, size_t var, const char *name, double *v)
{
	const struct json *found = NULL;

	for (const struct json *m = s->p->vars[var].values->child; m; m = m->next)
		if (!strcmp(sweep_name_of(s, m->key), name))
			found = m;
	return found && found->type == JSON_NUMBER && json_double(found, v) == 0 &&
	       isfinite(*v) && fabs(*v) < 9e15 ? 0 : -1;
}

struct cell {
	double isl, osl, conc, xy[2];
	unsigned char on;
};

/* The metric FLAT, else TAG, of combination i. */
static const struct sweep_metric *
axis(const struct sweep *s, size_t i, const char *flat, const char *tag)
{
	const struct sweep_metric *m = sweep_find(&s->c[i], flat);

	return m ? m : sweep_find(&s->c[i], tag);
}

static void
pareto_sweep_json(struct buf *out, const struct cell *c, size_t k)
{
	struct jw w;

	jw_init(&w, out, 2);
	jw_obj(&w);
	jw_key(&w, "x_metric");
	jw_str(&w, "time_to_first_token");
	jw_key(&w, "x_stat");
	jw_str(&w, "p95");
	jw_key(&w, "y_metric");
	jw_str(&w, "output_token_throughput");
	jw_key(&w, "y_stat");
	jw_str(&w, "avg");
	jw_key(&w, "cells");
	jw_arr(&w);
	for (size_t i = 0; i < k; i++) {
		jw_obj(&w);
		jw_key(&w, "isl");
		jw_int(&w, (int64_t)c[i].isl);
		jw_key(&w, "osl");
		jw_int(&w, (int64_t)c[i].osl);
		jw_key(&w, "concurrency");
		jw_int(&w, (int64_t)c[i].conc);
		jw_key(&w, "x");
		jw_double(&w, c[i].xy[0]);
		jw_key(&w, "y");
		jw_double(&w, c[i].xy[1]);
		jw_key(&w, "pareto_optimal");
		jw_bool(&w, c[i].on);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_obj_end(&w);
}

/* The finite cells' frontier: x minimized, y maximized; the others off. */
static void
mark_front(struct cell *c, size_t k)
{
	static const int dir[2] = { -1, +1 };
	double *v = xcalloc(2 * k + 1, sizeof(*v));
	unsigned char *on = xcalloc(k + 1, 1);
	size_t *idx = xcalloc(k + 1, sizeof(*idx)), n = 0;

	for (size_t i = 0; i < k; i++)
		if (isfinite(c[i].xy[0]) && isfinite(c[i].xy[1])) {
			v[2 * n] = c[i].xy[0];
			v[2 * n + 1] = c[i].xy[1];
			idx[n++] = i;
		}
	if (n < k)
		warn("pareto_dominance: excluded %zu cell(s) with non-finite x "
		     "(time_to_first_token_p95) or y (output_token_throughput_avg) "
		     "from the dominance pass", k - n);
	(void)pareto_front(v, n, 2, dir, on);
	for (size_t i = 0; i < n; i++)
		c[idx[i]].on = on[i];
	free(idx);
	free(on);
	free(v);
}

/* pareto-sweep: pareto_sweep.json (the original's ParetoSweepExport). */
static int
pareto_sweep(const struct sweep *s, struct buf *out, char *err, size_t n)
{
	struct cell *c = xcalloc(s->nc + 1, sizeof(*c));
	size_t k = 0;

	for (size_t i = 0; i < s->nc; i++) {
		const struct sweep_metric *x = axis(s, i, "time_to_first_token_p95",
						    "time_to_first_token");
		const struct sweep_metric *y = axis(s, i, "output_token_throughput_avg",
						    "output_token_throughput");
		size_t v = s->c[i].var;

		if (!x || !y || named_value(s, v, "isl", &c[k].isl) < 0 ||
		    named_value(s, v, "osl", &c[k].osl) < 0 ||
		    named_value(s, v, "concurrency", &c[k].conc) < 0)
			continue;
		c[k].xy[0] = x->mean.d;
		c[k++].xy[1] = y->mean.d;
	}
	if (!k) {
		snprintf(err, n, "pareto_sweep_export: no rows with the expected (isl, "
			 "osl, concurrency) parameters and metrics "
			 "(time_to_first_token_p95, output_token_throughput_avg); check "
			 "that the recipe ran end-to-end with --streaming.");
		free(c);
		return -1;
	}
	mark_front(c, k);
	pareto_sweep_json(out, c, k);
	free(c);
	return 0;
}

/* Whether the plan is max-concurrency-under-sla's grid. */
static int
sla_grid(const struct sweep *s)
{
	const char *name = sweepplan_recipe_name(s->p);

	return name && !strcmp(name, "max-concurrency-under-sla") &&
	       !strcmp(recipe_str(s, "search_style", "smooth_isotonic"), "grid");
}

void
recipe_sla(struct sweep *s)
{
	static const struct {
		const char *key, *tag, *stat;
	} k[] = {
		{ "ttft_sla_ms", "time_to_first_token", "p95" },
		{ "tpot_sla_ms", "inter_token_latency", "p95" },
		{ "e2e_sla_ms", "request_latency", "p99" },
		{ "error_rate_sla", "request_error_rate", "p99" },
	};
	double v;

	s->nsla = 0;
	if (!sla_grid(s))
		return;
	for (size_t i = 0; i < 4; i++) {
		int have = sweepplan_recipe_num(s->p, k[i].key, &v) == 0;

		/* --itl-sla-ms is --tpot-sla-ms's alias */
		if (!have && i == 1)
			have = sweepplan_recipe_num(s->p, "itl_sla_ms", &v) == 0;
		if (!have)
			continue;
		s->sla[s->nsla++] = (struct sweep_sla){ k[i].tag, k[i].stat, "lt", v };
	}
}

static void
breach_json(struct jw *w, const struct sweep_sla *f, const double *obs)
{
	jw_obj(w);
	jw_key(w, "metric_tag");
	jw_str(w, f->tag);
	jw_key(w, "stat");
	jw_str(w, f->stat);
	jw_key(w, "op");
	jw_str(w, f->op);
	jw_key(w, "threshold");
	jw_double(w, f->threshold);
	jw_key(w, "observed");
	if (obs)
		jw_double(w, *obs);
	else
		jw_null(w);
	jw_obj_end(w);
}

/* Combination i's breaches, in filter order, to w (w NULL: only count). */
static size_t
breaches(const struct sweep *s, size_t i, struct jw *w)
{
	size_t n = 0;
	double v;

	for (size_t f = 0; f < s->nsla; f++) {
		int have = sweep_metric_value(&s->c[i], s->sla[f].tag, s->sla[f].stat,
					      &v) == 0;

		if (sweep_sla_pass(&s->c[i], &s->sla[f]))
			continue;
		n++;
		if (w)
			breach_json(w, &s->sla[f], have ? &v : NULL);
	}
	return n;
}

struct xrow {
	double x;
	size_t i;		/* its combination */
};

static int
cmp_xrow(const void *a, const void *b)
{
	const struct xrow *p = a, *q = b;

	if (p->x != q->x)
		return (p->x > q->x) - (p->x < q->x);
	return (p->i > q->i) - (p->i < q->i);	/* stable */
}

/* The value of the swept parameter of combination i as written. */
static const struct json *
raw_value(const struct sweep *s, size_t i, const char *name)
{
	const struct json *found = NULL;

	for (const struct json *m = s->p->vars[s->c[i].var].values->child; m; m = m->next)
		if (!strcmp(sweep_name_of(s, m->key), name))
			found = m;
	return found;
}

/* One point per distinct x (rows sorted): feasible when all its rows are;
 * written to w unless NULL. */
static void
sla_points(const struct sweep *s, struct jw *w, const struct xrow *r, size_t k,
	   size_t *maxp, size_t *firstf, int *mono)
{
	int seen_bad = 0;

	*maxp = *firstf = SIZE_MAX;
	*mono = 1;
	for (size_t a = 0, b; a < k; a = b) {
		size_t nb = 0;

		for (b = a; b < k && r[b].x == r[a].x; b++)
			nb += breaches(s, r[b].i, NULL);
		if (w) {
			jw_obj(w);
			jw_key(w, "concurrency");
			jw_value(w, raw_value(s, r[a].i, "concurrency"));
			jw_key(w, "feasible");
			jw_bool(w, nb == 0);
			jw_key(w, "breaches");
			jw_arr(w);
			for (size_t j = a; j < b; j++)
				(void)breaches(s, r[j].i, w);
			jw_arr_end(w);
			jw_obj_end(w);
		}
		if (nb == 0 && seen_bad)
			*mono = 0;
		if (nb == 0)
			*maxp = a;
		else if (!seen_bad++)
			*firstf = a;
	}
}

/* The first breach (filter order) of the first row failing at x = r[a].x. */
static void
first_breach(const struct sweep *s, struct jw *w, const struct xrow *r, size_t k,
	     size_t a)
{
	for (size_t j = a; j < k && r[j].x == r[a].x; j++)
		for (size_t f = 0; f < s->nsla; f++) {
			double v;
			int have;

			if (sweep_sla_pass(&s->c[r[j].i], &s->sla[f]))
				continue;
			have = sweep_metric_value(&s->c[r[j].i], s->sla[f].tag,
						  s->sla[f].stat, &v) == 0;
			breach_json(w, &s->sla[f], have ? &v : NULL);
			return;
		}
	jw_null(w);
}

static void
value_or_null(struct jw *w, const struct sweep *s, const struct xrow *r, size_t a)
{
	if (a == SIZE_MAX)
		jw_null(w);
	else
		jw_value(w, raw_value(s, r[a].i, "concurrency"));
}

/* max-concurrency-under-sla (grid): sla_breach.json, the original's SLABreachKnee. */
static int
sla_breach(const struct sweep *s, struct buf *out, char *err, size_t n)
{
	struct xrow *r = xcalloc(s->nc + 1, sizeof(*r));
	size_t k = 0, maxp, firstf;
	struct jw w;
	int mono;

	(void)err;
	(void)n;
	for (size_t i = 0; i < s->nc; i++)
		if (recipe_param_value(s, s->c[i].var, "phases.profiling.concurrency", &r[k].x) == 0)
			r[k++].i = i;
	qsort(r, k, sizeof(*r), cmp_xrow);
	sla_points(s, NULL, r, k, &maxp, &firstf, &mono);
	jw_init(&w, out, 2);
	jw_obj(&w);
	jw_key(&w, "swept_param");
	jw_str(&w, "phases.profiling.concurrency");
	jw_key(&w, "max_passing_concurrency");
	value_or_null(&w, s, r, maxp);
	jw_key(&w, "first_failing_concurrency");
	value_or_null(&w, s, r, firstf);
	jw_key(&w, "first_failing_breach");
	if (firstf == SIZE_MAX)
		jw_null(&w);
	else
		first_breach(s, &w, r, k, firstf);
	jw_key(&w, "all_points");
	jw_arr(&w);
	sla_points(s, &w, r, k, &maxp, &firstf, &mono);
	jw_arr_end(&w);
	jw_key(&w, "monotonicity_check");
	jw_bool(&w, mono);
	jw_key(&w, "filters");
	jw_arr(&w);
	for (size_t f = 0; f < s->nsla; f++)
		sweep_sla_json(&w, &s->sla[f]);
	jw_arr_end(&w);
	jw_obj_end(&w);
	free(r);
	return 0;
}

static const struct handler handlers[] = {
	{ "concurrency-ramp", "degradation_knee_detect", "degradation_knee.json", knee },
	{ "prefill-ttft-curve", "ttft_curve_fit", "prefill_curve.json", prefill },
	{ "decode-itl-curve", "itl_surface_fit", "decode_itl_surface.json", recipe_itl_surface },
	{ "pareto-sweep", "pareto_sweep_export", "pareto_sweep.json", pareto_sweep },
	{ "max-concurrency-under-sla", "sla_breach_knee", "sla_breach.json", sla_breach },
};

static void
write_json(const char *dir, const char *name, const struct buf *b)
{
	char *p = rundir_path(dir, name);

	/* as orjson.dumps() writes it: no final newline */
	if (outfile_write(AT_FDCWD, p, b->s, b->len) < 0)
		die("cannot write '%s':", p);
	free(p);
}

static void
write_errors(const char *dir, const struct handler *h, const char *why,
	     const char *type)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;

	jw_init(&w, &b, 2);
	jw_obj(&w);
	jw_key(&w, "handler");
	jw_str(&w, h->handler);
	jw_key(&w, "output_filename");
	jw_str(&w, h->file);
	jw_key(&w, "error");
	jw_str(&w, why);
	jw_key(&w, "type");
	jw_str(&w, type);
	jw_obj_end(&w);
	write_json(dir, "post_process_errors.json", &b);
	warn("post-process handler '%s' failed: %s; standard sweep aggregates "
	     "unaffected (errors in %s/post_process_errors.json)", h->handler, why, dir);
	buf_release(&b);
}

void
recipe_post_process(const struct sweep *s, const char *dir)
{
	const char *name = sweepplan_recipe_name(s->p);
	struct buf b = BUF_INIT(BUF_NOMAX);
	char err[1024];

	if (!name)
		return;
	for (size_t i = 0; i < sizeof(handlers) / sizeof(*handlers); i++) {
		const struct handler *h = &handlers[i];

		if (strcmp(h->recipe, name))
			continue;
		if (h->run == sla_breach && !sla_grid(s))
			return;	/* an adaptive search's, not a grid's */
		if (h->run(s, &b, err, sizeof(err)) < 0)
			write_errors(dir, h, err, "ValueError");
		else
			write_json(dir, h->file, &b);
		buf_release(&b);
		return;
	}
}
