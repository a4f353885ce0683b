/* SPDX-License-Identifier: Apache-2.0 */
/* Exact summary statistics as numpy computes them: pairwise sums, population std, linear percentiles. */
#ifndef AIPERF_STATS_H
#define AIPERF_STATS_H

#include <stddef.h>

/*
 * struct stats_vec owns a growable array of doubles (8 bytes a value: the
 * only per-record memory the exporter keeps). stats_summarize() reads the
 * values in insertion order for sum/mean/std (numpy's pairwise summation
 * depends on order) and then sorts them in place for min/max/percentiles.
 */
struct stats_vec {
	double *v;
	size_t n, cap;
};

struct stats {
	size_t count;
	double sum, avg, min, max, std;
	double p1, p5, p10, p25, p50, p75, p90, p95, p99;
};

void stats_vec_init(struct stats_vec *s);
void stats_vec_release(struct stats_vec *s);
void stats_vec_push(struct stats_vec *s, double v);

/* numpy.add.reduce over v[0..n) (pairwise summation, blocks of 128). */
double stats_sum(const double *v, size_t n);
/* numpy.percentile(sorted, p) with the default linear method; sorted ascending, n > 0. */
double stats_percentile(const double *sorted, size_t n, double p);
/* Fill st from s (n > 0); sorts s->v. Returns -1 when s is empty. */
int stats_summarize(struct stats_vec *s, struct stats *st);
/* Population (ddof=0) or sample (ddof=1) std as numpy.std, in input order. */
double stats_std(const double *v, size_t n, int ddof);

#endif
