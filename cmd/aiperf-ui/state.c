/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-ui: one aiperf-metrics status line into the view's state. */
#include "ui.h"

#include <stdio.h>
#include <string.h>

#include "json/json.h"

static double
dbl(const struct json *o, const char *key)
{
	double v = 0;

	json_double(json_get(o, key), &v);
	return v;
}

static int64_t
i64(const struct json *o, const char *key)
{
	int64_t v = 0;

	json_int64(json_get(o, key), &v);
	return v;
}

static void
phase(const struct json *o, struct ui_phase *p)
{
	p->done = i64(o, "done");
	p->errors = i64(o, "errors");
	p->span_s = dbl(o, "span_s");
	p->request_rate = dbl(o, "request_rate");
	p->token_rate = dbl(o, "output_token_rate");
}

static void
dist(const struct json *o, struct ui_dist *d)
{
	memset(d, 0, sizeof(*d));
	if (!o || o->type != JSON_OBJECT)
		return;
	d->n = i64(o, "n");
	d->p50 = dbl(o, "p50");
	d->p90 = dbl(o, "p90");
	d->p99 = dbl(o, "p99");
	d->max = dbl(o, "max");
}

int
ui_parse(struct ui_state *st, const char *s, size_t n)
{
	static struct json_doc *doc;
	char err[128];
	const struct json *v, *e;

	if (!doc)
		doc = json_doc_new();
	json_doc_reset(doc);
	v = json_parse(doc, s, n, err, sizeof(err));
	if (!v || v->type != JSON_OBJECT || !json_get(v, "profiling"))
		return -1;
	snprintf(st->phase, sizeof(st->phase), "%s", json_str_or(json_get(v, "phase"), "?"));
	phase(json_get(v, "warmup"), &st->warm);
	phase(json_get(v, "profiling"), &st->prof);
	dist(json_get(v, "ttft_ms"), &st->ttft);
	dist(json_get(v, "itl_ms"), &st->itl);
	dist(json_get(v, "latency_ms"), &st->lat);
	dist(json_get(v, "lateness_us"), &st->late);
	st->ntypes = 0;
	e = json_get(v, "errors_by_type");
	if (e && e->type == JSON_OBJECT)
		for (const struct json *k = e->child; k && st->ntypes < UI_MAXTYPES; k = k->next) {
			int64_t c = 0;

			json_int64(k, &c);
			snprintf(st->types[st->ntypes].name, sizeof(st->types[0].name), "%.*s",
				 (int)k->keylen, k->key);
			st->types[st->ntypes++].n = c;
		}
	st->end = (e = json_get(v, "end")) && e->type == JSON_TRUE;
	st->lines++;
	return 0;
}
