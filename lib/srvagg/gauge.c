/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Gauge statistics (the original's server_metrics/_gauge_stats.py).
 *
 * The samples counted are those with start_ns <= ts <= end_ns (both
 * inclusive, searchsorted left/right); earlier samples are ignored. No
 * sample there: the series is left out of the export. avg, min, max, std
 * (sample, ddof=1; exactly 0.0 for a single sample) and the numpy-linear
 * percentiles p1..p99 are taken over the values in time order.
 *
 * Slices (only with at least two samples in the window): each slice takes
 * the samples with slice start <= ts < slice end, except that the last
 * slice also takes samples at exactly its end when the last sample sits
 * there; slices without samples are left out, and when all are empty there
 * is no "timeslices" key at all. A slice reports avg, min and max only.
 */
#include "srvagg/gauge.h"

#include <math.h>
#include <stdlib.h>

#include "stats/stats.h"
#include "util.h"

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void
all_nan(struct srvagg_dist *d)
{
	d->sum = d->avg = d->min = d->max = d->std = NAN;
	for (size_t i = 0; i < SRVAGG_NPCT; i++)
		d->pct[i] = NAN;
}

void
srvagg_dist(const double *v, size_t n, struct srvagg_dist *d)
{
	double *s;

	d->count = n;
	for (size_t i = 0; i < n; i++)
		if (isnan(v[i])) {
			all_nan(d);
			return;
		}
	d->sum = stats_sum(v, n);
	d->avg = d->sum / (double)n;
	d->std = n > 1 ? stats_std(v, n, 1) : 0.0;
	s = xreallocarray(NULL, n, sizeof(*s));
	for (size_t i = 0; i < n; i++)
		s[i] = v[i];
	qsort(s, n, sizeof(*s), cmp_double);
	d->min = s[0];
	d->max = s[n - 1];
	for (size_t i = 0; i < SRVAGG_NPCT; i++)
		d->pct[i] = stats_percentile(s, n, srvagg_pct[i]);
	free(s);
}

size_t
srvagg_in_window(const struct srvagg_point *p, size_t n,
		 const struct srvagg_window *w, size_t *first)
{
	size_t lo = srvagg_search(p, n, sizeof(*p), w->start_ns, 0);
	size_t hi = srvagg_search(p, n, sizeof(*p), w->end_ns, 1);

	*first = lo;
	return hi > lo ? hi - lo : 0;
}

/* numpy min/max/mean of v[0..n), n > 0: NaN wins. */
static void
slice_stats(const double *v, size_t n, struct srvagg_gauge_slice *s)
{
	s->min = s->max = v[0];
	for (size_t i = 0; i < n; i++) {
		if (isnan(v[i])) {
			s->min = s->max = s->avg = NAN;
			return;
		}
		if (v[i] < s->min)
			s->min = v[i];
		if (v[i] > s->max)
			s->max = v[i];
	}
	s->avg = stats_sum(v, n) / (double)n;
}

static int
gauge_slices(const struct srvagg_point *p, const double *v, size_t n,
	     const struct srvagg_window *w, struct srvagg_gauge *g)
{
	struct srvagg_bound *b;
	long nb = srvagg_slices(w, &b);

	if (nb < 0)
		return -1;
	if (n < 2 || nb == 0) {
		free(b);
		return 0;
	}
	g->slices = xreallocarray(NULL, (size_t)nb, sizeof(*g->slices));
	for (long i = 0; i < nb; i++) {
		size_t lo = srvagg_search(p, n, sizeof(*p), b[i].start_ns, 0);
		size_t hi = srvagg_search(p, n, sizeof(*p), b[i].end_ns, 0);
		struct srvagg_gauge_slice *s = &g->slices[g->nslices];

		if (i == nb - 1 && b[i].end_ns == p[n - 1].ts_ns)
			hi = n;
		if (lo >= hi)
			continue;
		s->start_ns = b[i].start_ns;
		s->end_ns = b[i].end_ns;
		s->complete = b[i].complete;
		slice_stats(v + lo, hi - lo, s);
		g->nslices++;
	}
	free(b);
	if (!g->nslices) {
		free(g->slices);
		g->slices = NULL;
	}
	return 0;
}

int
srvagg_gauge(const struct srvagg_point *p, size_t n,
	     const struct srvagg_window *w, struct srvagg_gauge *g)
{
	size_t first, m;
	double *v;
	int rc = 1;

	*g = (struct srvagg_gauge){ 0 };
	if (!srvagg_sorted(p, n, sizeof(*p)) || srvagg_window_check(w) < 0)
		return -1;
	m = srvagg_in_window(p, n, w, &first);
	if (!m)
		return 0;
	v = xreallocarray(NULL, m, sizeof(*v));
	for (size_t i = 0; i < m; i++)
		v[i] = p[first + i].v;
	srvagg_dist(v, m, &g->st);
	if (w->slice_s > 0 && gauge_slices(p + first, v, m, w, g) < 0)
		rc = -1;
	free(v);
	if (rc < 0)
		srvagg_gauge_release(g);
	return rc;
}

void
srvagg_gauge_release(struct srvagg_gauge *g)
{
	free(g->slices);
	*g = (struct srvagg_gauge){ 0 };
}
