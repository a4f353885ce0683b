/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-aggregate: the collated per-request metrics of every run (the original's detailed aggregation). */
#ifndef AIPERF_COLLATE_H
#define AIPERF_COLLATE_H

#include <stddef.h>

#include "buf.h"
#include "runagg.h"

/*
 * For each metric of the successful runs' records (profiling phase, no
 * error, a numeric "value"), in the order first met: every value of every
 * run pooled, with mean, sample std, p50/p90/p95/p99 and count, and per
 * run its mean and count. dirs[i] is the folder of a's run i; records is
 * the records file's name in it. Appends the JSON (orjson, indent 2) to
 * out; returns 0, or -1 with a message printed when a records file cannot
 * be read whole. A run without its records file adds nothing.
 */
int collate_json(struct buf *out, const struct runagg *a, char *const *dirs,
		 const char *records, double cooldown_s, const char *version);

#endif
