/* SPDX-License-Identifier: Apache-2.0 */
/* Counter totals and rates over the profiling window (the original's _counter_stats.py). */
#ifndef AIPERF_SRVAGG_COUNTER_H
#define AIPERF_SRVAGG_COUNTER_H

#include <stddef.h>
#include <stdint.h>

#include "srvagg/gauge.h"
#include "srvagg/window.h"

struct srvagg_counter_slice {
	int64_t start_ns, end_ns;
	double total, rate;
	int complete;
};

struct srvagg_counter {
	double total, rate;
	double raw_delta;	/* last - reference before clamping (for the warning) */
	size_t resets;		/* decreases between in-window samples */
	int has_rate_stats;	/* rate_avg/min/max/std over complete slices */
	double rate_avg, rate_min, rate_max, rate_std;
	int has_slices;		/* 1: a "timeslices" array, possibly empty */
	struct srvagg_counter_slice *slices;
	size_t nslices;
};

/*
 * Total and rate of the counter samples p[0..n) (ascending timestamps)
 * over the window, plus slices when w->slice_s > 0. Returns 1 with c
 * filled (free with srvagg_counter_release), 0 when no sample lies in the
 * window (series left out), -1 on unsorted input or an invalid slice
 * duration.
 */
int srvagg_counter(const struct srvagg_point *p, size_t n,
		   const struct srvagg_window *w, struct srvagg_counter *c);
void srvagg_counter_release(struct srvagg_counter *c);

#endif
