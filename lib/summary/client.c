/* SPDX-License-Identifier: Apache-2.0 */
/* Client health, beyond the original: schedule lateness, latency from the intended send, observation delay, CPU. */
#include "summary/client.h"

#include "summary/agg.h"
#include "summary/summary.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "stats/numfmt.h"
#include "util.h"

#define NS_MS (1e3 / 1e9)
#define MAX_VALUES ((size_t)1 << 31)

void
client_init(struct client *c)
{
	memset(c, 0, sizeof(*c));
	stats_vec_init(&c->lateness);
	stats_vec_init(&c->intended);
	stats_vec_init(&c->delay);
	stats_vec_init(&c->late_at);
}

void
client_release(struct client *c)
{
	stats_vec_release(&c->lateness);
	stats_vec_release(&c->intended);
	stats_vec_release(&c->delay);
	stats_vec_release(&c->late_at);
}

static int
client_push(struct stats_vec *v, const struct json *x)
{
	int64_t ns;

	if (json_int64(x, &ns) < 0 || v->n >= MAX_VALUES)
		return -1;
	stats_vec_push(v, (double)ns);
	return 0;
}

/* A request's start stamp: the first and last start. */
static void
start_at(struct client *c, int64_t t)
{
	if (!c->starts || t < c->first_start)
		c->first_start = t;
	if (!c->starts || t > c->last_start)
		c->last_start = t;
	c->starts++;
}

static void
starts(struct client *c, const struct json *meta)
{
	int64_t t;

	if (json_int64(json_get(meta, "request_start_ns"), &t) == 0)
		start_at(c, t);
}

/* A record's sender CPU stamp, and its end stamp when end is not NULL. */
static void
cpu_at(struct client *c, int64_t cpu, const int64_t *end)
{
	if (!c->cpu_n || cpu < c->cpu_min)
		c->cpu_min = cpu;
	if (!c->cpu_n || cpu > c->cpu_max)
		c->cpu_max = cpu;
	if (end) {
		if (!c->cpu_n || *end < c->cpu_end_min)
			c->cpu_end_min = *end;
		if (!c->cpu_n || *end > c->cpu_end_max)
			c->cpu_end_max = *end;
	}
	c->cpu_n++;
}

int
client_cpu(struct client *c, const struct json *rec, char *why, size_t whylen)
{
	const struct json *v = json_get(json_get(rec, "aiperf"), "cpu_ns");
	int64_t cpu, end;

	c->records++;
	if (!v)
		return 0;
	if (json_int64(v, &cpu) < 0 || cpu < 0) {
		snprintf(why, whylen, "'aiperf': 'cpu_ns' must be a non-negative integer");
		return -1;
	}
	cpu_at(c, cpu, json_int64(json_path(rec, "metadata.request_end_ns"), &end) == 0
			       ? &end : NULL);
	return 0;
}

/* Coordinated omission: the latency a user who arrived on time saw. */
static int
intended_latency(struct client *c, const struct json *rec, const struct json *a,
		 const struct json *late)
{
	const struct json *il = json_get(a, "intended_latency_ns");
	double lat;

	if (il)
		return client_push(&c->intended, il);
	if (late && !json_get(rec, "error") &&
	    json_double(json_path(rec, "metrics.request_latency.value"), &lat) == 0)
		stats_vec_push(&c->intended, c->lateness.v[c->lateness.n - 1] +
				agg_to_base(lat, NS_MS));
	return 0;
}

int
client_record(struct client *c, const struct json *rec, char *why, size_t whylen)
{
	const struct json *a = json_get(rec, "aiperf"), *late, *d;

	starts(c, json_get(rec, "metadata"));
	if (!a)
		return 0;
	late = json_get(a, "schedule_lateness_ns");
	if (late && client_push(&c->lateness, late) < 0)
		goto bad;
	if (late) {
		int64_t t;
		stats_vec_push(&c->late_at, json_int64(json_path(rec, "metadata.request_start_ns"),
						       &t) == 0 ? (double)t : NAN);
	}
	if (intended_latency(c, rec, a, late) < 0)
		goto bad;
	d = json_get(a, "observation_delay_ns");
	if (d && d->type == JSON_ARRAY) {
		for (const struct json *e = d->child; e; e = e->next)
			if (client_push(&c->delay, e) < 0)
				goto bad;
	} else if (d && client_push(&c->delay, d) < 0) {
		goto bad;
	}
	return 0;
bad:
	snprintf(why, whylen, "'aiperf': lateness and delays must be integers (ns)");
	return -1;
}

static void
pmax(struct stats_vec *v, struct pmax *p)
{
	struct stats st;

	memset(p, 0, sizeof(*p));
	if (stats_summarize(v, &st) < 0)
		return;
	p->n = st.count;
	p->p50 = st.p50 * NS_MS;
	p->p99 = st.p99 * NS_MS;
	p->max = st.max * NS_MS;
}

/* Per request: over every record the sender wrote, warmup included, as
 * its CPU clock covers them all. */
static void
cpu_figures(const struct client *c, struct clientsum *cs, double cpu_seconds)
{
	cs->cpu_us_per_request = -1;
	cs->cpu_busy = -1;
	if (cpu_seconds >= 0 && c->records)
		cs->cpu_us_per_request = cpu_seconds * 1e6 / (double)c->records;
	else if (c->cpu_n > 1)	/* steady state: startup and the first record excluded */
		cs->cpu_us_per_request = (double)(c->cpu_max - c->cpu_min) / 1e3 /
					 (double)(c->cpu_n - 1);
	else if (c->cpu_n && c->records)
		cs->cpu_us_per_request = (double)c->cpu_max / 1e3 / (double)c->records;
	if (c->cpu_n > 1 && c->cpu_end_max > c->cpu_end_min)
		cs->cpu_busy = (double)(c->cpu_max - c->cpu_min) /
			       (double)(c->cpu_end_max - c->cpu_end_min);
}

void
client_summary(struct client *c, const struct summary *sm, struct clientsum *cs,
	       double cpu_seconds, double target_rate)
{
	(void)sm;
	pmax(&c->lateness, &cs->lateness);
	pmax(&c->intended, &cs->intended);
	pmax(&c->delay, &cs->delay);
	cpu_figures(c, cs, cpu_seconds);
	long long span;
	if (__builtin_sub_overflow(c->last_start, c->first_start, &span))
		span = LLONG_MAX;	/* only from absurd timestamps */
	cs->achieved_rate = c->starts > 1 && span > 0 ?
		(double)(c->starts - 1) / ((double)span * 1e-9) : -1;
	cs->target_rate = target_rate;
}

static int
span_cmp(const void *a, const void *b)
{
	const struct scrape_span *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

/* Whether [from, to] meets one of the n spans, sorted by start, the
 * longest of them maxlen long. */
static int
meets_scrape(const struct scrape_span *sp, size_t n, int64_t maxlen, int64_t from, int64_t to)
{
	size_t lo = 0, hi = n;

	/* the first span starting after `to` bounds the search */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sp[mid].start <= to)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0 && sp[i].start >= from - maxlen;)
		if (sp[i].end >= from)
			return 1;
	return 0;
}

/*
 * The scraper's cost in the profiling window: its scrapes (those that
 * start inside [start_ns, end_ns]) and their CPU time, and the schedule
 * lateness of the requests whose [intended send, actual send] overlaps a
 * scrape against that of the others: what scraping does to the sender's
 * schedule, measured in the run itself.
 */
void
client_scraper(const struct client *c, const struct summary *sm, struct scrape_span *sp,
	       size_t n, struct clientsum *cs)
{
	struct stats_vec in, out;
	size_t k = 0, ncpu = 0;
	double cpu = 0, cmax = 0;
	int64_t maxlen = 0;

	cs->scrapes = 0;
	if (!n || !sm->have_start || !sm->have_end)
		return;
	for (size_t i = 0; i < n; i++)
		if (sp[i].start >= sm->start_ns && sp[i].start <= sm->end_ns)
			sp[k++] = sp[i];
	if (!k)
		return;
	qsort(sp, k, sizeof(*sp), span_cmp);
	for (size_t i = 0; i < k; i++) {
		if (sp[i].end - sp[i].start > maxlen)
			maxlen = sp[i].end - sp[i].start;
		if (sp[i].cpu < 0)
			continue;
		cpu += (double)sp[i].cpu;
		if ((double)sp[i].cpu > cmax)
			cmax = (double)sp[i].cpu;
		ncpu++;
	}
	cs->scrapes = k;
	cs->scrape_cpu_avg_us = ncpu ? cpu / (double)ncpu / 1e3 : -1;
	cs->scrape_cpu_max_us = ncpu ? cmax / 1e3 : -1;
	stats_vec_init(&in);
	stats_vec_init(&out);
	for (size_t i = 0; i < c->lateness.n && i < c->late_at.n; i++) {
		double at = c->late_at.v[i], late = c->lateness.v[i];
		if (isnan(at))
			continue;
		int64_t to = (int64_t)at, from = to - (int64_t)(late > 0 ? late : 0);
		stats_vec_push(meets_scrape(sp, k, maxlen, from, to) ? &in : &out, late);
	}
	pmax(&in, &cs->late_scraping);
	pmax(&out, &cs->late_otherwise);
	stats_vec_release(&in);
	stats_vec_release(&out);
}

int
client_known(const struct clientsum *cs)
{
	return cs->lateness.n || cs->delay.n || cs->cpu_us_per_request >= 0 ||
	       cs->achieved_rate >= 0 || cs->target_rate >= 0 || cs->others.n || cs->scrapes;
}

static void
json_pmax(struct jw *w, const char *key, const struct pmax *p)
{
	if (!p->n)
		return;
	jw_key(w, key);
	jw_obj(w);
	jw_key(w, "p50");
	jw_double_py(w, p->p50);
	jw_key(w, "p99");
	jw_double_py(w, p->p99);
	jw_key(w, "max");
	jw_double_py(w, p->max);
	jw_obj_end(w);
}

static void
json_num(struct jw *w, const char *key, double v)
{
	if (v < 0)
		return;
	jw_key(w, key);
	jw_double_py(w, v);
}

void
client_json(struct jw *w, const struct clientsum *cs)
{
	jw_key(w, "client");
	jw_obj(w);
	json_pmax(w, "schedule_lateness_ms", &cs->lateness);
	json_pmax(w, "intended_request_latency_ms", &cs->intended);
	json_pmax(w, "observation_delay_ms", &cs->delay);
	json_num(w, "cpu_us_per_request", cs->cpu_us_per_request);
	json_num(w, "achieved_request_rate", cs->achieved_rate);
	json_num(w, "target_request_rate", cs->target_rate);
	if (cs->others.n) {
		jw_key(w, "other_stages_cpu_seconds");
		jw_double_py(w, cs->others.total);
		jw_key(w, "other_stages_cpu");
		jw_obj(w);
		for (size_t i = 0; i < cs->others.n; i++) {
			jw_key(w, cs->others.names[i]);
			jw_double_py(w, cs->others.seconds[i]);
		}
		jw_obj_end(w);
	}
	if (cs->scrapes) {
		jw_key(w, "scraper");
		jw_obj(w);
		jw_key(w, "scrapes");
		jw_int(w, (int64_t)cs->scrapes);
		json_num(w, "cpu_us_per_scrape", cs->scrape_cpu_avg_us);
		json_num(w, "cpu_us_per_scrape_max", cs->scrape_cpu_max_us);
		json_pmax(w, "schedule_lateness_ms_during_scrapes", &cs->late_scraping);
		json_pmax(w, "schedule_lateness_ms_otherwise", &cs->late_otherwise);
		jw_obj_end(w);
	}
	jw_obj_end(w);
}

static void
line_pmax(FILE *f, const char *what, const struct pmax *p)
{
	if (p->n)
		fprintf(f, "%s (ms): p50 %.3f, p99 %.3f, max %.3f\n", what, p->p50,
			p->p99, p->max);
}

void
client_console(FILE *f, const struct clientsum *cs)
{
	char a[420], t[420];

	if (!client_known(cs))
		return;
	fputs("\nClient Health\n", f);
	line_pmax(f, "Schedule Lateness", &cs->lateness);
	line_pmax(f, "Request Latency From Intended Send", &cs->intended);
	line_pmax(f, "Observation Delay", &cs->delay);
	if (cs->cpu_us_per_request >= 0) {
		numfmt_commas2(a, cs->cpu_us_per_request);
		fprintf(f, "Client CPU per Request (us): %s\n", a);
	}
	if (cs->achieved_rate >= 0 || cs->target_rate >= 0) {
		numfmt_commas2(a, cs->achieved_rate);
		numfmt_commas2(t, cs->target_rate);
		fprintf(f, "Request Rate (requests/sec): %s achieved, %s target\n",
			cs->achieved_rate >= 0 ? a : "N/A", cs->target_rate >= 0 ? t : "N/A");
	}
	if (cs->others.n) {
		fprintf(f, "Other Stages CPU in the %.2f s Window (s): %.3f (", cs->others.window,
			cs->others.total);
		for (size_t i = 0; i < cs->others.n; i++)
			fprintf(f, "%s%s %.3f", i ? ", " : "", cs->others.names[i],
				cs->others.seconds[i]);
		fputs(")\n", f);
	}
	if (cs->scrapes && cs->scrape_cpu_avg_us >= 0)
		fprintf(f, "Server Metrics Scraper CPU per Scrape (us): avg %.1f, max %.1f (%zu scrapes)\n",
			cs->scrape_cpu_avg_us, cs->scrape_cpu_max_us, cs->scrapes);
	if (cs->late_scraping.n)
		fprintf(f, "Schedule Lateness During Scrapes (ms): p99 %.3f (%zu requests), "
			"otherwise p99 %.3f (%zu requests)\n", cs->late_scraping.p99,
			cs->late_scraping.n, cs->late_otherwise.p99, cs->late_otherwise.n);
}

/* Would client_record() run out of room for fr's values? */
int
client_fast_full(const struct client *c, const struct frec *fr)
{
	return c->lateness.n >= MAX_VALUES || c->intended.n >= MAX_VALUES ||
	       c->delay.n + fr->ndelay >= MAX_VALUES;
}

/* client_cpu() for a record frec_scan() read (it checked cpu_ns). */
void
client_fast_cpu(struct client *c, const struct frec *fr)
{
	c->records++;
	if (fr->have_cpu)
		cpu_at(c, fr->cpu, fr->have_end ? &fr->end : NULL);
}

/* client_record() for a record frec_scan() read (it has no "error"). */
void
client_fast_record(struct client *c, const struct frec *fr)
{
	static size_t rl_def = SIZE_MAX;
	double lat;

	if (rl_def == SIZE_MAX)
		rl_def = (size_t)(metricdef_find("request_latency") - metricdefs);
	if (fr->have_start)
		start_at(c, fr->start);
	if (!fr->have_aiperf)
		return;
	if (fr->have_late) {
		stats_vec_push(&c->lateness, (double)fr->late);
		stats_vec_push(&c->late_at, fr->have_start ? (double)fr->start : NAN);
	}
	if (fr->have_intended)
		stats_vec_push(&c->intended, (double)fr->intended);
	else if (fr->have_late && frec_value(fr, rl_def, &lat) == 0)
		stats_vec_push(&c->intended, c->lateness.v[c->lateness.n - 1] +
				agg_to_base(lat, NS_MS));
	for (size_t i = 0; i < fr->ndelay; i++)
		stats_vec_push(&c->delay, (double)fr->delay[i]);
}
