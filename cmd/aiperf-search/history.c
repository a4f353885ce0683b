/* SPDX-License-Identifier: Apache-2.0 */
/* search_history.json in the original's shape (exporters/search_history.py), rewritten after every call. */
#include "search.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "outfile.h"
#include "util.h"

#define PATH "phases.profiling.concurrency"

static void
num_or_null(struct jw *w, int has, double v)
{
	if (has)
		jw_double(w, v);
	else
		jw_null(w);
}

static void
filter_obj(struct jw *w, const struct sla_filter *f)
{
	jw_key(w, "metric_tag");
	jw_str(w, f->metric);
	jw_key(w, "stat");
	jw_str(w, f->stat);
	jw_key(w, "op");
	jw_str(w, sla_op_name(f->op));
	jw_key(w, "threshold");
	jw_double(w, f->threshold);
}

static void
kv_int(struct jw *w, const char *k, long long v)
{
	jw_key(w, k);
	jw_int(w, v);
}

static void
config(struct jw *w, const struct planner *p)
{
	const struct cfg *c = p->cfg;

	jw_key(w, "config");
	jw_obj(w);
	jw_key(w, "planner");
	jw_str(w, p->smooth ? "smooth_isotonic" : "monotonic_sla");
	jw_key(w, "objectives");
	jw_arr(w);
	jw_obj(w);
	jw_key(w, "metric");
	jw_str(w, "output_token_throughput");
	jw_key(w, "stat");
	jw_str(w, "avg");
	jw_key(w, "direction");
	jw_str(w, "MAXIMIZE");
	jw_key(w, "threshold");
	jw_null(w);
	jw_obj_end(w);
	jw_arr_end(w);
	jw_key(w, "outcome_constraints");
	jw_arr(w);
	jw_arr_end(w);
	kv_int(w, "max_iterations", c->max_iterations);
	kv_int(w, "n_initial_points", 1);
	jw_key(w, "random_seed");
	jw_null(w);
	kv_int(w, "improvement_patience", 10);
	kv_int(w, "plateau_window", 8);
	jw_key(w, "plateau_threshold");
	jw_double(w, 0.01);
	jw_key(w, "search_space");
	jw_arr(w);
	jw_obj(w);
	jw_key(w, "path");
	jw_str(w, PATH);
	kv_int(w, "lo", c->lo);
	kv_int(w, "hi", c->hi);
	jw_key(w, "kind");
	jw_str(w, "int");
	jw_obj_end(w);
	jw_arr_end(w);
	jw_key(w, "sla_filters");
	jw_arr(w);
	for (size_t i = 0; i < c->nfilters; i++) {
		jw_obj(w);
		filter_obj(w, &c->filters[i]);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_obj_end(w);
}

static void
values(struct jw *w, long long v)
{
	jw_key(w, "variation_values");
	jw_obj(w);
	kv_int(w, PATH, v);
	jw_obj_end(w);
}

static void
objective_values(struct jw *w, const struct iter *it)
{
	jw_key(w, "objective_values");
	if (!it->has_objective) {
		jw_null(w);
		return;
	}
	jw_arr(w);
	jw_double(w, it->objective);
	jw_arr_end(w);
}

static void
iterations(struct jw *w, const struct iter *its, size_t n)
{
	jw_key(w, "iterations");
	jw_arr(w);
	for (size_t i = 0; i < n; i++) {
		jw_obj(w);
		kv_int(w, "iteration_idx", its[i].idx);
		values(w, its[i].value);
		objective_values(w, &its[i]);
		jw_key(w, "feasible");
		jw_bool(w, its[i].feasible);
		jw_key(w, "non_monotonic_warning");
		jw_bool(w, its[i].non_monotonic);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

/* The best objective, feasible iterations first (Python's max: the first of equals). */
static void
best_trials(struct jw *w, const struct iter *its, size_t n)
{
	const struct iter *best = NULL;
	size_t nfeas = 0;

	for (size_t i = 0; i < n; i++)
		nfeas += its[i].has_objective && its[i].feasible;
	for (size_t i = 0; i < n; i++) {
		if (!its[i].has_objective || (nfeas && !its[i].feasible))
			continue;
		if (!best || its[i].objective > best->objective)
			best = &its[i];
	}
	jw_key(w, "best_trials");
	if (!best) {
		jw_null(w);
		return;
	}
	jw_arr(w);
	jw_obj(w);
	kv_int(w, "iteration_idx", best->idx);
	objective_values(w, best);
	values(w, best->value);
	jw_key(w, "feasible");
	jw_bool(w, best->feasible);
	kv_int(w, "feasible_count", (long long)nfeas);
	kv_int(w, "pareto_rank", 0);
	jw_obj_end(w);
	jw_arr_end(w);
}

static const struct iter *
latest_at(const struct iter *its, size_t n, long long v, int feasible)
{
	for (size_t i = n; i-- > 0;)
		if (its[i].value == v && its[i].feasible == feasible)
			return &its[i];
	return NULL;
}

static void
first_breach(struct jw *w, const struct planner *p, const struct iter *it)
{
	int k = sla_first_breach(it, p->cfg->filters, p->cfg->nfilters);
	const struct sla_filter *f;
	double obs;
	int has;

	jw_key(w, "first_breach");
	if (k < 0) {
		jw_null(w);
		return;
	}
	f = &p->cfg->filters[k];
	has = sla_mean(it, f->metric, f->stat, &obs) == 0;
	if (!has)
		warn("SLA filter %s.%s %s: unmeasurable at concurrency %lld "
		     "(no successful trial has the stat)", f->metric, f->stat,
		     sla_op_name(f->op), it->value);
	jw_obj(w);
	filter_obj(w, f);
	jw_key(w, "observed");
	num_or_null(w, has, obs);
	jw_obj_end(w);
}

static void
bound(struct jw *w, const struct planner *p, const char *name, const struct iter *it, int feas)
{
	jw_key(w, name);
	if (!it) {
		jw_null(w);
		return;
	}
	jw_obj(w);
	kv_int(w, "value", it->value);
	kv_int(w, "iteration_idx", it->idx);
	if (feas) {
		jw_key(w, "objective_value");
		num_or_null(w, it->has_objective, it->objective);
	} else {
		first_breach(w, p, it);
	}
	jw_obj_end(w);
}

/* History-derived bounds, when no verdict latched (the original's fallback). */
static void
derived(const struct iter *its, size_t n, const struct iter **fm, const struct iter **im)
{
	*fm = *im = NULL;
	for (size_t i = 0; i < n; i++) {
		if (its[i].feasible && (!*fm || its[i].value > (*fm)->value))
			*fm = &its[i];
		if (!its[i].feasible && (!*im || its[i].value < (*im)->value))
			*im = &its[i];
	}
}

static void
extras(struct jw *w, const struct planner *p)
{
	if (p->boundary_type) {
		jw_key(w, "boundary_type");
		jw_str(w, p->boundary_type);
	}
	if (p->smooth && p->binding >= 0) {
		jw_key(w, "binding_constraint");
		jw_str(w, p->cfg->filters[p->binding].key);
	}
	if (p->has_ci) {
		jw_key(w, "boundary_ci");
		jw_obj(w);
		jw_key(w, "lo");
		jw_double(w, p->ci_lo);
		jw_key(w, "hi");
		jw_double(w, p->ci_hi);
		jw_obj_end(w);
	}
}

static void
boundary(struct jw *w, const struct planner *p, const struct iter *its, size_t n)
{
	const struct iter *fm = NULL, *im = NULL;
	int latched = p->feasible_max >= 0 || p->infeasible_min >= 0;

	jw_key(w, "boundary_summary");
	if (!n) {
		jw_null(w);
		return;
	}
	if (latched) {
		if (p->feasible_max >= 0)
			fm = latest_at(its, n, p->feasible_max, 1);
		if (p->infeasible_min >= 0)
			im = latest_at(its, n, p->infeasible_min, 0);
	} else {
		derived(its, n, &fm, &im);
	}
	if (!latched && !fm && !im) {
		jw_null(w);
		return;
	}
	jw_obj(w);
	jw_key(w, "swept_dim_path");
	jw_str(w, PATH);
	bound(w, p, "feasible_max", fm, 1);
	bound(w, p, "infeasible_min", im, 0);
	if (latched)
		extras(w, p);
	jw_obj_end(w);
}

/* Written whole beside its name, then renamed over it (lib/outfile): a
 * reader sees the old history or the new; a device named (/dev/null) is
 * written where it is, never replaced. */
static int
write_all(const char *path, const struct buf *b)
{
	if (outfile_write(AT_FDCWD, path, b->s, b->len) < 0)
		return error("cannot write '%s':", path);
	return 0;
}

int
history_write(const char *path, const struct planner *p, const struct iter *its, size_t n,
	      const char *recipe)
{
	struct buf b;
	struct jw w;
	int rc;

	buf_init(&b, BUF_NOMAX);
	jw_init(&w, &b, 2);
	jw_obj(&w);
	config(&w, p);
	iterations(&w, its, n);
	best_trials(&w, its, n);
	boundary(&w, p, its, n);
	jw_key(&w, "recipe");
	jw_str(&w, recipe);
	jw_key(&w, "convergence_reason");
	if (p->reason)
		jw_str(&w, p->reason);
	else
		jw_null(&w);
	jw_obj_end(&w);
	rc = write_all(path, &b);
	buf_release(&b);
	return rc;
}
