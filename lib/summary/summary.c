/* SPDX-License-Identifier: Apache-2.0 */
/* Turn accumulated values into results: statistics, aggregates and derived metrics, in display units. */
#include "summary/summary.h"

#include "util.h"

static const char *const totals[][2] = {
	{ "total_output_tokens", "output_token_count" },
	{ "total_reasoning_tokens", "reasoning_token_count" },
	{ "total_osl", "output_sequence_length" },
	{ "total_isl", "input_sequence_length" },
	{ "total_error_isl", "error_isl" },
	{ "total_usage_prompt_tokens", "usage_prompt_tokens" },
	{ "total_usage_completion_tokens", "usage_completion_tokens" },
	{ "total_usage_total_tokens", "usage_total_tokens" },
};

struct ctx {
	struct agg *a;
	double duration_s;
	int have_duration;
};

static int
vals_of(struct agg *a, const char *tag, double *sum)
{
	const struct metricdef *d = metricdef_find(tag);

	if (!d || !a->vals[d - metricdefs].n)
		return 0;
	*sum = a->sums[d - metricdefs];
	return 1;
}

/* Base value of an aggregate metric; 0 when it has none. */
static int
aggregate(const struct ctx *c, const char *tag, double *v)
{
	struct agg *a = c->a;

	if (!strcmp(tag, "request_count") && a->valid)
		*v = (double)a->valid;
	else if (!strcmp(tag, "error_request_count") && a->errors)
		*v = (double)a->errors;
	else if (!strcmp(tag, "min_request_timestamp") && a->have_req)
		*v = (double)a->min_req;
	else if (!strcmp(tag, "max_response_timestamp") && a->have_resp)
		*v = (double)a->max_resp;
	else if (!strcmp(tag, "good_request_count") && a->nslo && a->valid)
		*v = (double)a->good;
	else if (!strcmp(tag, "usage_discrepancy_count") && a->have_usage_diff)
		*v = (double)a->usage_discrepancies;
	else
		return 0;
	return 1;
}

static int
per_second(const struct ctx *c, double n, double *v)
{
	if (!c->have_duration || c->duration_s == 0)
		return 0;
	*v = n / c->duration_s;
	return 1;
}

/* Base value of a derived metric; 0 when it has none. */
static int
derived(const struct ctx *c, const char *tag, double *v)
{
	double isl, osl;
	struct agg *a = c->a;

	for (size_t i = 0; i < sizeof(totals) / sizeof(totals[0]); i++)
		if (!strcmp(tag, totals[i][0]))
			return vals_of(a, totals[i][1], v);
	if (!strcmp(tag, "benchmark_duration")) {
		long long d;
		if (!a->have_req || !a->have_resp ||
		    __builtin_sub_overflow(a->max_resp, a->min_req, &d) || d <= 0)
			return 0;
		*v = (double)d;
		return 1;
	}
	if (!strcmp(tag, "request_throughput"))
		return a->valid && per_second(c, (double)a->valid, v);
	if (!strcmp(tag, "goodput"))
		return a->nslo && a->valid && per_second(c, (double)a->good, v);
	if (!strcmp(tag, "output_token_throughput"))
		return vals_of(a, "output_sequence_length", &osl) && per_second(c, osl, v);
	if (!strcmp(tag, "total_token_throughput"))
		return vals_of(a, "input_sequence_length", &isl) &&
		       vals_of(a, "output_sequence_length", &osl) &&
		       per_second(c, isl + osl, v);
	return 0;
}

static void
scale(struct stats *st, double f)
{
	double *p[] = { &st->sum, &st->avg, &st->min, &st->max, &st->std,
		&st->p1, &st->p5, &st->p10, &st->p25, &st->p50, &st->p75,
		&st->p90, &st->p95, &st->p99 };

	if (f == 1)
		return;
	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		*p[i] *= f;
}

static int
one_result(struct ctx *c, size_t i, struct result *r)
{
	const struct metricdef *d = &metricdefs[i];
	double v;

	memset(r, 0, sizeof(*r));
	r->def = d;
	if (d->kind == METRIC_RECORD) {
		if (stats_summarize(&c->a->vals[i], &r->st) < 0)
			return 0;
		r->st.sum = c->a->sums[i];	/* the original's running sum */
		r->dist = 1;
	} else {
		if (!(d->kind == METRIC_AGGREGATE ? aggregate(c, d->tag, &v)
						  : derived(c, d->tag, &v)))
			return 0;
		r->st.avg = v;
		r->st.count = 1;
	}
	scale(&r->st, d->factor);
	if (!strcmp(d->tag, "benchmark_duration")) {
		c->duration_s = r->st.avg;
		c->have_duration = 1;
	}
	return 1;
}

void
agg_summary(struct agg *a, struct summary *sm)
{
	struct ctx c = { a, 0, 0 };

	memset(sm, 0, sizeof(*sm));
	sm->res = xcalloc(metricdefs_len, sizeof(*sm->res));
	/* Derived metrics need benchmark_duration first, wherever it sits. */
	const struct metricdef *bd = metricdef_find("benchmark_duration");
	struct result tmp;
	if (bd)
		one_result(&c, (size_t)(bd - metricdefs), &tmp);
	for (size_t i = 0; i < metricdefs_len; i++)
		if (one_result(&c, i, &sm->res[sm->nres]))
			sm->nres++;
	sm->errs = a->errs;
	sm->nerrs = a->nerrs;
	sm->valid = a->valid;
	sm->errors = a->errors;
	sm->warmup = a->warmup;
	sm->start_ns = a->start_ns;
	sm->end_ns = a->end_ns;
	sm->have_start = a->have_start;
	sm->have_end = a->have_end;
	sm->duration = summary_find(sm, "benchmark_duration");
}

void
summary_release(struct summary *sm)
{
	free(sm->res);
}

const struct result *
summary_find(const struct summary *sm, const char *tag)
{
	for (size_t i = 0; i < sm->nres; i++)
		if (!strcmp(sm->res[i].def->tag, tag))
			return &sm->res[i];
	return NULL;
}
