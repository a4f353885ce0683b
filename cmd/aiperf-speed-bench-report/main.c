/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-speed-bench-report: the per-category matrix of SPEED-Bench runs (acceptance length, acceptance rate or throughput), as a table and a CSV file. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "opt.h"
#include "outfile.h"
#include "report.h"
#include "util.h"

#define PROFILE_JSON "profile_export_aiperf.json"
#define SERVER_JSON "server_metrics_export.json"
#define JSON_MAX_BYTES ((size_t)1 << 30)
#define RUNS_MAX 100000
#define NAME_MAX_BYTES 4096	/* a model or category name kept */

enum format { F_CSV, F_TABLE, F_BOTH };

struct options {
	const char *output;
	long long format, metric;
	char **paths;
	int npaths;
};

/* One run's cell: the model's value of a category (has 0: none). */
struct cell {
	char *model, *category;
	size_t seq;
	int has;
	double v;
};

struct report {
	char **runs;
	size_t nruns, runcap;
	struct cell *cells;
	size_t ncells, cellcap;
	char **cols;
	size_t ncols;
};

static const char *const formats[] = { "csv", "table", "both", NULL };
static const char *const metrics[] = { "accept_length", "accept_rate", "throughput", NULL };
static const char *const qualitative[] = {
	"coding", "humanities", "math", "multilingual", "qa", "rag", "reasoning",
	"roleplay", "stem", "summarization", "writing", NULL,
};
static const char *const tiers[] = { "low_entropy", "mixed", "high_entropy", NULL };
static const char *const spec_al[] = { "gsm8k", "math500", "mtbench", "humaneval", "mbpp", NULL };

enum { K_OUTPUT = 256, K_FORMAT, K_METRIC, K_HELP, K_VERSION };

#define REPORT_OPTS(o) { \
	{ "output", K_OUTPUT, OPT_STR, "file", OPT_TO(o->output) }, \
	{ "format", K_FORMAT, OPT_CHOICE, "csv | table | both", OPT_TO(o->format), .choices = formats }, \
	{ "metric", K_METRIC, OPT_CHOICE, "accept_length | accept_rate | throughput", OPT_TO(o->metric), .choices = metrics, \
	  .flags = OPT_BR }, \
	{ "help", K_HELP, OPT_HELP, .flags = OPT_HIDE }, \
	{ "version", K_VERSION, OPT_VERSION, .flags = OPT_HIDE }, \
	{ 0 }, \
}

static void
parse_args(struct options *o, int argc, char **argv)
{
	struct opt tab[] = REPORT_OPTS(o);
	const struct opt_cmd cmd = { "aiperf-speed-bench-report", tab, "path ...", 0,
				     NULL, NULL };
	struct opt_iter it;

	*o = (struct options){ .output = "speed_bench_report.csv", .format = F_BOTH,
			       .metric = M_ACCEPT_LENGTH };
	opt_init(&it, &cmd, argc, argv);
	while (opt_next(&it) != -1)
		;
	if (it.ind == argc)
		die_usage("no path (run folders, or folders of run folders)");
	o->paths = argv + it.ind;
	o->npaths = argc - it.ind;
}

/* str(Path(s)): repeated and trailing slashes and "." parts dropped. */
static char *
pypath(const char *s)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	int abs = *s == '/';

	if (abs)
		buf_addch(&b, '/');
	while (*s) {
		size_t n;

		s += strspn(s, "/");
		n = strcspn(s, "/");
		if (n && !(n == 1 && *s == '.')) {
			if (b.len > (size_t)abs)
				buf_addch(&b, '/');
			buf_add(&b, s, n);
		}
		s += n;
	}
	if (!b.len)
		buf_addch(&b, '.');
	return buf_detach(&b, NULL);
}

static char *
join(const char *dir, const char *name)
{
	return strcmp(dir, ".") ? xstrfmt("%s/%s", dir, name) : xstrdup(name);
}

static int
is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int
exists(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0;
}

static void
add_run(struct report *r, char *dir)
{
	if (r->nruns == RUNS_MAX)
		die("more than %d run folders", RUNS_MAX);
	if (r->nruns == r->runcap) {
		r->runcap = r->runcap ? r->runcap * 2 : 16;
		r->runs = xreallocarray(r->runs, r->runcap, sizeof(*r->runs));
	}
	r->runs[r->nruns++] = dir;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The run folders among dir's children, by name. */
static void
add_children(struct report *r, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;

	if (!d)
		die("cannot read '%s':", dir);
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (n == RUNS_MAX)
			die("'%s': more than %d entries", dir, RUNS_MAX);
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			names = xreallocarray(names, cap, sizeof(*names));
		}
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		char *child = join(dir, names[i]), *pj = join(child, PROFILE_JSON);

		if (is_dir(child) && exists(pj))
			add_run(r, child);
		else
			free(child);
		free(pj);
		free(names[i]);
	}
	free(names);
}

/* find_run_dirs: each path a run folder or a folder of them. */
static void
find_runs(struct report *r, const struct options *o)
{
	for (int i = 0; i < o->npaths; i++) {
		char *p = pypath(o->paths[i]), *pj = join(p, PROFILE_JSON);

		if (!is_dir(p))
			fprintf(stderr, "Warning: %s is not a directory, skipping\n", p);
		else if (exists(pj))
			add_run(r, xstrdup(p));
		else
			add_children(r, p);
		free(pj);
		free(p);
	}
}

/* load_profile, load_server_metrics: the JSON of dir's file, or NULL
 * (absent, or a warning when unreadable). */
static const struct json *
load(struct json_doc *doc, const char *dir, const char *file, char **text)
{
	char *path = join(dir, file), err[256];
	const struct json *v = NULL;
	size_t n;

	*text = NULL;
	if (!exists(path)) {
		free(path);
		return NULL;
	}
	if (!(*text = util_readfile(path, JSON_MAX_BYTES, &n)))
		fprintf(stderr, "Warning: failed to read %s: %s\n", path, util_strerror(errno));
	else if (!(v = json_parse(doc, *text, n, err, sizeof(err))))
		fprintf(stderr, "Warning: failed to read %s: %s\n", path, err);
	free(path);
	return v;
}

/* Python's not: null, false, 0, "", [] and {} (a profile that is none). */
static int
empty(const struct json *v)
{
	double d;

	return !v || v->type == JSON_NULL || v->type == JSON_FALSE ||
	       (v->type == JSON_NUMBER && json_double(v, &d) == 0 && d == 0) ||
	       ((v->type == JSON_STRING || v->type == JSON_ARRAY ||
		 v->type == JSON_OBJECT) && !v->len);
}

static char *
kept(const char *s, size_t n)
{
	return xstrndup(s, n < NAME_MAX_BYTES ? n : NAME_MAX_BYTES);
}

static void
add_cell(struct report *r, const char *model, size_t mn, const char *cat,
	 size_t cn, int has, double v)
{
	if (r->ncells == r->cellcap) {
		r->cellcap = r->cellcap ? r->cellcap * 2 : 16;
		r->cells = xreallocarray(r->cells, r->cellcap, sizeof(*r->cells));
	}
	r->cells[r->ncells] = (struct cell){ kept(model, mn), kept(cat, cn),
					     r->ncells, has, v };
	r->ncells++;
}

/* The metric's value of one run (the server metrics read when needed). */
static int
value_of(const char *dir, const struct json *profile, long long metric, double *v)
{
	struct json_doc *doc;
	const struct json *sm;
	char *text;
	int has;

	if (metric == M_THROUGHPUT)
		return report_throughput(profile, v);
	doc = json_doc_new();
	sm = load(doc, dir, SERVER_JSON, &text);
	if (!sm && !text)
		fprintf(stderr, "Warning: no %s in %s\n", SERVER_JSON, dir);
	has = sm && (metric == M_ACCEPT_LENGTH ? report_accept_length(sm, v) :
		     report_accept_rate(sm, v));
	free(text);
	json_doc_free(doc);
	return has;
}

/* build_report: one cell a run with a category. */
static void
build(struct report *r, long long metric)
{
	for (size_t i = 0; i < r->nruns; i++) {
		struct json_doc *doc = json_doc_new();
		const struct json *p;
		const char *cat, *model;
		size_t cn, mn;
		char *text;
		double v = 0;
		int has;

		p = load(doc, r->runs[i], PROFILE_JSON, &text);
		if (empty(p))
			fprintf(stderr, "Warning: no %s in %s, skipping\n", PROFILE_JSON,
				r->runs[i]);
		else if (!(cat = report_category(p, &cn)))
			fprintf(stderr, "Warning: cannot determine category from %s, "
				"skipping\n", r->runs[i]);
		else {
			model = report_model(p, &mn);
			has = value_of(r->runs[i], p, metric, &v);
			add_cell(r, model, mn, cat, cn, has, v);
		}
		free(text);
		json_doc_free(doc);
	}
}

/* By model, category, then run order. */
static int
cmp_cell(const void *a, const void *b)
{
	const struct cell *x = a, *y = b;
	int c = strcmp(x->model, y->model);

	if (!c)
		c = strcmp(x->category, y->category);
	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* results[model][category] = value: a later run of a pair replaces it. */
static void
dedupe(struct report *r)
{
	size_t k = 0;

	qsort(r->cells, r->ncells, sizeof(*r->cells), cmp_cell);
	for (size_t i = 0; i < r->ncells; i++) {
		struct cell *c = &r->cells[i];

		if (i + 1 < r->ncells && !strcmp(c->model, c[1].model) &&
		    !strcmp(c->category, c[1].category)) {
			free(c->model);
			free(c->category);
			continue;
		}
		r->cells[k++] = *c;
	}
	r->ncells = k;
}

static int
in_list(const char *s, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (!strcmp(s, list[i]))
			return 1;
	return 0;
}

/* detect_columns: a known set in its order, else every category sorted. */
static void
columns(struct report *r)
{
	static const char *const *const sets[] = { qualitative, tiers, spec_al };
	char **all = xcalloc(r->ncells + 1, sizeof(*all));
	size_t n = 0;

	for (size_t i = 0; i < r->ncells; i++)
		all[n++] = r->cells[i].category;
	qsort(all, n, sizeof(*all), cmp_str);
	r->ncols = 0;
	for (size_t i = 0; i < n; i++)
		if (!r->ncols || strcmp(all[i], all[r->ncols - 1]))
			all[r->ncols++] = all[i];
	r->cols = all;
	for (size_t s = 0; s < 3; s++) {
		size_t k = 0, i;

		for (i = 0; i < r->ncols && in_list(all[i], sets[s]); i++)
			;
		if (i < r->ncols)
			continue;
		r->cols = xcalloc(r->ncols + 1, sizeof(*r->cols));
		for (i = 0; sets[s][i]; i++)
			for (size_t j = 0; j < r->ncols; j++)
				if (!strcmp(sets[s][i], all[j]))
					r->cols[k++] = all[j];
		free(all);
		break;
	}
}

/* The cell of model row [m0, m1) in column c, or NULL. */
static const struct cell *
find(const struct report *r, size_t m0, size_t m1, const char *col)
{
	for (size_t i = m0; i < m1; i++)
		if (!strcmp(r->cells[i].category, col))
			return &r->cells[i];
	return NULL;
}

/* Each model's cells, then its mean of those with a value: the row's
 * strings into row[0..ncols+2) ("" or none for a missing value). */
static void
row_of(const struct report *r, size_t m0, size_t m1, const char *none, char **row)
{
	long double sum = 0;
	size_t n = 0;

	row[0] = xstrdup(r->cells[m0].model);
	for (size_t c = 0; c < r->ncols; c++) {
		const struct cell *x = find(r, m0, m1, r->cols[c]);

		row[c + 1] = x && x->has ? xstrfmt("%.2f", x->v) : xstrdup(none);
		if (x && x->has) {
			sum += x->v;
			n++;
		}
	}
	row[r->ncols + 1] = n ? xstrfmt("%.2f", (double)(sum / (long double)n)) :
			    xstrdup(none);
}

/* The rows, one a model in model order (the cells are sorted by it). */
static size_t
rows(const struct report *r, const char *none, char ****out)
{
	char ***v = NULL;
	size_t n = 0;

	for (size_t i = 0, j; i < r->ncells; i = j) {
		for (j = i; j < r->ncells && !strcmp(r->cells[j].model, r->cells[i].model); j++)
			;
		v = xreallocarray(v, n + 1, sizeof(*v));
		v[n] = xcalloc(r->ncols + 2, sizeof(**v));
		row_of(r, i, j, none, v[n++]);
	}
	*out = v;
	return n;
}

static void
row_free(char **row, size_t width)
{
	for (size_t c = 0; c < width; c++)
		free(row[c]);
	free(row);
}

static void
rows_free(char ***v, size_t n, size_t width)
{
	for (size_t i = 0; i < n; i++)
		row_free(v[i], width);
	free(v);
}

/* ["Model", *columns, "Overall"], a row (malloc'd strings). */
static char **
header(const struct report *r)
{
	char **h = xcalloc(r->ncols + 2, sizeof(*h));

	h[0] = xstrdup("Model");
	for (size_t c = 0; c < r->ncols; c++)
		h[c + 1] = xstrdup(r->cols[c]);
	h[r->ncols + 1] = xstrdup("Overall");
	return h;
}

/* Whether code point c takes two terminal cells (East Asian wide and
 * full-width, emoji), or none (combining marks), as rich counts them. */
static int
cell_width(unsigned long c)
{
	static const unsigned long wide[][2] = {
		{ 0x1100, 0x115f }, { 0x2e80, 0x303e }, { 0x3041, 0x33ff },
		{ 0x3400, 0x4dbf }, { 0x4e00, 0x9fff }, { 0xa000, 0xa4cf },
		{ 0xac00, 0xd7a3 }, { 0xf900, 0xfaff }, { 0xfe30, 0xfe4f },
		{ 0xff00, 0xff60 }, { 0xffe0, 0xffe6 }, { 0x1f300, 0x1f64f },
		{ 0x1f900, 0x1f9ff }, { 0x20000, 0x3fffd },
	};

	if ((c >= 0x300 && c <= 0x36f) || c == 0x200b)
		return 0;
	for (size_t i = 0; i < sizeof(wide) / sizeof(*wide); i++)
		if (c >= wide[i][0] && c <= wide[i][1])
			return 2;
	return 1;
}

/* The terminal cells s takes (UTF-8; a stray byte one cell). */
static size_t
cells_wide(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t w = 0;

	while (*p) {
		unsigned long c = *p;
		int k = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;

		c &= k ? 0x3fu >> k : 0xffu;
		p++;
		for (; k && (*p & 0xc0) == 0x80; k--)
			c = c << 6 | (*p++ & 0x3f);
		w += (size_t)cell_width(c);
	}
	return w;
}

static void
put_rule(FILE *f, const size_t *w, size_t n, const char *l, const char *h,
	 const char *m, const char *r)
{
	fputs(l, f);
	for (size_t c = 0; c < n; c++) {
		for (size_t i = 0; i < w[c] + 2; i++)
			fputs(h, f);
		fputs(c + 1 < n ? m : r, f);
	}
	fputc('\n', f);
}

/* One row: the first cell left-justified, the others right-justified. */
static void
put_row(FILE *f, const size_t *w, size_t n, char **cell, const char *bar)
{
	fputs(bar, f);
	for (size_t c = 0; c < n; c++) {
		size_t pad = w[c] - cells_wide(cell[c]);

		if (c)
			fprintf(f, " %*s%s %s", (int)pad, "", cell[c], bar);
		else
			fprintf(f, " %s%*s %s", cell[c], (int)pad, "", bar);
	}
	fputc('\n', f);
}

/* The title centered over width, its words wrapped to lines of it. */
static void
put_title(FILE *f, const char *title, size_t width)
{
	while (*title) {
		size_t n = strlen(title), cut = n;

		if (n > width) {
			for (cut = width; cut > 0 && title[cut] != ' '; cut--)
				;
			if (!cut)
				cut = width;
		}
		fprintf(f, "%*s%.*s%*s\n", (int)((width - cut) / 2), "", (int)cut, title,
			(int)(width - cut - (width - cut) / 2), "");
		title += cut;
		title += strspn(title, " ");
	}
}

/* print_table: rich's Table (box HEAVY_HEAD) as it prints when the table
 * fits the terminal. */
static void
print_table(const struct report *r, long long metric, FILE *f)
{
	static const char *const titles[] = {
		"Acceptance Length Report", "Acceptance Rate Report",
		"Throughput Report (tokens/sec)",
	};
	size_t n = r->ncols + 2, width = 1;
	char **head = header(r), ***v;
	size_t *w = xcalloc(n, sizeof(*w)), nrows = rows(r, "-", &v);

	for (size_t c = 0; c < n; c++) {
		w[c] = cells_wide(head[c]);
		for (size_t i = 0; i < nrows; i++)
			if (cells_wide(v[i][c]) > w[c])
				w[c] = cells_wide(v[i][c]);
		width += w[c] + 3;
	}
	put_title(f, titles[metric], width);
	put_rule(f, w, n, "┏", "━", "┳", "┓");
	put_row(f, w, n, head, "┃");
	put_rule(f, w, n, "┡", "━", "╇", "┩");
	for (size_t i = 0; i < nrows; i++)
		put_row(f, w, n, v[i], "│");
	put_rule(f, w, n, "└", "─", "┴", "┘");
	rows_free(v, nrows, n);
	row_free(head, n);
	free(w);
}

/* A CSV field as Python's csv.writer writes it (QUOTE_MINIMAL). */
static void
csv_field(struct buf *b, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		buf_addstr(b, s);
		return;
	}
	buf_addch(b, '"');
	for (; *s; s++) {
		if (*s == '"')
			buf_addch(b, '"');
		buf_addch(b, *s);
	}
	buf_addch(b, '"');
}

static void
csv_row(struct buf *b, char **cell, size_t n)
{
	for (size_t c = 0; c < n; c++) {
		if (c)
			buf_addch(b, ',');
		csv_field(b, cell[c]);
	}
	buf_addstr(b, "\r\n");
}

/* write_csv: the header, then a row a model; lines end in CRLF. */
static void
write_csv(const struct report *r, const char *output)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	size_t n = r->ncols + 2;
	char **head = header(r), ***v;
	size_t nrows = rows(r, "", &v);
	char *shown;

	csv_row(&b, head, n);
	for (size_t i = 0; i < nrows; i++)
		csv_row(&b, v[i], n);
	if (outfile_write(AT_FDCWD, output, b.s, b.len) < 0)
		die("cannot write '%s':", output);
	shown = pypath(output);
	printf("CSV written to %s\n", shown);
	free(shown);
	rows_free(v, nrows, n);
	row_free(head, n);
	buf_release(&b);
}

static void
report_free(struct report *r)
{
	for (size_t i = 0; i < r->nruns; i++)
		free(r->runs[i]);
	for (size_t i = 0; i < r->ncells; i++) {
		free(r->cells[i].model);
		free(r->cells[i].category);
	}
	free(r->runs);
	free(r->cells);
	free(r->cols);
}

int
main(int argc, char **argv)
{
	struct options o;
	struct report r = { 0 };
	int any = 0;

	util_setprogname(argv[0]);
	parse_args(&o, argc, argv);
	find_runs(&r, &o);
	if (!r.nruns) {
		fprintf(stderr, "Error: no aiperf run directories found.\n");
		return 1;
	}
	printf("Found %zu run directories.\n", r.nruns);
	fflush(stdout);
	build(&r, o.metric);
	dedupe(&r);
	for (size_t i = 0; i < r.ncells; i++)
		any |= r.cells[i].has;
	if (!any) {
		fprintf(stderr, "Error: no SPEED-Bench results extracted.\n");
		report_free(&r);
		return 1;
	}
	columns(&r);
	if (o.format != F_CSV)
		print_table(&r, o.metric, stdout);
	if (o.format != F_TABLE)
		write_csv(&r, o.output);
	report_free(&r);
	return util_fshut(stdout, "stdout") ? 1 : 0;
}
