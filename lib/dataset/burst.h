/* SPDX-License-Identifier: Apache-2.0 */
/* BurstGPT traces: the CSV columns aiperf-gen's burst_gpt_trace and aiperf-trace convert read, and each row's values. */
#ifndef AIPERF_BURST_H
#define AIPERF_BURST_H

#include <stddef.h>
#include <stdint.h>

#include "dataset/csv.h"

/*
 * The original's BurstGPTTraceDatasetLoader: the first record names the
 * columns (csv.DictReader), and Timestamp (seconds), Request tokens and
 * Response tokens must be among them, named exactly; the last of a name
 * counts. A row whose values do not parse (float(), int()) is skipped,
 * as the original skips it; one whose values parse but are impossible
 * (field_check(): FIELD_SECONDS, FIELD_TOKENS) is an error.
 */
struct burst {
	long col[3];		/* Timestamp, Request tokens, Response tokens */
};

struct burst_row {
	double ts;		/* seconds */
	const char *ts_text;	/* its text, as the record holds it */
	int64_t in, out;
};

extern const char *const burst_columns[3];

/* c's record as the header: 0, or -1 with "Missing required column
 * 'Timestamp'" (the original's words) in err. */
int burst_header(struct burst *b, const struct csv *c, char *err, size_t errlen);

/* c's record as a row: 1 with r filled, 0 to skip it, or -1 with the
 * reason ("'Request tokens': must not be negative") in err. */
int burst_row(const struct burst *b, const struct csv *c, struct burst_row *r,
	      char *err, size_t errlen);

#endif
