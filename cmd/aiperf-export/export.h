/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-export internals: the artifact files, the console tables, the GPU telemetry input. */
#ifndef AIPERF_EXPORT_H
#define AIPERF_EXPORT_H

#include "artifacts.h"
#include "linefile.h"
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "summary/accuracy.h"
#include "summary/agg.h"
#include "summary/client.h"
#include "summary/csvfile.h"
#include "summary/gpu.h"
#include "summary/jsonfile.h"
#include "summary/runcfg.h"
#include "summary/slices.h"
#include "summary/summary.h"

/*
 * The summary, its aggregation and its writers are lib/summary's (shared
 * with aiperf-validate); here: the files, the console and the GPU input.
 * struct files owns its paths; files_release() frees them.
 */

/* table.c: say so when the client, not the server, may have set the numbers. */
void client_warn(const struct clientsum *cs, const struct summary *sm, double cpu_seconds);

/* gpuin.c: collect the custom CSV's metrics too (before any sample is
 * added); c must outlive g. A telemetry key taken already is a warning
 * naming path. */
struct gpucsv;
void gpu_custom(struct gpus *g, const struct gpucsv *c, const char *path);
/* Add a file of sample records; anything wrong is a warning: -1 unreadable. */
int gpu_read(struct gpus *g, const char *path);

/* files.c */
struct files {
	char *json, *csv, *jsonl, *slice_csv, *slice_json;	/* NULL: not written */
	char *gpu;		/* gpu_telemetry_export.jsonl */
	struct linefile *records;	/* the profile_export.jsonl copy, open while reading */
	struct linefile rec;
};

/* Create dir (and each file's directory); open the records copy. */
void files_open(struct files *fl, const char *dir, const char *prefix, enum level level,
		int slices);
/* Write the summaries (and timeslices); set eo's paths for the end lines. */
void files_write(const struct files *fl, const struct summary *sm, struct slices *sl,
		 struct exportopts *eo);
void files_release(struct files *fl, struct exportopts *eo);
/* path made absolute against the working directory (malloc'd) */
char *files_absolute(const char *path);

/* accuracy.c: the graded records' accuracy, summed by lib/summary/accuracy. */
/* The console table (none when nothing was graded). */
void acc_table(FILE *f, const struct accsum *a);
/* Write dir/accuracy_results.csv (none without a grade or dir); its
 * path (malloc'd) or NULL. Failures die(). */
char *acc_csv(const struct accsum *a, const char *dir);

/* table.c */
/* o->acc: the accuracy table; acc_csv_path: accuracy_results.csv, or NULL. */
void table_print(FILE *f, const struct summary *sm, const struct exportopts *o,
		 const char *acc_csv_path);
/* The accuracy table: rich's show_lines=True (a rule between rows), the
 * first column left-justified and at least 30 wide, the others right. */
void table_accuracy(FILE *f, const char *title, size_t ncols, const char *const *head,
		    char **cells, size_t nrows);
/* One console table (rich's heavy-head box) of nrows x ncols cells. */
void table_grid(FILE *f, const char *title, size_t ncols, const char *const *head,
		char **cells, size_t nrows);

#endif
