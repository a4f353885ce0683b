/* SPDX-License-Identifier: Apache-2.0 */
/* Histogram statistics over the profiling window (the original's _histogram_stats.py). */
#ifndef AIPERF_SRVAGG_HIST_H
#define AIPERF_SRVAGG_HIST_H

#include <stddef.h>
#include <stdint.h>

#include "srvagg/histq.h"
#include "srvagg/window.h"

struct srvagg_hist_slice {
	int64_t start_ns, end_ns;
	double count, sum, avg;
	double *buckets;	/* nb cumulative deltas; NULL after a bucket reset */
	int complete;
};

/*
 * Counts are whole numbers held in doubles (Python ints in the original):
 * exact up to 2^53. buckets[j] is the window's increase of the cumulative
 * counter of le[j], so the values are cumulative across buckets as in the
 * original's "buckets" object.
 */
struct srvagg_hist {
	double count;		/* int(count delta) */
	int empty;		/* count == 0: only count and buckets are reported */
	int reset;		/* the sum or count delta is negative (the original warns) */
	double sum, avg;
	int has_rates;		/* the window's samples span a positive time */
	double count_rate, sum_rate;
	double *buckets;	/* NULL: no "buckets" key (a bucket went down) */
	int has_est;		/* p*_estimate from the polynomial estimator */
	double est[SRVAGG_NPCT];
	int has_prom;		/* Prometheus histogram_quantile, the fallback */
	double prom[SRVAGG_NPCT];
	struct srvagg_hist_slice *slices;	/* NULL: no "timeslices" key */
	size_t nslices, nb;
};

/*
 * Statistics of h over the window. Returns 1 with out filled (free with
 * srvagg_hist_release), 0 when the series has no sample or its count
 * delta is not finite (the original fails there), -1 when h is unsorted,
 * its bounds are not strictly ascending or the slice duration is invalid.
 */
int srvagg_hist(const struct srvagg_hist_in *h, const struct srvagg_window *w,
		struct srvagg_hist *out);
void srvagg_hist_release(struct srvagg_hist *out);

#endif
