/* SPDX-License-Identifier: Apache-2.0 */
/* The run as the summary sees it: endpoint types, and --goodput checked against what the run can measure. */
#ifndef AIPERF_SUMMARY_RUNCFG_H
#define AIPERF_SUMMARY_RUNCFG_H

#include <stddef.h>

#include "summary/agg.h"

/* The endpoint table is static: nothing here is freed by the caller but
 * the SLOs agg_goodput() adds, which belong to the agg. */

struct endpoint {
	const char *name;
	const char *title;	/* the console table's, after "NVIDIA AIPerf | " */
	unsigned caps;		/* produces tokens, tokenizes input, streams */
};

/* What the run measured, for the original's metric filters. */
struct runcfg {
	const struct endpoint *endpoint;	/* NULL: take every SLO tag */
	int streaming;		/* --streaming (off for an endpoint that cannot) */
	int server_tokens;	/* --use-server-token-count */
};

/* The entry for an --endpoint-type name, or NULL. */
const struct endpoint *endpoint_find(const char *name);
/* The known names, ", " separated, into out. */
void endpoint_names(char *out, size_t n);
/*
 * Parse "tag:value ..." (or a JSON object) into a's SLOs; 0, or -1 with
 * the original's message in why: an unknown tag, or a metric rc rules out.
 */
int agg_goodput(struct agg *a, const char *spec, const struct runcfg *rc, char *why,
		size_t whylen);

#endif
