/* SPDX-License-Identifier: Apache-2.0 */
/* The artifact files of a run: their names for a prefix, and which ones an export level writes. */
#ifndef AIPERF_ARTIFACTS_H
#define AIPERF_ARTIFACTS_H

#include <stdio.h>

/*
 * The one place that names the files aiperf-export writes and
 * aiperf-validate looks for. Every path returned is malloc'd and the
 * caller's to free; nothing here touches the file system.
 */

enum level { LEVEL_SUMMARY, LEVEL_RECORDS, LEVEL_RAW };	/* --export-level */

/* The artifacts, in --list-files order. */
enum artifact { ART_JSON, ART_CSV, ART_RECORDS, ART_RAW, ART_SLICE_CSV, ART_SLICE_JSON,
		ART_SRV_JSON, ART_SRV_CSV, ART_SRV_JSONL, ART_SRV_PARQUET, ART_GPU, ART_ACCURACY,
		ART_N };

/* The bit of a server metrics artifact (ART_SRV_*) in artifacts_written()'s srv. */
#define ARTIFACTS_SRV_BIT(k) (1u << ((k) - ART_SRV_JSON))

/* 1 when --profile-export-prefix names files (not "", "/", "_raw.jsonl"...). */
int artifacts_prefix_ok(const char *prefix);
/* Artifact k's path in dir (malloc'd): the default name, or the stem of
 * prefix (NULL: none) and k's suffix; see aiperf-export(1). NULL when
 * prefix names no file (artifacts_prefix_ok() is 0). ART_ACCURACY is
 * dir/accuracy_results.csv whatever the prefix, as the original names it. */
char *artifacts_path(const char *dir, const char *prefix, enum artifact k);
/* 1 when a run at this level (and with timeslices or not, and the server
 * metrics formats srv, ARTIFACTS_SRV_BIT() bits) writes k. */
int artifacts_written(enum artifact k, enum level level, int slices, unsigned srv);
/* --list-files: "kind\tpath" lines, the files written first (gpu: the GPU
 * telemetry too), then the others as "other" (accuracy_results.csv among
 * them: only the records say whether a run writes it); -1 when prefix
 * names no file. */
int artifacts_list(FILE *f, const char *dir, const char *prefix, enum level level, int slices,
		   unsigned srv, int gpu);

#endif
