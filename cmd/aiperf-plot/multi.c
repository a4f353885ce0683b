/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-plot: multi-run comparisons: runs side by side, Pareto curves, series by group or baseline vs treatment. */
#include "plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define MAX_SERIES 24

/* Baselines grey, treatments NVIDIA green, as the original colours them. */
static const char *const greys[] = { "#7f7f7f", "#a6a6a6", "#595959", "#c7c7c7", "#404040" };
static const char *const greens[] = { "#76b900", "#4a7500", "#9fd53a", "#2e4a00", "#c3e88a" };

/* How the runs split into series, one data block each, in legend order. */
struct series {
	size_t n;
	size_t *of;		/* per run: its series */
	char **title;		/* per series */
	const char **color;	/* per series; NULL: the palette */
	char **label;		/* per run: the text at its point */
};

static const char *
run_label(const struct run *r, char *b, size_t n)
{
	if (r->concurrency >= 0)
		snprintf(b, n, "c=%lld", r->concurrency);
	else
		snprintf(b, n, "%s", r->name);
	return b;
}

/* The run's value in a column of the original's run table, as it is. */
static char *
column_raw(const struct run *r, const struct plotcfg *cfg, const char *col)
{
	const struct json *m;
	const char *g;
	char b[64];
	size_t len;

	if (!col || !strcmp(col, "concurrency"))
		return xstrdup(run_label(r, b, sizeof(b)));
	if (!strcmp(col, "model")) {
		m = json_path(r->agg, "input_config.endpoint.model_names");
		m = m && m->type == JSON_ARRAY ? m->child : NULL;
		return xstrdup(json_str_or(m, r->name));
	}
	if (!strcmp(col, "experiment_group")) {	/* as group_display_names shows it */
		char *id, *t;

		g = cfg_group(cfg, r->name, r->dir, &len);
		id = xstrndup(g, len);
		t = xstrdup(cfg_group_title(cfg, id));
		free(id);
		return t;
	}
	if (!strcmp(col, "experiment_type"))
		return xstrdup(cfg_classify(cfg, r->name, r->dir) == CLASS_BASELINE ? "baseline" :
			       "treatment");
	return xstrdup(r->name);	/* run_name */
}

/* s, a key entry or a point's label, safe in a data row's quoted column:
 * no quote, backslash or control character. */
static char *
tidy(char *s)
{
	for (char *c = s; *c; c++)
		if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '_';
	return s;
}

/* ... safe in the data files. */
static char *
column(const struct run *r, const struct plotcfg *cfg, const char *col)
{
	return tidy(column_raw(r, cfg, col));
}

static void
series_release(struct series *s, size_t nruns)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->title[i]);
	for (i = 0; s->label && i < nruns; i++)
		free(s->label[i]);
	free(s->of);
	free(s->title);
	free(s->color);
	free(s->label);
	memset(s, 0, sizeof(*s));
}

/* Legend order: baselines, treatments, the rest; each by name. */
static int
before(enum cfg_class a, const char *ta, enum cfg_class b, const char *tb)
{
	int ra = a == CLASS_BASELINE ? 0 : a == CLASS_TREATMENT ? 1 : 2;
	int rb = b == CLASS_BASELINE ? 0 : b == CLASS_TREATMENT ? 1 : 2;

	return ra != rb ? ra < rb : strcmp(ta, tb) < 0;
}

/* One series "runs" without a configuration; by experiment group when it
 * classifies runs; else by the preset's groups column (run_name if none). */
static void
series_make(struct series *s, struct run *const *runs, size_t n, const struct plotcfg *cfg,
	    const struct preset *p)
{
	const char *col = cfg && cfg->classify ? "experiment_group" :
			  p ? (p->groups ? p->groups : "run_name") : NULL;
	enum cfg_class *cls = xcalloc(n + 1, sizeof(*cls));
	size_t i, k, j, nb = 0, nt = 0;

	memset(s, 0, sizeof(*s));
	s->of = xcalloc(n + 1, sizeof(*s->of));
	s->title = xcalloc(n + 1, sizeof(*s->title));
	s->color = xcalloc(n + 1, sizeof(*s->color));
	s->label = xcalloc(n + 1, sizeof(*s->label));
	for (i = 0; i < n; i++) {
		char *key = col ? column(runs[i], cfg, col) : xstrdup("runs");
		enum cfg_class c = cfg_classify(cfg, runs[i]->name, runs[i]->dir);

		s->label[i] = column(runs[i], cfg, p ? p->labels : NULL);
		for (k = 0; k < s->n && strcmp(s->title[k], key); k++)
			;
		if (k < s->n) {
			free(key);
			continue;
		}
		for (k = s->n; k > 0 && before(c, key, cls[k - 1], s->title[k - 1]); k--) {
			s->title[k] = s->title[k - 1];	/* insert in legend order */
			cls[k] = cls[k - 1];
		}
		s->title[k] = key;
		cls[k] = c;
		s->n++;
	}
	for (k = 0; k < s->n; k++)
		s->color[k] = cls[k] == CLASS_BASELINE ? greys[nb++ % 5] :
			      cls[k] == CLASS_TREATMENT ? greens[nt++ % 5] : NULL;
	for (i = 0; i < n; i++) {
		char *key = col ? column(runs[i], cfg, col) : xstrdup("runs");

		for (j = 0; j < s->n && strcmp(s->title[j], key); j++)
			;
		s->of[i] = j;
		free(key);
	}
	free(cls);
	if (s->n > MAX_SERIES) {	/* too many to tell apart: one series */
		for (k = 0; k < s->n; k++)
			free(s->title[k]);
		s->n = 1;
		s->title[0] = xstrdup("runs");
		s->color[0] = NULL;
		memset(s->of, 0, n * sizeof(*s->of));
	}
}

static void
series_color(struct fig *f, const char *color)
{
	if (f->nblocks)
		f->blocks[f->nblocks - 1].color = color;
}

/* For each series a data block of its runs' labelled points (x[ord[i]],
 * y[ord[i]]), i < m, drawn in style. Returns the rows written. */
static size_t
points(struct fig *f, const struct series *s, const double *x, const double *y,
       const size_t *ord, size_t m, enum fig_style style)
{
	size_t k, i, rows = 0;

	for (k = 0; k < s->n; k++) {
		fig_series(f, s->title[k], "1:2", style, 0);
		series_color(f, s->color[k]);
		fig_series(f, NULL, "1:2:3", STYLE_LABELS, 0);
		for (i = 0; i < m; i++)
			if (s->of[ord[i]] == k) {
				fig_row(f, "%.17g %.17g \"%s\"", x[ord[i]], y[ord[i]],
					s->label[ord[i]]);
				rows++;
			}
		fig_end_block(f);
	}
	return rows;
}

/* The runs with both values, by x then y, into ord; their count. */
static size_t
sorted(const double *x, const double *y, size_t n, size_t *ord)
{
	size_t i, j, m = 0, t;

	for (i = 0; i < n; i++)
		if (!isnan(x[i]) && !isnan(y[i]))
			ord[m++] = i;
	for (i = 1; i < m; i++)	/* insertion sort by x, then y */
		for (j = i; j > 0 && (x[ord[j]] < x[ord[j - 1]] ||
				      (x[ord[j]] == x[ord[j - 1]] && y[ord[j]] < y[ord[j - 1]])); j--) {
			t = ord[j];
			ord[j] = ord[j - 1];
			ord[j - 1] = t;
		}
	return m;
}

/* A series' Pareto frontier: its runs no run of the series beats on both,
 * a lower x (xlow) or higher x being better, and a lower (ylow) or higher y. */
static void
frontier_block(struct fig *f, const struct series *s, size_t k, const double *x,
	       const double *y, const size_t *ord, size_t m, int xlow, int ylow)
{
	double sx = xlow ? -1 : 1, sy = ylow ? -1 : 1;
	char title[300];
	size_t i, j;

	if (s->n == 1)
		snprintf(title, sizeof(title), "Pareto frontier");
	else
		snprintf(title, sizeof(title), "%s frontier", s->title[k]);
	fig_series(f, title, "1:2", STYLE_LINES, 0);
	series_color(f, s->color[k]);
	for (i = 0; i < m; i++) {
		double xi = sx * x[ord[i]], yi = sy * y[ord[i]];
		int dominated = 0;

		if (s->of[ord[i]] != k)
			continue;
		for (j = 0; j < m && !dominated; j++)
			dominated = s->of[ord[j]] == k && sx * x[ord[j]] >= xi &&
				    sy * y[ord[j]] >= yi &&
				    (sx * x[ord[j]] > xi || sy * y[ord[j]] > yi);
		if (!dominated)
			fig_row(f, "%.17g %.17g \"%s\"", x[ord[i]], y[ord[i]], s->label[ord[i]]);
	}
	fig_end_block(f);
}

/* x[i], y[i] of each run: labelled points (blocks 0..), then each series'
 * Pareto frontier. */
static void
frontier(struct figs *out, const struct series *s, size_t n, const double *x,
	 const double *y, int xlow, int ylow, const char *name, const char *title,
	 const char *xlabel, const char *ylabel, const char *columns)
{
	size_t *ord = xcalloc(n ? n : 1, sizeof(*ord)), m, k;
	struct fig *f;

	m = sorted(x, y, n, ord);
	f = fig_new(out, name, title, xlabel, ylabel, columns);
	points(f, s, x, y, ord, m, STYLE_POINTS);
	for (k = 0; k < s->n; k++)
		frontier_block(f, s, k, x, y, ord, m, xlow, ylow);
	fig_drop_empty(out, m);
	free(ord);
}

/* Points joined in run order (by concurrency), a line a series. */
static void
scatter_line(struct figs *out, const struct series *s, size_t n, const double *x,
	     const double *y, enum fig_style style, const char *name, const char *title,
	     const char *xlabel, const char *ylabel, const char *columns)
{
	size_t *ord = xcalloc(n ? n : 1, sizeof(*ord)), i, m = 0;
	struct fig *f;

	for (i = 0; i < n; i++)
		if (!isnan(x[i]) && !isnan(y[i]))
			ord[m++] = i;
	f = fig_new(out, name, title, xlabel, ylabel, columns);
	fig_drop_empty(out, points(f, s, x, y, ord, m, style));
	free(ord);
}

/* The run's GPU count: the GPUs in its summary's telemetry_data, else
 * those in its gpu_telemetry_export.jsonl; 0 without telemetry. */
static size_t
gpu_count(const struct run *r)
{
	const struct json *e, *g;
	size_t n = 0;

	e = json_path(r->agg, "telemetry_data.endpoints");
	for (e = e && e->type == JSON_OBJECT ? e->child : NULL; e; e = e->next)
		for (g = json_get(e, "gpus"), g = g && g->type == JSON_OBJECT ? g->child : NULL; g;
		     g = g->next)
			n++;
	return n ? n : r->ngpus;
}

static int
is_stat(const char *s)
{
	static const char *const stats[] = { "avg", "min", "max", "std", "sum", NULL };
	long long p;
	const char *why;
	int i;

	for (i = 0; stats[i]; i++)
		if (!strcmp(s, stats[i]))
			return 1;
	return s[0] == 'p' && util_strtonum(s + 1, 1, 99, &p, &why) == 0;
}

/* A run's value of "METRIC_STAT" (request_latency_avg), "concurrency",
 * or the derived output_token_throughput_per_gpu_STAT; NaN if absent. */
static double
value(const struct run *r, const char *spec)
{
	const char *u = strrchr(spec, '_');
	char base[256];
	double v;
	size_t g;

	if (!strcmp(spec, "concurrency"))
		return r->concurrency >= 0 ? (double)r->concurrency : NAN;
	if (!u || !is_stat(u + 1) || (size_t)(u - spec) >= sizeof(base))
		return NAN;
	snprintf(base, sizeof(base), "%.*s", (int)(u - spec), spec);
	if (strcmp(base, "output_token_throughput_per_gpu"))
		return run_stat(r, base, u + 1);
	v = run_stat(r, "output_token_throughput", u + 1);
	return (g = gpu_count(r)) ? v / (double)g : NAN;
}

/* Lower is better for latencies and times. */
static int
lower_better(const char *spec)
{
	return strstr(spec, "latency") || strstr(spec, "time_to_") || !strncmp(spec, "ttf", 3);
}

/* A built-in comparison: the metrics on its axes and its texts. */
struct builtin {
	const char *name, *x, *y;
	enum fig_style style;	/* STYLE_POINTS: a Pareto frontier too */
	int gpus;		/* only when every run has GPU telemetry */
	const char *title, *xlabel, *ylabel, *columns;
};

static const struct builtin builtins[] = {
	{ "pareto", "output_token_throughput_avg", "output_token_throughput_per_user_avg",
	  STYLE_POINTS, 0, "Pareto: throughput per user vs total throughput",
	  "output token throughput (tokens/s)", "output token throughput per user (tokens/s/user)",
	  "total_output_tokens_per_s tokens_per_s_per_user label" },
	{ "ttft_vs_throughput", "time_to_first_token_avg", "request_throughput_avg",
	  STYLE_LINESPOINTS, 0, "TTFT vs throughput", "time to first token avg (ms)",
	  "request throughput avg (requests/s)", "ttft_avg_ms requests_per_s label" },
	{ "pareto_curve_throughput_per_gpu_vs_latency", "request_latency_avg",
	  "output_token_throughput_per_gpu_avg", STYLE_POINTS, 1,
	  "Pareto curve: token throughput per GPU vs latency", "request latency avg (ms)",
	  "output token throughput per GPU (tokens/s/GPU)",
	  "request_latency_avg_ms tokens_per_s_per_gpu label" },
	{ "pareto_curve_throughput_per_gpu_vs_interactivity",
	  "output_token_throughput_per_gpu_avg", "output_token_throughput_per_user_avg",
	  STYLE_POINTS, 1, "Pareto curve: token throughput per GPU vs interactivity",
	  "output token throughput per GPU (tokens/s/GPU)",
	  "output token throughput per user (tokens/s/user)",
	  "tokens_per_s_per_gpu tokens_per_s_per_user label" },
	{ NULL, NULL, NULL, STYLE_POINTS, 0, NULL, NULL, NULL, NULL },
};

/* A figure of x against y, a value per run: a built-in (b) or a preset. */
static void
xy_fig(struct figs *out, struct run *const *runs, size_t n, const struct plotcfg *cfg,
       const struct preset *p, const struct builtin *b)
{
	const char *xs = b ? b->x : p->x, *ys = b ? b->y : p->y;
	double *x = xcalloc(n + 1, sizeof(*x)), *y = xcalloc(n + 1, sizeof(*y));
	const char *title = p && p->title ? p->title : b ? b->title : p->name;
	enum fig_style style = b ? b->style : !strcmp(p->type, "pareto") ? STYLE_POINTS :
			       !strcmp(p->type, "scatter") ? STYLE_POINTS : STYLE_LINESPOINTS;
	struct series s;
	size_t i;

	for (i = 0; i < n; i++) {
		x[i] = value(runs[i], xs);
		y[i] = value(runs[i], ys);
		if (b && b->gpus && !gpu_count(runs[i]))
			goto out;
	}
	series_make(&s, runs, n, cfg, p);
	if (b ? b->style == STYLE_POINTS : !strcmp(p->type, "pareto"))
		frontier(out, &s, n, x, y, lower_better(xs), b ? 0 : lower_better(ys),
			 b ? b->name : p->name, title, b ? b->xlabel : xs, b ? b->ylabel : ys,
			 b ? b->columns : "x y label");
	else
		scatter_line(out, &s, n, x, y, style, b ? b->name : p->name, title,
			     b ? b->xlabel : xs, b ? b->ylabel : ys, b ? b->columns : "x y label");
	series_release(&s, n);
out:
	free(x);
	free(y);
}

static void
compare(struct figs *out, struct run *const *runs, size_t n, const char *metric,
	const char *title, const char *ylabel)
{
	static const char *const stats[] = { "avg", "p50", "p90", "p99" };
	struct fig *f;
	char name[128];
	size_t i, s, rows = 0;

	snprintf(name, sizeof(name), "compare_%s", metric);
	f = fig_new(out, name, title, "run", ylabel, "run_index value run_name");
	f->xtics = 1;
	for (s = 0; s < sizeof(stats) / sizeof(*stats); s++) {
		fig_series(f, stats[s], "1:2:xtic(3)", STYLE_LINESPOINTS, 0);
		for (i = 0; i < n; i++) {
			double y = run_stat(runs[i], metric, stats[s]);

			if (!isnan(y)) {
				fig_row(f, "%zu %.17g \"%s\"", i, y, runs[i]->name);
				rows++;
			}
		}
		fig_end_block(f);
	}
	fig_drop_empty(out, rows);
}

static void
compare_throughput(struct figs *out, struct run *const *runs, size_t n)
{
	struct fig *f;
	size_t i, rows = 0;

	f = fig_new(out, "compare_throughput", "Throughput by run", "run", "output tokens/s",
		    "run_index value run_name");
	f->xtics = 1;
	f->y2label = xstrdup("requests/s");
	fig_series(f, "output token throughput", "1:2:xtic(3)", STYLE_LINESPOINTS, 0);
	for (i = 0; i < n; i++)
		if (!isnan(run_stat(runs[i], "output_token_throughput", "avg")) && ++rows)
			fig_row(f, "%zu %.17g \"%s\"", i,
				run_stat(runs[i], "output_token_throughput", "avg"), runs[i]->name);
	fig_end_block(f);
	fig_series(f, "request throughput", "1:2:xtic(3)", STYLE_LINESPOINTS, 1);
	for (i = 0; i < n; i++)
		if (!isnan(run_stat(runs[i], "request_throughput", "avg")) && ++rows)
			fig_row(f, "%zu %.17g \"%s\"", i,
				run_stat(runs[i], "request_throughput", "avg"), runs[i]->name);
	fig_end_block(f);
	fig_drop_empty(out, rows);
}

static void
figs_compare(struct figs *out, struct run *const *runs, size_t n)
{
	compare(out, runs, n, "time_to_first_token", "Time to first token by run", "ms");
	compare(out, runs, n, "inter_token_latency", "Inter-token latency by run", "ms");
	compare(out, runs, n, "request_latency", "Request latency by run", "ms");
	compare(out, runs, n, "output_token_throughput_per_user",
		"Output token throughput per user by run", "tokens/s/user");
	compare_throughput(out, runs, n);
}

static const struct builtin *
builtin(const struct preset *p)
{
	const struct builtin *b;

	for (b = builtins; b->name; b++)
		if (!strcmp(b->name, p->name) && (!p->x || !strcmp(p->x, b->x)) &&
		    (!p->y || !strcmp(p->y, b->y)))
			return b;
	return NULL;
}

/* A configured comparison: a built-in one by its name, else x against y. */
static void
preset_multi(struct figs *out, struct figs *all, struct run *const *runs, size_t n,
	     const struct plotcfg *cfg, const struct preset *p)
{
	const struct builtin *b = builtin(p);

	if (b || (p->x && p->y && strcmp(p->type, "histogram") && strcmp(p->type, "area")))
		xy_fig(out, runs, n, cfg, p, b);
	else if (!figs_pick(out, all, p->name, p->title) && strncmp(p->name, "compare_", 8))
		warn("plot '%s' (line %d): not a plot of this build and no x and y to draw: "
		     "skipped", p->name, p->line);
}

void
figs_multi(struct figs *out, struct run *const *runs, size_t n, const struct plotcfg *cfg)
{
	const struct builtin *b;
	struct figs all = { 0 };
	size_t i;

	if (!cfg) {
		for (b = builtins; b->name; b++)
			xy_fig(out, runs, n, NULL, NULL, b);
		figs_compare(out, runs, n);
		return;
	}
	figs_compare(&all, runs, n);
	for (i = 0; i < cfg->nmulti; i++)
		preset_multi(out, &all, runs, n, cfg, &cfg->multi[i]);
	figs_drop_rest(&all);
}
