/* SPDX-License-Identifier: Apache-2.0 */
/* Client health per record: schedule lateness, latency from the intended send, observation delays, sender CPU. */
#include "metrics.h"

#include <string.h>

/* Stamp key the sender looks for in a chunk (aiperf-send cb_stamp()). */
static const char stamp_key[] = "\"aiperf_send_ns\"";

/*
 * Does d[0..n) carry a server stamp by the sender's rule: the first
 * "aiperf_send_ns" key, then spaces or colons, then at least one digit?
 */
static int
stamped(const char *d, size_t n)
{
	const char *p = d, *end = d + n;

	while (p < end) {
		const char *k = memchr(p, '"', (size_t)(end - p));

		if (!k || (size_t)(end - k) < sizeof(stamp_key) - 1)
			return 0;
		if (memcmp(k, stamp_key, sizeof(stamp_key) - 1)) {
			p = k + 1;
			continue;
		}
		k += sizeof(stamp_key) - 1;
		while (k < end && (*k == ' ' || *k == ':'))
			k++;
		return k < end && *k >= '0' && *k <= '9';
	}
	return 0;
}

struct pairing {
	const struct json *stamp;	/* next unpaired member of server_stamps */
	struct jw *w;
	int open;			/* the array has been started */
};

static void
pair(struct pairing *pg, int64_t perf)
{
	int64_t s;

	if (!pg->stamp)
		return;
	if (json_int64(pg->stamp, &s) == 0) {
		if (!pg->open) {
			jw_key(pg->w, "observation_delay_ns");
			jw_arr(pg->w);
			pg->open = 1;
		}
		jw_int(pg->w, perf - s);
	}
	pg->stamp = pg->stamp->next;
}

/* Pair the stamped chunks of one response entry with the next stamps. */
static void
pair_response(struct pairing *pg, const struct json *e)
{
	const struct json *p = json_get(e, "packets"), *t = json_get(e, "text");
	int64_t perf;

	if (json_int64(json_get(e, "perf_ns"), &perf) < 0)
		return;
	if (p && p->type == JSON_ARRAY) {
		for (const struct json *k = p->child; k && pg->stamp; k = k->next) {
			const struct json *v = json_get(k, "value");

			if (!strcmp(json_str_or(json_get(k, "name"), ""), "data") && v
			    && v->type == JSON_STRING && stamped(v->str, v->len))
				pair(pg, perf);
		}
	} else if (t && t->type == JSON_STRING && stamped(t->str, t->len)) {
		pair(pg, perf);
	}
}

/* stamped() of a quoted string of the line, decoded. */
static int
stamped_quoted(const struct rec *r, const char *s, size_t n)
{
	size_t len;
	const char *v = rec_unquote(r, s, n, &len);

	return stamped(v, len);
}

/*
 * stamped() of a data packet's value as the fast path kept it (quoted and
 * escaped in the line). A value it read as a packet (sp->pick) has no
 * outer escapes but \" \\ \/, so its text has the key where the line has
 * it with each '"' escaped, and the spaces, colons and digits after it as
 * they are: it is searched in place (by its first '_'). Any other value
 * is decoded first.
 */
static int
stamped_span(const struct rec *r, const struct fspan *sp)
{
	static const char key[] = "\\\"aiperf_send_ns\\\"";	/* \"aiperf_send_ns\" */
	const size_t kn = sizeof(key) - 1, under = 8;	/* key[under] is its first '_' */
	const char *p, *end = sp->s + sp->n;

	if (!sp->pick)
		return stamped_quoted(r, sp->s, sp->n);
	for (p = sp->s + under; p < end && (p = memchr(p, '_', (size_t)(end - p))); p++) {
		if ((size_t)(end - (p - under)) < kn || memcmp(p - under, key, kn))
			continue;
		for (p += kn - under; p < end && (*p == ' ' || *p == ':'); p++)
			;
		return p < end && *p >= '0' && *p <= '9';
	}
	return 0;
}

/* pair_response() for each response the fast path kept (parse.c reads
 * them from r->fr when it took the "responses" member): the same data
 * packets, in the same order, with the same perf_ns. */
static void
pair_fast(struct pairing *pg, const struct rec *r)
{
	for (size_t i = 0; i < r->nfr && pg->stamp; i++) {
		const struct fresp *f = &r->fr[i];

		if (f->packets) {
			for (size_t j = f->first; j < f->first + f->ndata && pg->stamp; j++)
				if (stamped_span(r, &r->fs[j]))
					pair(pg, f->perf_ns);
		} else if (f->s && stamped_quoted(r, f->s, f->n)) {
			pair(pg, f->perf_ns);
		}
	}
}

static int
observation_delays(struct jw *w, const struct rec *r)
{
	const struct json *st = json_get(r->aiperf, "server_stamps");
	const struct json *resp = json_get(r->root, "responses");
	struct pairing pg = { NULL, w, 0 };

	if (!st || st->type != JSON_ARRAY || !resp || resp->type != JSON_ARRAY)
		return 0;
	pg.stamp = st->child;
	if (r->fr_on)
		pair_fast(&pg, r);
	else
		for (const struct json *e = resp->child; e && pg.stamp; e = e->next)
			pair_response(&pg, e);
	if (pg.open)
		jw_arr_end(w);
	return pg.open;
}

/* perf_ns of the last content response, or -1. */
static int64_t
last_content(const struct rec *r)
{
	for (size_t i = r->nr; i > 0; i--)
		if (r->r[i - 1].data)
			return r->r[i - 1].perf_ns;
	return -1;
}

static int
has_inputs(const struct json *a)
{
	static const char *const keys[] = {
		"intended_perf_ns", "server_stamps", "cpu_ns",
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (json_get(a, keys[i]))
			return 1;
	return 0;
}

void
health_write(struct jw *w, const struct rec *r, int valid)
{
	int64_t intended, cpu, last;
	int has_intended, n = 0;
	struct jw saved = *w;
	size_t mark = w->b->len;

	if ((!r->aiperf || r->aiperf->type != JSON_OBJECT || !has_inputs(r->aiperf))
	    && !r->acc.graded)
		return;
	has_intended = json_int64(json_get(r->aiperf, "intended_perf_ns"), &intended) == 0;
	jw_key(w, "aiperf");
	jw_obj(w);
	if (has_intended && r->has_start) {
		jw_key(w, "schedule_lateness_ns");
		jw_int(w, r->start_perf_ns - intended);
		n++;
	}
	if (has_intended && valid && (last = last_content(r)) >= 0) {
		jw_key(w, "intended_latency_ns");
		jw_int(w, last - intended);
		n++;
	}
	n += observation_delays(w, r);
	if (json_int64(json_get(r->aiperf, "cpu_ns"), &cpu) == 0) {
		jw_key(w, "cpu_ns");
		jw_int(w, cpu);
		n++;
	}
	if (r->acc.graded) {
		rec_write_accuracy(w, r);
		n++;
	}
	jw_obj_end(w);
	if (!n) {	/* inputs of the wrong type: no empty object */
		*w = saved;
		w->b->len = mark;
		w->b->s[mark] = '\0';
	}
}
