/* SPDX-License-Identifier: Apache-2.0 */
/* Custom GPU metrics CSV (--gpu-telemetry FILE.csv): extra DCGM fields to collect. */
#ifndef AIPERF_GPUCSV_H
#define AIPERF_GPUCSV_H

#include <stddef.h>

/*
 * dcgm-exporter's counters file format, as the original reads it
 * (gpu_telemetry/metrics_config.py): one "DCGM_FIELD, type, help" per
 * line, '#' comments and blank lines skipped, the help free to hold
 * commas. Each metric gets a telemetry key (the field less every
 * "DCGM_FI_DEV_", lower case), a display name (the help before its first
 * '(', title-cased with GPU, SM, XID, ... in capitals) and a unit tag
 * from "(in UNIT)" in the help ("count" when none or unknown).
 */
struct gpucsv_metric {
	char *dcgm;		/* DCGM_FI_... */
	char *key;		/* telemetry key, e.g. sm_clock */
	char *display;		/* e.g. SM Clock Frequency */
	const char *unit;	/* static tag: W, %, MHz, ..., count */
	int counter;		/* the type column said counter */
};

struct gpucsv {
	struct gpucsv_metric *m;
	size_t n;
};

#define GPUCSV_MAX 256		/* metrics; more are skipped */
#define GPUCSV_MAX_LINE 4096	/* bytes; a longer line is skipped */

/*
 * Parse a whole file's text. A line that is not a metric (not three
 * fields, a field not DCGM_FI_ + a metric name, a type not gauge or
 * counter, one past GPUCSV_MAX or too long, a field named twice) is left
 * out and reported through warnf(ctx, line number, reason) when warnf is
 * not NULL. Never fails: *c holds what was taken; gpucsv_release frees it.
 */
void gpucsv_parse(struct gpucsv *c, const char *s, size_t n,
		  void (*warnf)(void *ctx, size_t lineno, const char *why), void *ctx);
void gpucsv_release(struct gpucsv *c);

/* The unit tag for a help text: "(in UNIT)", case-insensitive. */
const char *gpucsv_unit(const char *help, size_t n);

#endif
