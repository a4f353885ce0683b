/* SPDX-License-Identifier: Apache-2.0 */
/* Timeslices (--slice-duration): records grouped by epoch-aligned windows, each summarised on its own. */
#include "summary/slices.h"

#include <math.h>
#include <stdlib.h>

#include "buf.h"
#include "stats/numfmt.h"
#include "util.h"

#define MAX_SLICES 100000
#define MAX_JSON_OUT ((size_t)1 << 30)

void
slices_init(struct slices *sl, double seconds)
{
	memset(sl, 0, sizeof(*sl));
	if (seconds > 0)
		sl->width_ns = llround(seconds * 1e9);
}

void
slices_release(struct slices *sl)
{
	for (size_t i = 0; i < sl->n; i++) {
		if (sl->done)
			summary_release(&sl->v[i].sm);
		agg_release(&sl->v[i].a);
	}
	free(sl->v);
}

void
slices_finish(struct slices *sl)
{
	for (size_t i = 0; i < sl->n; i++)
		agg_summary(&sl->v[i].a, &sl->v[i].sm);
	sl->done = 1;
}

/* floor(t / w) for negative t too */
static int64_t
floordiv(int64_t t, int64_t w)
{
	int64_t q = t / w;

	return (t % w && t < 0) ? q - 1 : q;
}

/* The slice for idx, inserted in order when new (records mostly arrive in order). */
static struct slice *
slice_at(struct slices *sl, const struct agg *proto, int64_t idx)
{
	size_t lo = 0, hi = sl->n;

	if (sl->n && sl->v[sl->n - 1].idx == idx)
		return &sl->v[sl->n - 1];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sl->v[mid].idx < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < sl->n && sl->v[lo].idx == idx)
		return &sl->v[lo];
	if (sl->n == MAX_SLICES)
		return NULL;
	if (sl->n == sl->cap) {
		sl->cap = sl->cap ? 2 * sl->cap : 16;
		sl->v = xreallocarray(sl->v, sl->cap, sizeof(*sl->v));
	}
	memmove(&sl->v[lo + 1], &sl->v[lo], (sl->n - lo) * sizeof(*sl->v));
	sl->n++;
	sl->v[lo].idx = idx;
	agg_init(&sl->v[lo].a);
	agg_copy_slos(&sl->v[lo].a, proto);
	return &sl->v[lo];
}

/* The slice of a request that started at start; NULL past MAX_SLICES. */
static struct slice *
slice_of(struct slices *sl, const struct agg *proto, int64_t start, char *why,
	 size_t whylen)
{
	struct slice *s = slice_at(sl, proto, floordiv(start, sl->width_ns));

	if (!s)
		snprintf(why, whylen, "more than %d timeslices", MAX_SLICES);
	return s;
}

int
slices_add(struct slices *sl, const struct agg *proto, const struct json *r,
	   char *why, size_t whylen)
{
	int64_t start;
	struct slice *s;

	if (!sl->width_ns ||
	    json_int64(json_path(r, "metadata.request_start_ns"), &start) < 0)
		return 0;
	if (!(s = slice_of(sl, proto, start, why, whylen)))
		return -1;
	return agg_record(&s->a, r, why, whylen) < 0 ? -1 : 0;
}

int
slices_add_fast(struct slices *sl, const struct agg *proto, const struct frec *fr,
		char *why, size_t whylen)
{
	struct slice *s;

	if (!sl->width_ns || !fr->have_start)
		return 0;
	if (!(s = slice_of(sl, proto, fr->start, why, whylen)))
		return -1;
	/* a slice holds no more values than the whole run, which took them */
	(void)agg_fast(&s->a, fr);
	return 0;
}

static int
slice_body(struct jw *w, struct slices *sl, const struct exportopts *o)
{
	jw_obj(w);
	jw_key(w, "timeslices");
	jw_arr(w);
	for (size_t i = 0; i < sl->n; i++) {
		const struct summary *sm = &sl->v[i].sm;
		jw_obj(w);
		jw_key(w, "timeslice_index");
		jw_int(w, (int64_t)i);
		for (size_t k = 0; k < sm->nres; k++)
			if (result_exported(&sm->res[k]))
				json_metric(w, &sm->res[k]);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	if (o->input_config && json_input_config(w, o->input_config) < 0)
		return -1;
	jw_obj_end(w);
	return 0;
}

int
slices_json(FILE *f, struct slices *sl, const struct exportopts *o)
{
	struct buf b;
	struct jw w;
	int rc = 0;

	buf_init(&b, MAX_JSON_OUT);
	jw_init(&w, &b, 2);
	if (slice_body(&w, sl, o) < 0 || fwrite(b.s, 1, b.len, f) != b.len)
		rc = -1;
	buf_release(&b);
	return rc;
}

static int
slice_by_tag(const void *a, const void *b)
{
	const struct result *x = *(const struct result *const *)a;
	const struct result *y = *(const struct result *const *)b;

	return strcmp(x->def->tag, y->def->tag);
}

static void
csv_rows(FILE *f, size_t idx, const struct result *r)
{
	static const char *const names[] = { "avg", "min", "max", "sum", "p1", "p5",
		"p10", "p25", "p50", "p75", "p90", "p95", "p99", "std" };
	const struct stats *s = &r->st;
	const double v[] = { s->avg, s->min, s->max, s->sum, s->p1, s->p5,
		s->p10, s->p25, s->p50, s->p75, s->p90, s->p95, s->p99, s->std };
	char num[340];

	for (size_t k = 0; k < (r->dist ? 14 : 1); k++) {
		numfmt_fixed2(num, sizeof(num), v[k]);
		/* headers and units hold no comma, quote or line break */
		fprintf(f, "%zu,%s,%s,%s,%s\r\n", idx, r->def->header, r->def->display,
			names[k], num);
	}
}

int
slices_csv(FILE *f, struct slices *sl)
{
	fputs("Timeslice,Metric,Unit,Stat,Value\r\n", f);
	for (size_t i = 0; i < sl->n; i++) {
		const struct summary *sm = &sl->v[i].sm;
		const struct result **rows = xcalloc(sm->nres + 1, sizeof(*rows));
		size_t n = 0;
		for (size_t k = 0; k < sm->nres; k++)
			if (result_exported(&sm->res[k]))
				rows[n++] = &sm->res[k];
		qsort(rows, n, sizeof(*rows), slice_by_tag);
		for (size_t k = 0; k < n; k++)
			csv_rows(f, i, rows[k]);
		free(rows);
	}
	return ferror(f) ? -1 : 0;
}
