/* SPDX-License-Identifier: Apache-2.0 */
/* One sample record per scrape (man 5 aiperf-records). */
#include "scrape.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json/jw.h"
#include "util.h"

static int64_t
wall(const struct scraper *s, int64_t mono)
{
	return s->wall0 + (mono - s->mono0);
}

/* Numbers as JSON numbers; NaN and infinities as the strings Prometheus writes. */
static void
put_value(struct jw *w, double v)
{
	if (isnan(v))
		jw_str(w, "NaN");
	else if (isinf(v))
		jw_str(w, v > 0 ? "+Inf" : "-Inf");
	else
		jw_double(w, v);
}

static void
put_series(struct jw *w, const struct prom_series *ps)
{
	jw_obj(w);
	if (ps->nlabels) {
		jw_key(w, "labels");
		jw_obj(w);
		for (size_t i = 0; i < ps->nlabels; i++) {
			jw_key(w, ps->labels[i].name);
			jw_str(w, ps->labels[i].value);
		}
		jw_obj_end(w);
	}
	if (ps->nbuckets || (ps->have & (PROM_HAVE_SUM | PROM_HAVE_COUNT))) {
		jw_key(w, "buckets");
		jw_obj(w);
		for (size_t i = 0; i < ps->nbuckets; i++) {
			jw_key(w, ps->buckets[i].le_text);
			put_value(w, ps->buckets[i].count);
		}
		jw_obj_end(w);
		if (ps->have & PROM_HAVE_SUM) {
			jw_key(w, "sum");
			put_value(w, ps->sum);
		}
		if (ps->have & PROM_HAVE_COUNT) {
			jw_key(w, "count");
			put_value(w, ps->count);
		}
	} else {
		jw_key(w, "value");
		put_value(w, ps->value);
	}
	if (ps->have & PROM_HAVE_TS) {
		jw_key(w, "timestamp_ms");
		jw_double(w, ps->ts);
	}
	jw_obj_end(w);
}

/* Series indices grouped by family, in exposition order (a counting sort:
 * families may interleave their lines). off[f]..off[f + 1] are family f's. */
static size_t *
by_family(const struct prom *p, size_t **off)
{
	size_t *o = xcalloc(p->nfam + 1, sizeof(*o));
	size_t *next = xcalloc(p->nfam + 1, sizeof(*next));
	size_t *idx = xcalloc(p->nser + 1, sizeof(*idx));

	for (size_t i = 0; i < p->nser; i++)
		o[p->ser[i].family + 1]++;
	for (size_t f = 0; f < p->nfam; f++)
		o[f + 1] += o[f];
	memcpy(next, o, (p->nfam + 1) * sizeof(*o));
	for (size_t i = 0; i < p->nser; i++)
		idx[next[p->ser[i].family]++] = i;
	free(next);
	*off = o;
	return idx;
}

/* "metrics": {name: {type, [help], series: [...]}, ...} in exposition order. */
static void
put_metrics(struct jw *w, const struct prom *p, int help)
{
	size_t *off, *idx = by_family(p, &off);

	jw_obj(w);
	for (size_t f = 0; f < p->nfam; f++) {
		if (off[f] == off[f + 1])
			continue;
		jw_key(w, p->fam[f].name);
		jw_obj(w);
		jw_key(w, "type");
		jw_str(w, prom_type_name(p->fam[f].type));
		if (help && p->fam[f].help) {
			jw_key(w, "help");
			jw_str(w, p->fam[f].help);
		}
		jw_key(w, "series");
		jw_arr(w);
		for (size_t k = off[f]; k < off[f + 1]; k++)
			put_series(w, &p->ser[idx[k]]);
		jw_arr_end(w);
		jw_obj_end(w);
	}
	jw_obj_end(w);
	free(idx);
	free(off);
}

static int
dup_named(const struct endpoint *e, const char *name)
{
	for (size_t i = 0; i < e->ndup_names; i++)
		if (!strcmp(e->dup_names[i], name))
			return 1;
	return 0;
}

/*
 * Duplicate series (the parser keeps the first sample of each) are a
 * warning on stderr once per metric and endpoint, however many samples
 * and scrapes repeat them (each record's warnings count them all); past
 * SCRAPE_DUP_NAMES metrics, one more warning stands for the rest.
 */
static void
dup_warn(struct endpoint *e, const struct prom *p)
{
	for (size_t i = 0; i < p->nfam && !e->dup_more; i++) {
		const struct prom_family *f = &p->fam[i];

		if (!f->dups || dup_named(e, f->name))
			continue;
		if (e->ndup_names == SCRAPE_DUP_NAMES) {
			e->dup_more = 1;
			warn("warning: scrape of '%s': more metrics with duplicate series, "
			     "not named", e->shown);
			break;
		}
		e->dup_names[e->ndup_names++] = xstrdup(f->name);
		warn("warning: scrape of '%s': duplicate series of '%s' (%zu sample%s "
		     "dropped, the first of each series kept); not said again for it",
		     e->shown, f->name, f->dups, f->dups == 1 ? "" : "s");
	}
}

/* Parse e's body into s->metrics; 0, or -1 with why set. */
static int
parse_body(struct scraper *s, struct endpoint *e, char *why, size_t whylen,
	   size_t *nwarn)
{
	struct prom_limits lim = prom_default_limits;
	struct prom p;
	struct jw w;
	int rc;

	lim.max_body = (size_t)s->o->max_body;
	lim.max_series = (size_t)s->o->max_series;
	prom_init(&p);
	buf_reset(&s->metrics);
	rc = prom_parse(&p, buf_str(&e->body), e->body.len, &lim, why, whylen);
	if (!rc) {
		jw_init(&w, &s->metrics, 0);
		jw_key(&w, "metrics");
		put_metrics(&w, &p, !e->help_sent);
		e->help_sent = 1;
		dup_warn(e, &p);
		*nwarn = p.nwarn;
		if (p.nwarn) {
			jw_key(&w, "warnings");
			jw_arr(&w);
			for (size_t i = 0; i < p.nwarn && i < PROM_MAX_WARN; i++)
				jw_str(&w, p.warn[i]);
			jw_arr_end(&w);
			jw_key(&w, "warning_count");
			jw_int(&w, (int64_t)p.nwarn);
		}
	}
	prom_release(&p);
	return rc;
}

/* The error of a failed scrape, or NULL: type into *type, message into msg. */
static int
failure(const struct scraper *s, const struct endpoint *e, CURLcode rc,
	const char **type, char *msg, size_t len)
{
	if (e->too_big) {
		*type = "ResponseTooLargeError";
		snprintf(msg, len, "response larger than --max-body %lld bytes",
			 s->o->max_body);
	} else if (rc == CURLE_OPERATION_TIMEDOUT) {
		*type = "RequestTimeoutError";
		snprintf(msg, len, "no complete answer within %.3fs",
			 (double)s->o->timeout_ns / 1e9);
	} else if (rc != CURLE_OK) {
		*type = "ConnectionError";
		snprintf(msg, len, "%s", e->curl_err[0] ? e->curl_err :
			 curl_easy_strerror(rc));
	} else if (e->status < 200 || e->status > 299) {
		*type = "HTTPError";
		snprintf(msg, len, "HTTP status %ld", e->status);
	} else {
		return 0;
	}
	return 1;
}

/* A warning on stderr when an endpoint starts failing, and when it recovers. */
static void
tell(struct endpoint *e, const char *type, const char *msg)
{
	if (type && !e->failing)
		warn("warning: scrape of '%s' failed (%s: %s); scraping goes on",
		     e->shown, type, msg);
	else if (!type && e->failing)
		warn("scrape of '%s' works again", e->shown);
	e->failing = type != NULL;
}

static void
put_head(struct jw *w, const struct scraper *s, const struct endpoint *e)
{
	jw_key(w, "schema");
	jw_str(w, "aiperf.sample/1");
	jw_key(w, "endpoint_url");
	jw_str(w, e->shown);
	jw_key(w, "scrape");
	jw_int(w, (int64_t)e->scrapes);
	if (e->cue == 2) {
		jw_key(w, "cue");
		jw_bool(w, 1);
	}
	jw_key(w, "start_perf_ns");
	jw_int(w, e->start_ns);
	jw_key(w, "end_perf_ns");
	jw_int(w, e->end_ns);
	jw_key(w, "request_sent_ns");
	jw_int(w, wall(s, e->sent_ns));
	if (e->first_ns >= 0) {
		jw_key(w, "first_byte_ns");
		jw_int(w, wall(s, e->first_ns));
	}
	jw_key(w, "timestamp_ns");
	jw_int(w, wall(s, e->end_ns));
	jw_key(w, "endpoint_latency_ns");
	jw_int(w, e->end_ns - e->sent_ns);
}

void
record_write(struct scraper *s, struct endpoint *e, CURLcode rc)
{
	int64_t t0 = cpu_now_ns();
	const char *type = NULL;
	char msg[512];
	size_t nwarn = 0;
	struct jw w;

	buf_reset(&s->metrics);
	if (!failure(s, e, rc, &type, msg, sizeof(msg)) &&
	    parse_body(s, e, msg, sizeof(msg), &nwarn) < 0)
		type = "ParseError";
	tell(e, type, msg);
	e->cpu_ns += cpu_now_ns() - t0;

	buf_reset(&s->out);
	jw_init(&w, &s->out, 0);
	jw_obj(&w);
	put_head(&w, s, e);
	jw_key(&w, "cpu_ns");
	jw_int(&w, e->cpu_ns);
	if (e->status > 0) {
		jw_key(&w, "status");
		jw_int(&w, e->status);
	}
	jw_key(&w, "bytes");
	jw_int(&w, (int64_t)e->body.len);
	if (type) {
		jw_key(&w, "error");
		jw_obj(&w);
		jw_key(&w, "type");
		jw_str(&w, type);
		jw_key(&w, "message");
		jw_str(&w, msg);
		jw_obj_end(&w);
	} else {
		jw_raw(&w, s->metrics.s, s->metrics.len);
	}
	jw_obj_end(&w);
	buf_addch(&s->out, '\n');
	if (fwrite(s->out.s, 1, s->out.len, stdout) != s->out.len ||
	    (s->o->unbuffered && fflush(stdout) == EOF))
		die_write();
}
