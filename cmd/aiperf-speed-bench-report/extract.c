/* SPDX-License-Identifier: Apache-2.0 */
/* What a run folder's exports say: its category, model and the metric's value (the original's speed_bench_report.py extractors). */
#include "report.h"

#include <string.h>

/* Server metric names of acceptance length and rate, by engine, in the
 * original's order of priority. */
static const char *const accept_length_names[] = {
	"sglang:spec_accept_length", "vllm:spec_decode_mean_accepted_length",
	"trtllm:spec_accept_length", NULL,
};
static const char *const accept_rate_names[] = {
	"sglang:spec_accept_rate", "vllm:spec_decode_draft_acceptance_rate",
	"trtllm:spec_accept_rate", NULL,
};
static const char *const prefixes[] = { "speed_bench_", "spec_al_", NULL };

/* A string's suffix after a known prefix, or NULL. */
static const char *
strip_prefix(const struct json *v, size_t *n)
{
	if (!v || v->type != JSON_STRING)
		return NULL;
	for (size_t i = 0; prefixes[i]; i++) {
		size_t k = strlen(prefixes[i]);

		if (v->len >= k && !memcmp(v->str, prefixes[i], k)) {
			*n = v->len - k;
			return v->str + k;
		}
	}
	return NULL;
}

/* Python truthiness of a member value: absent, null, false, 0, "" ,
 * [] and {} are false. */
static int
truthy(const struct json *v)
{
	if (!v)
		return 0;
	switch (v->type) {
	case JSON_NULL:
	case JSON_FALSE:
		return 0;
	case JSON_NUMBER: {
		double d;

		return json_double(v, &d) < 0 || d != 0;
	}
	default:
		return v->type == JSON_TRUE || v->len > 0;
	}
}

const char *
report_category(const struct json *profile, size_t *n)
{
	const struct json *ds = json_path(profile, "input_config.datasets");
	const struct json *in = json_path(profile, "input_config.input");
	const char *s;

	if (profile && profile->type == JSON_OBJECT && ds) {
		if (ds->type != JSON_ARRAY)
			return NULL;
		for (const struct json *e = ds->child; e; e = e->next) {
			const struct json *f = json_get(e, "format");

			if (e->type != JSON_OBJECT)
				continue;
			if (!truthy(f))
				f = json_get(e, "dataset");
			if ((s = strip_prefix(f, n)))
				return s;
		}
		return NULL;
	}
	if (!in || in->type != JSON_OBJECT)
		return NULL;
	if ((s = strip_prefix(json_get(in, "custom_dataset_type"), n)))
		return s;
	return strip_prefix(json_get(in, "public_dataset"), n);
}

const char *
report_model(const struct json *profile, size_t *n)
{
	const struct json *items = json_path(profile, "input_config.models.items");
	const struct json *names = json_path(profile, "input_config.endpoint.model_names");

	if (items && items->type == JSON_ARRAY)
		for (const struct json *e = items->child; e; e = e->next) {
			const struct json *s = json_get(e, "name");

			if (e->type == JSON_OBJECT && s && s->type == JSON_STRING && s->len) {
				*n = s->len;
				return s->str;
			}
		}
	if (!items && names && names->type == JSON_ARRAY && names->child &&
	    names->child->type == JSON_STRING && names->child->len) {
		*n = names->child->len;
		return names->child->str;
	}
	*n = 7;
	return "unknown";
}

/* _get_metric_stat: the stat of a metric's first series, when a number. */
static int
stat_of(const struct json *metric, const char *stat, double *v)
{
	const struct json *series = json_get(metric, "series");
	const struct json *x;

	if (!truthy(metric) || metric->type != JSON_OBJECT || !truthy(series) ||
	    series->type != JSON_ARRAY)
		return 0;
	x = json_get(json_get(series->child, "stats"), stat);
	return x && x->type == JSON_NUMBER && json_double(x, v) == 0;
}

static int
named_stat(const struct json *metrics, const char *name, const char *stat,
	   double *v)
{
	return stat_of(json_get(metrics, name), stat, v);
}

/* Whether s[0..n) holds w, ASCII letters in any case. */
static int
has_word(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);

	for (size_t i = 0; i + k <= n; i++) {
		size_t j = 0;

		while (j < k && (s[i + j] | 0x20) == w[j])
			j++;
		if (j == k)
			return 1;
	}
	return 0;
}

/* The first of names with an avg, then accepted / denominator (+ 1). */
static int
from_metrics(const struct json *server, const char *const *names,
	     const char *denominator, double plus, double *v)
{
	const struct json *m = json_get(server, "metrics");
	double acc, den;

	if (!m || m->type != JSON_OBJECT)
		return 0;
	for (size_t i = 0; names[i]; i++)
		if (named_stat(m, names[i], "avg", v))
			return 1;
	if (named_stat(m, "vllm:spec_decode_num_accepted_tokens", "total", &acc) &&
	    named_stat(m, denominator, "total", &den) && den > 0) {
		*v = acc / den + plus;
		return 1;
	}
	return 0;
}

int
report_accept_length(const struct json *server, double *v)
{
	const struct json *m = json_get(server, "metrics");

	if (from_metrics(server, accept_length_names, "vllm:spec_decode_num_drafts",
			 1.0, v))
		return 1;
	/* engines not known by name: "spec", "accept" and "length" in it */
	for (const struct json *e = m && m->type == JSON_OBJECT ? m->child : NULL; e;
	     e = e->next)
		if (has_word(e->key, e->keylen, "spec") &&
		    has_word(e->key, e->keylen, "accept") &&
		    has_word(e->key, e->keylen, "length") && stat_of(e, "avg", v))
			return 1;
	return 0;
}

int
report_accept_rate(const struct json *server, double *v)
{
	return from_metrics(server, accept_rate_names,
			    "vllm:spec_decode_num_draft_tokens", 0.0, v);
}

int
report_throughput(const struct json *profile, double *v)
{
	const struct json *otp = json_get(profile, "output_token_throughput");
	const struct json *avg = json_get(otp, "avg");

	return truthy(otp) && avg && avg->type == JSON_NUMBER &&
	       json_double(avg, v) == 0;
}
