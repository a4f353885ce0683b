/* SPDX-License-Identifier: Apache-2.0 */
/* The profiling window and its time slices, as the original's server-metrics export cuts them. */
#ifndef AIPERF_SRVAGG_WINDOW_H
#define AIPERF_SRVAGG_WINDOW_H

#include <stddef.h>
#include <stdint.h>

/*
 * The srvagg_* modules (window, gauge, counter, histq, hist, gpu, unit) are
 * the aggregation math of the original's server_metrics/ and gpu_telemetry/
 * packages as pure functions: no I/O, no printing. Inputs are borrowed and
 * never modified; every result struct owns its arrays and is freed with its
 * *_release() function (which accepts a zeroed struct).
 *
 * A window is [start_ns, end_ns], both inclusive, on the samples' clock.
 * Samples before start_ns only serve as the reference ("last sample before
 * start") of counters and histograms. No lower bound: INT64_MIN; no upper
 * bound: INT64_MAX. The original's server-metrics end is
 * max(profiling end, the endpoint's last non-duplicate scrape), which
 * takes in the final scrape after profiling; the caller computes it.
 * slice_s > 0 asks for time slices of that many seconds.
 */
struct srvagg_window {
	int64_t start_ns, end_ns;
	double slice_s;
};

/* The nine percentiles every distribution reports: 1 5 10 25 50 75 90 95 99. */
#define SRVAGG_NPCT 9
extern const double srvagg_pct[SRVAGG_NPCT];

/*
 * numpy.searchsorted over the int64 timestamp that starts each element of
 * base[0..n) (elements of the given size, ascending timestamps): the first
 * index whose timestamp is >= t (right = 0) or > t (right = 1).
 */
size_t srvagg_search(const void *base, size_t n, size_t size, int64_t t,
		     int right);

struct srvagg_bound {
	int64_t start_ns, end_ns;
	int complete;		/* 0: the last, partial slice */
};

/*
 * Slices of the window: starts at start_ns, start_ns + d, ... while below
 * end_ns, each ending d later but clipped to end_ns (then not complete),
 * with d = (int64)(slice_s * 1e9) truncated as the original does.
 * Returns the count and stores a new array in *out (NULL when none), or -1
 * when slice_s is not positive and finite, d is under 1 ns, the window
 * is not finite (INT64_MIN/INT64_MAX bounds) or it would take more than
 * SRVAGG_MAX_SLICES slices.
 */
#define SRVAGG_MAX_SLICES 1000000
long srvagg_slices(const struct srvagg_window *w, struct srvagg_bound **out);

/* (to - from) / 1e9 as numpy divides an int64 duration, for to >= from. */
static inline double
srvagg_secs(int64_t from, int64_t to)
{
	return (double)((uint64_t)to - (uint64_t)from) / 1e9;
}

/* 0 when w asks for no slices or valid ones, else -1 (see srvagg_slices). */
int srvagg_window_check(const struct srvagg_window *w);

/* 1 if ts[i] of base[0..n) never decreases, else 0. */
int srvagg_sorted(const void *base, size_t n, size_t size);

#endif
