/* SPDX-License-Identifier: Apache-2.0 */
/* Metric records accumulated into per-metric values, counts, error groups and goodput. */
#ifndef AIPERF_SUMMARY_AGG_H
#define AIPERF_SUMMARY_AGG_H

#include <stddef.h>
#include <stdint.h>

#include "json/json.h"
#include "stats/metricdef.h"
#include "stats/stats.h"
#include "summary/client.h"
#include "summary/fastrec.h"

/*
 * struct agg owns everything it accumulates (value arrays, error groups,
 * goodput SLOs, the parsed record); agg_release() frees it.
 */

struct errgroup {
	int has_code;
	int64_t code;
	char *type;		/* NULL when absent */
	char *message;
	size_t count;
};

struct slo {
	const struct metricdef *def;
	size_t idx;		/* index into metricdefs */
	double base;		/* threshold in base units */
};

struct agg {
	struct stats_vec *vals;	/* per metricdef, base units */
	double *sums;		/* running sums in insertion order */
	struct slo *slo;
	size_t nslo;
	size_t valid, errors, warmup, good, usage_discrepancies;
	int have_usage_diff;
	int64_t min_req, max_resp, start_ns, end_ns;
	int have_req, have_resp, have_start, have_end;
	struct errgroup *errs;
	size_t nerrs, caperrs;
	struct json_doc *doc;
	struct client cl;
};

void agg_init(struct agg *a);
void agg_release(struct agg *a);
/* Add one metric record line. 1 = profiling record, 0 = warmup (dropped),
 * -1 = malformed (message in why). *rec: the parsed line, valid until the
 * next call. */
int agg_line(struct agg *a, const char *s, size_t n, const struct json **rec,
	     char *why, size_t whylen);
/* Add one parsed record (as agg_line). */
int agg_record(struct agg *a, const struct json *r, char *why, size_t whylen);
/* Add a record frec_scan() read, as agg_record() would: 1, 0 (warmup), or
 * -1 when the JSON path must take it (a would be left unchanged). */
int agg_fast(struct agg *a, const struct frec *fr);
void agg_copy_slos(struct agg *dst, const struct agg *src);
/* Base value back from a display value written as base * factor. */
double agg_to_base(double display, double factor);

#endif
