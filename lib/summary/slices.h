/* SPDX-License-Identifier: Apache-2.0 */
/* Timeslices (--slice-duration): records grouped by epoch-aligned windows, each summarised on its own. */
#ifndef AIPERF_SUMMARY_SLICES_H
#define AIPERF_SUMMARY_SLICES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "json/json.h"
#include "summary/agg.h"
#include "summary/jsonfile.h"
#include "summary/summary.h"

/* struct slices owns its slices, each its agg and summary; slices_release() frees them. */
struct slice {
	int64_t idx;		/* floor(request_start_ns / width) */
	struct agg a;
	struct summary sm;	/* after slices_finish() */
};

struct slices {
	int64_t width_ns;	/* 0: off */
	struct slice *v;
	size_t n, cap;
	int done;
};

void slices_init(struct slices *sl, double seconds);
void slices_release(struct slices *sl);
/* Add a profiling record to its slice; -1 with why past the slice cap. */
int slices_add(struct slices *sl, const struct agg *proto, const struct json *r,
	       char *why, size_t whylen);
/* The same for a record frec_scan() read (agg_fast() took it). */
int slices_add_fast(struct slices *sl, const struct agg *proto, const struct frec *fr,
		    char *why, size_t whylen);
/* Summarise every slice (once: statistics sort the values). */
void slices_finish(struct slices *sl);
/* The timeslice files: 0, or -1 on a write error. */
int slices_json(FILE *f, struct slices *sl, const struct exportopts *o);
int slices_csv(FILE *f, struct slices *sl);

#endif
