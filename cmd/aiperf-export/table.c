/* SPDX-License-Identifier: Apache-2.0 */
/* The console tables (rich's default heavy-head box, natural width) and the end-of-run lines. */
#include "export.h"

#include <limits.h>
#include <stdlib.h>

#include "stats/numfmt.h"
#include "util.h"

#define MAXCOLS 8

struct table {
	const char *title;
	size_t ncols, nrows;
	const char *head[MAXCOLS];
	int left[MAXCOLS];	/* 1 = left-justified, else right */
	char **cells;		/* nrows * ncols, owned; may hold '\n' */
	int lines;		/* rich's show_lines: a rule between rows */
	size_t minw[MAXCOLS];	/* rich's min_width */
};

/* Display width: code points (the texts are ASCII but for error messages). */
static size_t
width(const char *s, size_t n)
{
	size_t w = 0;

	for (size_t i = 0; i < n; i++)
		w += ((unsigned char)s[i] & 0xC0) != 0x80;
	return w;
}

/* Line k of a cell (empty past its last line). */
static const char *
line(const char *s, size_t k, size_t *n)
{
	while (k-- && s) {
		s = strchr(s, '\n');
		if (s)
			s++;
	}
	if (!s) {
		*n = 0;
		return "";
	}
	*n = strcspn(s, "\n");
	return s;
}

static size_t
nlines(const char *s)
{
	size_t n = 1;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void
rep(FILE *f, const char *s, size_t n)
{
	while (n--)
		fputs(s, f);
}

static void
rule(FILE *f, const size_t *w, size_t nc, const char *const b[4])
{
	fputs(b[0], f);
	for (size_t c = 0; c < nc; c++) {
		rep(f, b[1], w[c] + 2);
		fputs(c + 1 < nc ? b[2] : b[3], f);
	}
	fputc('\n', f);
}

static void
row(FILE *f, const struct table *t, const size_t *w, const char *const *cells,
    const char *bar)
{
	size_t h = 1;

	for (size_t c = 0; c < t->ncols; c++)
		if (nlines(cells[c]) > h)
			h = nlines(cells[c]);
	for (size_t k = 0; k < h; k++) {
		fputs(bar, f);
		for (size_t c = 0; c < t->ncols; c++) {
			size_t n;
			const char *s = line(cells[c], k, &n);
			size_t pad = w[c] - width(s, n);
			fputc(' ', f);
			if (!t->left[c])
				rep(f, " ", pad);
			fwrite(s, 1, n, f);
			if (t->left[c])
				rep(f, " ", pad);
			fputc(' ', f);
			fputs(bar, f);
		}
		fputc('\n', f);
	}
}

static void
title(FILE *f, const char *s, size_t total)
{
	size_t n = width(s, strlen(s));
	size_t left = n < total ? (total - n) / 2 : 0;

	rep(f, " ", left);
	fputs(s, f);
	rep(f, " ", total > left + n ? total - left - n : 0);
	fputc('\n', f);
}

static void
render(FILE *f, const struct table *t)
{
	static const char *const top[4] = { "┏", "━", "┳", "┓" };
	static const char *const mid[4] = { "┡", "━", "╇", "┩" };
	static const char *const bot[4] = { "└", "─", "┴", "┘" };
	static const char *const sep[4] = { "├", "─", "┼", "┤" };
	size_t w[MAXCOLS], total = 1;

	for (size_t c = 0; c < t->ncols; c++) {
		w[c] = width(t->head[c], strlen(t->head[c]));
		if (t->minw[c] > w[c])
			w[c] = t->minw[c];
		for (size_t r = 0; r < t->nrows; r++) {
			const char *cell = t->cells[r * t->ncols + c];
			for (size_t k = 0, n; k < nlines(cell); k++) {
				const char *s = line(cell, k, &n);
				if (width(s, n) > w[c])
					w[c] = width(s, n);
			}
		}
		total += w[c] + 3;
	}
	fputs("\n\n", f);	/* the original's console.print("\n") */
	title(f, t->title, total);
	rule(f, w, t->ncols, top);
	row(f, t, w, t->head, "┃");
	rule(f, w, t->ncols, mid);	/* rich draws it under the head even with no rows */
	for (size_t r = 0; r < t->nrows; r++) {
		if (r && t->lines)
			rule(f, w, t->ncols, sep);
		row(f, t, w, (const char *const *)&t->cells[r * t->ncols], "│");
	}
	rule(f, w, t->ncols, bot);
}

static void
table_free(struct table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
}

static char *
num(double v)
{
	char s[420];

	numfmt_commas2(s, v);
	return xstrdup(s);
}

void
table_grid(FILE *f, const char *title, size_t ncols, const char *const *head,
	   char **cells, size_t nrows)
{
	struct table t = { title, ncols > MAXCOLS ? MAXCOLS : ncols, nrows, { 0 }, { 0 },
			   cells, 0, { 0 } };

	memcpy(t.head, head, t.ncols * sizeof(*head));
	render(f, &t);
}

void
table_accuracy(FILE *f, const char *title, size_t ncols, const char *const *head,
	       char **cells, size_t nrows)
{
	struct table t = { title, ncols > MAXCOLS ? MAXCOLS : ncols, nrows, { 0 }, { 1 },
			   cells, 1, { 30 } };

	memcpy(t.head, head, t.ncols * sizeof(*head));
	render(f, &t);
}

static int
by_order(const void *a, const void *b)
{
	const struct result *x = *(const struct result *const *)a;
	const struct result *y = *(const struct result *const *)b;
	long ox = x->def->order ? x->def->order : LONG_MAX;
	long oy = y->def->order ? y->def->order : LONG_MAX;

	if (ox != oy)
		return ox < oy ? -1 : 1;
	return x < y ? -1 : x > y;	/* stable: computation order */
}

static char *
metric_cell(const struct result *r)
{
	const char *h = r->def->header;
	size_t n = strlen(h) + strlen(r->def->display) + 4;
	char *s = xmalloc(n);

	snprintf(s, n, "%s%c(%s)", h, strlen(h) > 30 ? '\n' : ' ', r->def->display);
	return s;
}

/* ConsoleMetricsExporter and its flag-driven variants: the results with
 * all of need and none of skip, in display order (a variant shows no
 * table when none has them). */
static void
metrics_table(FILE *f, const struct summary *sm, const char *ttl,
	      unsigned need, unsigned skip)
{
	static const char *const heads[] = { "Metric", "avg", "min", "max", "p99",
		"p90", "p50", "std" };
	const struct result **rows = xcalloc(sm->nres + 1, sizeof(*rows));
	struct table t = { ttl, 8, 0, { 0 }, { 0 }, NULL, 0, { 0 } };

	for (size_t i = 0; i < sm->nres; i++)
		if ((sm->res[i].def->flags & need) == need &&
		    !(sm->res[i].def->flags & skip))
			rows[t.nrows++] = &sm->res[i];
	if (!t.nrows && need) {
		free(rows);
		return;
	}
	qsort(rows, t.nrows, sizeof(*rows), by_order);
	memcpy(t.head, heads, sizeof(heads));
	t.cells = xcalloc(t.nrows * 8 + 1, sizeof(*t.cells));
	for (size_t r = 0; r < t.nrows; r++) {
		const struct stats *s = &rows[r]->st;
		const double v[] = { s->avg, s->min, s->max, s->p99, s->p90, s->p50, s->std };
		t.cells[r * 8] = metric_cell(rows[r]);
		for (size_t k = 0; k < 7; k++)
			t.cells[r * 8 + k + 1] = k == 0 || rows[r]->dist ? num(v[k]) : xstrdup("N/A");
	}
	render(f, &t);
	table_free(&t);
	free(rows);
}

static void
error_table(FILE *f, const struct summary *sm)
{
	struct table t = { "NVIDIA AIPerf | Error Summary", 4, sm->nerrs,
		{ "Code", "Type", "Message", "Count" }, { 0, 0, 1, 0 }, NULL, 0, { 0 } };
	char s[32];

	t.cells = xcalloc(t.nrows * 4 + 1, sizeof(*t.cells));
	for (size_t r = 0; r < t.nrows; r++) {
		const struct errgroup *g = &sm->errs[r];
		snprintf(s, sizeof(s), "%lld", (long long)g->code);
		/* the original prints N/A for a falsy code or type (0, "") */
		t.cells[r * 4] = xstrdup(g->has_code && g->code ? s : "N/A");
		t.cells[r * 4 + 1] = xstrdup(g->type && *g->type ? g->type : "N/A");
		t.cells[r * 4 + 2] = xstrdup(g->message);
		numfmt_commas_int(s, (long long)g->count);
		t.cells[r * 4 + 3] = xstrdup(s);
	}
	render(f, &t);
	table_free(&t);
}

static void
end_lines(FILE *f, const struct summary *sm, const struct exportopts *o,
	  const char *acc_csv_path)
{
	fputc('\n', f);
	if (o->cli_command)
		fprintf(f, "CLI Command: %s\n", o->cli_command);
	if (sm->duration) {
		char s[340];
		numfmt_fixed2(s, sizeof(s), sm->duration->st.avg);
		fprintf(f, "Benchmark Duration: %s %s%s\n", s, sm->duration->def->display,
			o->was_cancelled ? " (cancelled early)" : "");
	}
	if (o->csv_path)
		fprintf(f, "CSV Export: %s\n", o->csv_path);
	if (o->json_path)
		fprintf(f, "JSON Export: %s\n", o->json_path);
	if (o->slice_csv_path)
		fprintf(f, "Timeslice CSV Export: %s\n", o->slice_csv_path);
	if (o->slice_json_path)
		fprintf(f, "Timeslice JSON Export: %s\n", o->slice_json_path);
	if (acc_csv_path)
		fprintf(f, "accuracy_csv: %s\n", acc_csv_path);
	if (o->gpu_path)
		fprintf(f, "GPU Telemetry Export: %s\n", o->gpu_path);
	if (o->log_file)
		fprintf(f, "Log File: %s\n", o->log_file);
	if (o->was_cancelled)
		fputs("The profile run was cancelled early. Results shown may be "
		      "incomplete or inaccurate.\n", f);
	fputc('\n', f);
}

void
table_print(FILE *f, const struct summary *sm, const struct exportopts *o,
	    const char *acc_csv_path)
{
	if (sm->nres)
		metrics_table(f, sm, o->title, 0, MF_ERROR_ONLY | MF_NO_CONSOLE |
				  MF_INTERNAL | MF_EXPERIMENTAL);
	if (o->show_trace)
		metrics_table(f, sm, "NVIDIA AIPerf | HTTP Trace Timing",
			      MF_HTTP_TRACE, MF_ERROR_ONLY);
	if (sm->nerrs)
		error_table(f, sm);
	if (o->gpu_console)
		gpu_console(f, o->gpu, table_grid);
	if (o->acc)
		acc_table(f, o->acc);
	client_console(f, &o->cs);
	end_lines(f, sm, o, acc_csv_path);
}

/* Say so when the client, not the server, may have set the numbers. */
void
client_warn(const struct clientsum *cs, const struct summary *sm, double cpu_seconds)
{
	if (cs->lateness.n && cs->lateness.p99 > 1.0)
		warn("client may be the bottleneck: schedule lateness p99 %.3f ms", cs->lateness.p99);
	if (cs->target_rate > 0 && cs->achieved_rate >= 0 &&
	    cs->achieved_rate < 0.95 * cs->target_rate)
		warn("client may be the bottleneck: achieved %.2f of %.2f requests/sec",
		     cs->achieved_rate, cs->target_rate);
	if (cs->delay.n && cs->delay.p99 > 1.0)
		warn("client may be the bottleneck: observation delay p99 %.3f ms", cs->delay.p99);
	if (cpu_seconds > 0 && sm->duration && cpu_seconds > 0.9 * sm->duration->st.avg)
		warn("client may be the bottleneck: %.2f s of client CPU in a %.2f s run",
		     cpu_seconds, sm->duration->st.avg);
	else if (cpu_seconds < 0 && cs->cpu_busy > 0.9)
		warn("client may be the bottleneck: the sender was on the CPU %.0f%% of the time",
		     cs->cpu_busy * 100);
}
