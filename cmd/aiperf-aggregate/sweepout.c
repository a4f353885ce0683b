/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-aggregate --sweep: the sweep aggregate's analysis, JSON and CSV. */
#include "sweep.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "csvfield.h"
#include "json/json.h"
#include "stats/pareto.h"
#include "util.h"

static const char *const lat_keys[] = {
	"time_to_first_token_p99", "request_latency_p99",
};
#define THROUGHPUT "request_throughput_avg"

/* Whether every selected combination has metric NAME. */
static int
everywhere(const struct sweep *s, const unsigned char *sel, const char *name)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nc; i++) {
		if (!sel[i])
			continue;
		if (!sweep_find(&s->c[i], name))
			return 0;
		n++;
	}
	return n > 0;
}

static double
mean_of(const struct sweep *s, size_t i, const char *name)
{
	return sweep_find(&s->c[i], name)->mean.d;
}

/* The latency key of the selected combinations, or NULL. */
static const char *
latency_key(const struct sweep *s, const unsigned char *sel)
{
	for (size_t k = 0; k < 2; k++)
		if (everywhere(s, sel, lat_keys[k]))
			return lat_keys[k];
	return NULL;
}

/* The first selected combination of best NAME mean: pareto_best() on them. */
static size_t
best_of(const struct sweep *s, const unsigned char *sel, const char *name, int max)
{
	double *v = xcalloc(s->nc + 1, sizeof(*v));
	size_t *idx = xcalloc(s->nc + 1, sizeof(*idx)), n = 0, b;

	for (size_t i = 0; i < s->nc; i++)
		if (sel[i]) {
			v[n] = mean_of(s, i, name);
			idx[n++] = i;
		}
	b = pareto_best(v, n, max);
	b = b == SIZE_MAX ? SIZE_MAX : idx[b];
	free(v);
	free(idx);
	return b;
}

/* The frontier among the selected combinations into on[]. */
static size_t
front_of(const struct sweep *s, const unsigned char *sel, unsigned char *on)
{
	static const int dir[2] = { +1, -1 };
	const char *lat = latency_key(s, sel);
	double *v = xcalloc(2 * s->nc + 1, sizeof(*v));
	size_t *idx = xcalloc(s->nc + 1, sizeof(*idx)), n = 0, count = 0;
	unsigned char *o = xcalloc(s->nc + 1, 1);

	if (lat && everywhere(s, sel, THROUGHPUT)) {
		for (size_t i = 0; i < s->nc; i++)
			if (sel[i]) {
				v[2 * n] = mean_of(s, i, THROUGHPUT);
				v[2 * n + 1] = mean_of(s, i, lat);
				idx[n++] = i;
			}
		count = pareto_front(v, n, 2, dir, o);
		for (size_t i = 0; i < n; i++)
			on[idx[i]] = o[i];
	}
	free(o);
	free(idx);
	free(v);
	return count;
}

size_t
sweep_feasible(const struct sweep *s, unsigned char *ok)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nc; i++) {
		ok[i] = 1;
		for (size_t f = 0; f < s->nsla && ok[i]; f++)
			ok[i] = (unsigned char)sweep_sla_pass(&s->c[i], &s->sla[f]);
		n += ok[i];
	}
	return n;
}

/* As the original's SweepAnalyzer.compute(): with SLA filters, the best
 * among the feasible (all when none is), the frontier of the feasible. */
size_t
sweep_analyze(const struct sweep *s, size_t *bt, size_t *bl, const char **lat,
	      unsigned char *on)
{
	unsigned char *all = xcalloc(s->nc + 1, 1), *ok = xcalloc(s->nc + 1, 1);
	const unsigned char *best;
	size_t nok = sweep_feasible(s, ok), n;

	memset(all, 1, s->nc);
	memset(on, 0, s->nc);
	best = s->nsla && nok ? ok : all;
	*bt = *bl = SIZE_MAX;
	*lat = latency_key(s, best);
	if (everywhere(s, best, THROUGHPUT))
		*bt = best_of(s, best, THROUGHPUT, 1);
	if (*lat)
		*bl = best_of(s, best, *lat, 0);
	n = front_of(s, s->nsla ? ok : all, on);
	free(all);
	free(ok);
	return n;
}

void
sweep_sla_json(struct jw *w, const struct sweep_sla *f)
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
	jw_obj_end(w);
}

int
sweep_metric_value(const struct sweep_combo *c, const char *tag, const char *stat,
		   double *v)
{
	char flat[600];
	const struct sweep_metric *m;

	snprintf(flat, sizeof(flat), "%s_%s", tag, stat);
	if ((m = sweep_find(c, flat))) {
		*v = m->mean.d;
		return 0;
	}
	if (!(m = sweep_find(c, tag)))
		return -1;
	*v = m->mean.d;	/* mean, and avg: the single trial's alias */
	for (unsigned i = 0; m->single && i < 9; i++)
		if (!strcmp(stat, sweep_pct_names[i]) && (m->have_pct >> i & 1))
			*v = m->pct[i];
	if (m->single && !strcmp(stat, "min"))
		*v = m->min.d;
	if (m->single && !strcmp(stat, "max"))
		*v = m->max.d;
	return 0;
}

int
sweep_sla_pass(const struct sweep_combo *c, const struct sweep_sla *f)
{
	double v;

	if (sweep_metric_value(c, f->tag, f->stat, &v) < 0)
		return 0;
	if (!strcmp(f->op, "lt"))
		return v < f->threshold;
	if (!strcmp(f->op, "le"))
		return v <= f->threshold;
	if (!strcmp(f->op, "gt"))
		return v > f->threshold;
	return v >= f->threshold;
}

static void
num(struct jw *w, const struct sweep_num *n)
{
	if (n->raw)
		jw_raw(w, n->raw, strlen(n->raw));
	else
		jw_double(w, n->d);
}

static void
json_metric(struct jw *w, const struct sweep_metric *m)
{
	jw_key(w, m->name);
	jw_obj(w);
	jw_key(w, "mean");
	num(w, &m->mean);
	if (m->single) {
		jw_key(w, "avg");
		num(w, &m->mean);
	}
	jw_key(w, "std");
	num(w, &m->std);
	jw_key(w, "min");
	num(w, &m->min);
	jw_key(w, "max");
	num(w, &m->max);
	jw_key(w, "cv");
	num(w, &m->cv);
	jw_key(w, "ci_low");
	num(w, &m->lo);
	jw_key(w, "ci_high");
	num(w, &m->hi);
	jw_key(w, "unit");
	jw_str(w, m->unit);
	for (unsigned i = 0; m->single && i < 9; i++)
		if (m->have_pct >> i & 1) {
			jw_key(w, sweep_pct_names[i]);
			jw_double(w, m->pct[i]);
		}
	if (m->have_count) {
		jw_key(w, "count");
		num(w, &m->count);
	}
	if (m->have_sum) {
		jw_key(w, "sum");
		num(w, &m->sum);
	}
	jw_obj_end(w);
}

static void
json_params(struct jw *w, const struct sweep *s, size_t var)
{
	jw_obj(w);
	for (const struct json *m = s->p->vars[var].values->child; m; m = m->next) {
		jw_key(w, sweep_name_of(s, m->key));
		jw_value(w, m);
	}
	jw_obj_end(w);
}

/* Whether JSON scalars a and b are equal, as Python compares them. */
static int
same(const struct json *a, const struct json *b)
{
	double x, y;

	if (a->type == JSON_NUMBER && b->type == JSON_NUMBER)
		return json_double(a, &x) == 0 && json_double(b, &y) == 0 && x == y;
	return a->type == b->type && a->len == b->len &&
	       (!a->len || !memcmp(a->str, b->str, a->len));
}

/* The display names in first-seen order, with their distinct values. */
struct pvals {
	const char *name;
	const struct json **v;
	size_t n;
};

static size_t
sweep_params(const struct sweep *s, struct pvals *pv, size_t max)
{
	size_t np = 0, total = 1;

	/* a name's values: at most every member of every group's values
	 * (two paths may share a display name in a hostile plan) */
	for (size_t g = 0; g < s->ngroups; g++)
		for (const struct json *m = s->p->vars[s->groups[g]].values->child; m; m = m->next)
			total++;
	for (size_t g = 0; g < s->ngroups; g++) {
		const struct json *vals = s->p->vars[s->groups[g]].values;

		for (const struct json *m = vals->child; m; m = m->next) {
			const char *name = sweep_name_of(s, m->key);
			size_t k = 0, j;

			while (k < np && strcmp(pv[k].name, name))
				k++;
			if (k == np) {
				if (np == max)
					continue;
				pv[np].name = name;
				pv[np].v = xcalloc(total, sizeof(*pv[np].v));
				pv[np++].n = 0;
			}
			for (j = 0; j < pv[k].n && !same(pv[k].v[j], m); j++)
				;
			if (j == pv[k].n)
				pv[k].v[pv[k].n++] = m;
		}
	}
	return np;
}

static void
json_sla(struct jw *w, const struct sweep *s)
{
	unsigned char *ok = xcalloc(s->nc + 1, 1);
	size_t nok = sweep_feasible(s, ok);

	jw_key(w, "sla_constraints");
	jw_obj(w);
	jw_key(w, "active_filters");
	jw_arr(w);
	for (size_t f = 0; f < s->nsla; f++)
		sweep_sla_json(w, &s->sla[f]);
	jw_arr_end(w);
	jw_key(w, "feasible_count");
	jw_int(w, (int64_t)nok);
	jw_key(w, "infeasible_count");
	jw_int(w, (int64_t)(s->nc - nok));
	jw_obj_end(w);
	free(ok);
}

/* The original's recipes' pareto_axes (grid ones: those a plan here names). */
static const struct axes {
	const char *recipe, *xm, *xs, *ym, *ys, *series[2];
} axes[] = {
	{ "concurrency-ramp", "request_latency", "p95", "output_token_throughput",
		"avg", { NULL } },
	{ "pareto-sweep", "time_to_first_token", "p95", "output_token_throughput",
		"avg", { "isl", "osl" } },
	{ "max-concurrency-under-sla", "request_latency", "p95", "concurrency",
		"value", { NULL } },
};

static void
json_axes(struct jw *w, const struct sweep *s)
{
	const char *name = sweepplan_recipe_name(s->p);
	const struct axes *a = NULL;

	for (size_t i = 0; name && i < sizeof(axes) / sizeof(*axes); i++)
		if (!strcmp(axes[i].recipe, name))
			a = &axes[i];
	if (!a)
		return;
	jw_key(w, "pareto_axes");
	jw_obj(w);
	jw_key(w, "x_metric");
	jw_str(w, a->xm);
	jw_key(w, "x_stat");
	jw_str(w, a->xs);
	jw_key(w, "x_minimize");
	jw_bool(w, 1);
	jw_key(w, "y_metric");
	jw_str(w, a->ym);
	jw_key(w, "y_stat");
	jw_str(w, a->ys);
	jw_key(w, "y_maximize");
	jw_bool(w, 1);
	jw_key(w, "series_keys");
	jw_arr(w);
	for (size_t i = 0; i < 2 && a->series[i]; i++)
		jw_str(w, a->series[i]);
	jw_arr_end(w);
	jw_obj_end(w);
}

static void
json_metadata(struct jw *w, const struct sweep *s, struct pvals *pv, size_t np)
{
	int64_t combos = 1;

	jw_key(w, "metadata");
	jw_obj(w);
	jw_key(w, "sweep_parameters");
	jw_arr(w);
	for (size_t k = 0; k < np; k++) {
		jw_obj(w);
		jw_key(w, "name");
		jw_str(w, pv[k].name);
		jw_key(w, "values");
		jw_arr(w);
		for (size_t j = 0; j < pv[k].n; j++)
			jw_value(w, pv[k].v[j]);
		jw_arr_end(w);
		jw_obj_end(w);
		combos = combos > INT64_MAX / 65536 ? combos : combos * (int64_t)pv[k].n;
	}
	jw_arr_end(w);
	jw_key(w, "num_combinations");
	jw_int(w, combos);
	if (s->nsla)
		json_sla(w, s);
	jw_key(w, "sweep_mode");
	jw_str(w, s->p->independent ? "independent" : "repeated");
	jw_key(w, "confidence_level");
	jw_double(w, s->p->level);
	jw_key(w, "num_trials_per_value");
	jw_int(w, (int64_t)s->max_trials);
	json_axes(w, s);
	jw_key(w, "aggregation_type");
	jw_str(w, "sweep");
	jw_obj_end(w);
}

static void
json_head(struct jw *w, const struct sweep *s)
{
	jw_key(w, "aggregation_type");
	jw_str(w, "sweep");
	jw_key(w, "num_profile_runs");
	jw_int(w, (int64_t)s->nruns);
	jw_key(w, "num_successful_runs");
	jw_int(w, (int64_t)s->nok);
	jw_key(w, "failed_runs");
	jw_arr(w);
	for (size_t i = 0; i < s->nf; i++) {
		jw_obj(w);
		jw_key(w, "label");
		jw_str(w, s->f[i].label);
		jw_key(w, "error");
		jw_str(w, s->f[i].error);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

static void
json_best(struct jw *w, const struct sweep *s, const char *key, size_t i,
	  const char *metric)
{
	const struct sweep_metric *m;

	if (i == SIZE_MAX)
		return;
	m = sweep_find(&s->c[i], metric);
	jw_key(w, key);
	jw_obj(w);
	jw_key(w, "parameters");
	json_params(w, s, s->c[i].var);
	jw_key(w, "metric");
	num(w, &m->mean);
	jw_key(w, "unit");
	jw_str(w, m->unit);
	jw_obj_end(w);
}

/* The parameters of variation a before b's, by sorted (key, value) pairs. */
static int
params_before(const struct sweep *s, size_t a, size_t b);

static void
json_pareto(struct jw *w, const struct sweep *s, const unsigned char *on)
{
	size_t *idx = xcalloc(s->nc + 1, sizeof(*idx)), n = 0;

	for (size_t i = 0; i < s->nc; i++)
		if (on[i])
			idx[n++] = i;
	for (size_t i = 1; i < n; i++)	/* insertion sort: stable */
		for (size_t j = i; j > 0 && params_before(s, s->c[idx[j]].var,
							 s->c[idx[j - 1]].var); j--) {
			size_t t = idx[j];

			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	jw_key(w, "pareto_optimal");
	jw_arr(w);
	for (size_t i = 0; i < n; i++)
		json_params(w, s, s->c[idx[i]].var);
	jw_arr_end(w);
	free(idx);
}

/* Python's ordering of two scalars (numbers numerically, else by text). */
static int
cmp_value(const struct json *a, const struct json *b)
{
	double x = 0, y = 0;

	if (a->type == JSON_NUMBER && b->type == JSON_NUMBER) {
		(void)json_double(a, &x);
		(void)json_double(b, &y);
		return (x > y) - (x < y);
	}
	if (a->type != b->type)
		return (a->type > b->type) - (a->type < b->type);
	return strcmp(a->str ? a->str : "", b->str ? b->str : "");
}

/* The k-th smallest display name among variation v's, and its value. */
static const struct json *
kth_sorted(const struct sweep *s, size_t v, size_t k, const char **name)
{
	const struct json *best = NULL, *vals = s->p->vars[v].values;
	const char *prev = NULL;

	for (size_t i = 0; i <= k; i++) {
		best = NULL;
		for (const struct json *m = vals->child; m; m = m->next) {
			const char *n = sweep_name_of(s, m->key);

			if (prev && strcmp(n, prev) <= 0)
				continue;
			if (!best || strcmp(n, *name) < 0) {
				best = m;
				*name = n;
			}
		}
		if (!best)
			return NULL;
		prev = *name;
	}
	return best;
}

static int
params_before(const struct sweep *s, size_t a, size_t b)
{
	for (size_t k = 0;; k++) {
		const char *na = NULL, *nb = NULL;
		const struct json *x = kth_sorted(s, a, k, &na), *y = kth_sorted(s, b, k, &nb);
		int c;

		if (!x || !y)
			return !x && y;
		if ((c = strcmp(na, nb)))
			return c < 0;
		if ((c = cmp_value(x, y)))
			return c < 0;
	}
}

void
sweep_json(const struct sweep *s, struct buf *out)
{
	unsigned char *on = xcalloc(s->nc + 1, 1);
	struct pvals pv[SWEEPPLAN_MAX_PARAMS];
	size_t np = sweep_params(s, pv, SWEEPPLAN_MAX_PARAMS), bt, bl;
	const char *lat;
	struct jw w;

	sweep_analyze(s, &bt, &bl, &lat, on);
	jw_init(&w, out, 2);
	jw_obj(&w);
	json_head(&w, s);
	json_metadata(&w, s, pv, np);
	jw_key(&w, "per_combination_metrics");
	jw_arr(&w);
	for (size_t i = 0; i < s->nc; i++) {
		jw_obj(&w);
		jw_key(&w, "parameters");
		json_params(&w, s, s->c[i].var);
		jw_key(&w, "metrics");
		jw_obj(&w);
		for (size_t k = 0; k < s->c[i].nm; k++)
			json_metric(&w, &s->c[i].m[k]);
		jw_obj_end(&w);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_key(&w, "best_configurations");
	jw_obj(&w);
	json_best(&w, s, "best_throughput", bt, THROUGHPUT);
	json_best(&w, s, "best_latency_p99", bl, lat);
	jw_obj_end(&w);
	json_pareto(&w, s, on);
	jw_obj_end(&w);
	for (size_t k = 0; k < np; k++)
		free(pv[k].v);
	free(on);
}
