/* SPDX-License-Identifier: Apache-2.0 */
/* Accumulate metric records into per-metric values, counts, errors and goodput. */
#include "summary/agg.h"

#include <math.h>

#include "util.h"

#define MAX_ERRGROUPS 10000
#define MAX_VALUES ((size_t)1 << 31)
#define NS_MS (1e3 / 1e9)

static size_t
def_index(const struct metricdef *d)
{
	return (size_t)(d - metricdefs);
}

void
agg_init(struct agg *a)
{
	memset(a, 0, sizeof(*a));
	a->vals = xcalloc(metricdefs_len, sizeof(*a->vals));
	a->sums = xcalloc(metricdefs_len, sizeof(*a->sums));
	for (size_t i = 0; i < metricdefs_len; i++)
		stats_vec_init(&a->vals[i]);
	a->doc = json_doc_new();
	client_init(&a->cl);
}

void
agg_release(struct agg *a)
{
	for (size_t i = 0; i < metricdefs_len; i++)
		stats_vec_release(&a->vals[i]);
	for (size_t i = 0; i < a->nerrs; i++) {
		free(a->errs[i].type);
		free(a->errs[i].message);
	}
	free(a->errs);
	free(a->vals);
	free(a->sums);
	free(a->slo);
	json_doc_free(a->doc);
	client_release(&a->cl);
}

/* nearbyint() in the default rounding mode (to nearest, ties to even),
 * without a library call: below 2^52, adding 2^52 leaves no fraction. */
static double
round_even(double x)
{
	const double big = 4503599627370496.0;

	if (!(fabs(x) < big))
		return x;	/* integral already, infinite or NaN */
	return copysign((fabs(x) + big) - big, x);
}

/*
 * The original keeps base units (ns) and converts each statistic; records
 * carry display units. Undo the conversion: integral base values (every
 * ns latency) come back exactly by rounding; others (inter_token_latency)
 * by the neighbour of display / factor that converts back to display.
 */
double
agg_to_base(double display, double factor)
{
	if (factor == 1)
		return display;
	double x = display / factor, r = round_even(x);

	if (r * factor == display)
		return r;
	if (x * factor == display)
		return x;
	double up = nextafter(x, INFINITY), down = nextafter(x, -INFINITY);

	if (up * factor == display)
		return up;
	if (down * factor == display)
		return down;
	return x;
}

void
agg_copy_slos(struct agg *dst, const struct agg *src)
{
	if (!src->nslo)
		return;
	dst->slo = xreallocarray(NULL, src->nslo, sizeof(*dst->slo));
	memcpy(dst->slo, src->slo, src->nslo * sizeof(*dst->slo));
	dst->nslo = src->nslo;
}

static int
push(struct agg *a, size_t i, double base)
{
	if (a->vals[i].n >= MAX_VALUES)
		return -1;
	stats_vec_push(&a->vals[i], base);
	a->sums[i] += base;
	return 0;
}

/*
 * One value in base units: 0, -1 when it is no number, -2 when scaling
 * makes it infinite (1e308 ms is not a time; its statistics would be null).
 */
static int
add_value(struct agg *a, size_t i, const struct json *e, double factor)
{
	double v;

	if (json_double(e, &v) < 0)
		return -1;
	v = agg_to_base(v, factor);
	if (!isfinite(v))
		return -2;
	return push(a, i, v) < 0 ? -1 : 0;
}

/* Add the values of one metric; list metrics are flattened. */
static int
add_metric(struct agg *a, const struct json *m, char *why, size_t whylen)
{
	int rc = 0;
	/* a key with an inner NUL is no tag of ours */
	const struct metricdef *d = metricdef_findn(m->key, m->keylen);

	if (!d || d->kind != METRIC_RECORD)
		return 0;	/* unknown tags are ignored (forward compatible) */
	const struct json *val = json_get(m, "value");
	size_t i = def_index(d);

	if (val && val->type == JSON_ARRAY) {
		for (const struct json *e = val->child; e && !rc; e = e->next)
			rc = add_value(a, i, e, d->factor);
	} else {
		rc = add_value(a, i, val, d->factor);
	}
	if (!rc)
		return 0;
	snprintf(why, whylen, "metric '%s': %s", d->tag,
		 rc == -2 ? "value out of range" : "value is not a number");
	return -1;
}

static void
add_error(struct agg *a, const struct json *e)
{
	int64_t code = 0;
	int has_code = json_int64(json_get(e, "code"), &code) == 0;
	const char *type = json_str(json_get(e, "type"), NULL);
	const char *msg = json_str_or(json_get(e, "message"), "");

	for (size_t i = 0; i < a->nerrs; i++) {
		struct errgroup *g = &a->errs[i];
		if (g->has_code == has_code && (!has_code || g->code == code) &&
		    !g->type == !type && (!type || !strcmp(g->type, type)) &&
		    !strcmp(g->message, msg)) {
			g->count++;
			return;
		}
	}
	if (a->nerrs == MAX_ERRGROUPS) {
		a->errs[a->nerrs - 1].count++;	/* lumped into the last group */
		return;
	}
	if (a->nerrs == a->caperrs) {
		a->caperrs = a->caperrs ? 2 * a->caperrs : 8;
		a->errs = xreallocarray(a->errs, a->caperrs, sizeof(*a->errs));
	}
	a->errs[a->nerrs++] = (struct errgroup){ has_code, code,
		type ? xstrdup(type) : NULL, xstrdup(msg), 1 };
}

static void
minmax(int64_t v, int64_t *lo, int *have_lo, int64_t *hi, int *have_hi)
{
	if (lo && (!*have_lo || v < *lo)) {
		*lo = v;
		*have_lo = 1;
	}
	if (hi && (!*have_hi || v > *hi)) {
		*hi = v;
		*have_hi = 1;
	}
}

/*
 * The original's usage_discrepancy_count: a record counts when its prompt,
 * completion or reasoning usage differs from the client's count by more
 * than AIPERF_METRICS_USAGE_PCT_DIFF_THRESHOLD percent (10).
 */
static const char *const usage_tags[] = { "usage_prompt_tokens_diff_pct",
	"usage_completion_tokens_diff_pct", "usage_reasoning_tokens_diff_pct" };

static double
usage_threshold(void)
{
	static double t;	/* the environment is read once */
	static int have_t;

	if (!have_t) {
		const char *env = getenv("AIPERF_METRICS_USAGE_PCT_DIFF_THRESHOLD");

		if (!env || util_strtod(env, &t) < 0)
			t = 10.0;
		have_t = 1;
	}
	return t;
}

static void
usage_discrepancy(struct agg *a, const struct json *metrics)
{
	double v, t = usage_threshold();
	int seen = 0, over = 0;

	for (size_t i = 0; i < 3; i++) {
		if (json_double(json_get(json_get(metrics, usage_tags[i]), "value"), &v) < 0)
			continue;
		seen = 1;
		over |= v > t;
	}
	a->have_usage_diff |= seen;
	a->usage_discrepancies += seen && over;
}

static void
response_end(struct agg *a, int64_t start, double lat)
{
	double ns = agg_to_base(lat, NS_MS);
	long long end;

	/* out-of-range values cannot come from a real clock: skip */
	if (ns > -9e18 && ns < 9e18 && !__builtin_add_overflow(start, llround(ns), &end))
		minmax(end, NULL, NULL, &a->max_resp, &a->have_resp);
}

/* Whether a record's value v (in the metric's display unit) meets s. */
static int
slo_met(const struct slo *s, double v)
{
	v = agg_to_base(v, s->def->factor);
	return (s->def->flags & MF_LARGER_BETTER) ? v >= s->base : v <= s->base;
}

/* Timestamps and goodput of a valid record. */
static void
valid_record(struct agg *a, const struct json *meta, const struct json *metrics)
{
	int64_t start;
	double lat;

	if (json_int64(json_get(meta, "request_start_ns"), &start) == 0) {
		minmax(start, &a->min_req, &a->have_req, NULL, NULL);
		const struct json *rl = json_get(json_get(metrics, "request_latency"), "value");
		if (json_double(rl, &lat) == 0)
			response_end(a, start, lat);
	}
	usage_discrepancy(a, metrics);
	if (!a->nslo)
		return;
	for (size_t i = 0; i < a->nslo; i++) {
		const struct slo *s = &a->slo[i];
		double v;
		if (json_double(json_get(json_get(metrics, s->def->tag), "value"), &v) < 0 ||
		    !slo_met(s, v))
			return;
	}
	a->good++;
}

static void
record_times(struct agg *a, const struct json *meta)
{
	int64_t t;

	if (json_int64(json_get(meta, "request_start_ns"), &t) == 0)
		minmax(t, &a->start_ns, &a->have_start, &a->end_ns, &a->have_end);
	if (json_int64(json_get(meta, "request_end_ns"), &t) == 0)
		minmax(t, NULL, NULL, &a->end_ns, &a->have_end);
}

int
agg_line(struct agg *a, const char *s, size_t n, const struct json **rec,
	 char *why, size_t whylen)
{
	char err[128];
	struct json *r;

	json_doc_reset(a->doc);
	r = json_parse(a->doc, s, n, err, sizeof(err));
	if (!r || r->type != JSON_OBJECT) {
		snprintf(why, whylen, "%s", r ? "not a JSON object" : err);
		return -1;
	}
	*rec = r;
	return agg_record(a, r, why, whylen);
}

int
agg_record(struct agg *a, const struct json *r, char *why, size_t whylen)
{
	const struct json *meta = json_get(r, "metadata");
	const struct json *metrics = json_get(r, "metrics");
	const struct json *e = json_get(r, "error");
	const char *phase = json_str_or(json_get(meta, "benchmark_phase"), "profiling");

	if (meta && meta->type != JSON_OBJECT) {
		snprintf(why, whylen, "'metadata' is not an object");
		return -1;
	}
	if (client_cpu(&a->cl, r, why, whylen) < 0)
		return -1;
	if (!strcmp(phase, "warmup")) {
		a->warmup++;
		return 0;
	}
	if (metrics && metrics->type != JSON_OBJECT) {
		snprintf(why, whylen, "'metrics' is not an object");
		return -1;
	}
	for (const struct json *m = metrics ? metrics->child : NULL; m; m = m->next)
		if (add_metric(a, m, why, whylen) < 0)
			return -1;
	if (client_record(&a->cl, r, why, whylen) < 0)
		return -1;
	record_times(a, meta);
	if (e && e->type == JSON_OBJECT) {
		a->errors++;
		add_error(a, e);
	} else {
		a->valid++;
		valid_record(a, meta, metrics);
	}
	return 1;
}

/* n base values of metricdefs[i] at once, as n push() calls would add
 * them (agg_fast() has checked MAX_VALUES): one growth check, the sum
 * taken in the same order. */
static void
push_values(struct agg *a, size_t i, const double *v, size_t n)
{
	struct stats_vec *s = &a->vals[i];
	double sum = a->sums[i];

	if (s->cap - s->n < n) {
		size_t cap = s->cap ? s->cap : 64;

		while (cap - s->n < n)
			cap *= 2;
		s->v = xreallocarray(s->v, cap, sizeof(*s->v));
		s->cap = cap;
	}
	for (size_t k = 0; k < n; k++) {
		s->v[s->n++] = v[k];
		sum += v[k];
	}
	a->sums[i] = sum;
}

/* The record frec_scan() read: agg_record() without a JSON tree. */
static void
fast_valid(struct agg *a, const struct frec *fr)
{
	static size_t rl_def = SIZE_MAX, usage_def[3];
	double lat, v, t = usage_threshold();
	int seen = 0, over = 0;

	if (rl_def == SIZE_MAX) {
		for (size_t i = 0; i < 3; i++)
			usage_def[i] = def_index(metricdef_find(usage_tags[i]));
		rl_def = def_index(metricdef_find("request_latency"));
	}
	if (fr->have_start) {
		minmax(fr->start, &a->min_req, &a->have_req, NULL, NULL);
		if (frec_value(fr, rl_def, &lat) == 0)
			response_end(a, fr->start, lat);
	}
	for (size_t i = 0; i < 3; i++) {
		if (frec_value(fr, usage_def[i], &v) < 0)
			continue;
		seen = 1;
		over |= v > t;
	}
	a->have_usage_diff |= seen;
	a->usage_discrepancies += seen && over;
	if (!a->nslo)
		return;
	for (size_t i = 0; i < a->nslo; i++) {
		const struct slo *s = &a->slo[i];
		if (frec_value(fr, s->idx, &v) < 0 || !slo_met(s, v))
			return;
	}
	a->good++;
}

int
agg_fast(struct agg *a, const struct frec *fr)
{
	for (size_t i = 0; i < fr->nm; i++)
		if (a->vals[fr->m[i].def].n + fr->m[i].n > MAX_VALUES)
			return -1;	/* the parser's path says why */
	if (client_fast_full(&a->cl, fr))
		return -1;
	client_fast_cpu(&a->cl, fr);
	if (fr->warmup) {
		a->warmup++;
		return 0;
	}
	for (size_t i = 0; i < fr->nm; i++)
		if (fr->m[i].n)
			push_values(a, fr->m[i].def, fr->base + fr->m[i].first, fr->m[i].n);
	client_fast_record(&a->cl, fr);
	if (fr->have_start)
		minmax(fr->start, &a->start_ns, &a->have_start, &a->end_ns, &a->have_end);
	if (fr->have_end)
		minmax(fr->end, NULL, NULL, &a->end_ns, &a->have_end);
	a->valid++;
	fast_valid(a, fr);
	return 1;
}
