/* SPDX-License-Identifier: Apache-2.0 */
/* The run summary: an agg's values as results (statistics, aggregates, derived metrics) in display units. */
#ifndef AIPERF_SUMMARY_SUMMARY_H
#define AIPERF_SUMMARY_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "stats/metricdef.h"
#include "stats/stats.h"
#include "summary/agg.h"

/*
 * struct summary owns its results array (summary_release() frees it) and
 * borrows the rest from the agg it was built from: it lives no longer
 * than that agg.
 */

/* One result, in display units. */
struct result {
	const struct metricdef *def;
	int dist;		/* 1: distribution (all stats); 0: scalar, avg only */
	struct stats st;
};

struct summary {
	struct result *res;	/* in metricdefs (computation) order */
	size_t nres;
	const struct errgroup *errs;
	size_t nerrs;
	size_t valid, errors, warmup;
	int64_t start_ns, end_ns;
	int have_start, have_end;
	const struct result *duration;	/* benchmark_duration or NULL */
};

/* The summary of a's records (sorts a's values). */
void agg_summary(struct agg *a, struct summary *sm);
void summary_release(struct summary *sm);
/* The result of metric tag, or NULL. */
const struct result *summary_find(const struct summary *sm, const char *tag);

#endif
