/* SPDX-License-Identifier: Apache-2.0 */
/* SLA feasibility as the original's _sla_helpers decides it: a missing or non-finite stat fails. */
#include "search.h"

#include <math.h>
#include <stdio.h>

#include "util.h"

static int
stat_of(const struct json *root, const char *metric, const char *stat, double *out)
{
	const struct json *m = json_get(root, metric);
	double v;

	if (!m || m->type != JSON_OBJECT)
		return -1;
	if (json_double(json_get(m, stat), &v) < 0 || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

/*
 * The original exports no request_error_rate (its --error-rate-sla filter
 * can never pass); here it is the errors' share of the requests, the same
 * value for every stat.
 */
static int
error_rate(const struct json *root, double *out)
{
	double ok = 0, bad = 0;

	if (stat_of(root, "request_count", "avg", &ok) < 0)
		ok = 0;
	if (stat_of(root, "error_request_count", "avg", &bad) < 0)
		bad = 0;
	if (ok + bad <= 0)
		return -1;
	*out = bad / (ok + bad);
	return 0;
}

int
trial_value(const struct trial *t, const char *metric, const char *stat, double *out)
{
	if (!t->success || !t->root)
		return -1;
	if (stat_of(t->root, metric, stat, out) == 0)
		return 0;
	if (!strcmp(metric, "request_error_rate") && !json_get(t->root, metric))
		return error_rate(t->root, out);
	return -1;
}

static int
satisfies(const struct trial *t, const struct sla_filter *f)
{
	double v;

	if (trial_value(t, f->metric, f->stat, &v) < 0)
		return 0;
	switch (f->op) {
	case SLA_LT:
		return v < f->threshold;
	case SLA_LE:
		return v <= f->threshold;
	case SLA_GT:
		return v > f->threshold;
	default:
		return v >= f->threshold;
	}
}

static int
trial_feasible(const struct trial *t, const struct sla_filter *f, size_t nf)
{
	for (size_t i = 0; i < nf; i++)
		if (!satisfies(t, &f[i]))
			return 0;
	return 1;
}

/* Feasible iff at least one successful trial satisfies every filter. */
int
sla_feasible(const struct iter *it, const struct sla_filter *f, size_t nf)
{
	if (!nf)
		return 1;
	for (size_t i = 0; i < it->ntrials; i++)
		if (it->trials[i].success && trial_feasible(&it->trials[i], f, nf))
			return 1;
	return 0;
}

int
sla_mean(const struct iter *it, const char *metric, const char *stat, double *out)
{
	double sum = 0, v;
	size_t n = 0;

	for (size_t i = 0; i < it->ntrials; i++)
		if (trial_value(&it->trials[i], metric, stat, &v) == 0) {
			sum += v;
			n++;
		}
	if (!n)
		return -1;
	*out = sum / (double)n;
	return 0;
}

int
sla_first_breach(const struct iter *it, const struct sla_filter *f, size_t nf)
{
	for (size_t k = 0; k < nf; k++) {
		int any = 0;

		for (size_t i = 0; i < it->ntrials && !any; i++)
			any = satisfies(&it->trials[i], &f[k]);
		if (!any)
			return (int)k;
	}
	return -1;
}

const char *
sla_op_name(enum sla_op op)
{
	static const char *const names[] = { "lt", "le", "gt", "ge" };

	return names[op];
}

/* Python's f"{i}:{tag}.{stat}.{op}.{threshold}", threshold a float's repr. */
void
sla_key(struct sla_filter *f, int i)
{
	struct buf b;
	struct jw w;

	buf_init(&b, 256);
	jw_init(&w, &b, 0);
	jw_double(&w, f->threshold);
	snprintf(f->key, sizeof(f->key), "%d:%s.%s.%s.%.*s", i, f->metric, f->stat,
		 sla_op_name(f->op), (int)b.len, b.s);
	buf_release(&b);
}
