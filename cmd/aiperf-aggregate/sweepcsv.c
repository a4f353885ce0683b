/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-aggregate --sweep: profile_export_aiperf_sweep.csv, as Python's csv writes it. */
#include "sweep.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "csvfield.h"
#include "json/json.h"
#include "util.h"

#define THROUGHPUT "request_throughput_avg"

static void
endrow(FILE *f)
{
	fputs("\r\n", f);
}

/* The original's _format_number: an int as str(), a float with decimals,
 * a non-finite float empty. */
static void
csv_num(FILE *f, const struct sweep_num *n, int decimals, int first)
{
	char s[400] = "";

	if (n->raw)
		snprintf(s, sizeof(s), "%s", n->raw);
	else if (isfinite(n->d))
		snprintf(s, sizeof(s), "%.*f", decimals, n->d);
	csv_field(f, s, first);
}

/* str() of a JSON scalar as Python holds it. */
static void
csv_value(FILE *f, const struct json *v, int first)
{
	char *s;

	if (!v || v->type == JSON_NULL) {
		csv_field(f, "", first);
		return;
	}
	if (v->type == JSON_TRUE || v->type == JSON_FALSE) {
		csv_field(f, v->type == JSON_TRUE ? "True" : "False", first);
		return;
	}
	s = xmalloc(v->len + 1);
	memcpy(s, v->str, v->len);
	s[v->len] = '\0';
	csv_field(f, s, first);
	free(s);
}

/* The parameter names, as sweep_parameters lists them. */
static size_t
param_names(const struct sweep *s, const char **names, size_t max)
{
	size_t n = 0;

	for (size_t g = 0; g < s->ngroups; g++)
		for (const struct json *m = s->p->vars[s->groups[g]].values->child;
		     m; m = m->next) {
			const char *name = sweep_name_of(s, m->key);
			size_t k = 0;

			while (k < n && strcmp(names[k], name))
				k++;
			if (k == n && n < max)
				names[n++] = name;
		}
	return n;
}

/* Variation var's value of display name NAME, or NULL. */
static const struct json *
value_of(const struct sweep *s, size_t var, const char *name)
{
	const struct json *found = NULL;

	for (const struct json *m = s->p->vars[var].values->child; m; m = m->next)
		if (!strcmp(sweep_name_of(s, m->key), name))
			found = m;
	return found;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The union of the combinations' metric names, sorted. */
static const char **
metric_names(const struct sweep *s, size_t *n)
{
	size_t total = 0, k = 0;
	const char **v;

	for (size_t i = 0; i < s->nc; i++)
		total += s->c[i].nm;
	v = xcalloc(total + 1, sizeof(*v));
	for (size_t i = 0; i < s->nc; i++)
		for (size_t j = 0; j < s->c[i].nm; j++)
			v[k++] = s->c[i].m[j].name;
	qsort(v, k, sizeof(*v), cmp_str);
	*n = 0;
	for (size_t i = 0; i < k; i++)
		if (!*n || strcmp(v[*n - 1], v[i]))
			v[(*n)++] = v[i];
	return v;
}

static void
metrics_table(const struct sweep *s, FILE *f, const char **pn, size_t np)
{
	static const char *const sfx[] = { "_mean", "_std", "_min", "_max", "_cv" };
	size_t nm;
	const char **mn = metric_names(s, &nm);
	char col[700];

	for (size_t i = 0; i < np; i++)
		csv_field(f, pn[i], i == 0);
	for (size_t i = 0; i < nm; i++)
		for (size_t k = 0; k < 5; k++) {
			snprintf(col, sizeof(col), "%s%s", mn[i], sfx[k]);
			csv_field(f, col, np == 0 && i == 0 && k == 0);
		}
	endrow(f);
	for (size_t c = 0; c < s->nc; c++) {
		for (size_t i = 0; i < np; i++)
			csv_value(f, value_of(s, s->c[c].var, pn[i]), i == 0);
		for (size_t i = 0; i < nm; i++) {
			const struct sweep_metric *m = sweep_find(&s->c[c], mn[i]);
			int first = np == 0 && i == 0;

			if (!m) {
				for (int k = 0; k < 5; k++)
					csv_field(f, "", first && k == 0);
				continue;
			}
			csv_num(f, &m->mean, 2, first);
			csv_num(f, &m->std, 2, 0);
			csv_num(f, &m->min, 2, 0);
			csv_num(f, &m->max, 2, 0);
			csv_num(f, &m->cv, 4, 0);
		}
		endrow(f);
	}
	free(mn);
}

static void
best_row(const struct sweep *s, FILE *f, const char *title, size_t i,
	 const char *metric, const char **pn, size_t np)
{
	const struct sweep_metric *m;

	if (i == SIZE_MAX)
		return;
	m = sweep_find(&s->c[i], metric);
	csv_field(f, title, 1);
	for (size_t k = 0; k < np; k++)
		csv_value(f, value_of(s, s->c[i].var, pn[k]), 0);
	csv_num(f, &m->mean, 2, 0);
	csv_field(f, m->unit, 0);
	endrow(f);
}

static void
best_section(const struct sweep *s, FILE *f, const char **pn, size_t np,
	     size_t bt, size_t bl, const char *lat)
{
	fputs("\r\nBest Configurations\r\n", f);
	if (bt == SIZE_MAX && bl == SIZE_MAX)
		return;
	csv_field(f, "Configuration", 1);
	for (size_t k = 0; k < np; k++)
		csv_field(f, pn[k], 0);
	fputs(",Metric,Unit\r\n", f);
	best_row(s, f, "Best Throughput", bt, THROUGHPUT, pn, np);
	best_row(s, f, "Best Latency P99", bl, lat, pn, np);
}

/* The frontier's rows, in the JSON's order: read back from it. */
static void
pareto_section(const struct sweep *s, FILE *f, const char **pn, size_t np)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct json_doc *d = json_doc_new();
	char err[200];
	const struct json *root, *po;

	sweep_json(s, &b);
	root = json_parse(d, b.s, b.len, err, sizeof(err));
	po = json_get(root, "pareto_optimal");
	fputs("\r\nPareto Optimal Points\r\n", f);
	if (!po || !po->len) {
		fputs("None\r\n", f);
	} else {
		for (size_t k = 0; k < np; k++)
			csv_field(f, pn[k], k == 0);
		endrow(f);
		for (const struct json *p = po->child; p; p = p->next) {
			for (size_t k = 0; k < np; k++)
				csv_value(f, json_get(p, pn[k]), k == 0);
			endrow(f);
		}
	}
	json_doc_free(d);
	buf_release(&b);
}

static void
metadata_section(const struct sweep *s, FILE *f, const char **pn, size_t np)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct json_doc *d = json_doc_new();
	char err[200];
	const struct json *root;
	int64_t combos = 0;

	sweep_json(s, &b);
	root = json_parse(d, b.s, b.len, err, sizeof(err));
	(void)json_int64(json_path(root, "metadata.num_combinations"), &combos);
	fputs("\r\nMetadata\r\nField,Value\r\nAggregation Type,sweep\r\n", f);
	buf_reset(&b);
	for (size_t k = 0; k < np; k++)
		buf_addf(&b, "%s%s", k ? ", " : "", pn[k]);
	csv_field(f, "Sweep Parameters", 1);
	csv_field(f, buf_str(&b), 0);
	endrow(f);
	fprintf(f, "Number of Combinations,%lld\r\nNumber of Profile Runs,%zu\r\n"
		"Number of Successful Runs,%zu\r\n", (long long)combos, s->nruns,
		s->nok);
	json_doc_free(d);
	buf_release(&b);
}

void
sweep_csv(const struct sweep *s, FILE *f)
{
	const char *pn[SWEEPPLAN_MAX_PARAMS], *lat;
	size_t np = param_names(s, pn, SWEEPPLAN_MAX_PARAMS), bt, bl;
	unsigned char *on = xcalloc(s->nc + 1, 1);

	sweep_analyze(s, &bt, &bl, &lat, on);
	if (s->nc)
		metrics_table(s, f, pn, np);
	best_section(s, f, pn, np, bt, bl, lat);
	pareto_section(s, f, pn, np);
	metadata_section(s, f, pn, np);
	free(on);
}
