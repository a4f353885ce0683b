/* SPDX-License-Identifier: Apache-2.0 */
/* Histogram percentile estimates: the original's polynomial-histogram estimator and Prometheus histogram_quantile. */
#ifndef AIPERF_SRVAGG_HISTQ_H
#define AIPERF_SRVAGG_HISTQ_H

#include <stddef.h>
#include <stdint.h>

#include "srvagg/window.h"

/*
 * A histogram series as scraped: n samples (ascending ts) of nb buckets.
 * le[0..nb) are the bucket upper bounds, strictly ascending; a last bound
 * of +inf is the "+Inf" bucket. cum[i * nb + j] is sample i's cumulative
 * count of bucket j (the caller puts 0 for a bucket a sample lacks, as the
 * original does). All arrays are borrowed.
 */
struct srvagg_hist_in {
	size_t n, nb;
	const int64_t *ts;
	const double *sum, *count;
	const double *cum;
	const double *le;
};

/* What the estimator learned about one bucket from single-bucket scrape intervals. */
struct srvagg_bstat {
	double obs;		/* observations in those intervals */
	double wsum;		/* sum of interval mean * interval count */
	double *means;		/* each interval's mean, in time order */
	size_t nmeans;
};

/*
 * Learn per-bucket means from every scrape interval from sample `from` to
 * the last sample (not only up to the window end, as the original does).
 * Returns nb new entries; free with srvagg_learn_free(b, nb).
 */
struct srvagg_bstat *srvagg_learn(const struct srvagg_hist_in *h, size_t from);
void srvagg_learn_free(struct srvagg_bstat *b, size_t nb);

/*
 * The polynomial-histogram estimate of p1..p99 (the original's
 * compute_estimated_percentiles) from delta[0..nb), the window's deltas
 * of the cumulative bucket counts, the exact sum and count deltas and what
 * was learned (may be NULL). Returns 1 with pct filled, 0 when the
 * original gives none (count <= 0, sum not finite or negative, no finite
 * bucket, nothing to place).
 */
int srvagg_histq_poly(const double *le, size_t nb, const double *delta,
		      const struct srvagg_bstat *learned, double sum,
		      double count, double pct[SRVAGG_NPCT]);

/*
 * Prometheus-style linear interpolation (the original's
 * compute_prometheus_percentiles) over delta[0..nb) with the given total
 * count. Returns 1 with pct filled, 0 when count is 0 or nb is 0.
 */
int srvagg_histq_prom(const double *le, size_t nb, const double *delta,
		      double count, double pct[SRVAGG_NPCT]);

#endif
