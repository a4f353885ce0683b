/* SPDX-License-Identifier: Apache-2.0 */
/* Gauge statistics over the profiling window (the original's _gauge_stats.py). */
#ifndef AIPERF_SRVAGG_GAUGE_H
#define AIPERF_SRVAGG_GAUGE_H

#include <stddef.h>
#include <stdint.h>

#include "srvagg/window.h"

/* One scraped value of a gauge or counter series. */
struct srvagg_point {
	int64_t ts_ns;
	double v;
};

/* numpy's mean, min, max, sum, std(ddof=1; 0 for one value) and linear percentiles. */
struct srvagg_dist {
	size_t count;
	double sum, avg, min, max, std;
	double pct[SRVAGG_NPCT];	/* p1 p5 p10 p25 p50 p75 p90 p95 p99 */
};

/*
 * Fill d from v[0..n), n > 0, exactly as numpy computes each value in the
 * given order (pairwise sums); any NaN makes every value NaN as numpy's
 * min, max and percentile do. v is not modified.
 */
void srvagg_dist(const double *v, size_t n, struct srvagg_dist *d);

struct srvagg_gauge_slice {
	int64_t start_ns, end_ns;
	double avg, min, max;
	int complete;
};

struct srvagg_gauge {
	struct srvagg_dist st;		/* st.sum is not part of the original's output */
	struct srvagg_gauge_slice *slices;	/* NULL: no "timeslices" key */
	size_t nslices;
};

/*
 * Statistics of the samples p[0..n) (ascending timestamps) inside the
 * window. Returns 1 with g filled (free with srvagg_gauge_release), 0 when
 * no sample lies in the window (the original leaves the series out), -1
 * when p is not sorted or the slice duration is invalid.
 */
int srvagg_gauge(const struct srvagg_point *p, size_t n,
		 const struct srvagg_window *w, struct srvagg_gauge *g);
void srvagg_gauge_release(struct srvagg_gauge *g);

/* The samples of p[0..n) inside [start, end]: sets *first, returns the count. */
size_t srvagg_in_window(const struct srvagg_point *p, size_t n,
			const struct srvagg_window *w, size_t *first);

#endif
