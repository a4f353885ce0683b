/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-plot: the figures, as gnuplot data blocks computed from runs. */
#include "plot.h"

#include <math.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>

#include "stats/stats.h"
#include "util.h"

#define HIST_BINS 20
#define MAX_SERVER_SERIES 12
#define MAX_DATA ((size_t)1 << 30)

struct fig *
fig_new(struct figs *out, const char *name, const char *title, const char *xlabel,
	const char *ylabel, const char *columns)
{
	struct fig *f = xcalloc(1, sizeof(*f));

	f->name = xstrdup(name);
	f->title = xstrdup(title);
	f->xlabel = xstrdup(xlabel);
	f->ylabel = xstrdup(ylabel);
	f->columns = xstrdup(columns);
	buf_init(&f->data, MAX_DATA);
	buf_addf(&f->data, "# %s: %s\n# columns: %s\n", name, title, columns);
	out->v = xreallocarray(out->v, out->n + 1, sizeof(*out->v));
	out->v[out->n++] = f;
	return f;
}

/* Draw the data block being written (the next one ended) with style. */
void
fig_series(struct fig *f, const char *title, const char *using, enum fig_style style,
	   int y2)
{
	struct block *b;

	if (f->nblocks == FIG_MAXBLOCKS)
		return;
	b = &f->blocks[f->nblocks++];
	*b = (struct block){ title ? xstrdup(title) : NULL, f->ndata, using, style, y2, NULL };
	if (title)
		buf_addf(&f->data, "# block %d: %s\n", f->ndata, title);
}

void
fig_row(struct fig *f, const char *fmt, ...)
{
	va_list ap;
	char line[512];

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	buf_addstr(&f->data, line);
	buf_addch(&f->data, '\n');
}

void
fig_end_block(struct fig *f)
{
	buf_addstr(&f->data, "\n\n");
	f->ndata++;
}

size_t
fig_block_xy(struct fig *f, const char *title, enum fig_style style, int y2,
	     const double *x, const double *y, size_t n)
{
	size_t i, rows = 0;

	fig_series(f, title, "1:2", style, y2);
	for (i = 0; i < n; i++)
		if (!(x && isnan(x[i])) && !isnan(y[i])) {
			fig_row(f, "%.17g %.17g", x ? x[i] : (double)i, y[i]);
			rows++;
		}
	fig_end_block(f);
	return rows;
}

/* Drop a figure that got no rows. */
void
fig_drop_empty(struct figs *out, size_t rows)
{
	struct fig *f;
	int i;

	if (rows)
		return;
	f = out->v[--out->n];
	for (i = 0; i < f->nblocks; i++)
		free(f->blocks[i].title);
	buf_release(&f->data);
	free(f->name);
	free(f->title);
	free(f->xlabel);
	free(f->ylabel);
	free(f->y2label);
	free(f->columns);
	free(f);
}

/* numpy.histogram(x, bins=HIST_BINS): equal bins over [min, max], the last closed. */
static void
histogram(struct figs *out, const struct vec *x, const char *name, const char *title,
	  const char *xlabel)
{
	double lo = INFINITY, hi = -INFINITY, edge[HIST_BINS + 1], norm;
	size_t count[HIST_BINS] = { 0 }, i;
	struct fig *f;
	int k;

	for (i = 0; i < x->n; i++) {
		if (isnan(x->v[i]))
			continue;
		lo = fmin(lo, x->v[i]);
		hi = fmax(hi, x->v[i]);
	}
	if (lo > hi)
		return;
	if (lo == hi) {
		lo -= 0.5;
		hi += 0.5;
	}
	for (k = 0; k <= HIST_BINS; k++)
		edge[k] = k == HIST_BINS ? hi : lo + k * ((hi - lo) / HIST_BINS);
	norm = HIST_BINS / (hi - lo);
	for (i = 0; i < x->n; i++) {
		if (isnan(x->v[i]))
			continue;
		k = (int)((x->v[i] - lo) * norm);
		if (k >= HIST_BINS)
			k = HIST_BINS - 1;
		if (x->v[i] < edge[k])
			k--;
		else if (k != HIST_BINS - 1 && x->v[i] >= edge[k + 1])
			k++;
		count[k]++;
	}
	f = fig_new(out, name, title, xlabel, "requests",
		    "bin_center bin_count bin_lo bin_hi");
	fig_series(f, NULL, "1:2:($4-$3)", STYLE_BOXES, 0);
	for (k = 0; k < HIST_BINS; k++)
		fig_row(f, "%.17g %zu %.17g %.17g", (edge[k] + edge[k + 1]) / 2, count[k],
			edge[k], edge[k + 1]);
	fig_end_block(f);
}

static int cmp_double(const void *a, const void *b);

/* Request order by start time; ties in record order (a stable sort). */
static int
by_start(const void *a, const void *b, const struct run *r)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	if (r->start_s.v[i] != r->start_s.v[j])
		return r->start_s.v[i] < r->start_s.v[j] ? -1 : 1;
	return i < j ? -1 : i > j;
}

/*
 * The original's percentile lines on latency over time: the requests by
 * start time, and at each the p50, p95 and p99 of the request latency of
 * the last ROLL_WINDOW of them (fewer at first), as pandas' rolling
 * quantile (linear) computes them.
 */
#define ROLL_WINDOW 10

static void
rolling(struct fig *f, const struct run *r)
{
	static const double ps[] = { 50, 95, 99 };
	size_t *ord = xcalloc(r->latency.n + 1, sizeof(*ord)), m = 0, i, j, k, t;
	double win[ROLL_WINDOW];
	char title[64];

	for (i = 0; i < r->latency.n; i++)
		if (!isnan(r->latency.v[i]))
			ord[m++] = i;
	for (i = 1; i < m; i++)	/* insertion sort: stable, and m is one run's requests */
		for (j = i; j > 0 && by_start(&ord[j - 1], &ord[j], r) > 0; j--) {
			t = ord[j];
			ord[j] = ord[j - 1];
			ord[j - 1] = t;
		}
	for (k = 0; k < 3 && m; k++) {
		snprintf(title, sizeof(title), "p%g (last %d requests)", ps[k], ROLL_WINDOW);
		fig_series(f, title, "1:2", STYLE_LINES, 0);
		for (i = 0; i < m; i++) {
			size_t lo = i + 1 > ROLL_WINDOW ? i + 1 - ROLL_WINDOW : 0, n = i + 1 - lo;

			for (j = 0; j < n; j++)
				win[j] = r->latency.v[ord[lo + j]];
			qsort(win, n, sizeof(*win), cmp_double);
			fig_row(f, "%.17g %.17g", r->start_s.v[ord[i]], stats_percentile(win, n, ps[k]));
		}
		fig_end_block(f);
	}
	free(ord);
}

static void
over_time(struct figs *out, const struct run *r)
{
	struct fig *f;

	f = fig_new(out, "latency_over_time", "Latency over time", "request start (s)", "ms",
		    "request_start_s value_ms");
	fig_block_xy(f, "request latency", STYLE_POINTS, 0, r->start_s.v, r->latency.v,
		     r->latency.n);
	fig_block_xy(f, "time to first token", STYLE_POINTS, 0, r->ttft_start_s.v, r->ttft.v,
		     r->ttft.n);
	rolling(f, r);
	fig_drop_empty(out, r->latency.n + r->ttft.n);
}

/* Bins of 1 s, or 20 bins when the run is shorter than 20 s, by request end. */
static void
throughput_over_time(struct figs *out, const struct run *r)
{
	double span = 0, w, *tok, *req;
	struct fig *f;
	size_t i;
	int nb, k;

	if (!r->end_s.n)
		return;
	for (i = 0; i < r->end_s.n; i++)
		span = fmax(span, r->end_s.v[i]);
	nb = span < 20 ? HIST_BINS : (int)floor(span) + 1;
	w = span < 20 ? (span > 0 ? span / HIST_BINS : 1) : 1;
	tok = xcalloc((size_t)nb, sizeof(*tok));
	req = xcalloc((size_t)nb, sizeof(*req));
	for (i = 0; i < r->end_s.n; i++) {
		k = (int)floor(r->end_s.v[i] / w);
		k = k < 0 ? 0 : k >= nb ? nb - 1 : k;
		tok[k] += r->osl.v[i];
		req[k] += 1;
	}
	f = fig_new(out, "throughput_over_time", "Throughput over time (by request end)",
		    "time (s)", "output tokens/s",
		    "bin_start_s bin_end_s output_tokens_per_s requests_per_s");
	f->y2label = xstrdup("requests/s");
	fig_series(f, "output tokens/s", "(($1+$2)/2):3", STYLE_LINESPOINTS, 0);
	fig_series(f, "requests/s", "(($1+$2)/2):4", STYLE_LINESPOINTS, 1);
	for (k = 0; k < nb; k++)
		fig_row(f, "%.17g %.17g %.17g %.17g", k * w, (k + 1) * w, tok[k] / w,
			req[k] / w);
	fig_end_block(f);
	free(tok);
	free(req);
}

static void
itl_by_position(struct figs *out, const struct run *r)
{
	struct fig *f;
	size_t i;

	if (!r->icl_sum.n)
		return;
	f = fig_new(out, "itl_by_position", "Inter-token latency by output position",
		    "output token position", "ms", "token_position mean_itl_ms requests");
	fig_series(f, "mean inter-chunk latency", "1:2", STYLE_LINESPOINTS, 0);
	for (i = 0; i < r->icl_sum.n; i++)
		fig_row(f, "%zu %.17g %.17g", i + 2, r->icl_sum.v[i] / r->icl_n.v[i],
			r->icl_n.v[i]);
	fig_end_block(f);
}

static double
num(const struct json *v)
{
	double d;

	return v && json_double(v, &d) == 0 ? d : NAN;
}

static size_t
slice_block(struct fig *f, const struct run *r, const char *metric, const char *title,
	    int y2)
{
	const struct json *s;
	size_t rows = 0;
	double x, y;

	fig_series(f, title, "1:2", STYLE_LINESPOINTS, y2);
	for (s = r->slices->child; s; s = s->next) {
		x = num(json_get(s, "timeslice_index"));
		y = num(json_get(json_get(s, metric), "avg"));
		if (isnan(x) || isnan(y))
			continue;
		fig_row(f, "%.17g %.17g", r->slice_duration > 0 ? x * r->slice_duration : x, y);
		rows++;
	}
	fig_end_block(f);
	return rows;
}

static void
timeslices(struct figs *out, const struct run *r)
{
	const char *x = r->slice_duration > 0 ? "slice start (s)" : "slice";
	struct fig *f;
	size_t rows;

	if (!r->slices || r->slices->type != JSON_ARRAY || !r->slices->child)
		return;
	f = fig_new(out, "timeslices_latency", "Latency by timeslice (avg)", x, "ms",
		    "slice_start avg_ms");
	rows = slice_block(f, r, "time_to_first_token", "time to first token", 0);
	rows += slice_block(f, r, "inter_token_latency", "inter-token latency", 0);
	rows += slice_block(f, r, "request_latency", "request latency", 0);
	fig_drop_empty(out, rows);
	f = fig_new(out, "timeslices_throughput", "Throughput by timeslice", x,
		    "output tokens/s", "slice_start value");
	f->y2label = xstrdup("requests/s");
	rows = slice_block(f, r, "output_token_throughput", "output tokens/s", 0);
	rows += slice_block(f, r, "request_throughput", "requests/s", 1);
	fig_drop_empty(out, rows);
}

static void
gpu_fig(struct figs *out, const struct run *r, const char *name, const char *title,
	const char *ylabel, size_t field)
{
	struct fig *f = fig_new(out, name, title, "time (s)", ylabel, "time_s value");
	size_t g, i, rows = 0;

	for (g = 0; g < r->ngpus; g++) {
		const struct gpu *p = &r->gpus[g];
		const struct vec *v = field == 0 ? &p->util : field == 1 ? &p->power : &p->mem;

		fig_series(f, p->id, "1:2", STYLE_LINESPOINTS, 0);
		for (i = 0; i < v->n; i++)
			if (!isnan(v->v[i])) {
				fig_row(f, "%.17g %.17g", p->t_s.v[i], v->v[i]);
				rows++;
			}
		fig_end_block(f);
	}
	fig_drop_empty(out, rows);
}

static void
series_title(char *t, size_t n, const char *metric, const struct json *labels)
{
	const struct json *l;
	size_t len;

	len = (size_t)snprintf(t, n, "%s", metric);
	for (l = labels ? labels->child : NULL; l && len < n; l = l->next)
		len += (size_t)snprintf(t + len, n - len, "%s%.*s=%s", l == labels->child ? " {" : ",",
					(int)l->keylen, l->key, json_str_or(l, "?"));
	if (labels && labels->child && len < n)
		snprintf(t + len, n - len, "}");
}

/* Counters (rate) or gauges (avg) with timeslices, the first few series. */
static void
server_fig(struct figs *out, const struct run *r, const char *type)
{
	int counter = !strcmp(type, "counter");
	struct fig *f;
	const struct json *m, *s, *sl;
	size_t nseries = 0, rows = 0;
	char title[256];

	f = fig_new(out, counter ? "server_counter_rates" : "server_gauges",
		    counter ? "Server metrics: counter rates by timeslice" :
			      "Server metrics: gauges by timeslice (avg)",
		    "slice start (s)", counter ? "per second" : "value", "slice_start_s value");
	for (m = r->srv->child; m && nseries < MAX_SERVER_SERIES; m = m->next) {
		if (strcmp(json_str_or(json_get(m, "type"), ""), type))
			continue;
		for (s = json_get(m, "series") ? json_get(m, "series")->child : NULL;
		     s && nseries < MAX_SERVER_SERIES; s = s->next) {
			int64_t start;

			sl = json_get(s, "timeslices");
			if (!sl || !sl->child || (counter && !(num(json_path(s, "stats.total")) > 0)))
				continue;
			series_title(title, sizeof(title), m->key, json_get(s, "labels"));
			fig_series(f, title, "1:2", STYLE_LINESPOINTS, 0);
			for (sl = sl->child; sl; sl = sl->next) {
				double y = num(json_get(sl, counter ? "rate" : "avg"));

				if (json_int64(json_get(sl, "start_ns"), &start) < 0 || isnan(y))
					continue;
				fig_row(f, "%.17g %.17g", (double)(start - r->t0_ns) / 1e9, y);
				rows++;
			}
			fig_end_block(f);
			nseries++;
		}
	}
	fig_drop_empty(out, rows);
}

/* A title safe inside a data block's double quotes. */
static void
unquote(char *t)
{
	for (; *t; t++)
		if (*t == '"' || *t == '\\' || (unsigned char)*t < 0x20)
			*t = '\'';
}

/*
 * Counters and gauges without timeslices (no --slice-duration): one bar
 * a series, the counter's rate or the gauge's average over the profiling
 * window, labelled by the series.
 */
static void
server_overall(struct figs *out, const struct run *r, const char *type)
{
	int counter = !strcmp(type, "counter");
	struct fig *f;
	const struct json *m, *s, *sl;
	size_t rows = 0;
	char title[256];

	f = fig_new(out, counter ? "server_counter_overall" : "server_gauge_overall",
		    counter ? "Server metrics: counter rates over the run" :
			      "Server metrics: gauges over the run (avg)",
		    "series", counter ? "per second" : "value",
		    counter ? "series_index rate series total" : "series_index avg series min max");
	f->xtics = 1;
	fig_series(f, NULL, "1:2:(0.8):xtic(3)", STYLE_BOXES, 0);
	for (m = r->srv->child; m && rows < MAX_SERVER_SERIES; m = m->next) {
		if (strcmp(json_str_or(json_get(m, "type"), ""), type))
			continue;
		for (s = json_get(m, "series") ? json_get(m, "series")->child : NULL;
		     s && rows < MAX_SERVER_SERIES; s = s->next) {
			const struct json *st = json_get(s, "stats");
			double y = num(json_get(st, counter ? "rate" : "avg"));

			sl = json_get(s, "timeslices");
			if ((sl && sl->child) || isnan(y) ||
			    (counter && !(num(json_get(st, "total")) > 0)))
				continue;
			series_title(title, sizeof(title), m->key, json_get(s, "labels"));
			unquote(title);
			if (counter)
				fig_row(f, "%zu %.17g \"%s\" %.17g", rows, y, title,
					num(json_get(st, "total")));
			else
				fig_row(f, "%zu %.17g \"%s\" %.17g %.17g", rows, y, title,
					num(json_get(st, "min")), num(json_get(st, "max")));
			rows++;
		}
	}
	fig_end_block(f);
	fig_drop_empty(out, rows);
}

/* Whether a histogram series observed anything. */
static int
hist_counted(const struct json *s)
{
	return num(json_path(s, "stats.count")) > 0;
}

/*
 * One histogram metric's observations per bucket over the profiling
 * window (le_k's cumulative count less le_k-1's), a block per series,
 * labelled by the bucket's upper bound; a figure per metric, as each has
 * its own buckets.
 */
static size_t
hist_buckets(struct figs *out, const struct json *m, size_t *nseries)
{
	const struct json *s, *k;
	struct fig *f;
	size_t rows = 0, i;
	char name[160], title[256], key[32];

	snprintf(name, sizeof(name), "server_histogram_buckets_%.*s", (int)m->keylen, m->key);
	for (char *c = name; *c; c++)	/* "vllm:x" -> "vllm_x": a file name */
		if (!(strchr("-_", *c) || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9')))
			*c = '_';
	snprintf(title, sizeof(title), "Server histogram %.*s: observations per bucket over the run",
		 (int)m->keylen, m->key);
	f = fig_new(out, name, title, "bucket upper bound (le)", "observations",
		    "bucket_index count le");
	f->xtics = 1;
	for (s = json_get(m, "series") ? json_get(m, "series")->child : NULL;
	     s && *nseries < MAX_SERVER_SERIES; s = s->next) {
		double prev = 0, c;

		if (!hist_counted(s))
			continue;
		series_title(title, sizeof(title), m->key, json_get(s, "labels"));
		fig_series(f, title, "1:2:xtic(3)", STYLE_LINESPOINTS, 0);
		k = json_get(s, "buckets");
		for (i = 0, k = k ? k->child : NULL; k; k = k->next, i++) {
			if (isnan(c = num(k)))
				continue;
			snprintf(key, sizeof(key), "%.*s", (int)k->keylen, k->key);
			unquote(key);
			fig_row(f, "%zu %.17g \"%s\"", i, c - prev, key);
			prev = c;
			rows++;
		}
		fig_end_block(f);
		(*nseries)++;
	}
	fig_drop_empty(out, rows);
	return rows;
}

/*
 * Histogram metrics (vllm:time_to_first_token_seconds ...) over the
 * profiling window: the percentiles estimated from the buckets (stats
 * pNN_estimate), a block per series that observed anything, and each
 * metric's buckets (hist_buckets).
 */
static void
server_histograms(struct figs *out, const struct run *r)
{
	static const char *const pct[] = { "p1", "p5", "p10", "p25", "p50", "p75", "p90",
					   "p95", "p99", NULL };
	struct fig *p;
	const struct json *m, *s;
	size_t nseries = 0, rows = 0, i;
	char title[256], key[32];
	double c;

	p = fig_new(out, "server_histogram_percentiles",
		    "Server histograms: estimated percentiles over the run", "percentile",
		    "value (the metric's unit)", "percentile_index estimate percentile");
	p->xtics = 1;
	for (m = r->srv->child; m && nseries < MAX_SERVER_SERIES; m = m->next) {
		if (strcmp(json_str_or(json_get(m, "type"), ""), "histogram"))
			continue;
		for (s = json_get(m, "series") ? json_get(m, "series")->child : NULL;
		     s && nseries < MAX_SERVER_SERIES; s = s->next) {
			const struct json *st = json_get(s, "stats");

			if (!hist_counted(s))
				continue;
			series_title(title, sizeof(title), m->key, json_get(s, "labels"));
			fig_series(p, title, "1:2:xtic(3)", STYLE_LINESPOINTS, 0);
			for (i = 0; pct[i]; i++) {
				snprintf(key, sizeof(key), "%s_estimate", pct[i]);
				if (!isnan(c = num(json_get(st, key)))) {
					fig_row(p, "%zu %.17g \"%s\"", i, c, pct[i]);
					rows++;
				}
			}
			fig_end_block(p);
			nseries++;
		}
	}
	fig_drop_empty(out, rows);
	nseries = 0;
	for (m = r->srv->child; m && nseries < MAX_SERVER_SERIES; m = m->next)
		if (!strcmp(json_str_or(json_get(m, "type"), ""), "histogram"))
			hist_buckets(out, m, &nseries);
}

/* A per-request value (NaN where absent) against the request's start. */
static void
per_request(struct figs *out, const struct run *r, const struct vec *v, const char *name,
	    const char *title, const char *label)
{
	struct fig *f;
	size_t i, rows = 0;

	f = fig_new(out, name, title, "request start (s)", "ms",
		    "request_start_s value_ms request_number");
	fig_series(f, label, "1:2", STYLE_POINTS, 0);
	for (i = 0; i < v->n; i++)
		if (!isnan(v->v[i])) {
			fig_row(f, "%.17g %.17g %zu", r->start_s.v[i], v->v[i], i + 1);
			rows++;
		}
	fig_end_block(f);
	fig_drop_empty(out, rows);
}

/* The generation phase of record i: [*first, *end) at *rate tokens/s; 0 if none. */
static int
gen_phase(const struct run *r, size_t i, double *first, double *end, double *rate)
{
	if (isnan(r->rttft.v[i]) || !(r->osl.v[i] > 0))
		return 0;
	*first = r->start_s.v[i] + r->rttft.v[i] / 1000;
	*end = r->end_s.v[i];
	if (!(*end > *first))
		return 0;
	*rate = r->osl.v[i] / (*end - *first);
	return 1;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Dispersed output token throughput: a request adds nothing from its
 * start to its first token, then output_tokens / (end - first token)
 * until its end. Rows: time 0 and every distinct first-token and end
 * time, sorted, each with the sum (in record order) of the rates of the
 * requests generating at that time (first <= t < end); a step function.
 * The times and sums in *t and *y (n of them), for the caller to free.
 */
static size_t
dispersed(const struct run *r, double **tp, double **yp)
{
	size_t n = r->start_s.n, m = 0, i, j, k = 0;
	double *t = xcalloc(2 * n + 1, sizeof(*t)), *y, a, b, c;

	t[m++] = 0;
	for (i = 0; i < n; i++)
		if (gen_phase(r, i, &a, &b, &c)) {
			t[m++] = a;
			t[m++] = b;
		}
	qsort(t, m, sizeof(*t), cmp_double);
	for (i = 0; i < m; i++)	/* distinct times */
		if (!k || t[i] != t[k - 1])
			t[k++] = t[i];
	y = xcalloc(k ? k : 1, sizeof(*y));
	for (j = 0; j < k; j++)
		for (i = 0; i < n; i++)
			if (gen_phase(r, i, &a, &b, &c) && a <= t[j] && t[j] < b)
				y[j] += c;
	*tp = t;
	*yp = y;
	return k;
}

static void
dispersed_fig(struct figs *out, const struct run *r)
{
	double *t, *y;
	size_t k, i;
	struct fig *f;

	if (!r->start_s.n)
		return;
	k = dispersed(r, &t, &y);
	f = fig_new(out, "dispersed_throughput_over_time",
		    "Dispersed output token throughput over time", "time (s)",
		    "output tokens/s", "time_s output_tokens_per_s");
	fig_series(f, "output tokens/s", "1:2", STYLE_STEPS, 0);
	for (i = 0; i < k; i++)
		fig_row(f, "%.17g %.17g", t[i], y[i]);
	fig_end_block(f);
	fig_drop_empty(out, k > 1);
	if (r->ngpus) {
		size_t g, rows = 0;

		f = fig_new(out, "gpu_utilization_and_throughput_over_time",
			    "Output token throughput with GPU utilization", "time (s)",
			    "output tokens/s", "time_s value");
		f->y2label = xstrdup("GPU utilization (%)");
		fig_series(f, "output tokens/s (dispersed)", "1:2", STYLE_STEPS, 0);
		for (i = 0; i < k; i++)
			fig_row(f, "%.17g %.17g", t[i], y[i]);
		fig_end_block(f);
		for (g = 0; g < r->ngpus; g++) {
			const struct gpu *p = &r->gpus[g];
			char title[256];

			snprintf(title, sizeof(title), "GPU %s utilization", p->id);
			fig_series(f, title, "1:2", STYLE_LINES, 1);
			for (i = 0; i < p->util.n; i++)
				if (!isnan(p->util.v[i])) {
					fig_row(f, "%.17g %.17g", p->t_s.v[i], p->util.v[i]);
					rows++;
				}
			fig_end_block(f);
		}
		fig_drop_empty(out, rows);
	}
	free(t);
	free(y);
}

/* Each request a line at its number from start to first token (block 0)
 * and from first token to end (block 1); a blank line between requests. */
static void
timeline(struct figs *out, const struct run *r)
{
	struct fig *f;
	size_t i, rows = 0, first;

	f = fig_new(out, "ttft_timeline", "Request timeline: time to first token, then generation",
		    "time (s)", "request", "time_s request_number");
	fig_series(f, "time to first token", "1:2", STYLE_LINES, 0);
	for (i = 0; i < r->start_s.n; i++)
		if (!isnan(r->rttft.v[i])) {
			fig_row(f, "%s%.17g %zu\n%.17g %zu", rows ? "\n" : "", r->start_s.v[i],
				i + 1, r->start_s.v[i] + r->rttft.v[i] / 1000, i + 1);
			rows++;
		}
	fig_end_block(f);
	first = rows;
	fig_series(f, "generation (or the whole request without a first token)", "1:2",
		   STYLE_LINES, 0);
	for (i = 0; i < r->start_s.n; i++) {
		double a = isnan(r->rttft.v[i]) ? r->start_s.v[i] :
			   r->start_s.v[i] + r->rttft.v[i] / 1000;

		fig_row(f, "%s%.17g %zu\n%.17g %zu", rows > first ? "\n" : "", a, i + 1,
			r->end_s.v[i], i + 1);
		rows++;
	}
	fig_end_block(f);
	fig_drop_empty(out, rows);
}

void
figs_single_all(struct figs *out, const struct run *r)
{
	histogram(out, &r->ttft, "ttft_histogram", "Time to first token distribution",
		  "time to first token (ms)");
	histogram(out, &r->latency, "request_latency_histogram",
		  "Request latency distribution", "request latency (ms)");
	itl_by_position(out, r);
	per_request(out, r, &r->rttft, "ttft_over_time", "Time to first token per request",
		    "time to first token");
	per_request(out, r, &r->ritl, "itl_over_time", "Inter-token latency per request",
		    "inter-token latency");
	over_time(out, r);
	dispersed_fig(out, r);
	timeline(out, r);
	throughput_over_time(out, r);
	timeslices(out, r);
	if (r->ngpus) {
		gpu_fig(out, r, "gpu_utilization", "GPU utilization", "%", 0);
		gpu_fig(out, r, "gpu_power", "GPU power", "W", 1);
		gpu_fig(out, r, "gpu_memory_used", "GPU memory used", "GB", 2);
	}
	if (r->srv && r->srv->type == JSON_OBJECT) {
		server_fig(out, r, "counter");
		server_fig(out, r, "gauge");
		server_overall(out, r, "counter");
		server_overall(out, r, "gauge");
		server_histograms(out, r);
	}
}

void
figs_release(struct figs *fs)
{
	while (fs->n)
		fig_drop_empty(fs, 0);
	free(fs->v);
	*fs = (struct figs){ 0 };
}

/* "Time to First Token" (the original's timeslice column) or
 * time_to_first_token: the metric's key, in k (n bytes). */
static void
metric_key(const char *y, char *k, size_t n)
{
	size_t i;

	for (i = 0; y[i] && i + 1 < n; i++)
		k[i] = y[i] == ' ' || y[i] == '-' ? '_' :
		       y[i] >= 'A' && y[i] <= 'Z' ? (char)(y[i] - 'A' + 'a') : y[i];
	k[i] = '\0';
}

/* A source: timeslices preset: its y's stat in each slice, as bars. */
static void
slices_preset(struct figs *out, const struct run *r, const struct preset *p)
{
	const char *stat = p->stat ? p->stat : "avg", *unit;
	char key[128], title[256];
	const struct json *s;
	struct vec x = { 0 }, y = { 0 };
	struct fig *f;

	if (!r->slices || r->slices->type != JSON_ARRAY)
		return;
	metric_key(p->y, key, sizeof(key));
	for (s = r->slices->child; s; s = s->next) {
		double i = num(json_get(s, "timeslice_index"));

		vec_push(&x, r->slice_duration > 0 ? i * r->slice_duration : i);
		vec_push(&y, num(json_get(json_get(s, key), stat)));
	}
	unit = json_str_or(json_get(json_get(r->agg, key), "unit"), "");
	snprintf(title, sizeof(title), "%s across time slices (%s)", p->y, stat);
	f = fig_new(out, p->name, p->title ? p->title : title,
		    r->slice_duration > 0 ? "slice start (s)" : "slice", unit,
		    "slice_start value");
	fig_drop_empty(out, fig_block_xy(f, p->y, STYLE_BOXES, 0, x.v, y.v, x.n));
	vec_release(&x);
	vec_release(&y);
}

int
figs_preset_single(struct figs *out, const struct run *r, const struct preset *p)
{
	if (!p->source || strcmp(p->source, "timeslices") || !p->y)
		return 0;
	slices_preset(out, r, p);
	return 1;
}

/* Move the figure named name from all to out, titled title when given. */
int
figs_pick(struct figs *out, struct figs *all, const char *name, const char *title)
{
	size_t i;

	for (i = 0; i < all->n; i++)
		if (all->v[i] && !strcmp(all->v[i]->name, name)) {
			struct fig *f = all->v[i];

			all->v[i] = NULL;
			if (title) {
				free(f->title);
				f->title = xstrdup(title);
			}
			out->v = xreallocarray(out->v, out->n + 1, sizeof(*out->v));
			out->v[out->n++] = f;
			return 1;
		}
	return 0;
}

/* The figures left in all: compacted, then released. */
void
figs_drop_rest(struct figs *all)
{
	size_t i, k = 0;

	for (i = 0; i < all->n; i++)
		if (all->v[i])
			all->v[k++] = all->v[i];
	all->n = k;
	figs_release(all);
}

void
figs_single(struct figs *out, const struct run *r, const struct plotcfg *cfg)
{
	struct figs all = { 0 };
	size_t i;

	if (!cfg) {
		figs_single_all(out, r);
		return;
	}
	figs_single_all(&all, r);
	for (i = 0; i < cfg->nsingle; i++)
		if (!figs_preset_single(out, r, &cfg->single[i]))
			figs_pick(out, &all, cfg->single[i].name, cfg->single[i].title);
	figs_drop_rest(&all);
}
