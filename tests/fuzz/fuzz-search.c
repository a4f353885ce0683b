/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: one run summary a line through both of aiperf-search's planners, and the history written. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../cmd/aiperf-search/isofit.c"
#include "../../cmd/aiperf-search/sla.c"
#include "../../cmd/aiperf-search/iterdir.c"
#include "../../cmd/aiperf-search/mono.c"
#include "../../cmd/aiperf-search/iso.c"
#include "../../cmd/aiperf-search/history.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXIT 40

static void
run(const char *s, size_t n, int smooth, const struct cfg *c)
{
	struct planner p;
	struct iter its[MAXIT];
	size_t off = 0, k = 0;
	long long v;
	char err[64];

	planner_init(&p, c, smooth);
	while (k < MAXIT && (v = planner_ask(&p)) >= 0) {
		const char *nl = off < n ? memchr(s + off, '\n', n - off) : NULL;
		size_t len = nl ? (size_t)(nl - (s + off)) : n - off;

		if (v < c->lo || v > c->hi)
			abort();
		memset(&its[k], 0, sizeof(its[k]));
		its[k].value = v;
		its[k].trials = xcalloc(1, sizeof(*its[k].trials));
		its[k].ntrials = 1;
		its[k].trials[0].doc = json_doc_new();
		its[k].trials[0].root = json_parse(its[k].trials[0].doc, s + off, len, err, sizeof(err));
		its[k].trials[0].success = its[k].trials[0].root != NULL;
		planner_tell(&p, &its[k++]);
		off = nl ? off + len + 1 : 0;	/* the input again when it ends */
		if (p.feasible_max >= 0 && p.infeasible_min >= 0 && !p.non_monotonic &&
		    p.feasible_max >= p.infeasible_min)
			abort();
	}
	history_write("/dev/null", &p, its, k, "max-concurrency-under-sla");
	for (size_t i = 0; i < k; i++)
		iter_release(&its[i]);
	planner_release(&p);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sla_filter f[2] = {
		{ "time_to_first_token", "p95", SLA_LT, 200, "" },
		{ "request_error_rate", "p99", SLA_GE, 0.5, "" },
	};
	struct cfg c = { f, 2, 1, 1000, 0.05, 30, 1, 0 };

	sla_key(&f[0], 0);
	sla_key(&f[1], 1);
	if (size > 1 << 16)
		return 0;
	run((const char *)data, size, 0, &c);
	run((const char *)data, size, 1, &c);
	c.sla_replicates = 3;
	c.stability_trials = 2;
	run((const char *)data, size, 1, &c);
	run((const char *)data, size, 0, &c);
	return 0;
}
