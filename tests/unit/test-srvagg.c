/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests for lib/srvagg (server-metrics and GPU aggregation), and
 * `test-srvagg --dump FILE`: every statistic of a recorded sample stream
 * (tests/data/srvagg/stream.ndjson) as one JSON object, which the last test
 * has tests/unit/srvagg-ref.py (an independent numpy reference) compare.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "json/json.h"
#include "srvagg/counter.h"
#include "srvagg/gauge.h"
#include "srvagg/gpu.h"
#include "srvagg/hist.h"
#include "srvagg/histq.h"
#include "srvagg/unit.h"
#include "srvagg/window.h"
#include "test.h"
#include "util.h"

/* ---- dump mode ---- */

#define MAXB 64

struct series {
	char name[128], type[16], help[256];
	struct srvagg_point *p;
	size_t n;
	/* histograms */
	size_t nb;
	double le[MAXB];
	int64_t *ts;
	double *sum, *count, *cum;
};

static struct series ser[64];
static size_t nser;
static struct srvagg_window win;
static int first_key = 1;

static struct series *
find_series(const char *name, const char *type)
{
	for (size_t i = 0; i < nser; i++)
		if (!strcmp(ser[i].name, name) && !strcmp(ser[i].type, type))
			return &ser[i];
	if (nser == sizeof(ser) / sizeof(ser[0]))
		die("too many series");
	snprintf(ser[nser].name, sizeof(ser[nser].name), "%s", name);
	snprintf(ser[nser].type, sizeof(ser[nser].type), "%s", type);
	return &ser[nser++];
}

static double
num(const struct json *v)
{
	double d;
	const char *s = json_str(v, NULL);

	if (s && !strcmp(s, "+Inf"))
		return INFINITY;
	if (json_double(v, &d) < 0)
		die("not a number");
	return d;
}

static void
add_hist(struct series *s, const struct json *o, int64_t ts)
{
	const struct json *le = json_get(o, "le"), *cum = json_get(o, "cum");

	if (!s->n) {
		s->nb = le->len;
		if (s->nb > MAXB)
			die("too many buckets");
		for (size_t j = 0; j < s->nb; j++)
			s->le[j] = num(json_at(le, j));
	}
	s->ts = xreallocarray(s->ts, s->n + 1, sizeof(*s->ts));
	s->sum = xreallocarray(s->sum, s->n + 1, sizeof(*s->sum));
	s->count = xreallocarray(s->count, s->n + 1, sizeof(*s->count));
	s->cum = xreallocarray(s->cum, (s->n + 1) * s->nb, sizeof(*s->cum));
	s->ts[s->n] = ts;
	s->sum[s->n] = num(json_get(o, "sum"));
	s->count[s->n] = num(json_get(o, "count"));
	for (size_t j = 0; j < s->nb; j++)
		s->cum[s->n * s->nb + j] = num(json_at(cum, j));
	s->n++;
}

static void
add_line(const struct json *o)
{
	const struct json *w = json_get(o, "window");
	struct series *s;
	int64_t ts;

	if (w) {
		json_int64(json_get(w, "start_ns"), &win.start_ns);
		json_int64(json_get(w, "end_ns"), &win.end_ns);
		win.slice_s = num(json_get(w, "slice_s"));
		return;
	}
	s = find_series(json_str_or(json_get(o, "series"), ""),
			json_str_or(json_get(o, "type"), ""));
	snprintf(s->help, sizeof(s->help), "%s",
		 json_str_or(json_get(o, "help"), ""));
	if (json_int64(json_get(o, "ts_ns"), &ts) < 0)
		die("bad ts_ns");
	if (!strcmp(s->type, "histogram")) {
		add_hist(s, o, ts);
		return;
	}
	s->p = xreallocarray(s->p, s->n + 1, sizeof(*s->p));
	s->p[s->n].ts_ns = ts;
	s->p[s->n].v = num(json_get(o, "value"));
	s->n++;
}

static void
load(const char *path)
{
	FILE *f = fopen(path, "r");
	struct json_doc *d = json_doc_new();
	char *line = NULL, err[128];
	size_t cap = 0;
	ssize_t len;

	if (!f)
		die("cannot open '%s':", path);
	while ((len = getline(&line, &cap, f)) > 0) {
		struct json *o = json_parse(d, line, (size_t)len, err, sizeof(err));

		if (!o)
			die("%s: %s", path, err);
		add_line(o);
		json_doc_reset(d);
	}
	free(line);
	json_doc_free(d);
	fclose(f);
}

static void
put(const char *a, const char *b, const char *c, double v)
{
	printf("%s\n\"%s/%s/%s\": ", first_key ? "{" : ",", a, b, c);
	first_key = 0;
	if (isnan(v))
		printf("\"nan\"");
	else if (isinf(v))
		printf("\"%sinf\"", v < 0 ? "-" : "");
	else
		printf("%.17g", v);
}

static void
put_i64(const char *a, const char *b, const char *c, int64_t v)
{
	printf("%s\n\"%s/%s/%s\": %lld", first_key ? "{" : ",", a, b, c,
	       (long long)v);
	first_key = 0;
}

static void
put_pct(const char *a, const char *b, const char *pre, const char *suf,
	const double *p)
{
	static const char *const names[SRVAGG_NPCT] = {
		"p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99",
	};
	char k[64];

	for (size_t i = 0; i < SRVAGG_NPCT; i++) {
		snprintf(k, sizeof(k), "%s%s%s", pre, names[i], suf);
		put(a, b, k, p[i]);
	}
}

static void
put_dist(const char *a, const char *b, const struct srvagg_dist *d, int sum)
{
	put(a, b, "avg", d->avg);
	put(a, b, "min", d->min);
	put(a, b, "max", d->max);
	put(a, b, "std", d->std);
	if (sum)
		put(a, b, "sum", d->sum);
	put_pct(a, b, "", "", d->pct);
}

static void
dump_gauge(const struct series *s)
{
	struct srvagg_gauge g;
	char k[64];

	if (srvagg_gauge(s->p, s->n, &win, &g) != 1)
		return;
	put_dist("gauge", s->name, &g.st, 0);
	for (size_t i = 0; i < g.nslices; i++) {
		const struct srvagg_gauge_slice *sl = &g.slices[i];

		snprintf(k, sizeof(k), "slice%zu/start_ns", i);
		put_i64("gauge", s->name, k, sl->start_ns);
		snprintf(k, sizeof(k), "slice%zu/end_ns", i);
		put_i64("gauge", s->name, k, sl->end_ns);
		snprintf(k, sizeof(k), "slice%zu/avg", i);
		put("gauge", s->name, k, sl->avg);
		snprintf(k, sizeof(k), "slice%zu/min", i);
		put("gauge", s->name, k, sl->min);
		snprintf(k, sizeof(k), "slice%zu/max", i);
		put("gauge", s->name, k, sl->max);
		snprintf(k, sizeof(k), "slice%zu/complete", i);
		put("gauge", s->name, k, sl->complete);
	}
	srvagg_gauge_release(&g);
}

static void
dump_counter(const struct series *s)
{
	struct srvagg_counter c;
	char k[64];

	if (srvagg_counter(s->p, s->n, &win, &c) != 1)
		return;
	put("counter", s->name, "total", c.total);
	put("counter", s->name, "rate", c.rate);
	if (c.has_rate_stats) {
		put("counter", s->name, "rate_avg", c.rate_avg);
		put("counter", s->name, "rate_min", c.rate_min);
		put("counter", s->name, "rate_max", c.rate_max);
		put("counter", s->name, "rate_std", c.rate_std);
	}
	for (size_t i = 0; i < c.nslices; i++) {
		snprintf(k, sizeof(k), "slice%zu/start_ns", i);
		put_i64("counter", s->name, k, c.slices[i].start_ns);
		snprintf(k, sizeof(k), "slice%zu/end_ns", i);
		put_i64("counter", s->name, k, c.slices[i].end_ns);
		snprintf(k, sizeof(k), "slice%zu/total", i);
		put("counter", s->name, k, c.slices[i].total);
		snprintf(k, sizeof(k), "slice%zu/rate", i);
		put("counter", s->name, k, c.slices[i].rate);
		snprintf(k, sizeof(k), "slice%zu/complete", i);
		put("counter", s->name, k, c.slices[i].complete);
	}
	srvagg_counter_release(&c);
}

static void
dump_buckets(const char *name, const char *pre, const double *b, size_t nb)
{
	char k[64];

	for (size_t j = 0; b && j < nb; j++) {
		snprintf(k, sizeof(k), "%sbucket%zu", pre, j);
		put("histogram", name, k, b[j]);
	}
}

static void
dump_hist_slices(const struct series *s, const struct srvagg_hist *h)
{
	char k[64], pre[32];

	for (size_t i = 0; i < h->nslices; i++) {
		const struct srvagg_hist_slice *sl = &h->slices[i];

		snprintf(pre, sizeof(pre), "slice%zu/", i);
		snprintf(k, sizeof(k), "%sstart_ns", pre);
		put_i64("histogram", s->name, k, sl->start_ns);
		snprintf(k, sizeof(k), "%send_ns", pre);
		put_i64("histogram", s->name, k, sl->end_ns);
		snprintf(k, sizeof(k), "%scount", pre);
		put("histogram", s->name, k, sl->count);
		snprintf(k, sizeof(k), "%ssum", pre);
		put("histogram", s->name, k, sl->sum);
		snprintf(k, sizeof(k), "%savg", pre);
		put("histogram", s->name, k, sl->avg);
		snprintf(k, sizeof(k), "%scomplete", pre);
		put("histogram", s->name, k, sl->complete);
		dump_buckets(s->name, pre, sl->buckets, h->nb);
	}
}

static void
dump_hist(const struct series *s)
{
	struct srvagg_hist_in in = {
		s->n, s->nb, s->ts, s->sum, s->count, s->cum, s->le,
	};
	struct srvagg_hist h;

	if (srvagg_hist(&in, &win, &h) != 1)
		return;
	put("histogram", s->name, "count", h.count);
	if (!h.empty) {
		put("histogram", s->name, "sum", h.sum);
		put("histogram", s->name, "avg", h.avg);
		if (h.has_rates) {
			put("histogram", s->name, "count_rate", h.count_rate);
			put("histogram", s->name, "sum_rate", h.sum_rate);
		}
		if (h.has_est)
			put_pct("histogram", s->name, "", "_estimate", h.est);
		if (h.has_prom)
			put_pct("histogram", s->name, "prom_", "", h.prom);
	}
	dump_buckets(s->name, "", h.buckets, h.nb);
	dump_hist_slices(s, &h);
	srvagg_hist_release(&h);
}

static void
dump_gpu(const struct series *s)
{
	const char *field = strchr(s->name, '/');
	const struct srvagg_dcgm_field *f = field ? srvagg_dcgm_lookup(field + 1) : NULL;
	const struct srvagg_gpu_metric *m = f ? srvagg_gpu_metric(f->key) : NULL;
	struct srvagg_window w = { win.start_ns, INT64_MAX, 0 };
	struct srvagg_point *p;
	char name[160];

	if (!m)
		return;
	snprintf(name, sizeof(name), "%.*s/%s", (int)(field - s->name), s->name,
		 m->key);
	p = xreallocarray(NULL, s->n, sizeof(*p));
	for (size_t i = 0; i < s->n; i++)
		p[i] = (struct srvagg_point){ s->p[i].ts_ns, s->p[i].v * f->scale };
	if (m->counter) {
		double d;

		if (srvagg_gpu_counter(p, s->n, &w, &d) == 1)
			put("gpu", name, "avg", d);
	} else {
		struct srvagg_dist d;

		if (srvagg_gpu_gauge(p, s->n, &w, &d) == 1) {
			put_dist("gpu", name, &d, 1);
			put("gpu", name, "count", (double)d.count);
		}
	}
	free(p);
}

static int
dump(const char *path)
{
	load(path);
	for (size_t i = 0; i < nser; i++) {
		struct series *s = &ser[i];
		const char *u;

		if (!strcmp(s->type, "gauge"))
			dump_gauge(s);
		else if (!strcmp(s->type, "counter"))
			dump_counter(s);
		else if (!strcmp(s->type, "histogram"))
			dump_hist(s);
		else if (!strcmp(s->type, "dcgm"))
			dump_gpu(s);
		if (strcmp(s->type, "dcgm")) {
			u = srvagg_unit(s->name, s->help);
			printf("%s\n\"unit/%s\": \"%s\"", first_key ? "{" : ",",
			       s->name, u ? u : "");
			first_key = 0;
		}
		free(s->p);
		free(s->ts);
		free(s->sum);
		free(s->count);
		free(s->cum);
	}
	printf("\n}\n");
	return fclose(stdout) ? 1 : 0;
}

/* ---- unit tests ---- */

#define S 1000000000LL

static int
near(double a, double b)
{
	return fabs(a - b) <= 1e-12 * fmax(1, fabs(b));
}

static void
test_window(void)
{
	struct srvagg_window w = { 0, 10 * S, 3 };
	struct srvagg_bound *b;
	long n = srvagg_slices(&w, &b);

	TEST("slices: 3 complete + 1 partial", n == 4 && b[3].start_ns == 9 * S &&
	     b[3].end_ns == 10 * S && !b[3].complete && b[2].complete &&
	     b[2].end_ns == 9 * S);
	free(b);
	w.end_ns = 9 * S;
	n = srvagg_slices(&w, &b);
	TEST("slices: exact fit", n == 3 && b[2].complete && b[2].end_ns == 9 * S);
	free(b);
	w.slice_s = 1e-10;
	TEST("slice under 1 ns rejected", srvagg_slices(&w, &b) == -1 && !b);
	w.slice_s = NAN;
	TEST("NaN slice rejected", srvagg_window_check(&w) == -1);
	w.slice_s = -1;
	TEST("negative slice rejected", srvagg_window_check(&w) == -1);
	w = (struct srvagg_window){ INT64_MIN, INT64_MAX, 1 };
	TEST("slices need a finite window", srvagg_slices(&w, &b) == -1);
	w = (struct srvagg_window){ -S, S, 1e-9 };
	TEST("too many slices refused", srvagg_slices(&w, &b) == -1 && !b);
	w = (struct srvagg_window){ 5, 5, 1 };
	TEST("empty window: no slices", srvagg_slices(&w, &b) == 0 && !b);
}

static void
test_gauge(void)
{
	struct srvagg_point p[] = {
		{ -S, 100 }, { 0, 1 }, { S, 2 }, { 2 * S, 3 }, { 3 * S, 4 },
		{ 4 * S, 50 },
	};
	struct srvagg_window w = { 0, 3 * S, 0 };
	struct srvagg_gauge g;

	TEST("gauge: stats", srvagg_gauge(p, 6, &w, &g) == 1 &&
	     g.st.count == 4 && g.st.avg == 2.5 && g.st.min == 1 &&
	     g.st.max == 4);
	TEST("gauge: sample std (ddof=1)", g.st.std == 1.2909944487358056);
	TEST("gauge: p50 and p99 as numpy", g.st.pct[4] == 2.5 &&
	     g.st.pct[8] == 3.9699999999999998);
	TEST("gauge: no slices unless asked", !g.slices);
	srvagg_gauge_release(&g);

	w = (struct srvagg_window){ S, S, 0 };
	TEST("gauge: one sample has std 0", srvagg_gauge(p, 6, &w, &g) == 1 &&
	     g.st.count == 1 && g.st.std == 0.0 && g.st.pct[0] == 2);
	w = (struct srvagg_window){ 5 * S, 6 * S, 0 };
	TEST("gauge: nothing in window", srvagg_gauge(p, 6, &w, &g) == 0);
	TEST("gauge: no samples", srvagg_gauge(p, 0, &w, &g) == 0);

	struct srvagg_point bad[] = { { 2, 1 }, { 1, 1 } };
	w = (struct srvagg_window){ INT64_MIN, INT64_MAX, 0 };
	TEST("gauge: unsorted input refused", srvagg_gauge(bad, 2, &w, &g) == -1);

	struct srvagg_point nan[] = { { 0, 1 }, { 1, NAN }, { 2, 3 } };
	TEST("gauge: NaN poisons every statistic",
	     srvagg_gauge(nan, 3, &w, &g) == 1 && isnan(g.st.avg) &&
	     isnan(g.st.min) && isnan(g.st.max) && isnan(g.st.std) &&
	     isnan(g.st.pct[4]));

	struct srvagg_point inf[] = { { 0, 1 }, { 1, INFINITY } };
	TEST("gauge: inf as numpy (mean inf, std and p50 NaN)",
	     srvagg_gauge(inf, 2, &w, &g) == 1 && isinf(g.st.avg) &&
	     g.st.max == INFINITY && isnan(g.st.std) && isnan(g.st.pct[4]) &&
	     g.st.pct[0] == 1 + 0.01 * (INFINITY - 1));
}

static void
test_gauge_slices(void)
{
	struct srvagg_point p[11];
	struct srvagg_window w = { 0, 10 * S, 3 };
	struct srvagg_gauge g;

	for (int i = 0; i < 11; i++)
		p[i] = (struct srvagg_point){ i * S, i };
	TEST("gauge slices", srvagg_gauge(p, 11, &w, &g) == 1 &&
	     g.nslices == 4 && g.slices[0].avg == 1 && g.slices[0].max == 2 &&
	     g.slices[2].min == 6 && g.slices[2].complete);
	TEST("gauge slices: last takes the sample on its end",
	     g.slices[3].avg == 9.5 && g.slices[3].max == 10 &&
	     !g.slices[3].complete);
	srvagg_gauge_release(&g);

	struct srvagg_point gap[] = { { 0, 1 }, { S / 2, 3 }, { 7 * S, 5 } };
	TEST("gauge slices: empty slices left out",
	     srvagg_gauge(gap, 3, &w, &g) == 1 && g.nslices == 2 &&
	     g.slices[0].avg == 2 && g.slices[1].start_ns == 6 * S);
	srvagg_gauge_release(&g);
	TEST("gauge slices: one sample gives none",
	     srvagg_gauge(gap, 1, &w, &g) == 1 && !g.slices);
	w.slice_s = -3;
	TEST("gauge: bad slice refused", srvagg_gauge(p, 11, &w, &g) == -1);
}

static void
test_counter(void)
{
	struct srvagg_point p[] = { { 0, 100 }, { 2 * S, 110 }, { 4 * S, 130 } };
	struct srvagg_window w = { S, 5 * S, 0 };
	struct srvagg_counter c;

	TEST("counter: total from the reference",
	     srvagg_counter(p, 3, &w, &c) == 1 && c.total == 30 && c.rate == 7.5 &&
	     !c.has_slices && !c.has_rate_stats);
	w.start_ns = 0;
	TEST("counter: no reference, first in-window sample",
	     srvagg_counter(p, 3, &w, &c) == 1 && c.total == 30 && c.rate == 7.5);
	w.start_ns = 3 * S;
	TEST("counter: one sample after the reference",
	     srvagg_counter(p, 3, &w, &c) == 1 && c.total == 20 && c.rate == 10);
	w = (struct srvagg_window){ 4 * S, 5 * S, 0 };
	w.start_ns = 5 * S;
	TEST("counter: nothing in window", srvagg_counter(p, 3, &w, &c) == 0);

	struct srvagg_point one[] = { { S, 7 } };
	w = (struct srvagg_window){ 0, 5 * S, 0 };
	TEST("counter: lone sample is 0 at rate 0",
	     srvagg_counter(one, 1, &w, &c) == 1 && c.total == 0 && c.rate == 0);

	struct srvagg_point rst[] = { { 0, 100 }, { 2 * S, 150 }, { 4 * S, 20 } };
	w = (struct srvagg_window){ S, 5 * S, 0 };
	TEST("counter: reset ending below the reference is 0",
	     srvagg_counter(rst, 3, &w, &c) == 1 && c.total == 0 &&
	     c.raw_delta == -80 && c.resets == 1 && c.rate == 0);
	struct srvagg_point rst2[] = {
		{ 0, 100 }, { 2 * S, 150 }, { 3 * S, 5 }, { 4 * S, 120 },
	};
	TEST("counter: reset ending above counts last - reference",
	     srvagg_counter(rst2, 4, &w, &c) == 1 && c.total == 20 &&
	     c.resets == 1);

	struct srvagg_point nan[] = { { 0, 1 }, { 2 * S, NAN } };
	TEST("counter: NaN stays NaN", srvagg_counter(nan, 2, &w, &c) == 1 &&
	     isnan(c.total) && isnan(c.rate));

	struct srvagg_point big[] = { { 0, 1e300 }, { 2 * S, 1.5e300 } };
	TEST("counter: huge values", srvagg_counter(big, 2, &w, &c) == 1 &&
	     c.total == 1.5e300 - 1e300);
}

static void
test_counter_slices(void)
{
	struct srvagg_point p[] = {
		{ -S, 0 }, { S, 10 }, { 6 * S, 60 }, { 10 * S, 100 },
	};
	struct srvagg_window w = { 0, 10 * S, 5 };
	struct srvagg_counter c;

	TEST("counter slices", srvagg_counter(p, 4, &w, &c) == 1 &&
	     c.has_slices && c.nslices == 2 && c.slices[0].total == 10 &&
	     c.slices[0].rate == 2 && c.slices[1].total == 90 &&
	     c.slices[1].rate == 18);
	TEST("counter slice rate stats", c.has_rate_stats && c.rate_avg == 10 &&
	     c.rate_min == 2 && c.rate_max == 18 &&
	     c.rate_std == 11.313708498984761);
	srvagg_counter_release(&c);

	w.end_ns = 12 * S;
	TEST("counter slices: partial slice kept, not in the stats",
	     srvagg_counter(p, 4, &w, &c) == 1 && c.nslices == 3 &&
	     !c.slices[2].complete && c.slices[2].total == 0 &&
	     c.rate_avg == 10);
	srvagg_counter_release(&c);

	struct srvagg_point one[] = { { S, 7 } };
	TEST("counter slices: one sample gives an empty array",
	     srvagg_counter(one, 1, &w, &c) == 1 && c.has_slices &&
	     c.nslices == 0 && !c.has_rate_stats);
	srvagg_counter_release(&c);

	w = (struct srvagg_window){ 0, 4 * S, 5 };
	TEST("counter slices: only a partial slice, no rate stats",
	     srvagg_counter(p, 4, &w, &c) == 1 && c.nslices == 1 &&
	     !c.has_rate_stats);
	srvagg_counter_release(&c);
}

/* A histogram of samples (ts, sum, count, cum[nb]). */
static struct srvagg_hist_in
hist_in(size_t n, size_t nb, int64_t *ts, double *sum, double *count,
	double *cum, double *le)
{
	return (struct srvagg_hist_in){ n, nb, ts, sum, count, cum, le };
}

static void
test_hist(void)
{
	double le[] = { 1, 2, INFINITY };
	int64_t ts[] = { 0, S, 2 * S };
	double sum[] = { 0, 4.5, 7.5 }, count[] = { 0, 3, 5 };
	double cum[] = { 0, 0, 0, 2, 3, 3, 2, 5, 5 };
	struct srvagg_hist_in in = hist_in(3, 3, ts, sum, count, cum, le);
	struct srvagg_window w = { S / 2, 2 * S, 0 };
	struct srvagg_hist h;

	TEST("hist: deltas", srvagg_hist(&in, &w, &h) == 1 && h.count == 5 &&
	     h.sum == 7.5 && h.avg == 1.5 && !h.empty && !h.reset);
	TEST("hist: rates over reference..final", h.has_rates &&
	     h.count_rate == 2.5 && h.sum_rate == 3.75);
	TEST("hist: buckets are the cumulative deltas", h.buckets &&
	     h.buckets[0] == 2 && h.buckets[1] == 5 && h.buckets[2] == 5);
	TEST("hist: prometheus p1, p50", h.has_prom && near(h.prom[0], 0.025) &&
	     near(h.prom[4], 1 + 0.5 / 3));
	/* learned mean 1.5 for (1,2]; points 0.25 0.75 | 7/6 1.5 11/6,
	 * shifted by 2/11 and 0.4 (capped) to reach the sum 7.5 */
	TEST("hist: polynomial estimate", h.has_est &&
	     near(h.est[4], 7.0 / 6 + 0.4) &&
	     near(h.est[0], 0.25 + 2.0 / 11 + 0.04 * 0.5));
	srvagg_hist_release(&h);

	w = (struct srvagg_window){ 3 * S, 4 * S, 0 };
	TEST("hist: all samples before the window report count 0",
	     srvagg_hist(&in, &w, &h) == 1 && h.empty && h.count == 0 &&
	     h.buckets && h.buckets[2] == 0 && !h.has_est);
	srvagg_hist_release(&h);

	w = (struct srvagg_window){ INT64_MIN, INT64_MAX, 0 };
	TEST("hist: no samples", srvagg_hist(&in, &w, &h) == 1 &&
	     (srvagg_hist_release(&h), in.n = 0, srvagg_hist(&in, &w, &h) == 0));
	in.n = 3;

	double bad_le[] = { 2, 1, INFINITY };
	struct srvagg_hist_in b = hist_in(3, 3, ts, sum, count, cum, bad_le);
	TEST("hist: bounds must ascend", srvagg_hist(&b, &w, &h) == -1);
	double inf_first[] = { INFINITY, 1, 2 };
	b.le = inf_first;
	TEST("hist: +Inf only last", srvagg_hist(&b, &w, &h) == -1);
}

static void
test_hist_edges(void)
{
	double le[] = { 1, INFINITY };
	int64_t ts[] = { 0, S };
	double sum[] = { 0, 20 }, count[] = { 0, 4 }, cum[] = { 0, 0, 0, 4 };
	struct srvagg_hist_in in = hist_in(2, 2, ts, sum, count, cum, le);
	struct srvagg_window w = { 1, INT64_MAX, 0 };
	struct srvagg_hist h;

	TEST("hist: all in +Inf, back-computed from the sum",
	     srvagg_hist(&in, &w, &h) == 1 && h.has_est && near(h.est[4], 5) &&
	     near(h.est[0], 1 + 0.03 * (11.0 / 3 - 1)) && near(h.est[8], 9 - 0.03 * (9 - 19.0 / 3)));
	TEST("hist: prometheus gives the last finite bound",
	     h.has_prom && h.prom[8] == 1 && h.prom[0] == 1);
	srvagg_hist_release(&h);

	double zsum[] = { 0, 0 };
	in.sum = zsum;
	TEST("hist: zero sum gives zero estimates",
	     srvagg_hist(&in, &w, &h) == 1 && h.has_est && h.est[8] == 0);
	srvagg_hist_release(&h);
	in.sum = sum;

	double rcum[] = { 0, 9, 0, 4 };
	in.cum = rcum;
	TEST("hist: a bucket going down drops buckets and estimates",
	     srvagg_hist(&in, &w, &h) == 1 && !h.buckets && !h.has_est &&
	     !h.has_prom && h.count == 4);
	srvagg_hist_release(&h);
	in.cum = cum;

	double rcount[] = { 10, 4 };
	in.count = rcount;
	TEST("hist: count reset reported as is",
	     srvagg_hist(&in, &w, &h) == 1 && h.reset && h.count == -6);
	srvagg_hist_release(&h);
	double ncount[] = { 0, NAN };
	in.count = ncount;
	TEST("hist: non-finite count delta: no series",
	     srvagg_hist(&in, &w, &h) == 0);
	in.count = count;

	double ncum[] = { 0, 0, 0, NAN };
	in.cum = ncum;
	TEST("hist: NaN bucket treated as a reset",
	     srvagg_hist(&in, &w, &h) == 1 && !h.buckets);
	srvagg_hist_release(&h);
	in.cum = cum;

	double nsum[] = { 0, NAN };
	in.sum = nsum;
	TEST("hist: NaN sum gives no estimate",
	     srvagg_hist(&in, &w, &h) == 1 && !h.has_est && h.has_prom &&
	     isnan(h.avg));
	srvagg_hist_release(&h);
}

static void
test_hist_huge(void)
{
	double le[] = { 1, 2, INFINITY };
	int64_t ts[] = { 0, S };
	double sum[] = { 0, 1.25e12 }, count[] = { 0, 1e12 };
	double cum[] = { 0, 0, 0, 5e11, 1e12, 1e12 };
	struct srvagg_hist_in in = hist_in(2, 3, ts, sum, count, cum, le);
	struct srvagg_window w = { 1, INT64_MAX, 0 };
	struct srvagg_hist h;
	int sorted = 1;

	TEST("hist: 1e12 observations downsampled",
	     srvagg_hist(&in, &w, &h) == 1 && h.has_est && h.count == 1e12);
	for (int i = 1; i < SRVAGG_NPCT; i++)
		sorted &= h.est[i] >= h.est[i - 1];
	/* 50000 uniform points shifted by 0.125 in (0,1] (the top ones
	 * clipped to 1) and 50000 by 0.375 in (1,2]: p50 is midway between 1
	 * and 1.00001 + 0.375 */
	TEST("hist: huge estimate", sorted && near(h.est[4], (1 + 1.37501) / 2) &&
	     h.est[8] <= 2);
	srvagg_hist_release(&h);
}

static void
test_hist_dominant(void)
{
	double le[] = { 1, 2, INFINITY };
	int64_t ts[] = { 0, S };
	double sum[] = { 0, 24 }, count[] = { 0, 20 };
	double cum[] = { 0, 0, 0, 0, 20, 20 };
	struct srvagg_hist_in in = hist_in(2, 3, ts, sum, count, cum, le);
	struct srvagg_window w = { 1, INT64_MAX, 0 };
	struct srvagg_hist h;

	/* 20 points 1 + (i + 0.5) / 20 centred on the average 1.2 (shift
	 * -0.3, six clipped to 1) add up to 24.9; shifted by -0.9 / 20 (one
	 * more clipped), p50 is midway between 0.655 + 9.5/20 and
	 * 0.655 + 10.5/20. Centred on the midpoint instead it would be 1.2. */
	TEST("hist: bucket with >= 95% centres on the average",
	     srvagg_hist(&in, &w, &h) == 1 && h.has_est && near(h.est[4], 1.155) &&
	     h.est[0] == 1);
	srvagg_hist_release(&h);
}

static void
test_hist_slices(void)
{
	double le[] = { 1, INFINITY };
	int64_t ts[] = { -S, S, 3 * S, 5 * S };
	double sum[] = { 0, 1, 3, 2 }, count[] = { 0, 2, 4, 1 };
	double cum[] = { 0, 0, 2, 2, 3, 4, 1, 1 };
	struct srvagg_hist_in in = hist_in(4, 2, ts, sum, count, cum, le);
	struct srvagg_window w = { 0, 5 * S, 2 };
	struct srvagg_hist h;

	TEST("hist slices", srvagg_hist(&in, &w, &h) == 1 && h.nslices == 2 &&
	     h.slices[0].count == 2 && h.slices[0].avg == 0.5 &&
	     h.slices[0].buckets[0] == 2 && h.slices[1].count == 2 &&
	     h.slices[1].sum == 2 && h.slices[1].buckets[1] == 2);
	/* the third slice [4s, 5s] sees the count go 4 -> 1: skipped */
	srvagg_hist_release(&h);
}

static void
test_prom(void)
{
	double le[] = { 1, 2, 4, INFINITY }, cum[] = { 0, 10, 10, 10 }, p[9];

	TEST("prom: rank in an empty first bucket uses 0..1",
	     srvagg_histq_prom(le, 4, cum, 10, p) && near(p[4], 1.5) &&
	     near(p[0], 1.01));
	double cum2[] = { 5, 5, 10, 10 };
	TEST("prom: empty middle bucket returns its lower bound",
	     srvagg_histq_prom(le, 4, cum2, 10, p) && p[4] == 1 && near(p[8], 3.96));
	TEST("prom: zero count gives nothing", !srvagg_histq_prom(le, 4, cum, 0, p));

	double le2[] = { 1, INFINITY }, bad[] = { -2e6, 1 };
	TEST("poly: millions of +Inf points from bucket counts going down refused",
	     !srvagg_histq_poly(le2, 2, bad, NULL, 5, 1, p));
	double fin[] = { 1, 2 };
	TEST("poly: no +Inf bucket still estimates",
	     srvagg_histq_poly(fin, 2, (double[]){ 2, 4 }, NULL, 4, 4, p) &&
	     p[0] > 0 && p[8] <= 2);
	TEST("poly: no finite bucket gives nothing",
	     !srvagg_histq_poly(le2 + 1, 1, (double[]){ 3 }, NULL, 4, 3, p));
}

static void
test_gpu(void)
{
	const struct srvagg_dcgm_field *f;
	struct srvagg_point p[] = { { 0, 5 }, { S, 7 }, { 2 * S, 9 }, { 3 * S, 6 } };
	struct srvagg_window w = { S / 2, INT64_MAX, 0 };
	struct srvagg_dist d;
	double delta;

	f = srvagg_dcgm_lookup("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION_total");
	TEST("dcgm: _total ignored, energy to MJ", f &&
	     !strcmp(f->key, "energy_consumption") && f->scale == 1e-9);
	f = srvagg_dcgm_lookup("DCGM_FI_DEV_FB_USED");
	TEST("dcgm: MiB to GB", f && f->scale == 1.048576e-3);
	f = srvagg_dcgm_lookup("DCGM_FI_PROF_SM_ACTIVE");
	TEST("dcgm: SM ratio to %", f && f->scale == 100 &&
	     !strcmp(srvagg_gpu_metric(f->key)->unit, "%"));
	TEST("dcgm: unknown field", !srvagg_dcgm_lookup("DCGM_FI_DEV_SM_CLOCK") &&
	     !srvagg_dcgm_lookup("_total"));
	TEST("gpu metrics in export order",
	     !strcmp(srvagg_gpu_metrics[0].display, "GPU Power Usage") &&
	     !strcmp(srvagg_gpu_metrics[11].unit, "us") &&
	     srvagg_gpu_metrics[10].counter && !srvagg_gpu_metrics[9].counter);
	/* np.std([7., 9., 6.], ddof=1) is 1.5275252316519465, not sqrt(7/3) */
	TEST("gpu gauge", srvagg_gpu_gauge(p, 4, &w, &d) == 1 && d.count == 3 &&
	     d.sum == 22 && d.std == 1.5275252316519465 && d.min == 6);
	TEST("gpu counter from the reference",
	     srvagg_gpu_counter(p, 4, &w, &delta) == 1 && delta == 1);
	w.start_ns = 2 * S + 1;
	TEST("gpu counter clamped at 0",
	     srvagg_gpu_counter(p, 4, &w, &delta) == 1 && delta == 0);
	w.start_ns = 4 * S;
	TEST("gpu: nothing in window", srvagg_gpu_gauge(p, 4, &w, &d) == 0 &&
	     srvagg_gpu_counter(p, 4, &w, &delta) == 0);
}

static void
test_unit(void)
{
	TEST_STR("unit: _seconds", srvagg_unit("vllm:e2e_request_latency_seconds", NULL), "seconds");
	TEST_STR("unit: longest suffix", srvagg_unit("x_milliseconds", ""), "milliseconds");
	TEST_STR("unit: _tokens_total", srvagg_unit("vllm:prompt_tokens_total", NULL), "tokens");
	TEST_STR("unit: _total is count", srvagg_unit("http_hits_total", NULL), "count");
	TEST_STR("unit: num_requests_", srvagg_unit("vllm:num_requests_running", NULL), "requests");
	TEST_STR("unit: _perc", srvagg_unit("vllm:gpu_cache_usage_perc", NULL), "percent");
	TEST_STR("unit: case-insensitive suffix", srvagg_unit("X_BYTES", NULL), "bytes");
	TEST_STR("unit: 1 means 100 percent is a ratio",
		 srvagg_unit("vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage."),
		 "ratio");
	TEST_STR("unit: (0.0-1.0) overrides _percent",
		 srvagg_unit("cache_hit_percent", "Hit rate (0.0-1.0)"), "ratio");
	TEST_STR("unit: 0 to 100%", srvagg_unit("util", "busy, 0 to 100%"), "percent");
	TEST_STR("unit: (in MiB)", srvagg_unit("DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB)."),
		 "megabytes");
	TEST_STR("unit: (in W)", srvagg_unit("p", "Power draw (in W)."), "watt");
	TEST_STR("unit: (in mJ) case-sensitive", srvagg_unit("e", "Energy (in mJ)"), "millijoule");
	TEST_STR("unit: in milliseconds", srvagg_unit("latency", "Request latency in milliseconds"),
		 "milliseconds");
	TEST_STR("unit: tokens/s", srvagg_unit("tput", "Throughput (tokens/s)"), "tokens/s");
	TEST_STR("unit: unknown tag falls through",
		 srvagg_unit("x_seconds", "odd (in furlongs)"), "seconds");
	TEST("unit: none", srvagg_unit("unknown_metric", "Something.") == NULL);
}

static void
test_reference(const char *self)
{
	const char *py = "/usr/bin/python3";
	char cmd[512];
	int rc;

	snprintf(cmd, sizeof(cmd),
		 "%s -c 'import numpy' 2>/dev/null", py);
	if (system(cmd) != 0) {
		printf("ok %d - numpy reference # SKIP no %s with numpy\n", ++test_n, py);
		return;
	}
	snprintf(cmd, sizeof(cmd),
		 "%s tests/unit/srvagg-ref.py tests/data/srvagg/stream.ndjson %s",
		 py, self);
	rc = system(cmd);
	TEST("every statistic matches the numpy reference (srvagg-ref.py)",
	     rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0);
}

int
main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--dump"))
		return dump(argv[2]);
	test_window();
	test_gauge();
	test_gauge_slices();
	test_counter();
	test_counter_slices();
	test_hist();
	test_hist_edges();
	test_hist_huge();
	test_hist_dominant();
	test_hist_slices();
	test_prom();
	test_gpu();
	test_unit();
	fflush(stdout);
	test_reference(argv[0]);
	return TEST_DONE();
}
