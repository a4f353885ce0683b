/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-aggregate: the collated per-request metrics of every run (the original's detailed aggregation). */
#ifndef AIPERF_COLLATE_H
#define AIPERF_COLLATE_H

#include <stddef.h>

#include "buf.h"
#include "runagg.h"

/*
 * A struct collate pools, for each metric of the runs' records (profiling
 * phase, no error, a numeric "value"), in the order first met, every
 * value of every run, brought to the metric's unit (its first value's;
 * unitconv_factor()). What it leaves out is named, by run: a records
 * file that cannot be read, or not whole (a missing one too, a FIFO, a
 * directory: lines_open()), records that are no JSON object or longer
 * than 16 MiB, values in a unit that cannot be converted, values past
 * its cap.
 *
 * collate_new(metric): only that metric when not NULL. collate_free()
 * frees all of it.
 */
struct collate;

struct collate *collate_new(const char *metric);
void collate_free(struct collate *c);

/*
 * Read run RUN's records, DIR/RECORDS (runs in increasing order). Returns
 * 0, or -1 when the file could not be read whole: then nothing of the
 * run is kept, and the run is noted as left out with why.
 */
int collate_add_run(struct collate *c, const char *dir, const char *records,
		    size_t run);

/* Run RUN's values of METRIC, in order: their count, and *v (owned by c). */
size_t collate_values(const struct collate *c, const char *metric, size_t run,
		      const double **v);

/*
 * The i-th note of what was left out, by run: the run, the metric (NULL:
 * the whole file or some of its records) and why. 1, or 0 past the last.
 */
int collate_left_out(const struct collate *c, size_t i, size_t *run,
		     const char **metric, const char **why);

/*
 * profile_export_aiperf_collated.json (orjson, indent 2) for a's runs
 * read into c, appended to out: each metric with every value of all runs
 * pooled (mean, sample std, p50/p90/p95/p99 and count) and per run its
 * mean and count. What was left out: in metadata's "runs_left_out"
 * [{label, error}] (a whole file, records) and a metric's
 * "runs_left_out" [{label, error}] (its values), when there is any.
 */
void collate_json(struct buf *out, const struct collate *c,
		  const struct runagg *a, double cooldown_s, const char *version);

#endif
