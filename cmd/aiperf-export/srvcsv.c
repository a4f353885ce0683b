/* SPDX-License-Identifier: Apache-2.0 */
/*
 * server_metrics_export.csv as the original writes it: comment lines, then
 * a section per type (gauge, counter, histogram; stats then one column per
 * label key, then Description, a histogram's buckets last), blank rows
 * between, and the *_info metrics transposed at the end. Rows are sorted
 * by which label columns they fill, then name, endpoint and labels, as the
 * original; its label columns are ordered by families of co-occurring
 * labels, here they are simply sorted by name (a difference of column
 * order only).
 */
#include "srvmetrics.h"

#include <math.h>
#include <stdlib.h>
#include <strings.h>

#include "buf.h"
#include "srvagg/unit.h"

#include "csvfield.h"
#include "util.h"

enum { SEC_GAUGE, SEC_COUNTER, SEC_HIST, SEC_N };

static const char *const sec_name[SEC_N] = { "gauge", "counter", "histogram" };
static const char *const gauge_keys[] = { "avg", "min", "max", "std", "p1", "p5",
	"p10", "p25", "p50", "p75", "p90", "p95", "p99", NULL };
static const char *const counter_keys[] = { "total", "rate", "rate_avg", "rate_min",
	"rate_max", "rate_std", NULL };
static const char *const hist_keys[] = { "count", "count_rate", "sum", "sum_rate", "avg",
	"p1_estimate", "p5_estimate", "p10_estimate", "p25_estimate", "p50_estimate",
	"p75_estimate", "p90_estimate", "p95_estimate", "p99_estimate", NULL };
static const char *const *const sec_keys[SEC_N] = { gauge_keys, counter_keys, hist_keys };


/* f"{float(v):.4f}" */
static void
real(FILE *f, double v)
{
	char cell[64];

	if (isnan(v))
		snprintf(cell, sizeof(cell), "nan");
	else if (isinf(v))
		snprintf(cell, sizeof(cell), "%sinf", v < 0 ? "-" : "");
	else
		snprintf(cell, sizeof(cell), "%.4f", v);
	csv_field(f, cell, 0);
}

static void
integer(FILE *f, double v)
{
	char cell[64];

	snprintf(cell, sizeof(cell), "%.0f", v);
	csv_field(f, cell, 0);
}

static void
empty(FILE *f)
{
	fputc(',', f);
}

/* urlparse(url): netloc plus the path without a trailing /metrics */
static char *
display(const char *url)
{
	const char *p = strstr(url, "://");
	p = p ? p + 3 : url;
	size_t n = strcspn(p, "?#");
	char *s = xstrndup(p, n);
	size_t k = strlen(s);

	if (k >= 8 && !strcmp(s + k - 8, "/metrics"))
		s[k - 8] = '\0';
	return s;
}

static int
is_info(const struct srv *s, const struct srv_series *r)
{
	const char *n = s->met[r->met].name;
	size_t k = strlen(n);

	return k >= 5 && !strcmp(n + k - 5, "_info");
}

static int
section(const struct srv_series *r)
{
	return r->hist ? SEC_HIST : r->counter ? SEC_COUNTER : SEC_GAUGE;
}

static const char *
series_label(const struct srv_series *r, const char *key)
{
	for (size_t i = 0; i < r->nl; i++)
		if (!strcmp(r->lk[i], key))
			return r->lv[i];
	return NULL;
}

struct row {
	const struct srv_series *r;
	char *pattern, *endpoint, *labels;
	const char *name;
};

static int
cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c;

	if ((c = strcmp(x->pattern, y->pattern)) || (c = strcmp(x->name, y->name)) ||
	    (c = strcmp(x->endpoint, y->endpoint)))
		return c;
	return strcmp(x->labels, y->labels);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted label keys of the section's (non-info) series. */
static size_t
label_columns(const struct srv *s, int sec, const char ***out)
{
	const char **k = NULL;
	size_t n = 0;

	for (size_t i = 0; i < s->nser; i++) {
		const struct srv_series *r = &s->ser[i];
		if (!r->ok || section(r) != sec || is_info(s, r))
			continue;
		for (size_t j = 0; j < r->nl; j++) {
			size_t q = 0;
			while (q < n && strcmp(k[q], r->lk[j]))
				q++;
			if (q < n)
				continue;
			k = xreallocarray(k, n + 1, sizeof(*k));
			k[n++] = r->lk[j];
		}
	}
	if (n)
		qsort(k, n, sizeof(*k), cmp_str);
	*out = k;
	return n;
}

static void
stat_cells(FILE *f, const struct srv_series *r, int sec)
{
	if (sec == SEC_GAUGE) {
		const struct srvagg_dist *d = &r->g.st;
		real(f, d->avg);
		real(f, d->min);
		real(f, d->max);
		real(f, d->std);
		for (int k = 0; k < SRVAGG_NPCT; k++)
			real(f, d->pct[k]);
	} else if (sec == SEC_COUNTER) {
		const struct srvagg_counter *c = &r->c;
		real(f, c->total);
		real(f, c->rate);
		if (!c->has_rate_stats) {
			for (int k = 0; k < 4; k++)
				empty(f);
			return;
		}
		real(f, c->rate_avg);
		real(f, c->rate_min);
		real(f, c->rate_max);
		real(f, c->rate_std);
	} else {
		const struct srvagg_hist *h = &r->h;
		const double *p = h->empty ? NULL : h->has_est ? h->est : h->has_prom ? h->prom : NULL;
		integer(f, h->count);
		if (h->empty) {
			for (int k = 0; k < 4; k++)
				empty(f);
		} else {
			if (h->has_rates) real(f, h->count_rate); else empty(f);
			real(f, h->sum);
			if (h->has_rates) real(f, h->sum_rate); else empty(f);
			real(f, h->avg);
		}
		for (int k = 0; k < SRVAGG_NPCT; k++)
			if (p)
				real(f, p[k]);
			else
				empty(f);
	}
}

static int
write_section(FILE *f, const struct srv *s, int sec, int *first)
{
	const char **cols;
	size_t ncol = label_columns(s, sec, &cols), nrow = 0;
	struct row *rows = NULL;

	for (size_t i = 0; i < s->nser; i++) {
		const struct srv_series *r = &s->ser[i];
		if (!r->ok || section(r) != sec || (sec == SEC_GAUGE && is_info(s, r)))
			continue;
		rows = xreallocarray(rows, nrow + 1, sizeof(*rows));
		struct row *w = &rows[nrow++];
		w->r = r;
		w->name = s->met[r->met].name;
		w->endpoint = display(s->ep[r->ep].url);
		w->pattern = xmalloc(ncol + 1);
		for (size_t c = 0; c < ncol; c++)
			w->pattern[c] = series_label(r, cols[c]) ? '1' : '0';
		w->pattern[ncol] = '\0';
		struct buf b = BUF_INIT(BUF_NOMAX);
		for (size_t j = 0; j < r->nl; j++)
			buf_addf(&b, "%s\x1f%s\x1e", r->lk[j], r->lv[j]);
		w->labels = buf_detach(&b, NULL);
	}
	if (!nrow) {
		free(cols);
		return 0;
	}
	qsort(rows, nrow, sizeof(*rows), cmp_row);
	if (!*first)
		fputs("\r\n", f);
	*first = 0;
	const char *head[] = { "Endpoint", "Type", "Metric", "Unit" };
	for (int i = 0; i < 4; i++)
		csv_field(f, head[i], i == 0);
	for (const char *const *k = sec_keys[sec]; *k; k++)
		csv_field(f, *k, 0);
	for (size_t c = 0; c < ncol; c++)
		csv_field(f, cols[c], 0);
	csv_field(f, "Description", 0);
	if (sec == SEC_HIST)
		csv_field(f, "buckets", 0);
	fputs("\r\n", f);
	for (size_t i = 0; i < nrow; i++) {
		const struct srv_series *r = rows[i].r;
		const struct srv_metric *m = &s->met[r->met];
		const char *unit = srvagg_unit(m->name, m->help);
		csv_field(f, rows[i].endpoint, 1);
		csv_field(f, sec_name[sec], 0);
		csv_field(f, m->name, 0);
		csv_field(f, unit ? unit : "", 0);
		stat_cells(f, r, sec);
		for (size_t c = 0; c < ncol; c++) {
			const char *v = is_info(s, r) ? NULL : series_label(r, cols[c]);
			csv_field(f, v ? v : "", 0);
		}
		csv_field(f, m->help ? m->help : "", 0);
		if (sec == SEC_HIST) {
			struct buf b = BUF_INIT(BUF_NOMAX);
			for (size_t j = 0; r->h.buckets && j < r->nb; j++)
				buf_addf(&b, "%s%s=%.0f", j ? ";" : "", r->lekey[j], r->h.buckets[j]);
			csv_field(f, buf_str(&b), 0);
			buf_release(&b);
		}
		fputs("\r\n", f);
		free(rows[i].pattern);
		free(rows[i].endpoint);
		free(rows[i].labels);
	}
	free(rows);
	free(cols);
	return 0;
}

struct info {
	const char *name;
	char *endpoint;
	const struct srv_series *r;
};

static int
cmp_info(const void *a, const void *b)
{
	const struct info *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : strcmp(x->endpoint, y->endpoint);
}

static void
write_info(FILE *f, const struct srv *s, int *first)
{
	struct info *v = NULL;
	size_t n = 0;

	for (size_t i = 0; i < s->nser; i++) {
		const struct srv_series *r = &s->ser[i];
		if (!r->ok || section(r) != SEC_GAUGE || !is_info(s, r))
			continue;
		v = xreallocarray(v, n + 1, sizeof(*v));
		v[n++] = (struct info){ s->met[r->met].name, display(s->ep[r->ep].url), r };
	}
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_info);
	if (!*first)
		fputs("\r\n", f);
	*first = 0;
	const char *head[] = { "Endpoint", "Metric", "Key", "Value", "Description" };
	for (int i = 0; i < 5; i++)
		csv_field(f, head[i], i == 0);
	fputs("\r\n", f);
	for (size_t i = 0; i < n; i++) {
		const char *help = s->met[v[i].r->met].help;
		for (size_t j = 0; j < v[i].r->nl; j++) {	/* labels are sorted */
			csv_field(f, v[i].endpoint, 1);
			csv_field(f, v[i].name, 0);
			csv_field(f, v[i].r->lk[j], 0);
			csv_field(f, v[i].r->lv[j], 0);
			csv_field(f, help ? help : "", 0);
			fputs("\r\n", f);
		}
		free(v[i].endpoint);
	}
	free(v);
}

int
srv_csv(FILE *f, const struct srv *s, const struct exportopts *o)
{
	int first = 1;

	fprintf(f, "# AIPerf Server Metrics Export (CSV)\n# aiperf_version: %s\n"
		"# schema_version: 1.0\n# benchmark_id: %s\n"
		"# Note: Same benchmark_id and version appear in JSON and Parquet exports\n#\n",
		o->version, o->benchmark_id);
	for (int sec = 0; sec < SEC_N; sec++)
		write_section(f, s, sec, &first);
	write_info(f, s, &first);
	return ferror(f) ? -1 : 0;
}

int
srv_formats(const char *list, unsigned *out, char *why, size_t whylen)
{
	static const char *const names[] = { "json", "csv", "jsonl", "parquet" };
	const char *p = list;

	*out = 0;
	while (*p) {
		size_t n = strcspn(p, " ,");
		int k = -1;
		for (int i = 0; n && i < 4; i++)
			if (strlen(names[i]) == n && !strncasecmp(p, names[i], n))
				k = i;
		if (n && k < 0)
			return util_seterr(why, whylen, "invalid value for --server-metrics-formats: "
					   "'%.*s' (json, csv, jsonl, parquet)", (int)n, p);
		if (k >= 0)
			*out |= 1u << k;
		p += n + (p[n] != '\0');
	}
	if (!*out)
		return util_seterr(why, whylen, "--server-metrics-formats: no format given");
	return 0;
}
