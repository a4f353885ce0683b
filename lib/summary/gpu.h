/* SPDX-License-Identifier: Apache-2.0 */
/* GPU telemetry from DCGM / NVML sample records (--gpu-samples): the summary's telemetry_data, the CSV's section, the console tables. */
#ifndef AIPERF_SUMMARY_GPU_H
#define AIPERF_SUMMARY_GPU_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "buf.h"
#include "json/json.h"

struct gurl {
	char *url;
	int ok;			/* a scrape of it worked */
};

/* Owns everything in it but the custom metrics' names; gpu_release() frees it. */
struct gpus {
	struct gdev *d;		/* one per endpoint and GPU UUID */
	size_t n;
	struct gmetric *met;	/* the metrics in export order */
	size_t nmet;
	char **own;		/* names gpu_metric_add copied */
	size_t nown;
	struct gurl *urls;	/* endpoints in the order first seen */
	size_t nurls;
	struct buf jsonl;	/* gpu_telemetry_export.jsonl's lines */
	size_t lines;
	int64_t start_ns, end_ns;	/* the profiling window (end: for start/end_time) */
	int have_start, have_end;
};

void gpu_init(struct gpus *g);
void gpu_release(struct gpus *g);
/* Collect a custom CSV's metric too (before any sample is added); m
 * must outlive g. 0 when added, 1 when it is a field the original
 * collects anyway (skipped), -1 when its telemetry key is taken already. */
struct gpucsv_metric;
int gpu_custom_add(struct gpus *g, const struct gpucsv_metric *m);
/* Add one line of sample records: 0, or -1 with why when it is not one. */
int gpu_line(struct gpus *g, struct json_doc *doc, const char *s, size_t n, char *why,
	     size_t whylen);
/*
 * aiperf-validate: the telemetry again from gpu_telemetry_export.jsonl.
 * gpu_metric_add() (before any record) names a metric key the summary
 * has beyond the original's (a custom one, a gauge) and its unit;
 * gpu_endpoint() an endpoint of the summary, in order, ok when it was
 * successful; gpu_record() adds one TelemetryRecord line: 0, or -1 with
 * why (not one, a metric key not known).
 */
void gpu_metric_add(struct gpus *g, const char *key, const char *unit);
void gpu_endpoint(struct gpus *g, const char *url, int ok);
int gpu_record(struct gpus *g, struct json_doc *doc, const char *s, size_t n, char *why,
	       size_t whylen);
/* The profiling window: samples from start on count (no end bound). */
void gpu_window(struct gpus *g, int have_start, int64_t start_ns, int have_end,
		int64_t end_ns);
/* 1 when some GPU reported something. */
int gpu_have(const struct gpus *g);
/* "telemetry_data" (nothing without GPUs); iso formats a time as start_time. */
void gpu_json(struct jw *w, const struct gpus *g, void (*iso)(int64_t, char *));
/* The CSV's GPU section (nothing without GPUs). */
int gpu_csv(FILE *f, const struct gpus *g);
/* gpu_telemetry_export.jsonl */
int gpu_jsonl(FILE *f, const struct gpus *g);
/* A console table of nrows x ncols cells under head, drawn by the caller. */
typedef void gpu_grid_fn(FILE *f, const char *title, size_t ncols, const char *const *head,
			 char **cells, size_t nrows);
/* --gpu-console: the GPU telemetry tables, each drawn by grid. */
void gpu_console(FILE *f, const struct gpus *g, gpu_grid_fn *grid);

#endif
