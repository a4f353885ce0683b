/* SPDX-License-Identifier: Apache-2.0 */
/* profile_export_aiperf.json as the original's pydantic model_dump_json(indent=2) writes it. */
#ifndef AIPERF_SUMMARY_JSONFILE_H
#define AIPERF_SUMMARY_JSONFILE_H

#include <stdint.h>
#include <stdio.h>

#include "json/json.h"
#include "summary/accuracy.h"
#include "summary/client.h"
#include "summary/gpu.h"
#include "summary/summary.h"

/*
 * struct exportopts borrows every string and the GPU telemetry it points
 * to; the writers read it and the summary, and own nothing.
 */
struct exportopts {
	const char *title;
	const char *benchmark_id;
	const char *version;
	const char *cli_command;
	const char *input_config;	/* JSON text or NULL */
	const char *run_info;	/* JSON object text (the planner's run_info fields) or NULL */
	int was_cancelled;
	int show_trace;		/* --show-trace-timing */
	const char *json_path, *csv_path;	/* written files, for the end lines */
	const char *slice_csv_path, *slice_json_path;
	const char *log_file;
	struct clientsum cs;
	const struct gpus *gpu;	/* --gpu-samples, or NULL */
	int gpu_console;	/* --gpu-console */
	const char *gpu_path;	/* gpu_telemetry_export.jsonl written */
	/* the accuracy.* entries (a results processor's, after the metrics',
	 * before ours), or NULL: none */
	const struct accsum *acc;
};

/* Write the JSON summary to f: 0, or -1 on a write error. */
int json_export(FILE *f, const struct summary *sm, const struct exportopts *o);
/* One metric's object (the timeslices' too). */
void json_metric(struct jw *w, const struct result *r);
/* "input_config": the text, with its secrets redacted; -1 when it does not parse. */
int json_input_config(struct jw *w, const char *text);
/* 1 when r is one the JSON summary writes. */
int result_exported(const struct result *r);
/* datetime.fromtimestamp(ns / 1e9).isoformat() */
void iso_local(int64_t ns, char out[64]);

#endif
