/* SPDX-License-Identifier: Apache-2.0 */
/* A sweep's runs: the variations, their order, folders and seeds; sweep_plan.json. */
#include "sweepplan.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json/json.h"
#include "json/jw.h"
#include "outfile.h"
#include "sweep.h"

struct layout {
	struct sweep_cell *v;
	size_t nv;
	long trials;
	int independent;
	long seed;		/* the base seed */
	int same_seed;
};

/* The cells (lib/sweep); a named cell (pareto-sweep's) keeps its label,
 * its folder the values' name. */
static void
expand(const struct sweepreq *r, struct layout *l)
{
	struct sweep_dim d[SWEEP_MAX_PARAMS];
	char err[256];

	if (r->cfg) {
		l->nv = r->cfg->n;
		l->v = xcalloc(l->nv, sizeof(*l->v));
		for (size_t k = 0; k < l->nv; k++) {
			l->v[k].label = xstrdup(r->cfg->label[k]);
			l->v[k].dir = xstrdup(r->cfg->dir[k]);
		}
		return;
	}
	for (size_t i = 0; i < r->n; i++) {
		if (r->zip && r->p[i].vals.n != r->p[0].vals.n)
			usage_error("--sweep-type zip needs lists of one length: %s has %zu values, %s has %zu",
				    r->p[0].o->name, r->p[0].vals.n, r->p[i].o->name, r->p[i].vals.n);
		d[i] = (struct sweep_dim){ r->p[i].path, r->p[i].vals.v, r->p[i].vals.n };
	}
	l->nv = sweep_cells(d, r->n, r->zip ? SWEEP_ZIP : SWEEP_GRID, 100000, &l->v, err, sizeof(err));
	if (!l->nv)
		usage_error("profile: %s", err);
	for (size_t k = 0; r->scenarios && k < l->nv; k++) {
		free(l->v[k].label);
		l->v[k].label = xstrdup(r->labels.v[k]);
	}
}

/* Run j of the sweep: its variation and trial, in the iteration order. */
static void
run_at(const struct layout *l, size_t j, size_t *var, long *trial)
{
	*var = l->independent ? j / (size_t)l->trials : j % l->nv;
	*trial = l->independent ? (long)(j % (size_t)l->trials) : (long)(j / l->nv);
}

/* The run's folder below the artifact directory (the original's layout). */
static char *
run_dir(const struct layout *l, size_t var, long trial)
{
	if (l->trials == 1)
		return xstrdup(l->v[var].dir);
	if (l->independent)
		return xstrfmt("%s/profile_runs/trial_%04ld", l->v[var].dir, trial + 1);
	return xstrfmt("profile_runs/trial_%04ld/%s", trial + 1, l->v[var].dir);
}

static long
run_seed(const struct layout *l, size_t var)
{
	return l->same_seed ? l->seed : l->seed + (long)var;
}

static void
value(struct jw *w, const char *v)
{
	jw_raw(w, v, strlen(v));
}

/* A config file's parameters: each path, its display name, the values its variations give it. */
static void
cfg_params(struct jw *w, const struct swcfg *c)
{
	struct sweep_dim d[SWEEP_MAX_PARAMS];
	size_t n = c->nparams < SWEEP_MAX_PARAMS ? c->nparams : SWEEP_MAX_PARAMS;
	struct json_doc *doc = json_doc_new();
	struct json **vals = xcalloc(c->n ? c->n : 1, sizeof(*vals));
	char err[64];

	for (size_t k = 0; k < c->n; k++)
		vals[k] = json_parse(doc, c->values[k], strlen(c->values[k]), err, sizeof(err));
	for (size_t i = 0; i < n; i++)
		d[i] = (struct sweep_dim){ c->params[i], NULL, 0 };
	jw_key(w, "parameters");
	jw_arr(w);
	for (size_t i = 0; i < n; i++) {
		struct plan_argv seen = { 0 };	/* the values' JSON texts so far */

		jw_obj(w);
		jw_key(w, "name");
		jw_str(w, sweep_display_name(d, n, i));
		jw_key(w, "path");
		jw_str(w, c->params[i]);
		jw_key(w, "option");
		jw_str(w, "");
		jw_key(w, "values");
		jw_arr(w);
		for (size_t k = 0; k < c->n; k++) {
			const struct json *v = vals[k] ? json_get(vals[k], c->params[i]) : NULL;
			struct buf t = BUF_INIT(BUF_NOMAX);
			struct jw tw;
			size_t q = 0;

			if (!v)
				continue;
			jw_init(&tw, &t, 0);
			jw_value(&tw, v);
			while (q < seen.n && strcmp(seen.v[q], buf_str(&t)))
				q++;
			if (q == seen.n) {
				jw_value(w, v);
				plan_argv_add(&seen, buf_str(&t));
			}
			buf_release(&t);
		}
		jw_arr_end(w);
		jw_obj_end(w);
		plan_argv_release(&seen);
	}
	jw_arr_end(w);
	free(vals);
	json_doc_free(doc);
}

static void
plan_params(struct jw *w, const struct sweepreq *r)
{
	if (r->cfg) {
		cfg_params(w, r->cfg);
		return;
	}
	jw_key(w, "parameters");
	jw_arr(w);
	for (size_t i = 0; i < r->n; i++) {
		jw_obj(w);
		jw_key(w, "name");
		struct sweep_dim d[SWEEP_MAX_PARAMS];

		for (size_t k = 0; k < r->n; k++)
			d[k] = (struct sweep_dim){ r->p[k].path, r->p[k].vals.v, r->p[k].vals.n };
		jw_str(w, sweep_display_name(d, r->n, i));
		jw_key(w, "path");
		jw_str(w, r->p[i].path);
		jw_key(w, "option");
		jw_str(w, r->p[i].o->name);
		jw_key(w, "values");
		jw_arr(w);
		for (size_t k = 0; k < r->p[i].vals.n; k++) {
			int seen = 0;

			for (size_t q = 0; q < k; q++)
				seen |= !strcmp(r->p[i].vals.v[q], r->p[i].vals.v[k]);
			if (!seen)
				value(w, r->p[i].vals.v[k]);
		}
		jw_arr_end(w);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

static void
plan_variations(struct jw *w, const struct sweepreq *r, const struct layout *l)
{
	jw_key(w, "variations");
	jw_arr(w);
	for (size_t k = 0; k < l->nv; k++) {
		jw_obj(w);
		jw_key(w, "index");
		jw_int(w, (int64_t)k);
		jw_key(w, "label");
		jw_str(w, l->v[k].label);
		jw_key(w, "dir_name");
		jw_str(w, l->v[k].dir);
		jw_key(w, "values");
		if (r->cfg) {
			value(w, r->cfg->values[k]);
		} else {
			jw_obj(w);
			for (size_t i = 0; i < r->n; i++) {
				jw_key(w, r->p[i].path);
				value(w, r->p[i].vals.v[l->v[k].pick[i]]);
			}
			jw_obj_end(w);
		}
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

static void
plan_runs(struct jw *w, const struct layout *l)
{
	jw_key(w, "runs");
	jw_arr(w);
	for (size_t j = 0; j < l->nv * (size_t)l->trials; j++) {
		size_t var;
		long trial;
		char *d;

		run_at(l, j, &var, &trial);
		d = run_dir(l, var, trial);
		jw_obj(w);
		jw_key(w, "variation");
		jw_int(w, (int64_t)var);
		jw_key(w, "trial");
		jw_int(w, trial);
		jw_key(w, "dir");
		jw_str(w, d);
		jw_key(w, "random_seed");
		jw_int(w, run_seed(l, var));
		jw_obj_end(w);
		free(d);
	}
	jw_arr_end(w);
}

/* sweep_plan.json's text. */
static void
plan_json(struct buf *b, const struct sweepreq *r, const struct layout *l, const char *id,
	  double level)
{
	struct jw w;

	jw_init(&w, b, 2);
	jw_obj(&w);
	jw_key(&w, "sweep_id");
	jw_str(&w, id);
	jw_key(&w, "type");
	jw_str(&w, r->cfg ? r->cfg->type : r->scenarios ? "scenarios" : r->zip ? "zip" : "grid");
	jw_key(&w, "iteration_order");
	jw_str(&w, l->independent ? "independent" : "repeated");
	jw_key(&w, "trials");
	jw_int(&w, l->trials);
	jw_key(&w, "confidence_level");
	jw_double(&w, level);
	plan_params(&w, r);
	plan_variations(&w, r, l);
	plan_runs(&w, l);
	jw_key(&w, "recipe");
	if (r->recipe.len)
		jw_raw(&w, r->recipe.s, r->recipe.len);
	else
		jw_null(&w);
	jw_obj_end(&w);
	buf_addch(b, '\n');
}

/* <base>/sweep_plan.json, written whole (never through a link). */
static void
sweep_plan_file(const char *base, const struct buf *b)
{
	char *path = xstrfmt("%s/sweep_plan.json", base);
	int fd;

	/* mkdir(1) itself, for its message */
	if (run_tool((char *[]){ (char *)"mkdir", (char *)"-p", (char *)base, NULL }, "/dev/null",
		     NULL, NULL))
		die("cannot create '%s'", base);
	if (outfile_write(AT_FDCWD, path, b->s, b->len) < 0)
		die("cannot write '%s':", path);
	free(path);
	/* the sweep's own log, anew (a line a cell as it ends: the wrapper's) */
	path = xstrfmt("%s/logs", base);
	if (mkdir(path, 0777) < 0 && errno != EEXIST)
		die("cannot create '%s':", path);
	free(path);
	path = xstrfmt("%s/logs/aiperf.log", base);
	if ((fd = outfile_fresh(AT_FDCWD, path)) < 0)
		die("cannot create '%s':", path);
	close(fd);
	free(path);
}

/* The cell's own options: each swept option with its value, the seed. */
static void
cell_args(const struct sweepreq *r, const struct layout *l, size_t var, struct plan_argv *a)
{
	char seed[32];

	for (size_t i = 0; r->cfg && i < r->cfg->args[var].n; i++)
		plan_argv_add(a, r->cfg->args[var].v[i]);
	for (size_t i = 0; !r->cfg && i < r->n; i++) {
		plan_argv_add(a, r->p[i].o->name);
		plan_argv_add(a, r->p[i].vals.v[l->v[var].pick[i]]);
	}
	snprintf(seed, sizeof(seed), "%ld", run_seed(l, var));
	plan_argv_add(a, "--random-seed");
	plan_argv_add(a, seed);
}

/* Seconds to wait before run j: the sweep's cooldown between variations,
 * the multi-run's between trials (in repeated order, between whole sweeps). */
static const char *
cooldown(const struct layout *l, size_t j, const struct sweepopts *so)
{
	size_t var;
	long trial;

	if (!j)
		return "0";
	run_at(l, j, &var, &trial);
	if (l->independent)
		return trial ? so->trial_cool : so->sweep_cool;
	return var ? so->sweep_cool : so->trial_cool;
}

static void
emit_runs(const struct sweepreq *r, const struct layout *l, const struct sweepopts *so,
	  struct buf *out)
{
	struct plan_argv dirs = { 0 }, cool = { 0 }, trials = { 0 }, names = { 0 };
	size_t n = l->nv * (size_t)l->trials;

	for (size_t j = 0; j < n; j++) {
		struct plan_argv cell = { 0 };
		size_t var;
		long trial;
		char *d, *k = xstrfmt("SW_CELL_%zu", j), t[32];

		run_at(l, j, &var, &trial);
		d = run_dir(l, var, trial);
		plan_argv_add(&dirs, d);
		plan_argv_add(&names, l->v[var].dir);
		plan_argv_add(&cool, cooldown(l, j, so));
		snprintf(t, sizeof(t), "%ld", trial);
		plan_argv_add(&trials, t);
		cell_args(r, l, var, &cell);
		emit_argv(out, k, &cell, 0);
		plan_argv_release(&cell);
		free(d);
		free(k);
	}
	emit_long(out, "SW_N", (long long)n);
	emit_long(out, "SW_VARS", (long long)l->nv);
	emit_argv(out, "SW_DIR", &dirs, 0);
	emit_argv(out, "SW_NAME", &names, 0);
	emit_argv(out, "SW_COOL", &cool, 0);
	emit_argv(out, "SW_TRIAL", &trials, 0);
	plan_argv_release(&dirs);
	plan_argv_release(&cool);
	plan_argv_release(&trials);
	plan_argv_release(&names);
}

void
sweep_emit(const struct sweepreq *r, const struct sweepopts *so, const char *base, struct buf *out)
{
	struct layout l = { .trials = so->trials, .independent = so->independent, .seed = so->seed,
			    .same_seed = so->same_seed };
	struct buf plan = BUF_INIT(BUF_NOMAX);
	char id[37];

	expand(r, &l);
	util_uuid4(id);
	plan_json(&plan, r, &l, id, so->level);
	sweep_plan_file(base, &plan);
	buf_release(&plan);
	emit_runs(r, &l, so, out);
	char *plan_path = xstrfmt("%s/sweep_plan.json", base);

	emit_str(out, "SW_PLAN", plan_path);
	free(plan_path);
	sweep_cells_free(l.v, l.nv);
}
