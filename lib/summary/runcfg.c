/* SPDX-License-Identifier: Apache-2.0 */
/* The run as the summary sees it: --goodput checked against what its endpoint type and options can measure. */
#include "summary/runcfg.h"

#include <math.h>
#include <stdlib.h>

#include "util.h"

#define MAX_SLOS 64

/*
 * The original's filter (post_processors/base_metrics_processor.py): the
 * record and aggregate metrics of a valid record, less those the endpoint
 * or the configuration rules out. Goodput SLOs must be among them.
 */
static int
applicable(const struct metricdef *d, const struct runcfg *rc)
{
	const struct endpoint_type *e = rc->endpoint;
	int stream = rc->streaming && (e->flags & ENDPOINT_STREAMS);

	if (d->kind == METRIC_DERIVED || (d->flags & (MF_ERROR_ONLY | MF_EXPERIMENTAL)))
		return 0;
	if ((d->flags & MF_TOKENS_ONLY) && !(e->flags & ENDPOINT_PRODUCES_TOKENS))
		return 0;
	if ((d->flags & MF_INPUT_ONLY) && !(e->flags & ENDPOINT_TOKENIZES_INPUT))
		return 0;
	if ((d->flags & MF_IMAGE) && !(e->flags & ENDPOINT_TAKES_IMAGES))
		return 0;
	if ((d->flags & MF_STREAMING_ONLY) && !stream)
		return 0;
	if ((d->flags & MF_VIDEO) && !(e->flags & ENDPOINT_PRODUCES_VIDEO))
		return 0;
	return !((d->flags & MF_USAGE_DIFF) && rc->server_tokens);
}

/* What a metric record can be judged on: one number per request. The
 * original also takes aggregate counters, internal metrics and lists, whose
 * per-request values the records do not carry. */
static int
per_request(const struct metricdef *d)
{
	return d->kind == METRIC_RECORD && !(d->flags & (MF_LIST | MF_INTERNAL));
}

/* Base-unit threshold for a goodput value given in display units. */
static double
slo_to_base(double v, double factor)
{
	if (factor == 1)
		return v;
	return v * nearbyint(1.0 / factor);
}

struct item {
	const struct metricdef *def;
	char tag[128];
	double v;
};

static int
item_add(struct item *it, size_t *n, const char *tag, size_t taglen,
	 const char *val, char *why, size_t whylen)
{
	struct item *x = &it[*n];

	if (*n == MAX_SLOS)
		return util_seterr(why, whylen, "invalid --goodput: more than %d SLOs", MAX_SLOS);
	snprintf(x->tag, sizeof(x->tag), "%.*s", (int)taglen, tag);
	if (util_strtod(val, &x->v) < 0)
		return util_seterr(why, whylen, "invalid --goodput value for %s: '%s'", x->tag, val);
	(*n)++;
	return 0;
}

static int
parse_json(const char *spec, struct item *it, size_t *n, char *why, size_t whylen)
{
	char err[128], num[64];
	struct json_doc *d = json_doc_new();
	struct json *o = json_parse(d, spec, strlen(spec), err, sizeof(err));
	int rc = 0;

	if (!o || o->type != JSON_OBJECT)
		rc = util_seterr(why, whylen, "invalid --goodput: %s", o ? "not an object" : err);
	for (struct json *m = o && !rc ? o->child : NULL; m && !rc; m = m->next) {
		if (m->type != JSON_NUMBER || m->len >= sizeof(num)) {
			rc = util_seterr(why, whylen, "invalid --goodput value for %.*s",
					 (int)m->keylen, m->key);
			break;
		}
		snprintf(num, sizeof(num), "%.*s", (int)m->len, m->str);
		rc = item_add(it, n, m->key, m->keylen, num, why, whylen);
	}
	json_doc_free(d);
	return rc;
}

/* "tag:value" items separated by blanks or commas, or a JSON object. */
static int
parse(const char *spec, struct item *it, size_t *n, char *why, size_t whylen)
{
	const char *p = spec + strspn(spec, " \t");

	if (*p == '{')
		return parse_json(p, it, n, why, whylen);
	for (p += strspn(p, " \t,"); *p; p += strspn(p, " \t,")) {
		size_t len = strcspn(p, " \t,");
		char item[256];
		snprintf(item, sizeof(item), "%.*s", (int)len, p);
		p += len;
		char *colon = strchr(item, ':');
		if (!colon)
			return util_seterr(why, whylen, "invalid --goodput item '%s': "
					   "expected tag:value", item);
		if (item_add(it, n, item, (size_t)(colon - item), colon + 1, why, whylen) < 0)
			return -1;
	}
	if (!*n)
		return util_seterr(why, whylen, "invalid --goodput: no tag:value pairs");
	return 0;
}

static int
by_tag(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "a, b": the tags of items failing test, sorted as Python's sorted(); 0 if none. */
static int
list_failing(const struct item *it, size_t n, const struct runcfg *rc,
	     int (*ok)(const struct metricdef *, const struct runcfg *),
	     char *out, size_t outlen)
{
	const char *bad[MAX_SLOS] = { 0 };
	size_t nb = 0, k = 0;

	for (size_t i = 0; i < n; i++) {
		int dup = 0;
		for (size_t j = 0; j < nb; j++)
			dup |= !strcmp(bad[j], it[i].tag);
		if (!dup && !ok(it[i].def, rc))
			bad[nb++] = it[i].tag;
	}
	qsort(bad, nb, sizeof(bad[0]), by_tag);
	out[0] = '\0';
	for (size_t j = 0; j < nb && k < outlen; j++)
		k += (size_t)snprintf(out + k, outlen - k, "%s%s", j ? ", " : "", bad[j]);
	return nb > 0;
}

static int
per_request_ok(const struct metricdef *d, const struct runcfg *rc)
{
	(void)rc;
	return per_request(d);
}

/* Unknown tags first (the original's configuration check), then tags the
 * run cannot measure (its metrics processor's check), all at once. */
static int
check_items(struct item *it, size_t n, const struct runcfg *rc, char *why, size_t whylen)
{
	char tags[512];

	for (size_t i = 0; i < n; i++)
		if (!(it[i].def = metricdef_find(it[i].tag)))
			return util_seterr(why, whylen, "Unknown metric tag in --goodput: %s", it[i].tag);
	if (rc->endpoint && list_failing(it, n, rc, applicable, tags, sizeof(tags)))
		return util_seterr(why, whylen, "Invalid --goodput: metric(s) %s are not "
				   "applicable to the current endpoint/configuration.", tags);
	if (list_failing(it, n, rc, per_request_ok, tags, sizeof(tags)))
		return util_seterr(why, whylen, "Invalid --goodput: metric(s) %s have no "
				   "per-request value in the metric records", tags);
	return 0;
}

int
agg_goodput(struct agg *a, const char *spec, const struct runcfg *rc, char *why,
	    size_t whylen)
{
	struct item it[MAX_SLOS];
	size_t n = 0;

	if (parse(spec, it, &n, why, whylen) < 0 || check_items(it, n, rc, why, whylen) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct metricdef *d = it[i].def;
		struct slo s = { d, (size_t)(d - metricdefs), slo_to_base(it[i].v, d->factor) };
		size_t j = 0;
		while (j < a->nslo && a->slo[j].def != d)
			j++;
		if (j == a->nslo)	/* a tag given twice: the last value counts (a dict) */
			a->slo = xreallocarray(a->slo, ++a->nslo, sizeof(*a->slo));
		a->slo[j] = s;
	}
	return 0;
}
