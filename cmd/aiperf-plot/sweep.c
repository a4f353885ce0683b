/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-plot: a sweep's own plots, from sweep_aggregate/: the Pareto frontier and the latency knee. */
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <sys/stat.h>

#include "util.h"

#define MAX_JSON (64u << 20)
#define MAX_CELLS 4096

static const struct json *
load(const char *dir, const char *name, struct json_doc **doc)
{
	char *p = xstrfmt("%s/%s", dir, name), *s, err[128];
	const struct json *v = NULL;
	size_t n;

	*doc = NULL;
	if ((s = util_readfile(p, MAX_JSON, &n))) {
		*doc = json_doc_new();
		if (!(v = json_parse(*doc, s, n, err, sizeof(err))) || v->type != JSON_OBJECT) {
			error("'%s': %s", p, v ? "not a JSON object" : err);
			v = NULL;
		}
	} else if (errno != ENOENT) {
		error("cannot read '%s':", p);
	}
	free(s);
	free(p);
	return v;
}

char *
sweep_dir(const char *path)
{
	static const char *const subs[] = { "sweep_aggregate", "aggregate/sweep_aggregate", NULL };
	struct stat st;

	for (size_t i = 0; subs[i]; i++) {
		char *d = xstrfmt("%s/%s", path, subs[i]);
		char *f = xstrfmt("%s/profile_export_aiperf_sweep.json", d);
		int ok = stat(f, &st) == 0 && S_ISREG(st.st_mode);

		free(f);
		if (ok)
			return d;
		free(d);
	}
	return NULL;
}

/* A cell's metric mean ("request_throughput_avg"), NAN when absent. */
static double
mean_of(const struct json *cell, const char *key)
{
	double v;

	if (json_double(json_get(json_get(json_get(cell, "metrics"), key), "mean"), &v) < 0 ||
	    !isfinite(v))
		return NAN;
	return v;
}

/* "concurrency=8 isl=512": the cell's parameters, into b. */
static void
label(const struct json *params, char *b, size_t n)
{
	size_t off = 0;

	b[0] = '\0';
	for (const struct json *c = params ? params->child : NULL; c && off < n; c = c->next) {
		char v[64];
		size_t vl = c->type == JSON_STRING || c->type == JSON_NUMBER ? c->len : 0;

		snprintf(v, sizeof(v), "%.*s", (int)(vl < 63 ? vl : 63), vl ? c->str : "");
		for (char *q = v; *q; q++)
			if (*q == '"' || *q == '\n')
				*q = '_';
		off += (size_t)snprintf(b + off, n - off, "%s%.*s=%s", off ? " " : "",
					(int)(c->keylen < 60 ? c->keylen : 60), c->key, v);
	}
}

static int
same_params(const struct json *a, const struct json *b)
{
	struct buf x = BUF_INIT(BUF_NOMAX), y = BUF_INIT(BUF_NOMAX);
	struct jw w;
	int eq;

	jw_init(&w, &x, 0);
	jw_value(&w, a);
	jw_init(&w, &y, 0);
	jw_value(&w, b);
	eq = x.len == y.len && !memcmp(x.s, y.s, x.len);
	buf_release(&x);
	buf_release(&y);
	return eq;
}

/* Listed in pareto_optimal, or (no list) beaten by no cell on both axes. */
static int
optimal(const struct json *root, const struct json *cell, const double *x, const double *y,
	size_t n, size_t i)
{
	const struct json *po = json_get(root, "pareto_optimal");

	if (po && po->type == JSON_ARRAY) {
		for (const struct json *c = po->child; c; c = c->next)
			if (same_params(c, json_get(cell, "parameters")))
				return 1;
		return 0;
	}
	for (size_t j = 0; j < n; j++)
		if (j != i && x[j] >= x[i] && y[j] <= y[i] && (x[j] > x[i] || y[j] < y[i]))
			return 0;
	return 1;
}

struct cells {
	const struct json *v[MAX_CELLS];
	double x[MAX_CELLS], y[MAX_CELLS];
	size_t n;
};

static void
by_x(struct cells *c)
{
	for (size_t i = 1; i < c->n; i++)
		for (size_t j = i; j > 0 && c->x[j] < c->x[j - 1]; j--) {
			const struct json *t = c->v[j];
			double tx = c->x[j], ty = c->y[j];

			c->v[j] = c->v[j - 1], c->x[j] = c->x[j - 1], c->y[j] = c->y[j - 1];
			c->v[j - 1] = t, c->x[j - 1] = tx, c->y[j - 1] = ty;
		}
}

static void
collect(const struct json *root, struct cells *c, const char *xk, const char *yk,
	const char *param)
{
	const struct json *pcm = json_get(root, "per_combination_metrics");

	c->n = 0;
	for (const struct json *e = pcm && pcm->type == JSON_ARRAY ? pcm->child : NULL;
	     e && c->n < MAX_CELLS; e = e->next) {
		double x = param ? NAN : mean_of(e, xk), y = mean_of(e, yk);

		if (param)
			json_double(json_get(json_get(e, "parameters"), param), &x);
		if (isnan(x) || isnan(y) || !isfinite(x))
			continue;
		c->v[c->n] = e;
		c->x[c->n] = x;
		c->y[c->n++] = y;
	}
	by_x(c);
}

static void
pareto(struct figs *out, const struct json *root)
{
	static struct cells c;
	const char *lat = "time_to_first_token_p99";
	char lb[256];
	struct fig *f;

	collect(root, &c, "request_throughput_avg", lat, NULL);
	if (!c.n) {
		lat = "request_latency_p99";
		collect(root, &c, "request_throughput_avg", lat, NULL);
	}
	f = fig_new(out, "sweep_pareto", "Sweep: request throughput vs latency (Pareto frontier)",
		    "request throughput avg (requests/sec)",
		    lat[0] == 't' ? "time to first token p99 (ms)" : "request latency p99 (ms)",
		    "x: request_throughput_avg mean, y: p99 latency mean, label: parameters");
	fig_series(f, "sweep points", "1:2", STYLE_POINTS, 0);
	fig_series(f, NULL, "1:2:3", STYLE_LABELS, 0);
	for (size_t i = 0; i < c.n; i++) {
		label(json_get(c.v[i], "parameters"), lb, sizeof(lb));
		fig_row(f, "%.17g %.17g \"%s\"", c.x[i], c.y[i], lb);
	}
	fig_end_block(f);
	fig_series(f, "Pareto frontier", "1:2", STYLE_LINESPOINTS, 0);
	f->blocks[f->nblocks - 1].color = "#d62728";
	for (size_t i = 0; i < c.n; i++)
		if (optimal(root, c.v[i], c.x, c.y, c.n, i))
			fig_row(f, "%.17g %.17g", c.x[i], c.y[i]);
	fig_end_block(f);
	fig_drop_empty(out, c.n);
}

/* degradation_knee.json's knee (knee_concurrency, knee_p99), when found. */
static int
knee_point(const struct json *k, double *x, double *y)
{
	return k && json_double(json_get(k, "knee_concurrency"), x) == 0 &&
	       json_double(json_get(k, "knee_p99"), y) == 0;
}

static void
knee(struct figs *out, const struct json *root, const struct json *kn)
{
	static struct cells c;
	struct fig *f;
	double kx, ky, base, thr;

	collect(root, &c, NULL, "request_latency_p99", "concurrency");
	f = fig_new(out, "sweep_knee", "Sweep: p99 request latency vs concurrency",
		    "concurrency", "request latency p99 (ms)",
		    "x: concurrency, y: request_latency_p99 mean");
	fig_series(f, "p99 request latency", "1:2", STYLE_LINESPOINTS, 0);
	for (size_t i = 0; i < c.n; i++)
		fig_row(f, "%.17g %.17g", c.x[i], c.y[i]);
	fig_end_block(f);
	if (c.n && kn && json_double(json_get(kn, "baseline_p99"), &base) == 0 &&
	    json_double(json_get(kn, "threshold_pct"), &thr) == 0) {
		fig_series(f, "degradation threshold", "1:2", STYLE_LINES, 0);
		f->blocks[f->nblocks - 1].color = "#7f7f7f";
		fig_row(f, "%.17g %.17g", c.x[0], base * (1 + thr));
		fig_row(f, "%.17g %.17g", c.x[c.n - 1], base * (1 + thr));
		fig_end_block(f);
	}
	if (c.n && knee_point(kn, &kx, &ky)) {
		fig_series(f, "knee", "1:2", STYLE_POINTS, 0);
		f->blocks[f->nblocks - 1].color = "#d62728";
		fig_series(f, NULL, "1:2:3", STYLE_LABELS, 0);
		fig_row(f, "%.17g %.17g \"knee: concurrency %g\"", kx, ky, kx);
		fig_end_block(f);
	}
	fig_drop_empty(out, c.n);
}

int
figs_sweep(struct figs *out, const char *dir)
{
	struct json_doc *d, *kd;
	const struct json *root = load(dir, "profile_export_aiperf_sweep.json", &d), *kn;

	if (!root) {
		if (d)
			json_doc_free(d);
		return -1;
	}
	kn = load(dir, "degradation_knee.json", &kd);
	pareto(out, root);
	knee(out, root, kn);
	json_doc_free(d);
	if (kd)
		json_doc_free(kd);
	return 0;
}
