/* SPDX-License-Identifier: Apache-2.0 */
/* lib/summary's compact-record reader against its JSON path, for tests/unit/test-fastrec.c and tests/fuzz/fuzz-fastrec.c. */
#ifndef AIPERF_TEST_FASTREC_SAME_H
#define AIPERF_TEST_FASTREC_SAME_H

#include <string.h>

#include "summary/agg.h"
#include "summary/fastrec.h"

static int
vec_same(const struct stats_vec *a, const struct stats_vec *b)
{
	return a->n == b->n && (!a->n || !memcmp(a->v, b->v, a->n * sizeof(*a->v)));
}

/* Everything the two aggregations hold, bit for bit. */
static int
agg_same(const struct agg *a, const struct agg *b)
{
	const struct client *x = &a->cl, *y = &b->cl;

	for (size_t i = 0; i < metricdefs_len; i++)
		if (!vec_same(&a->vals[i], &b->vals[i]) ||
		    memcmp(&a->sums[i], &b->sums[i], sizeof(double)))
			return 0;
	if (a->valid != b->valid || a->errors != b->errors || a->warmup != b->warmup ||
	    a->good != b->good || a->usage_discrepancies != b->usage_discrepancies ||
	    a->have_usage_diff != b->have_usage_diff || a->nerrs != b->nerrs ||
	    a->have_req != b->have_req || a->have_resp != b->have_resp ||
	    a->have_start != b->have_start || a->have_end != b->have_end ||
	    a->min_req != b->min_req || a->max_resp != b->max_resp ||
	    a->start_ns != b->start_ns || a->end_ns != b->end_ns)
		return 0;
	return vec_same(&x->lateness, &y->lateness) && vec_same(&x->intended, &y->intended) &&
	       vec_same(&x->delay, &y->delay) && vec_same(&x->late_at, &y->late_at) &&
	       x->first_start == y->first_start && x->last_start == y->last_start &&
	       x->starts == y->starts && x->cpu_min == y->cpu_min && x->cpu_max == y->cpu_max &&
	       x->cpu_end_min == y->cpu_end_min && x->cpu_end_max == y->cpu_end_max &&
	       x->cpu_n == y->cpu_n && x->records == y->records;
}

/*
 * One line into slow (the JSON path) and fast (the reader when it takes
 * the line, else the JSON path): the fast path's answer (1 or 0 when it
 * took the line, -1 when not), or -2 when they disagree (the line taken
 * although the JSON path rejects it, other results, other contents).
 */
static int
fastrec_same(struct frec *fr, struct agg *fast, struct agg *slow, const char *s, size_t n)
{
	const struct json *r;
	char why[256];
	int took = -1, k1, k2;

	if (frec_scan(fr, s, n) == 0)
		took = agg_fast(fast, fr);
	k2 = agg_line(slow, s, n, &r, why, sizeof(why));
	k1 = took >= 0 ? took : agg_line(fast, s, n, &r, why, sizeof(why));
	if (k1 != k2)
		return -2;
	return agg_same(fast, slow) ? took : -2;
}

#endif
