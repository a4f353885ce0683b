/* SPDX-License-Identifier: Apache-2.0 */
/* GPU telemetry: the DCGM field table and per-GPU aggregation (the original's gpu_telemetry/). */
#ifndef AIPERF_SRVAGG_GPU_H
#define AIPERF_SRVAGG_GPU_H

#include <stddef.h>

#include "srvagg/gauge.h"
#include "srvagg/window.h"

/* A DCGM exporter field and the telemetry key it fills, times scale. */
struct srvagg_dcgm_field {
	const char *dcgm;
	const char *key;
	double scale;
};

/* A telemetry metric in export order: key, display name, unit tag, counter. */
struct srvagg_gpu_metric {
	const char *key;
	const char *display;
	const char *unit;
	int counter;		/* cumulative: reported as one delta */
};

#define SRVAGG_NDCGM 11
#define SRVAGG_NGPU_METRICS 12
extern const struct srvagg_dcgm_field srvagg_dcgm_fields[SRVAGG_NDCGM];
extern const struct srvagg_gpu_metric srvagg_gpu_metrics[SRVAGG_NGPU_METRICS];

/*
 * The field for a DCGM sample name, a trailing "_total" ignored as the
 * original does, or NULL for a name it does not collect.
 */
const struct srvagg_dcgm_field *srvagg_dcgm_lookup(const char *name);

/* The metric for a telemetry key, or NULL. */
const struct srvagg_gpu_metric *srvagg_gpu_metric(const char *key);

/*
 * A gauge metric of one GPU: avg, min, max, sum, std (ddof=1) and p1..p99
 * of the samples in [start_ns, end_ns] (ascending timestamps). Returns 1,
 * or 0 when none is in the window (the metric is left out), -1 unsorted.
 */
int srvagg_gpu_gauge(const struct srvagg_point *p, size_t n,
		     const struct srvagg_window *w, struct srvagg_dist *d);

/*
 * A counter metric of one GPU: last in-window value - the last value
 * before start_ns (else the first in-window value), clamped at 0. Returns
 * 1 with *delta set, 0 when no sample is in the window, -1 unsorted.
 */
int srvagg_gpu_counter(const struct srvagg_point *p, size_t n,
		       const struct srvagg_window *w, double *delta);

#endif
