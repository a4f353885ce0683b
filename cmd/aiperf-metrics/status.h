/* SPDX-License-Identifier: Apache-2.0 */
/* --status-fd: the run so far as NDJSON status lines, for a live view (aiperf-ui). */
#ifndef AIPERF_STATUS_H
#define AIPERF_STATUS_H

#include <stdint.h>

struct rec;

/* What the status stream takes from one record, after its metrics. */
struct status_item {
	int warmup, error;
	int64_t start_ns, end_ns;	/* -1: unknown */
	int64_t late_ns;		/* start - intended; INT64_MIN: unknown */
	int64_t ttft_ns, lat_ns;	/* -1: not applicable */
	double itl_ns;			/* < 0: not applicable */
	int64_t osl;			/* output tokens, -1: unknown */
	char etype[48];			/* error type, "" when none */
};

/*
 * A status line is written at most twice a second (when records arrive)
 * and once at the end with "end":true; the fd is non-blocking and a line
 * that does not fit the pipe is dropped, so a slow reader costs nothing.
 * Percentiles come from log-linear histograms (under 1% relative error).
 * At the end the writer waits up to 5 s for the reader to close its end,
 * so that a full-screen view is gone before the next stage prints.
 */
struct status;

struct status *status_new(int fd);
void status_record(struct status *s, const struct status_item *it);
void status_end(struct status *s);	/* the last line; frees s */

/* compute.c: r's item, once rec_emit() ran (warmup: only the counts). */
void rec_status_of(const struct rec *r, struct status_item *it);

#endif
