/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-plot: read one artifact directory (summary, records, timeslices, telemetry). */
#include "plot.h"

#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "lines.h"
#include "util.h"

#define MAX_JSON ((size_t)256 << 20)
#define MAX_LINE ((size_t)64 << 20)

void
vec_push(struct vec *a, double x)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 64;
		a->v = xreallocarray(a->v, a->cap, sizeof(*a->v));
	}
	a->v[a->n++] = x;
}

void
vec_release(struct vec *a)
{
	free(a->v);
	*a = (struct vec){ 0 };
}

/* Whether dir/file is there: anything but a folder, so that a FIFO or a
 * device is refused by its reader (util_openfile) rather than passed over. */
static int
exists(const char *dir, const char *file)
{
	struct stat st;
	char *p = xstrfmt("%s/%s", dir, file);
	int ok = stat(p, &st) == 0 && !S_ISDIR(st.st_mode);

	free(p);
	return ok;
}

int
run_is_dir(const char *dir)
{
	return exists(dir, "profile_export_aiperf.json") ||
	       exists(dir, "profile_export.jsonl");
}

/* Parse dir/file into a new doc; NULL (and no doc) when the file is absent,
 * NULL with *bad set when it is malformed. */
static const struct json *
load_json(const char *dir, const char *file, struct json_doc **doc, int *bad)
{
	char *p = xstrfmt("%s/%s", dir, file), *s, err[128];
	const struct json *v = NULL;
	size_t n;

	*doc = NULL;
	if (!exists(dir, file)) {
		free(p);
		return NULL;
	}
	if (!(s = util_readfile(p, MAX_JSON, &n))) {
		error("cannot read '%s':", p);
		*bad = 1;
		free(p);
		return NULL;
	}
	*doc = json_doc_new();
	if (!(v = json_parse(*doc, s, n, err, sizeof(err)))) {
		error("'%s': %s", p, err);
		*bad = 1;
	}
	free(s);
	free(p);
	return v;
}

static double
num(const struct json *v)
{
	double d;

	return v && json_double(v, &d) == 0 ? d : NAN;
}

double
run_stat(const struct run *r, const char *metric, const char *stat)
{
	return num(json_get(json_get(r->agg, metric), stat));
}

static double
metric(const struct json *m, const char *name)
{
	return num(json_get(json_get(m, name), "value"));
}

/* Keep each scalar metric's values, for the summary made from records. */
static void
collect(struct run *r, const struct json *m)
{
	const struct json *e, *v;
	size_t i;
	double x;

	for (e = m && m->type == JSON_OBJECT ? m->child : NULL; e; e = e->next) {
		v = json_get(e, "value");
		if (!v || !json_is_num(v) || json_double(v, &x) < 0 ||
		    memchr(e->key, '"', e->keylen) || memchr(e->key, '\\', e->keylen))
			continue;
		for (i = 0; i < r->nmvals; i++)
			if (strlen(r->mvals[i].name) == e->keylen &&
			    !memcmp(r->mvals[i].name, e->key, e->keylen))
				break;
		if (i == r->nmvals) {
			r->mvals = xreallocarray(r->mvals, i + 1, sizeof(*r->mvals));
			r->mvals[i] = (struct mvals){ xstrndup(e->key, e->keylen),
				xstrdup(json_str_or(json_get(e, "unit"), "")), { 0 } };
			r->nmvals++;
		}
		vec_push(&r->mvals[i].v, x);
	}
}

static void
add_record(struct run *r, const struct json *rec, int64_t start, int64_t end)
{
	const struct json *m = json_get(rec, "metrics"), *icl, *e;
	double s = (double)(start - r->t0_ns) / 1e9, x;
	size_t i = 0;

	if (r->from_stdin)
		collect(r, m);

	vec_push(&r->start_s, s);
	vec_push(&r->end_s, (double)(end - r->t0_ns) / 1e9);
	x = metric(m, "output_sequence_length");
	if (isnan(x))
		x = metric(m, "output_token_count");
	vec_push(&r->osl, isnan(x) ? 0 : x);
	x = metric(m, "request_latency");
	vec_push(&r->latency, x);
	vec_push(&r->rttft, metric(m, "time_to_first_token"));
	vec_push(&r->ritl, metric(m, "inter_token_latency"));
	if (!isnan(x = metric(m, "time_to_first_token"))) {
		vec_push(&r->ttft, x);
		vec_push(&r->ttft_start_s, s);
	}
	icl = json_get(json_get(m, "inter_chunk_latency"), "value");
	for (e = icl && icl->type == JSON_ARRAY ? icl->child : NULL; e; e = e->next, i++) {
		if (i == r->icl_sum.n) {
			vec_push(&r->icl_sum, 0);
			vec_push(&r->icl_n, 0);
		}
		r->icl_sum.v[i] += num(e);
		r->icl_n.v[i] += 1;
	}
}

static int64_t
ns(const struct json *meta, const char *key)
{
	int64_t v;

	return json_int64(json_get(meta, key), &v) == 0 ? v : -1;
}

/* lines_next() failed: ENOBUFS counted the over-long line (lineno is it). */
static int
read_error(const struct lines *in)
{
	if (errno == ENOBUFS)
		return error("%s:%zu: line longer than %zu bytes", in->name, in->lineno,
			     in->max);
	return error("cannot read '%s':", in->name);
}

/* Records in two passes over memory: the first start is the time origin.
 * From dir/profile_export.jsonl, or from stdin ("<stdin>:LINE: ..." errors). */
static int
load_records(struct run *r)
{
	char *p = r->from_stdin ? xstrdup("-") : xstrfmt("%s/profile_export.jsonl", r->dir);
	char err[128];
	struct json_doc *d = json_doc_new();
	struct lines in;
	const char *s;
	size_t n;
	int rc = 0, got;
	struct { int64_t start, end; char *line; size_t len; } *keep = NULL;
	size_t nkeep = 0, cap = 0, i;

	if (!r->from_stdin && !exists(r->dir, "profile_export.jsonl"))
		goto out;
	if (lines_open(&in, p, MAX_LINE) < 0) {
		rc = error("cannot open '%s':", p);
		goto out;
	}
	while ((got = lines_next(&in, &s, &n)) == 1) {
		const struct json *rec, *meta;

		if (n == 0)
			continue;
		json_doc_reset(d);
		if (!(rec = json_parse(d, s, n, err, sizeof(err)))) {
			rc = error("%s:%zu: %s", in.name, in.lineno, err);
			break;
		}
		if (rec->type != JSON_OBJECT || (!json_get(rec, "metadata") && !json_get(rec, "metrics"))) {
			rc = error("%s:%zu: not a metric record (no \"metadata\" or \"metrics\")",
				   in.name, in.lineno);
			break;
		}
		meta = json_get(rec, "metadata");
		if (json_get(rec, "error") && json_get(rec, "error")->type != JSON_NULL) {
			r->nerrors++;
			continue;
		}
		if (ns(meta, "request_start_ns") < 0 || ns(meta, "request_end_ns") < 0)
			continue;
		if (nkeep == cap) {
			cap = cap ? 2 * cap : 64;
			keep = xreallocarray(keep, cap, sizeof(*keep));
		}
		keep[nkeep].start = ns(meta, "request_start_ns");
		keep[nkeep].end = ns(meta, "request_end_ns");
		keep[nkeep].line = xstrndup(s, n);
		keep[nkeep++].len = n;
		if (!r->t0_ns || keep[nkeep - 1].start < r->t0_ns)
			r->t0_ns = keep[nkeep - 1].start;
	}
	if (got < 0 && !rc)
		rc = read_error(&in);
	lines_close(&in);
	for (i = 0; i < nkeep; i++) {
		json_doc_reset(d);
		if (!rc)
			add_record(r, json_parse(d, keep[i].line, keep[i].len, err, sizeof(err)),
				   keep[i].start, keep[i].end);
		free(keep[i].line);
	}
	r->nrecords = nkeep;
out:
	free(keep);
	json_doc_free(d);
	free(p);
	return rc;
}

static struct gpu *
gpu_for(struct run *r, const char *id)
{
	size_t i;

	for (i = 0; i < r->ngpus; i++)
		if (!strcmp(r->gpus[i].id, id))
			return &r->gpus[i];
	r->gpus = xreallocarray(r->gpus, r->ngpus + 1, sizeof(*r->gpus));
	r->gpus[r->ngpus] = (struct gpu){ .id = xstrdup(id) };
	return &r->gpus[r->ngpus++];
}

static int
load_gpu(struct run *r)
{
	char *p = xstrfmt("%s/gpu_telemetry_export.jsonl", r->dir), err[128], id[256];
	struct json_doc *d = json_doc_new();
	struct lines in;
	const char *s;
	size_t n;
	int rc = 0, got;

	if (!exists(r->dir, "gpu_telemetry_export.jsonl"))
		goto out;
	if (lines_open(&in, p, MAX_LINE) < 0) {
		rc = error("cannot open '%s':", p);
		goto out;
	}
	while ((got = lines_next(&in, &s, &n)) == 1) {
		const struct json *v, *t;
		struct gpu *g;
		int64_t ts;

		if (n == 0)
			continue;
		json_doc_reset(d);
		if (!(v = json_parse(d, s, n, err, sizeof(err)))) {
			rc = error("%s:%zu: %s", p, in.lineno, err);
			break;
		}
		if (json_int64(json_get(v, "timestamp_ns"), &ts) < 0)
			continue;
		snprintf(id, sizeof(id), "%s %s",
			 json_str_or(json_get(v, "dcgm_url"), ""),
			 json_get(v, "gpu_index") ? json_get(v, "gpu_index")->str : "?");
		g = gpu_for(r, id);
		t = json_get(v, "telemetry_data");
		if (!r->t0_ns)
			r->t0_ns = ts;
		vec_push(&g->t_s, (double)(ts - r->t0_ns) / 1e9);
		vec_push(&g->util, num(json_get(t, "gpu_utilization")));
		vec_push(&g->power, num(json_get(t, "gpu_power_usage")));
		vec_push(&g->mem, num(json_get(t, "gpu_memory_used")));
	}
	if (got < 0 && !rc)
		rc = read_error(&in);
	lines_close(&in);
out:
	json_doc_free(d);
	free(p);
	return rc;
}

static const char *
base(const char *dir)
{
	size_t n = strlen(dir);
	const char *s;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	for (s = dir + n; s > dir && s[-1] != '/'; s--)
		;
	return s;
}

struct run *
run_load(const char *dir)
{
	struct run *r = xcalloc(1, sizeof(*r));
	const struct json *ic, *ts;
	int bad = 0;
	int64_t c;
	size_t n;

	r->dir = xstrdup(dir);
	n = strlen(r->dir);
	while (n > 1 && r->dir[n - 1] == '/')
		r->dir[--n] = '\0';
	r->name = xstrdup(base(r->dir));
	r->concurrency = -1;
	r->agg = load_json(dir, "profile_export_aiperf.json", &r->adoc, &bad);
	ts = load_json(dir, "profile_export_aiperf_timeslices.json", &r->tdoc, &bad);
	r->slices = json_get(ts, "timeslices");
	r->slice_duration = num(json_path(ts, "input_config.output.slice_duration"));
	if (isnan(r->slice_duration))
		r->slice_duration = 0;
	r->srv = json_get(load_json(dir, "server_metrics_export.json", &r->sdoc, &bad),
			  "metrics");
	ic = json_path(r->agg, "input_config.loadgen");
	if (json_int64(json_get(ic, "concurrency"), &c) == 0)
		r->concurrency = c;
	r->request_rate = num(json_get(ic, "request_rate"));
	if (bad || load_records(r) < 0 || load_gpu(r) < 0 ||
	    (!r->agg && !r->nrecords && !r->nerrors)) {
		if (!bad && !r->agg && !r->nrecords && !r->nerrors)
			error("'%s': no profile_export_aiperf.json and no records", dir);
		run_free(r);
		return NULL;
	}
	return r;
}

static int
by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* numpy.percentile's linear interpolation on sorted v. */
static double
percentile(const double *v, size_t n, double p)
{
	double pos = p / 100 * (double)(n - 1);
	size_t lo = (size_t)floor(pos);

	if (lo + 1 >= n)
		return v[n - 1];
	return v[lo] + (v[lo + 1] - v[lo]) * (pos - (double)lo);
}

/* profile_export_aiperf.json's metric objects, computed from the records
 * (avg, min, max, p1...p99, std with ddof 0), parsed into r->adoc. */
static void
summarize(struct run *r)
{
	static const double pcts[] = { 1, 5, 10, 25, 50, 75, 90, 95, 99 };
	struct buf b;
	char err[128];
	size_t i, k;

	buf_init(&b, MAX_JSON);
	buf_addf(&b, "{\"request_count\":{\"unit\":\"requests\",\"avg\":%zu},"
		 "\"error_request_count\":{\"unit\":\"requests\",\"avg\":%zu}",
		 r->nrecords, r->nerrors);
	for (i = 0; i < r->nmvals; i++) {
		struct vec *v = &r->mvals[i].v;
		double sum = 0, ss = 0, avg;

		qsort(v->v, v->n, sizeof(*v->v), by_value);
		for (k = 0; k < v->n; k++)
			sum += v->v[k];
		avg = sum / (double)v->n;
		for (k = 0; k < v->n; k++)
			ss += (v->v[k] - avg) * (v->v[k] - avg);
		buf_addf(&b, ",\"%s\":{\"unit\":\"", r->mvals[i].name);
		for (const char *u = r->mvals[i].unit; *u; u++)
			if (*u != '"' && *u != '\\' && (unsigned char)*u >= 0x20)
				buf_addch(&b, *u);
		buf_addf(&b, "\",\"avg\":%.17g,\"min\":%.17g,\"max\":%.17g", avg, v->v[0],
			 v->v[v->n - 1]);
		for (k = 0; k < sizeof(pcts) / sizeof(*pcts); k++)
			buf_addf(&b, ",\"p%g\":%.17g", pcts[k], percentile(v->v, v->n, pcts[k]));
		buf_addf(&b, ",\"std\":%.17g}", sqrt(ss / (double)v->n));
	}
	buf_addch(&b, '}');
	r->adoc = json_doc_new();
	r->agg = json_parse(r->adoc, b.s, b.len, err, sizeof(err));
	buf_release(&b);
}

struct run *
run_load_stdin(void)
{
	struct run *r = xcalloc(1, sizeof(*r));

	r->dir = xstrdup("<stdin>");
	r->name = xstrdup("stdin");
	r->concurrency = -1;
	r->from_stdin = 1;
	if (load_records(r) < 0) {
		run_free(r);
		return NULL;
	}
	if (!r->nrecords && !r->nerrors) {
		error("no metric records on stdin (profile_export.jsonl lines, "
		      "as aiperf-metrics writes)");
		run_free(r);
		return NULL;
	}
	summarize(r);
	return r;
}

void
run_free(struct run *r)
{
	size_t i;

	if (!r)
		return;
	json_doc_free(r->adoc);
	json_doc_free(r->tdoc);
	json_doc_free(r->sdoc);
	vec_release(&r->start_s);
	vec_release(&r->end_s);
	vec_release(&r->ttft);
	vec_release(&r->ttft_start_s);
	vec_release(&r->rttft);
	vec_release(&r->ritl);
	vec_release(&r->latency);
	vec_release(&r->osl);
	vec_release(&r->icl_sum);
	vec_release(&r->icl_n);
	for (i = 0; i < r->ngpus; i++) {
		free(r->gpus[i].id);
		vec_release(&r->gpus[i].t_s);
		vec_release(&r->gpus[i].util);
		vec_release(&r->gpus[i].power);
		vec_release(&r->gpus[i].mem);
	}
	free(r->gpus);
	for (i = 0; i < r->nmvals; i++) {
		free(r->mvals[i].name);
		free(r->mvals[i].unit);
		vec_release(&r->mvals[i].v);
	}
	free(r->mvals);
	free(r->name);
	free(r->dir);
	free(r);
}

int
aggs_load(struct aggs *a, const char *dir)
{
	struct agg g = { xstrdup(dir), NULL, NULL };
	int bad = 0;

	g.root = load_json(dir, "profile_export_aiperf_aggregate.json", &g.doc, &bad);
	if (!bad && (!g.root || !json_get(g.root, "metrics") ||
		     json_get(g.root, "metrics")->type != JSON_OBJECT)) {
		error("'%s/profile_export_aiperf_aggregate.json': no \"metrics\" object", dir);
		bad = 1;
	}
	if (bad) {
		json_doc_free(g.doc);
		free(g.dir);
		return -1;
	}
	a->v = xreallocarray(a->v, a->n + 1, sizeof(*a->v));
	a->v[a->n++] = g;
	return 0;
}

void
aggs_release(struct aggs *a)
{
	while (a->n) {
		a->n--;
		json_doc_free(a->v[a->n].doc);
		free(a->v[a->n].dir);
	}
	free(a->v);
	a->v = NULL;
}
