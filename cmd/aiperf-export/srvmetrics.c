/* SPDX-License-Identifier: Apache-2.0 */
/*
 * --server-samples: aiperf-scrape's sample records in, the original's
 * server_metrics_export.json (and, through srvcsv.c, .csv) out, plus the
 * opt-in .jsonl of every scrape.
 *
 * A scrape whose metrics equal the endpoint's previous ones (the server
 * changed nothing) is a duplicate: it counts as a fetch but not as an
 * update, and its values are not added to the series. A failed scrape
 * (an "error" object) counts for nothing but the endpoint being
 * configured. The profiling window is [first profiling request start,
 * max(last profiling response, the endpoint's last update)], the
 * original's; the srvagg modules do the math.
 */
#include "srvmetrics.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "buf.h"
#include "lines.h"
#include "outfile.h"
#include "srvagg/unit.h"
#include "util.h"

#define MAX_SAMPLE_LINE ((size_t)256 << 20)
#define MAX_SERIES ((size_t)1 << 22)
#define SRV_MAX_JSON ((size_t)1 << 31)

static uint64_t
fnv(const char *s, size_t n, uint64_t h)
{
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static void
key_hash(const char *s, size_t n, uint64_t *a, uint64_t *b)
{
	*a = fnv(s, n, 0xcbf29ce484222325ULL);
	*b = fnv(s, n, 0x84222325cbf29ce4ULL);
}

static void *
grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = *cap ? *cap * 2 : 8;
	if (*cap < need)
		*cap = need;
	return xreallocarray(p, *cap, size);
}

/* A sample value: a number or the strings NaN, +Inf, -Inf. */
static int
sample_num(const struct json *v, double *out)
{
	const char *s;

	if (v && json_double(v, out) == 0)
		return 0;
	if (!(s = json_str(v, NULL)))
		return -1;
	if (!strcmp(s, "NaN"))
		*out = NAN;
	else if (!strcmp(s, "+Inf"))
		*out = INFINITY;
	else if (!strcmp(s, "-Inf"))
		*out = -INFINITY;
	else
		return -1;
	return 0;
}

void
srv_init(struct srv *s)
{
	memset(s, 0, sizeof(*s));
	hmap_init(&s->idx, MAX_SERIES);
	s->doc = json_doc_new();
}

static size_t
endpoint(struct srv *s, const char *url)
{
	for (size_t i = 0; i < s->nep; i++)
		if (!strcmp(s->ep[i].url, url))
			return i;
	s->ep = grow(s->ep, &s->capep, s->nep + 1, sizeof(*s->ep));
	memset(&s->ep[s->nep], 0, sizeof(*s->ep));
	s->ep[s->nep].url = xstrdup(url);
	return s->nep++;
}

static size_t
metric(struct srv *s, const char *name, size_t n, const char *type)
{
	uint64_t a, b, *v;
	int created;

	key_hash(name, n, &a, &b);
	a ^= 0x5bd1e995;	/* apart from the series keys */
	if (!(v = hmap_put(&s->idx, a, b, &created)))
		die("--server-samples: more than %zu series", (size_t)MAX_SERIES);
	if (!created)
		return (size_t)*v;
	*v = s->nmet;
	s->met = grow(s->met, &s->capmet, s->nmet + 1, sizeof(*s->met));
	memset(&s->met[s->nmet], 0, sizeof(*s->met));
	s->met[s->nmet].name = xstrndup(name, n);
	s->met[s->nmet].type = xstrdup(type);
	return s->nmet++;
}

/* The series of metric m at endpoint ep with these labels; created when new. */
static struct srv_series *
series(struct srv *s, size_t ep, size_t m, const struct json *labels, int hist)
{
	struct buf k = BUF_INIT(BUF_NOMAX);
	uint64_t a, b, *v;
	int created;
	struct jw w;

	buf_addf(&k, "%zu\n%zu\n", ep, m);
	jw_init(&w, &k, 0);
	if (labels)
		jw_value(&w, labels);
	key_hash(k.s, k.len, &a, &b);
	buf_release(&k);
	if (!(v = hmap_put(&s->idx, a, b, &created)))
		die("--server-samples: more than %zu series", (size_t)MAX_SERIES);
	if (!created)
		return &s->ser[*v];
	*v = s->nser;
	s->ser = grow(s->ser, &s->capser, s->nser + 1, sizeof(*s->ser));
	struct srv_series *r = &s->ser[s->nser++];
	memset(r, 0, sizeof(*r));
	r->ep = ep;
	r->met = m;
	r->hist = hist;
	for (const struct json *l = labels ? labels->child : NULL; l; l = l->next) {
		const char *val = json_str(l, NULL);
		if (!val)
			continue;
		r->lk = xreallocarray(r->lk, r->nl + 1, sizeof(*r->lk));
		r->lv = xreallocarray(r->lv, r->nl + 1, sizeof(*r->lv));
		r->lk[r->nl] = xstrndup(l->key, l->keylen);
		r->lv[r->nl++] = xstrdup(val);
	}
	struct srv_metric *mt = &s->met[m];
	mt->series = grow(mt->series, &mt->cap, mt->nseries + 1, sizeof(*mt->series));
	mt->series[mt->nseries++] = s->nser - 1;
	return r;
}

static int
add_scalar(struct srv_series *r, int64_t ts, const struct json *sv)
{
	double v;

	if (sample_num(json_get(sv, "value"), &v) < 0)
		return -1;
	r->p = grow(r->p, &r->cap, r->n + 1, sizeof(*r->p));
	r->p[r->n++] = (struct srvagg_point){ ts, v };
	return 0;
}

/* The first sample fixes a histogram's bounds; a bound it lacks counts 0. */
static int
add_hist(struct srv_series *r, int64_t ts, const struct json *sv)
{
	const struct json *bk = json_get(sv, "buckets");
	double sum, count;

	if (!bk || bk->type != JSON_OBJECT || sample_num(json_get(sv, "sum"), &sum) < 0 ||
	    sample_num(json_get(sv, "count"), &count) < 0)
		return -1;
	if (!r->n) {
		for (const struct json *b = bk->child; b; b = b->next) {
			char *key = xstrndup(b->key, b->keylen);
			double le;
			if (!strcmp(key, "+Inf"))
				le = INFINITY;
			else if (util_strtod(key, &le) < 0 || !isfinite(le)) {
				free(key);
				return -1;
			}
			if (r->nb && le <= r->le[r->nb - 1]) {
				free(key);
				return -1;
			}
			r->le = xreallocarray(r->le, r->nb + 1, sizeof(*r->le));
			r->lekey = xreallocarray(r->lekey, r->nb + 1, sizeof(*r->lekey));
			r->le[r->nb] = le;
			r->lekey[r->nb++] = key;
		}
	}
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 8;
		r->ts = xreallocarray(r->ts, r->cap, sizeof(*r->ts));
		r->sum = xreallocarray(r->sum, r->cap, sizeof(*r->sum));
		r->count = xreallocarray(r->count, r->cap, sizeof(*r->count));
		if (r->nb)
			r->cum = xreallocarray(r->cum, r->cap * r->nb, sizeof(*r->cum));
	}
	r->ts[r->n] = ts;
	r->sum[r->n] = sum;
	r->count[r->n] = count;
	for (size_t j = 0; j < r->nb; j++) {
		const struct json *c = json_get(bk, r->lekey[j]);
		double v = 0;
		if (c && sample_num(c, &v) < 0)
			return -1;
		r->cum[r->n * r->nb + j] = v;
	}
	r->n++;
	return 0;
}

/* The original's jsonl line of one scrape. */
static void
jsonl_scrape(struct srv *s, const struct json *rec, const struct json *metrics)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;
	static const char *const stamps[] = { "timestamp_ns", "endpoint_latency_ns" };

	jw_init(&w, &b, 0);
	jw_obj(&w);
	jw_key(&w, "endpoint_url");
	jw_value(&w, json_get(rec, "endpoint_url"));
	for (size_t i = 0; i < 2; i++) {
		jw_key(&w, stamps[i]);
		jw_value(&w, json_get(rec, stamps[i]));
	}
	jw_key(&w, "metrics");
	jw_obj(&w);
	for (const struct json *m = metrics->child; m; m = m->next) {
		jw_keyn(&w, m->key, m->keylen);
		jw_arr(&w);
		const struct json *sr = json_get(m, "series");
		for (const struct json *v = sr ? sr->child : NULL; v; v = v->next) {
			jw_obj(&w);
			for (const struct json *f = v->child; f; f = f->next) {
				if (f->keylen == 12 && !memcmp(f->key, "timestamp_ms", 12))
					continue;
				jw_keyn(&w, f->key, f->keylen);
				jw_value(&w, f);
			}
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
	}
	jw_obj_end(&w);
	jw_key(&w, "request_sent_ns");
	jw_value(&w, json_get(rec, "request_sent_ns"));
	if (json_get(rec, "first_byte_ns")) {
		jw_key(&w, "first_byte_ns");
		jw_value(&w, json_get(rec, "first_byte_ns"));
	}
	jw_obj_end(&w);
	buf_addch(&b, '\n');
	if (fwrite(b.s, 1, b.len, s->jsonl) != b.len)
		s->jsonl_err = 1;
	buf_release(&b);
}

/* One sample record; -1 with why when it is not one. */
static int
srv_sample(struct srv *s, const struct json *rec, char *why, size_t whylen)
{
	const char *url = json_str(json_get(rec, "endpoint_url"), NULL);
	const struct json *metrics = json_get(rec, "metrics");
	int64_t ts, lat;

	if (!url || json_int64(json_get(rec, "timestamp_ns"), &ts) < 0)
		return util_seterr(why, whylen, "not a sample record (endpoint_url, timestamp_ns)");
	int64_t t0, t1, cpu;
	if (json_int64(json_get(rec, "start_perf_ns"), &t0) == 0 &&
	    json_int64(json_get(rec, "end_perf_ns"), &t1) == 0 && t1 >= t0) {
		if (json_int64(json_get(rec, "cpu_ns"), &cpu) < 0 || cpu < 0)
			cpu = -1;
		s->spans = grow(s->spans, &s->capspans, s->nspans + 1, sizeof(*s->spans));
		s->spans[s->nspans++] = (struct scrape_span){ ts - (t1 - t0), ts, cpu };
	}
	size_t ep = endpoint(s, url);	/* may move s->ep */
	struct srv_ep *e = &s->ep[ep];
	if (json_get(rec, "error") || !metrics)
		return 0;
	if (metrics->type != JSON_OBJECT)
		return util_seterr(why, whylen, "\"metrics\" is not an object");
	for (const struct json *m = metrics->child; m; m = m->next) {
		const struct json *sr = json_get(m, "series");
		if (m->type != JSON_OBJECT || !sr || sr->type != JSON_ARRAY)
			return util_seterr(why, whylen, "metric %.*s: no \"series\" list",
					   (int)(m->keylen > 64 ? 64 : m->keylen), m->key);
	}
	if (json_int64(json_get(rec, "endpoint_latency_ns"), &lat) < 0)
		lat = 0;
	if (!e->fetches)
		e->first_fetch = ts;
	e->last_fetch = ts;
	e->fetches++;
	e->lat_sum += (double)lat;
	if (s->jsonl)
		jsonl_scrape(s, rec, metrics);
	/* The metrics as text, without the HELP texts the first one has. */
	struct buf t = BUF_INIT(BUF_NOMAX);
	for (const struct json *m = metrics->child; m; m = m->next) {
		buf_add(&t, m->key, m->keylen);
		struct jw w;
		jw_init(&w, &t, 0);
		jw_value(&w, json_get(m, "series"));
	}
	int dup = e->prev && e->prevlen == t.len && !memcmp(e->prev, t.s, t.len);
	free(e->prev);
	e->prevlen = t.len;
	e->prev = buf_detach(&t, NULL);
	/* help comes only with the first successful sample: take it always */
	for (const struct json *m = metrics->child; m; m = m->next) {
		const char *type = json_str_or(json_get(m, "type"), "untyped");
		size_t mi = metric(s, m->key, m->keylen, type);
		const char *help = json_str(json_get(m, "help"), NULL);
		if (help && !s->met[mi].help)
			s->met[mi].help = xstrdup(help);
	}
	if (dup)
		return 0;
	e->upd = grow(e->upd, &e->capupd, e->nupd + 1, sizeof(*e->upd));
	e->upd[e->nupd++] = ts;
	for (const struct json *m = metrics->child; m; m = m->next) {
		size_t mi = metric(s, m->key, m->keylen, "untyped");
		int hist = !strcmp(s->met[mi].type, "histogram");
		const struct json *sr = json_get(m, "series");
		for (const struct json *v = sr ? sr->child : NULL; v; v = v->next) {
			struct srv_series *r = series(s, ep, mi, json_get(v, "labels"), hist);
			if ((hist ? add_hist(r, ts, v) : add_scalar(r, ts, v)) < 0)
				return util_seterr(why, whylen, "metric %s: a malformed series",
						   s->met[mi].name);
		}
	}
	return 0;
}

int
srv_read(struct srv *s, const char *path, const char *jsonl_path)
{
	struct lines l;
	const char *line;
	size_t n, bad = 0;
	int rc;
	char why[256], err[128];

	if (lines_open(&l, path, MAX_SAMPLE_LINE) < 0) {
		warn("--server-samples: cannot open '%s':", path);
		return -1;
	}
	/* written whole under a new name, never through a link (lib/outfile) */
	struct outfile of;
	if (jsonl_path && !(s->jsonl = outfile_fopen(&of, AT_FDCWD, jsonl_path)))
		warn("server metrics: no JSONL export: cannot create '%s':", jsonl_path);
	/* A line that is not a sample record is skipped with a warning: the
	 * client's own artifacts are written whatever the samples hold. */
	while ((rc = lines_next(&l, &line, &n)) == 1) {
		if (!n)
			continue;
		json_doc_reset(s->doc);
		const struct json *rec = json_parse(s->doc, line, n, err, sizeof(err));
		if (!rec || rec->type != JSON_OBJECT || srv_sample(s, rec, why, sizeof(why)) < 0) {
			if (!bad++)
				warn("server metrics: %s:%zu: %s; such lines are skipped", l.name,
				     l.lineno, !rec ? err : rec->type != JSON_OBJECT ?
				     "not a JSON object" : why);
		}
	}
	if (bad > 1)
		warn("server metrics: %zu lines of '%s' skipped", bad, path);
	if (rc < 0)
		warn("server metrics: %s:%zu: cannot read further; the samples before are used",
		     l.name, l.lineno);
	lines_close(&l);
	if (s->jsonl) {
		if (s->jsonl_err)
			outfile_discard(&of);
		if (s->jsonl_err || outfile_commit(&of) < 0)
			warn("server metrics: cannot write '%s':", jsonl_path);
		s->jsonl = NULL;
	}
	return 0;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

void
srv_window(struct srv *s, int64_t start_ns, int64_t end_ns, double slice_s)
{
	for (size_t i = 0; i < s->nep; i++) {
		struct srv_ep *e = &s->ep[i];
		int64_t last = e->nupd ? e->upd[e->nupd - 1] : end_ns;
		e->w = (struct srvagg_window){ start_ns, last > end_ns ? last : end_ns, slice_s };
	}
	s->start_ns = start_ns;
	s->end_ns = end_ns;
}

/* Compute every series' statistics (once). */
void
srv_compute(struct srv *s)
{
	for (size_t i = 0; i < s->nser; i++) {
		struct srv_series *r = &s->ser[i];
		const struct srvagg_window *w = &s->ep[r->ep].w;
		const char *type = s->met[r->met].type;
		if (r->hist) {
			struct srvagg_hist_in in = { r->n, r->nb, r->ts, r->sum, r->count,
						     r->cum, r->le };
			r->ok = srvagg_hist(&in, w, &r->h) == 1;
		} else if (!strcmp(type, "counter")) {
			r->ok = srvagg_counter(r->p, r->n, w, &r->c) == 1;
			r->counter = 1;
			if (r->ok && r->c.resets)
				warn("server metric %s: %zu counter reset(s) in the window "
				     "(a server restart?); raw delta %.2f", s->met[r->met].name,
				     r->c.resets, r->c.raw_delta);
		} else {
			r->ok = srvagg_gauge(r->p, r->n, w, &r->g) == 1;
		}
	}
}

static void
dbl(struct jw *w, const char *key, double v)
{
	jw_key(w, key);
	jw_double_py(w, v);
}

static void
whole(struct jw *w, const char *key, double v)
{
	jw_key(w, key);
	if (isfinite(v) && fabs(v) < 9e15 && v == floor(v))
		jw_int(w, (int64_t)v);
	else
		jw_double_py(w, v);
}

static const char *const pct_keys[SRVAGG_NPCT] = { "p1", "p5", "p10", "p25", "p50",
	"p75", "p90", "p95", "p99" };

static void
incomplete(struct jw *w, int complete)
{
	if (!complete) {
		jw_key(w, "is_complete");
		jw_bool(w, 0);
	}
}

static void
buckets(struct jw *w, const struct srv_series *r, const double *d)
{
	jw_key(w, "buckets");
	jw_obj(w);
	for (size_t j = 0; j < r->nb; j++)
		whole(w, r->lekey[j], d[j]);
	jw_obj_end(w);
}

static void
gauge_json(struct jw *w, const struct srvagg_gauge *g)
{
	jw_key(w, "stats");
	jw_obj(w);
	dbl(w, "avg", g->st.avg);
	dbl(w, "min", g->st.min);
	dbl(w, "max", g->st.max);
	dbl(w, "std", g->st.std);
	for (int k = 0; k < SRVAGG_NPCT; k++)
		dbl(w, pct_keys[k], g->st.pct[k]);
	jw_obj_end(w);
	if (!g->slices)
		return;
	jw_key(w, "timeslices");
	jw_arr(w);
	for (size_t i = 0; i < g->nslices; i++) {
		const struct srvagg_gauge_slice *t = &g->slices[i];
		jw_obj(w);
		jw_key(w, "start_ns");
		jw_int(w, t->start_ns);
		jw_key(w, "end_ns");
		jw_int(w, t->end_ns);
		dbl(w, "avg", t->avg);
		dbl(w, "min", t->min);
		dbl(w, "max", t->max);
		incomplete(w, t->complete);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

static void
counter_json(struct jw *w, const struct srvagg_counter *c)
{
	jw_key(w, "stats");
	jw_obj(w);
	dbl(w, "total", c->total);
	dbl(w, "rate", c->rate);
	if (c->has_rate_stats) {
		dbl(w, "rate_avg", c->rate_avg);
		dbl(w, "rate_min", c->rate_min);
		dbl(w, "rate_max", c->rate_max);
		dbl(w, "rate_std", c->rate_std);
	}
	jw_obj_end(w);
	if (!c->has_slices)
		return;
	jw_key(w, "timeslices");
	jw_arr(w);
	for (size_t i = 0; i < c->nslices; i++) {
		const struct srvagg_counter_slice *t = &c->slices[i];
		jw_obj(w);
		jw_key(w, "start_ns");
		jw_int(w, t->start_ns);
		jw_key(w, "end_ns");
		jw_int(w, t->end_ns);
		dbl(w, "total", t->total);
		dbl(w, "rate", t->rate);
		incomplete(w, t->complete);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

static void
hist_json(struct jw *w, const struct srv_series *r)
{
	const struct srvagg_hist *h = &r->h;

	jw_key(w, "stats");
	jw_obj(w);
	whole(w, "count", h->count);
	if (!h->empty) {
		if (h->has_rates)
			dbl(w, "count_rate", h->count_rate);
		dbl(w, "sum", h->sum);
		if (h->has_rates)
			dbl(w, "sum_rate", h->sum_rate);
		dbl(w, "avg", h->avg);
		const double *p = h->has_est ? h->est : h->has_prom ? h->prom : NULL;
		for (int k = 0; p && k < SRVAGG_NPCT; k++) {
			char key[24];
			snprintf(key, sizeof(key), "%s_estimate", pct_keys[k]);
			dbl(w, key, p[k]);
		}
	}
	jw_obj_end(w);
	if (h->buckets)
		buckets(w, r, h->buckets);
	if (!h->slices)
		return;
	jw_key(w, "timeslices");
	jw_arr(w);
	for (size_t i = 0; i < h->nslices; i++) {
		const struct srvagg_hist_slice *t = &h->slices[i];
		jw_obj(w);
		jw_key(w, "start_ns");
		jw_int(w, t->start_ns);
		jw_key(w, "end_ns");
		jw_int(w, t->end_ns);
		whole(w, "count", t->count);
		dbl(w, "sum", t->sum);
		dbl(w, "avg", t->avg);
		if (t->buckets)
			buckets(w, r, t->buckets);
		incomplete(w, t->complete);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

/* The series' type as exported: a histogram, a counter, else a gauge. */
const char *
srv_type(const struct srv *s, const struct srv_series *r)
{
	(void)s;
	return r->hist ? "histogram" : r->counter ? "counter" : "gauge";
}

static void
endpoint_info(struct jw *w, const struct srv_ep *e)
{
	jw_key(w, e->url);
	jw_obj(w);
	jw_key(w, "total_fetches");
	jw_int(w, (int64_t)e->fetches);
	if (e->fetches) {
		jw_key(w, "first_fetch_ns");
		jw_int(w, e->first_fetch);
		jw_key(w, "last_fetch_ns");
		jw_int(w, e->last_fetch);
		dbl(w, "avg_fetch_latency_ms", e->lat_sum / (double)e->fetches / 1e6);
	}
	jw_key(w, "unique_updates");
	jw_int(w, (int64_t)e->nupd);
	if (e->nupd) {
		jw_key(w, "first_update_ns");
		jw_int(w, e->upd[0]);
		jw_key(w, "last_update_ns");
		jw_int(w, e->upd[e->nupd - 1]);
		dbl(w, "duration_seconds", srvagg_secs(e->upd[0], e->upd[e->nupd - 1]));
	}
	if (e->nupd > 1) {
		size_t k = e->nupd - 1;
		int64_t *d = xreallocarray(NULL, k, sizeof(*d));
		for (size_t i = 0; i < k; i++)
			d[i] = e->upd[i + 1] - e->upd[i];
		qsort(d, k, sizeof(*d), cmp_i64);
		double med = k % 2 ? (double)d[k / 2] : ((double)d[k / 2 - 1] + (double)d[k / 2]) / 2;
		dbl(w, "avg_update_interval_ms", srvagg_secs(e->upd[0], e->upd[k]) * 1e3 / (double)k);
		dbl(w, "median_update_interval_ms", med / 1e6);
		free(d);
	}
	jw_obj_end(w);
}

static void
labels(struct jw *w, const struct srv_series *r)
{
	if (!r->nl)
		return;
	jw_key(w, "labels");
	jw_obj(w);
	for (size_t i = 0; i < r->nl; i++) {
		jw_key(w, r->lk[i]);
		jw_str(w, r->lv[i]);
	}
	jw_obj_end(w);
}

static void
metrics_json(struct jw *w, const struct srv *s)
{
	jw_key(w, "metrics");
	jw_obj(w);
	for (size_t m = 0; m < s->nmet; m++) {
		const struct srv_metric *mt = &s->met[m];
		size_t shown = 0;
		for (size_t i = 0; i < mt->nseries; i++)
			shown += s->ser[mt->series[i]].ok;
		if (!shown)
			continue;
		const struct srv_series *first = NULL;
		for (size_t i = 0; !first && i < mt->nseries; i++)
			if (s->ser[mt->series[i]].ok)
				first = &s->ser[mt->series[i]];
		jw_key(w, mt->name);
		jw_obj(w);
		jw_key(w, "type");
		jw_str(w, srv_type(s, first));
		jw_key(w, "description");
		jw_str(w, mt->help ? mt->help : "");
		const char *unit = srvagg_unit(mt->name, mt->help);
		if (unit) {
			jw_key(w, "unit");
			jw_str(w, unit);
		}
		jw_key(w, "series");
		jw_arr(w);
		for (size_t i = 0; i < mt->nseries; i++) {
			const struct srv_series *r = &s->ser[mt->series[i]];
			if (!r->ok)
				continue;
			jw_obj(w);
			jw_key(w, "endpoint_url");
			jw_str(w, s->ep[r->ep].url);
			labels(w, r);
			if (r->hist)
				hist_json(w, r);
			else if (r->counter)
				counter_json(w, &r->c);
			else
				gauge_json(w, &r->g);
			jw_obj_end(w);
		}
		jw_arr_end(w);
		jw_obj_end(w);
	}
	jw_obj_end(w);
}

int
srv_json(FILE *f, const struct srv *s, const struct exportopts *o)
{
	struct buf b;
	struct jw w;
	char iso[64];

	buf_init(&b, SRV_MAX_JSON);
	jw_init(&w, &b, 2);
	jw_obj(&w);
	jw_key(&w, "schema_version");
	jw_str(&w, "1.0");
	jw_key(&w, "aiperf_version");
	jw_str(&w, o->version);
	jw_key(&w, "benchmark_id");
	jw_str(&w, o->benchmark_id);
	jw_key(&w, "summary");
	jw_obj(&w);
	jw_key(&w, "endpoints_configured");
	jw_arr(&w);
	for (size_t i = 0; i < s->nep; i++)
		jw_str(&w, s->ep[i].url);
	jw_arr_end(&w);
	jw_key(&w, "endpoints_successful");
	jw_arr(&w);
	for (size_t i = 0; i < s->nep; i++)
		if (s->ep[i].fetches)
			jw_str(&w, s->ep[i].url);
	jw_arr_end(&w);
	iso_local(s->start_ns, iso);
	jw_key(&w, "start_time");
	jw_str(&w, iso);
	iso_local(s->end_ns, iso);
	jw_key(&w, "end_time");
	jw_str(&w, iso);
	jw_key(&w, "endpoint_info");
	jw_obj(&w);
	for (size_t i = 0; i < s->nep; i++)
		if (s->ep[i].fetches)
			endpoint_info(&w, &s->ep[i]);
	jw_obj_end(&w);
	jw_obj_end(&w);
	metrics_json(&w, s);
	if (o->input_config && json_input_config(&w, o->input_config) < 0) {
		buf_release(&b);
		return -1;
	}
	jw_obj_end(&w);
	buf_addch(&b, '\n');
	int rc = fwrite(b.s, 1, b.len, f) == b.len ? 0 : -1;
	buf_release(&b);
	return rc;
}

void
srv_release(struct srv *s)
{
	for (size_t i = 0; i < s->nser; i++) {
		struct srv_series *r = &s->ser[i];
		for (size_t k = 0; k < r->nl; k++) {
			free(r->lk[k]);
			free(r->lv[k]);
		}
		for (size_t k = 0; k < r->nb; k++)
			free(r->lekey[k]);
		free(r->lk);
		free(r->lv);
		free(r->lekey);
		free(r->le);
		free(r->p);
		free(r->ts);
		free(r->sum);
		free(r->count);
		free(r->cum);
		if (r->ok && r->hist)
			srvagg_hist_release(&r->h);
		else if (r->ok && r->counter)
			srvagg_counter_release(&r->c);
		else if (r->ok)
			srvagg_gauge_release(&r->g);
	}
	free(s->spans);
	for (size_t i = 0; i < s->nmet; i++) {
		free(s->met[i].name);
		free(s->met[i].type);
		free(s->met[i].help);
		free(s->met[i].series);
	}
	for (size_t i = 0; i < s->nep; i++) {
		free(s->ep[i].url);
		free(s->ep[i].upd);
		free(s->ep[i].prev);
	}
	free(s->ser);
	free(s->met);
	free(s->ep);
	hmap_release(&s->idx);
	json_doc_free(s->doc);
}
