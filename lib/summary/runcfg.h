/* SPDX-License-Identifier: Apache-2.0 */
/* The run as the summary sees it: --goodput checked against what its endpoint type and options can measure. */
#ifndef AIPERF_SUMMARY_RUNCFG_H
#define AIPERF_SUMMARY_RUNCFG_H

#include <stddef.h>

#include "endpoint.h"
#include "summary/agg.h"

/* The endpoint type is lib/endpoint's (static): nothing here is freed by
 * the caller but the SLOs agg_goodput() adds, which belong to the agg. */

/* What the run measured, for the original's metric filters. */
struct runcfg {
	const struct endpoint_type *endpoint;	/* NULL: take every SLO tag */
	int streaming;		/* --streaming (off for an endpoint that cannot) */
	int server_tokens;	/* --use-server-token-count */
};

/*
 * Parse "tag:value ..." (or a JSON object) into a's SLOs; 0, or -1 with
 * the original's message in why: an unknown tag, or a metric rc rules out.
 */
int agg_goodput(struct agg *a, const char *spec, const struct runcfg *rc, char *why,
		size_t whylen);

#endif
