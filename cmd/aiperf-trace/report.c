/* SPDX-License-Identifier: Apache-2.0 */
/* The analyze report: the console table as rich prints it, and the pydantic JSON. */
#include "buf.h"
#include "json/json.h"
#include "stats/numfmt.h"
#include "tt.h"
#include "util.h"

#define NCOL 8
#define NROW 5

static const char *const heads[NCOL] = {
	"Metric", "Mean", "Std Dev", "Min", "P25", "Median", "P75", "Max",
};
static const char *const names[NROW] = {
	"Input Length", "Context Length", "Unique Prompt Length",
	"Output Length", "Theoretical Hit Rates",
};

struct table {
	char cell[NROW][NCOL][420];
	size_t w[NCOL];
};

static const struct tt_stats *row_stats(const struct tt_report *r, int i)
{
	const struct tt_stats *rows[NROW] = {
		&r->isl, &r->ctx, &r->uniq, &r->osl, &r->hit,
	};

	return rows[i];
}

static void fill(struct table *t, const struct tt_report *r)
{
	for (int j = 0; j < NCOL; j++)
		t->w[j] = strlen(heads[j]);
	for (int i = 0; i < NROW; i++) {
		const struct tt_stats *s = row_stats(r, i);
		double v[NCOL - 1] = { s->mean, s->std, s->min, s->p25,
				       s->median, s->p75, s->max };

		snprintf(t->cell[i][0], sizeof(t->cell[i][0]), "%s", names[i]);
		for (int j = 1; j < NCOL; j++) {
			if (s->ok)
				numfmt_commas2(t->cell[i][j], v[j - 1]);
			else
				snprintf(t->cell[i][j], 8, "N/A");
		}
		for (int j = 0; j < NCOL; j++)
			if (strlen(t->cell[i][j]) > t->w[j])
				t->w[j] = strlen(t->cell[i][j]);
	}
}

static void rule(FILE *f, const struct table *t, const char *l, const char *h,
		 const char *m, const char *r)
{
	fputs(l, f);
	for (int j = 0; j < NCOL; j++) {
		for (size_t k = 0; k < t->w[j] + 2; k++)
			fputs(h, f);
		fputs(j + 1 < NCOL ? m : r, f);
	}
	fputc('\n', f);
}

static void row(FILE *f, const struct table *t, const char *bar,
		const char *const cells[NCOL])
{
	for (int j = 0; j < NCOL; j++)
		fprintf(f, "%s %*s ", bar, (int)t->w[j], cells[j]);
	fprintf(f, "%s\n", bar);
}

static void title(FILE *f, const struct table *t, const char *s)
{
	size_t width = NCOL + 1, len = strlen(s), left;

	for (int j = 0; j < NCOL; j++)
		width += t->w[j] + 2;
	left = len < width ? (width - len) / 2 : 0;
	fprintf(f, "%*s%s%*s\n", (int)left, "", s,
		(int)(len < width ? width - len - left : 0), "");
}

void tt_report_console(FILE *f, const struct tt_report *r)
{
	struct table *t = xcalloc(1, sizeof(*t));
	char n[3][32];

	numfmt_commas_int(n[0], (long long)r->total_requests);
	numfmt_commas_int(n[1], (long long)r->unique_prefixes);
	numfmt_commas_int(n[2], (long long)r->num_prefix_groups);
	fprintf(f, "\nTrace Analysis Report\nTotal requests:   %s\n"
		"Unique prefixes:  %s\nPrefix groups:    %s\n\n", n[0], n[1], n[2]);
	fill(t, r);
	title(f, t, "Trace Statistics");
	rule(f, t, "┏", "━", "┳", "┓");
	row(f, t, "┃", heads);
	rule(f, t, "┡", "━", "╇", "┩");
	for (int i = 0; i < NROW; i++) {
		const char *cells[NCOL];

		for (int j = 0; j < NCOL; j++)
			cells[j] = t->cell[i][j];
		row(f, t, "│", cells);
	}
	rule(f, t, "└", "─", "┴", "┘");
	fputc('\n', f);
	free(t);
}

static void stats_json(struct jw *w, const char *key, const struct tt_stats *s)
{
	jw_key(w, key);
	if (!s->ok) {
		jw_null(w);
		return;
	}
	jw_obj(w);
	jw_key(w, "mean");
	jw_double_py(w, s->mean);
	jw_key(w, "std_dev");
	jw_double_py(w, s->std);
	jw_key(w, "min");
	jw_double_py(w, s->min);
	jw_key(w, "p25");
	jw_double_py(w, s->p25);
	jw_key(w, "median");
	jw_double_py(w, s->median);
	jw_key(w, "p75");
	jw_double_py(w, s->p75);
	jw_key(w, "max");
	jw_double_py(w, s->max);
	jw_obj_end(w);
}

static void int_json(struct jw *w, const char *key, int64_t v)
{
	jw_key(w, key);
	jw_int(w, v);
}

static void dbl_json(struct jw *w, const char *key, double v)
{
	jw_key(w, key);
	jw_double_py(w, v);
}

char *tt_report_json(const struct tt_report *r)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;

	jw_init(&w, &b, 2);
	jw_obj(&w);
	int_json(&w, "total_requests", (int64_t)r->total_requests);
	int_json(&w, "unique_prefixes", (int64_t)r->unique_prefixes);
	int_json(&w, "num_prefix_groups", (int64_t)r->num_prefix_groups);
	dbl_json(&w, "cache_hit_rate", r->cache_hit_rate);
	int_json(&w, "min_isl", r->min_isl);
	int_json(&w, "max_isl", r->max_isl);
	dbl_json(&w, "avg_isl", r->avg_isl);
	int_json(&w, "min_osl", r->min_osl);
	int_json(&w, "max_osl", r->max_osl);
	dbl_json(&w, "avg_osl", r->avg_osl);
	dbl_json(&w, "prefix_reuse_ratio", r->prefix_reuse_ratio);
	stats_json(&w, "isl_stats", &r->isl);
	stats_json(&w, "osl_stats", &r->osl);
	stats_json(&w, "context_length_stats", &r->ctx);
	stats_json(&w, "unique_prompt_length_stats", &r->uniq);
	stats_json(&w, "hit_rate_stats", &r->hit);
	jw_obj_end(&w);
	return buf_detach(&b, NULL);
}
