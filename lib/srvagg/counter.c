/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Counter statistics (the original's server_metrics/_counter_stats.py).
 *
 * The reference is the last sample before start_ns, or else the first
 * sample in the window (whose increase is then lost). total = last
 * in-window value - reference value, clamped with Python's max(raw, 0.0):
 * a counter reset anywhere in between makes the whole total 0 when the
 * counter ends below the reference, and is otherwise ignored, so a reset
 * under-counts (the original only logs the number of decreases). NaN stays
 * NaN. rate = total / ((last ts - reference ts) / 1e9), 0 when that
 * duration is not positive.
 *
 * Slices: the reference plus the in-window samples form the series (at
 * least two samples, else an empty "timeslices" array). At each slice
 * boundary the value is that of the last sample at or before it (the
 * first sample when none is); a slice's total is max(end value - start
 * value, 0) as numpy.maximum (NaN kept) and its rate total / its length in
 * seconds, also for the partial last slice. rate_avg/min/max/std (std
 * ddof=1, 0 for one slice) come from the complete slices only and are
 * absent when there is none.
 */
#include "srvagg/counter.h"

#include <math.h>
#include <stdlib.h>

#include "stats/stats.h"
#include "util.h"

/* The reference + in-window series, built in s (n2 points). */
static size_t
build_series(const struct srvagg_point *p, size_t n, size_t first, size_t m,
	     struct srvagg_point **s)
{
	size_t k = 0;

	*s = xreallocarray(NULL, m + 1, sizeof(**s));
	if (first > 0)
		(*s)[k++] = p[first - 1];
	for (size_t i = 0; i < m && first + i < n; i++)
		(*s)[k++] = p[first + i];
	return k;
}

static size_t
at_or_before(const struct srvagg_point *s, size_t n, int64_t t)
{
	size_t i = srvagg_search(s, n, sizeof(*s), t, 1);

	return i ? i - 1 : 0;
}

static void
rate_stats(struct srvagg_counter *c)
{
	double *r = xreallocarray(NULL, c->nslices ? c->nslices : 1, sizeof(*r));
	size_t k = 0;

	for (size_t i = 0; i < c->nslices; i++)
		if (c->slices[i].complete)
			r[k++] = c->slices[i].rate;
	if (k) {
		struct srvagg_dist d;

		srvagg_dist(r, k, &d);
		c->has_rate_stats = 1;
		c->rate_avg = d.avg;
		c->rate_min = d.min;
		c->rate_max = d.max;
		c->rate_std = d.std;
	}
	free(r);
}

static void
counter_slices(const struct srvagg_point *p, size_t n, size_t first, size_t m,
	       const struct srvagg_window *w, struct srvagg_counter *c)
{
	struct srvagg_point *s;
	struct srvagg_bound *b;
	size_t ns = build_series(p, n, first, m, &s);
	long nb;

	c->has_slices = 1;
	nb = ns < 2 ? 0 : srvagg_slices(w, &b);
	if (nb <= 0) {
		free(s);
		return;
	}
	c->slices = xreallocarray(NULL, (size_t)nb, sizeof(*c->slices));
	c->nslices = (size_t)nb;
	for (long i = 0; i < nb; i++) {
		struct srvagg_counter_slice *cs = &c->slices[i];
		double d = s[at_or_before(s, ns, b[i].end_ns)].v -
			   s[at_or_before(s, ns, b[i].start_ns)].v;
		double secs = srvagg_secs(b[i].start_ns, b[i].end_ns);

		cs->start_ns = b[i].start_ns;
		cs->end_ns = b[i].end_ns;
		cs->complete = b[i].complete;
		cs->total = d >= 0 || isnan(d) ? d : 0;
		cs->rate = secs > 0 ? cs->total / secs : 0;
	}
	free(b);
	free(s);
	rate_stats(c);
}

int
srvagg_counter(const struct srvagg_point *p, size_t n,
	       const struct srvagg_window *w, struct srvagg_counter *c)
{
	size_t first, m;
	const struct srvagg_point *ref, *last;
	double secs;

	*c = (struct srvagg_counter){ 0 };
	if (!srvagg_sorted(p, n, sizeof(*p)) || srvagg_window_check(w) < 0)
		return -1;
	m = srvagg_in_window(p, n, w, &first);
	if (!m)
		return 0;
	ref = first > 0 ? &p[first - 1] : &p[first];
	last = &p[first + m - 1];
	c->raw_delta = last->v - ref->v;
	for (size_t i = first + 1; i < first + m; i++)
		c->resets += p[i].v < p[i - 1].v;
	c->total = 0.0 > c->raw_delta ? 0.0 : c->raw_delta;
	secs = last->ts_ns > ref->ts_ns ? srvagg_secs(ref->ts_ns, last->ts_ns) : 0.0;
	c->rate = secs > 0 ? c->total / secs : 0.0;
	if (w->slice_s > 0)
		counter_slices(p, n, first, m, w, c);
	return 1;
}

void
srvagg_counter_release(struct srvagg_counter *c)
{
	free(c->slices);
	*c = (struct srvagg_counter){ 0 };
}
