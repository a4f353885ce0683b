/* SPDX-License-Identifier: Apache-2.0 */
/*
 * --gpu-samples: GPU telemetry from sample records of DCGM exporters
 * (and aiperf-scrape --nvml, which writes the same), as the original's
 * gpu_telemetry/ and exporters write it: gpu_telemetry_export.jsonl (one
 * line per GPU per scrape), "telemetry_data" in the JSON summary, the GPU
 * section of the CSV and, with --gpu-console, the console tables.
 *
 * Samples are outside input: a line that is not a sample record, a family
 * that is not a DCGM field the original collects, a value that is not a
 * finite number, a series without a GPU's "UUID" label is left out (with
 * why, for the caller's warning). Telemetry never fails a run.
 */
#include "summary/gpu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpucsv.h"
#include "rand/pystr.h"
#include "srvagg/gpu.h"
#include "stats/numfmt.h"
#include "csvfield.h"
#include "util.h"

#define MAX_GPUS 4096

struct gseries {
	struct srvagg_point *p;
	size_t n, cap;
};

/* A telemetry metric: the original's twelve, then the custom CSV's. */
struct gmetric {
	const char *key, *display, *unit;
	const char *dcgm;	/* custom: its field (defaults: srvagg's table) */
	int counter;
};

struct gdev {
	char *url;		/* the endpoint scraped */
	char *uuid, *name, *pci, *device, *host, *ns, *pod;
	long long index;
	struct gseries *m;	/* per metric (g->nmet) */
};

/* One GPU's values in one scrape (the JSONL line being built): NaN for
 * a metric it did not report (the values taken are finite). */
struct gline {
	size_t dev;
	double *v;
};

void
gpu_init(struct gpus *g)
{
	memset(g, 0, sizeof(*g));
	buf_init(&g->jsonl, BUF_NOMAX);
	g->met = xcalloc(SRVAGG_NGPU_METRICS, sizeof(*g->met));
	for (int k = 0; k < SRVAGG_NGPU_METRICS; k++) {
		const struct srvagg_gpu_metric *m = &srvagg_gpu_metrics[k];
		g->met[k] = (struct gmetric){ m->key, m->display, m->unit, NULL, m->counter };
	}
	g->nmet = SRVAGG_NGPU_METRICS;
}

static int
metric_index(const struct gpus *g, const char *key)
{
	for (size_t k = 0; k < g->nmet; k++)
		if (!strcmp(g->met[k].key, key))
			return (int)k;
	return -1;
}

int
gpu_custom_add(struct gpus *g, const struct gpucsv_metric *m)
{
	if (srvagg_dcgm_lookup(m->dcgm))
		return 1;	/* collected anyway, as the original skips it */
	if (metric_index(g, m->key) >= 0)
		return -1;
	g->met = xreallocarray(g->met, g->nmet + 1, sizeof(*g->met));
	g->met[g->nmet++] = (struct gmetric){ m->key, m->display, m->unit, m->dcgm, 0 };
	return 0;
}

void
gpu_release(struct gpus *g)
{
	for (size_t i = 0; i < g->n; i++) {
		struct gdev *d = &g->d[i];
		free(d->url), free(d->uuid), free(d->name), free(d->pci);
		free(d->device), free(d->host), free(d->ns), free(d->pod);
		for (size_t k = 0; k < g->nmet; k++)
			free(d->m[k].p);
		free(d->m);
	}
	free(g->d);
	for (size_t i = 0; i < g->nown; i++)
		free(g->own[i]);
	free(g->own);
	free(g->met);
	for (size_t i = 0; i < g->nurls; i++)
		free(g->urls[i].url);
	free(g->urls);
	buf_release(&g->jsonl);
}

static char *
label(const struct json *labels, const char *name)
{
	size_t n;
	const char *s = json_str(json_get(labels, name), &n);

	return s ? xstrndup(s, n) : NULL;
}

/* The endpoint's entry (configured, and whether a scrape of it worked). */
static size_t
url_index(struct gpus *g, const char *url, size_t n)
{
	for (size_t i = 0; i < g->nurls; i++)
		if (strlen(g->urls[i].url) == n && !memcmp(g->urls[i].url, url, n))
			return i;
	g->urls = xreallocarray(g->urls, g->nurls + 1, sizeof(*g->urls));
	g->urls[g->nurls] = (struct gurl){ xstrndup(url, n), 0 };
	return g->nurls++;
}

/* The GPU of an endpoint's series (by UUID, as the original keys them). */
static long
device(struct gpus *g, const char *url, const struct json *labels)
{
	size_t n;
	const char *uuid = json_str(json_get(labels, "UUID"), &n);
	char *end;

	if (!uuid)
		return -1;
	for (size_t i = 0; i < g->n; i++)
		if (!strcmp(g->d[i].url, url) && strlen(g->d[i].uuid) == n &&
		    !memcmp(g->d[i].uuid, uuid, n))
			return (long)i;
	if (g->n >= MAX_GPUS)
		return -1;
	g->d = xreallocarray(g->d, g->n + 1, sizeof(*g->d));
	struct gdev *d = &g->d[g->n];
	memset(d, 0, sizeof(*d));
	d->url = xstrdup(url);
	d->m = xcalloc(g->nmet, sizeof(*d->m));
	d->uuid = xstrndup(uuid, n);
	d->name = label(labels, "modelName");
	d->pci = label(labels, "pci_bus_id");
	d->device = label(labels, "device");
	d->host = label(labels, "Hostname");
	d->ns = label(labels, "namespace");
	d->pod = label(labels, "pod");
	char *ix = label(labels, "gpu");
	d->index = ix ? strtoll(ix, &end, 10) : 0;
	if (ix && (end == ix || *end))
		d->index = 0;
	free(ix);
	if (!d->name)
		d->name = xstrdup("");
	return (long)g->n++;
}

static void
add_point(struct gseries *s, int64_t ts, double v)
{
	/* scrapes end in order per endpoint; a late one is dropped */
	if (s->n && s->p[s->n - 1].ts_ns > ts)
		return;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->p = xreallocarray(s->p, s->cap, sizeof(*s->p));
	}
	s->p[s->n++] = (struct srvagg_point){ ts, v };
}

static struct gline *
line_for(const struct gpus *g, struct gline **ln, size_t *nln, size_t dev)
{
	for (size_t i = 0; i < *nln; i++)
		if ((*ln)[i].dev == dev)
			return &(*ln)[i];
	*ln = xreallocarray(*ln, *nln + 1, sizeof(**ln));
	(*ln)[*nln].dev = dev;
	(*ln)[*nln].v = xreallocarray(NULL, g->nmet, sizeof(double));
	for (size_t k = 0; k < g->nmet; k++)
		(*ln)[*nln].v[k] = NAN;
	return &(*ln)[(*nln)++];
}

static void
put_opt(struct jw *w, const char *k, const char *v)
{
	if (v) {
		jw_key(w, k);
		jw_str(w, v);
	}
}

/* TelemetryRecord as msgspec writes it (omit_defaults), one per GPU. */
static void
put_lines(struct gpus *g, const struct gline *ln, size_t nln, int64_t ts)
{
	struct jw w;

	for (size_t i = 0; i < nln; i++) {
		const struct gdev *d = &g->d[ln[i].dev];
		jw_init(&w, &g->jsonl, 0);
		jw_obj(&w);
		jw_key(&w, "gpu_index");
		jw_int(&w, d->index);
		jw_key(&w, "gpu_uuid");
		jw_str(&w, d->uuid);
		jw_key(&w, "gpu_model_name");
		jw_str(&w, d->name);
		put_opt(&w, "pci_bus_id", d->pci);
		put_opt(&w, "device", d->device);
		put_opt(&w, "hostname", d->host);
		put_opt(&w, "namespace", d->ns);
		put_opt(&w, "pod_name", d->pod);
		jw_key(&w, "timestamp_ns");
		jw_int(&w, ts);
		jw_key(&w, "dcgm_url");
		jw_str(&w, d->url);
		jw_key(&w, "telemetry_data");
		jw_obj(&w);
		for (size_t k = 0; k < g->nmet; k++) {
			if (isnan(ln[i].v[k]))
				continue;
			jw_key(&w, g->met[k].key);
			jw_double_py(&w, ln[i].v[k]);
		}
		jw_obj_end(&w);
		jw_obj_end(&w);
		buf_addch(&g->jsonl, '\n');
	}
}

/* The metric of a DCGM family (a trailing "_total" ignored) and its scale. */
static int
dcgm_metric(const struct gpus *g, const char *name, double *scale)
{
	const struct srvagg_dcgm_field *f = srvagg_dcgm_lookup(name);
	size_t n = strlen(name);

	if (f) {
		*scale = f->scale;
		return metric_index(g, f->key);
	}
	/* aiperf-scrape --nvml's values that no DCGM field carries as such */
	*scale = 1;
	if (!strcmp(name, "aiperf_nvml_sm_utilization"))
		return metric_index(g, "sm_utilization");
	if (!strcmp(name, "aiperf_nvml_jpg_utilization"))
		return metric_index(g, "jpg_utilization");
	if (n >= 6 && !strcmp(name + n - 6, "_total"))
		n -= 6;
	for (size_t k = SRVAGG_NGPU_METRICS; k < g->nmet; k++)
		if (strlen(g->met[k].dcgm) == n && !strncmp(g->met[k].dcgm, name, n))
			return (int)k;
	return -1;
}

/* One family's series into their GPUs' lines; the number of values taken. */
static size_t
family(struct gpus *g, const char *url, const struct json *fam, const char *name,
       struct gline **ln, size_t *nln)
{
	const struct json *ser = json_get(fam, "series");
	size_t taken = 0;
	int k;
	double v, scale;

	if (!ser || ser->type != JSON_ARRAY || (k = dcgm_metric(g, name, &scale)) < 0)
		return 0;
	for (const struct json *s = ser->child; s; s = s->next) {
		const struct json *labels = json_get(s, "labels");
		long dev;
		if (json_double(json_get(s, "value"), &v) < 0 || !isfinite(v) ||
		    (dev = device(g, url, labels)) < 0)
			continue;
		struct gline *l = line_for(g, ln, nln, (size_t)dev);
		l->v[k] = v * scale;
		if (!isfinite(l->v[k]))	/* overflowed by the scale */
			l->v[k] = NAN;
		else
			taken++;
	}
	return taken;
}

/* One sample record; -1 when it is not one. */
static int
sample(struct gpus *g, const struct json *r)
{
	const struct json *metrics = json_get(r, "metrics");
	size_t un, nln = 0;
	const char *url = json_str(json_get(r, "endpoint_url"), &un);
	struct gline *ln = NULL;
	int64_t ts;

	if (!url || json_int64(json_get(r, "timestamp_ns"), &ts) < 0 ||
	    memchr(url, '\0', un))
		return -1;
	size_t ui = url_index(g, url, un);
	if (!metrics || metrics->type != JSON_OBJECT)
		return 0;	/* a failed scrape */
	g->urls[ui].ok = 1;
	for (const struct json *m = metrics->child; m; m = m->next) {
		char *name = xstrndup(m->key, m->keylen);
		family(g, g->urls[ui].url, m, name, &ln, &nln);
		free(name);
	}
	for (size_t i = 0; i < nln; i++)
		for (size_t k = 0; k < g->nmet; k++)
			if (!isnan(ln[i].v[k]))
				add_point(&g->d[ln[i].dev].m[k], ts, ln[i].v[k]);
	put_lines(g, ln, nln, ts);
	g->lines += nln;
	for (size_t i = 0; i < nln; i++)
		free(ln[i].v);
	free(ln);
	return 0;
}

int
gpu_line(struct gpus *g, struct json_doc *doc, const char *s, size_t n, char *why,
	 size_t whylen)
{
	struct json *r;

	json_doc_reset(doc);
	if (!(r = json_parse(doc, s, n, why, whylen)))
		return -1;
	if (r->type != JSON_OBJECT || sample(g, r) < 0)
		return util_seterr(why, whylen, "no endpoint_url or timestamp_ns");
	return 0;
}

static char *
owned(struct gpus *g, const char *s, size_t n)
{
	g->own = xreallocarray(g->own, g->nown + 1, sizeof(*g->own));
	return g->own[g->nown++] = xstrndup(s, n);
}

void
gpu_metric_add(struct gpus *g, const char *key, const char *unit)
{
	if (g->n || metric_index(g, key) >= 0)
		return;
	const char *k = owned(g, key, strlen(key));
	g->met = xreallocarray(g->met, g->nmet + 1, sizeof(*g->met));
	g->met[g->nmet++] = (struct gmetric){ k, k, owned(g, unit, strlen(unit)), k, 0 };
}

void
gpu_endpoint(struct gpus *g, const char *url, int ok)
{
	size_t i = url_index(g, url, strlen(url));

	g->urls[i].ok |= ok;
}

static char *
field_str(const struct json *r, const char *name)
{
	size_t n;
	const char *s = json_str(json_get(r, name), &n);

	return s && !memchr(s, '\0', n) ? xstrndup(s, n) : NULL;
}

/* The GPU of a TelemetryRecord line (by endpoint and UUID, as the export). */
static long
record_device(struct gpus *g, const struct json *r, char *why, size_t whylen)
{
	char *url = field_str(r, "dcgm_url"), *uuid = field_str(r, "gpu_uuid");
	int64_t index;
	long found = -1;

	if (!url || !uuid || json_int64(json_get(r, "gpu_index"), &index) < 0) {
		free(url), free(uuid);
		return util_seterr(why, whylen, "no dcgm_url, gpu_uuid or gpu_index");
	}
	for (size_t i = 0; i < g->n && found < 0; i++)
		if (!strcmp(g->d[i].url, url) && !strcmp(g->d[i].uuid, uuid))
			found = (long)i;
	if (found < 0 && g->n >= MAX_GPUS)
		util_seterr(why, whylen, "more than %d GPUs", MAX_GPUS);
	if (found >= 0 || g->n >= MAX_GPUS) {
		free(url), free(uuid);
		return found;
	}
	size_t ui = url_index(g, url, strlen(url));	/* may move g->urls */
	g->urls[ui].ok = 1;	/* it gave lines */
	g->d = xreallocarray(g->d, g->n + 1, sizeof(*g->d));
	struct gdev *d = &g->d[g->n];
	memset(d, 0, sizeof(*d));
	d->url = url;
	d->uuid = uuid;
	d->m = xcalloc(g->nmet, sizeof(*d->m));
	d->index = index;
	d->name = field_str(r, "gpu_model_name");
	d->pci = field_str(r, "pci_bus_id");
	d->device = field_str(r, "device");
	d->host = field_str(r, "hostname");
	d->ns = field_str(r, "namespace");
	d->pod = field_str(r, "pod_name");
	if (!d->name)
		d->name = xstrdup("");
	return (long)g->n++;
}

int
gpu_record(struct gpus *g, struct json_doc *doc, const char *s, size_t n, char *why,
	   size_t whylen)
{
	const struct json *r, *td;
	int64_t ts;
	long dev;
	double v;

	json_doc_reset(doc);
	if (!(r = json_parse(doc, s, n, why, whylen)))
		return -1;
	if (r->type != JSON_OBJECT || json_int64(json_get(r, "timestamp_ns"), &ts) < 0 ||
	    !(td = json_get(r, "telemetry_data")) || td->type != JSON_OBJECT)
		return util_seterr(why, whylen, "not a telemetry record (timestamp_ns, "
				   "telemetry_data)");
	if ((dev = record_device(g, r, why, whylen)) < 0)
		return -1;
	for (const struct json *m = td->child; m; m = m->next) {
		char *key = xstrndup(m->key, m->keylen);
		int k = metric_index(g, key);
		if (k < 0 || json_double(m, &v) < 0 || !isfinite(v)) {
			util_seterr(why, whylen, k < 0 ? "telemetry_data.%s: a metric the summary "
				    "does not have" : "telemetry_data.%s: not a finite number", key);
			free(key);
			return -1;
		}
		free(key);
		add_point(&g->d[dev].m[k], ts, v);
	}
	g->lines++;
	return 0;
}

/* The endpoint as the original displays it: no scheme, no trailing /metrics. */
static char *
display_url(const char *url)
{
	const char *s = strstr(url, "://");
	char *d = xstrdup(s ? s + 3 : url);
	size_t n = strlen(d);

	if (n >= 8 && !strcmp(d + n - 8, "/metrics"))
		d[n - 8] = '\0';
	return d;
}

/* The results of one GPU's metric; 0 when it has none in the window. */
static int
result(const struct gpus *g, const struct gdev *d, size_t k,
       const struct srvagg_window *w, struct srvagg_dist *st)
{
	const struct gseries *s = &d->m[k];

	memset(st, 0, sizeof(*st));
	if (g->met[k].counter)
		return srvagg_gpu_counter(s->p, s->n, w, &st->avg) == 1;
	return srvagg_gpu_gauge(s->p, s->n, w, st) == 1;
}

static void
window(const struct gpus *g, struct srvagg_window *w)
{
	*w = (struct srvagg_window){ g->have_start ? g->start_ns : INT64_MIN, INT64_MAX, 0 };
}

static int
by_index(const void *a, const void *b)
{
	const struct gdev *x = *(const struct gdev *const *)a;
	const struct gdev *y = *(const struct gdev *const *)b;
	int c = strcmp(x->url, y->url);

	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* The GPUs in output order: by endpoint (first seen), then index. */
static const struct gdev **
ordered(const struct gpus *g)
{
	const struct gdev **v = xcalloc(g->n + 1, sizeof(*v));

	for (size_t i = 0; i < g->n; i++)
		v[i] = &g->d[i];
	qsort(v, g->n, sizeof(*v), by_index);
	return v;
}

void
gpu_window(struct gpus *g, int have_start, int64_t start_ns, int have_end, int64_t end_ns)
{
	g->have_start = have_start;
	g->start_ns = start_ns;
	g->have_end = have_end;
	g->end_ns = end_ns;
}

int
gpu_have(const struct gpus *g)
{
	return g && g->n > 0;
}

static void
json_stats(struct jw *w, const struct gmetric *m, const struct srvagg_dist *st)
{
	static const char *const pk[] = { "p1", "p5", "p10", "p25", "p50", "p75", "p90",
		"p95", "p99" };

	jw_key(w, m->key);
	jw_obj(w);
	jw_key(w, "unit");
	jw_str(w, m->unit);
	jw_key(w, "avg");
	jw_double_py(w, st->avg);
	if (!m->counter) {
		for (int i = 0; i < SRVAGG_NPCT; i++) {
			jw_key(w, pk[i]);
			jw_double_py(w, st->pct[i]);
		}
		jw_key(w, "min");
		jw_double_py(w, st->min);
		jw_key(w, "max");
		jw_double_py(w, st->max);
		jw_key(w, "std");
		jw_double_py(w, st->std);
	}
	jw_obj_end(w);
}

static void
json_gpu(struct jw *w, const struct gpus *g, const struct gdev *d,
	 const struct srvagg_window *win)
{
	char key[48];
	struct srvagg_dist st;

	snprintf(key, sizeof(key), "gpu_%lld", d->index);
	jw_key(w, key);
	jw_obj(w);
	jw_key(w, "gpu_index");
	jw_int(w, d->index);
	jw_key(w, "gpu_name");
	jw_str(w, d->name);
	jw_key(w, "gpu_uuid");
	jw_str(w, d->uuid);
	put_opt(w, "hostname", d->host);
	put_opt(w, "namespace", d->ns);
	put_opt(w, "pod_name", d->pod);
	jw_key(w, "metrics");
	jw_obj(w);
	for (size_t k = 0; k < g->nmet; k++)
		if (result(g, d, k, win, &st))
			json_stats(w, &g->met[k], &st);
	jw_obj_end(w);
	jw_obj_end(w);
}

void
gpu_json(struct jw *w, const struct gpus *g, void (*iso)(int64_t, char *))
{
	const struct gdev **v;
	struct srvagg_window win;
	char t[64];

	if (!gpu_have(g))
		return;
	window(g, &win);
	v = ordered(g);
	jw_key(w, "telemetry_data");
	jw_obj(w);
	jw_key(w, "summary");
	jw_obj(w);
	for (int ok = 0; ok < 2; ok++) {
		jw_key(w, ok ? "endpoints_successful" : "endpoints_configured");
		jw_arr(w);
		for (size_t i = 0; i < g->nurls; i++)
			if (!ok || g->urls[i].ok)
				jw_str(w, g->urls[i].url);
		jw_arr_end(w);
	}
	if (g->have_start) {
		iso(g->start_ns, t);
		jw_key(w, "start_time");
		jw_str(w, t);
	}
	if (g->have_end) {
		iso(g->end_ns, t);
		jw_key(w, "end_time");
		jw_str(w, t);
	}
	jw_obj_end(w);
	jw_key(w, "endpoints");
	jw_obj(w);
	for (size_t i = 0; i < g->n;) {
		size_t j = i;
		char *disp = display_url(v[i]->url);
		jw_key(w, disp);
		free(disp);
		jw_obj(w);
		jw_key(w, "gpus");
		jw_obj(w);
		for (; j < g->n && !strcmp(v[j]->url, v[i]->url); j++)
			json_gpu(w, g, v[j], &win);
		jw_obj_end(w);
		jw_obj_end(w);
		i = j;
	}
	jw_obj_end(w);
	jw_key(w, "error_summary");
	jw_arr(w);
	jw_arr_end(w);
	jw_obj_end(w);
	free(v);
}


static void
cnum(FILE *f, double v)
{
	char s[340];

	numfmt_fixed2(s, sizeof(s), v);
	csv_field(f, s, 0);
}

int
gpu_csv(FILE *f, const struct gpus *g)
{
	const struct gdev **v;
	struct srvagg_window win;
	struct srvagg_dist st;
	int host = 0, ns = 0, pod = 0;
	char s[64];

	if (!gpu_have(g))
		return 0;
	window(g, &win);
	v = ordered(g);
	for (size_t i = 0; i < g->n; i++)
		host |= !!v[i]->host, ns |= !!v[i]->ns, pod |= !!v[i]->pod;
	fputs("\r\n\r\nEndpoint,GPU_Index,GPU_Name,GPU_UUID,Metric,avg,min,max,sum,"
	      "p1,p5,p10,p25,p50,p75,p90,p95,p99,std", f);
	fputs(host ? ",Hostname" : "", f);
	fputs(ns ? ",Namespace" : "", f);
	fputs(pod ? ",Pod Name" : "", f);
	fputs("\r\n", f);
	for (size_t i = 0; i < g->n; i++) {
		char *disp = display_url(v[i]->url);
		for (size_t k = 0; k < g->nmet; k++) {
			const struct gmetric *m = &g->met[k];
			if (!result(g, v[i], k, &win, &st))
				continue;
			csv_field(f, disp, 1);
			snprintf(s, sizeof(s), "%lld", v[i]->index);
			csv_field(f, s, 0);
			csv_field(f, v[i]->name, 0);
			csv_field(f, v[i]->uuid, 0);
			char *name = xstrfmt("%s (%s)", m->display, m->unit);
			csv_field(f, name, 0);
			free(name);
			cnum(f, st.avg);
			if (m->counter) {
				for (int c = 0; c < 13; c++)
					csv_field(f, "", 0);
			} else {
				cnum(f, st.min);
				cnum(f, st.max);
				cnum(f, st.sum);
				for (int p = 0; p < SRVAGG_NPCT; p++)
					cnum(f, st.pct[p]);
				cnum(f, st.std);
			}
			if (host)
				csv_field(f, v[i]->host ? v[i]->host : "", 0);
			if (ns)
				csv_field(f, v[i]->ns ? v[i]->ns : "", 0);
			if (pod)
				csv_field(f, v[i]->pod ? v[i]->pod : "", 0);
			fputs("\r\n", f);
		}
		free(disp);
	}
	free(v);
	return ferror(f) ? -1 : 0;
}

int
gpu_jsonl(FILE *f, const struct gpus *g)
{
	return fwrite(g->jsonl.s, 1, g->jsonl.len, f) == g->jsonl.len ? 0 : -1;
}

static char *
ccell(double v)
{
	char s[420];

	numfmt_commas2(s, v);
	return xstrdup(s);
}

void
gpu_console(FILE *f, const struct gpus *g, gpu_grid_fn *grid)
{
	static const char *const heads[] = { "Metric", "avg", "min", "max", "p99",
		"p90", "p50", "std" };
	const struct gdev **v;
	struct srvagg_window win;
	struct srvagg_dist st;

	if (!gpu_have(g))
		return;
	window(g, &win);
	v = ordered(g);
	fputs("\n\n", f);
	fputs("NVIDIA AIPerf | GPU Telemetry Summary\n", f);
	for (size_t i = 0; i < g->n; i++) {
		char **cells = xcalloc(g->nmet * 8 + 1, sizeof(*cells));
		size_t nr = 0;
		char *disp = display_url(v[i]->url);
		char *ttl = xstrfmt("%s | GPU %lld | %s", disp, v[i]->index, v[i]->name);
		for (size_t k = 0; k < g->nmet; k++) {
			const struct gmetric *m = &g->met[k];
			if (!result(g, v[i], k, &win, &st))
				continue;
			const double val[] = { st.avg, st.min, st.max, st.pct[8], st.pct[6],
				st.pct[4], st.std };
			cells[nr * 8] = xstrfmt("%s (%s)", m->display, m->unit);
			for (int c = 0; c < 7; c++)
				cells[nr * 8 + 1 + c] = c == 0 || !m->counter ? ccell(val[c])
									   : xstrdup("N/A");
			nr++;
		}
		grid(f, ttl, 8, heads, cells, nr);
		for (size_t c = 0; c < nr * 8; c++)
			free(cells[c]);
		free(cells);
		free(ttl);
		free(disp);
	}
	free(v);
}
