/* SPDX-License-Identifier: Apache-2.0 */
/* The graded records' accuracy: the console table, accuracy_results.csv, the accuracy.* JSON entries. */
#include "export.h"

#include <fcntl.h>
#include <stdlib.h>

#include "csvfield.h"
#include "outfile.h"
#include "runlog.h"
#include "stats/wilson.h"
#include "util.h"

/* Only a line holding this is parsed again (a record may hold it in a
 * string too: then its aiperf object says whether it was graded). */
static const char needle[] = "\"accuracy\":{";

void
acc_init(struct accsum *a)
{
	memset(a, 0, sizeof(*a));
	a->doc = json_doc_new();
}

void
acc_release(struct accsum *a)
{
	for (size_t i = 0; i < a->nt; i++)
		free(a->t[i].task);
	free(a->t);
	json_doc_free(a->doc);
}

static int
has_needle(const char *s, size_t n)
{
	const size_t k = sizeof(needle) - 1;

	for (size_t i = 0; i + k <= n; i++) {
		const char *p = memchr(s + i, '"', n - k + 1 - i);

		if (!p)
			return 0;
		i = (size_t)(p - s);
		if (!memcmp(p, needle, k))
			return 1;
	}
	return 0;
}

static struct acctask *
task_of(struct accsum *a, const char *task, size_t len)
{
	for (size_t i = 0; i < a->nt; i++)
		if (strlen(a->t[i].task) == len && !memcmp(a->t[i].task, task, len))
			return &a->t[i];
	if (a->nt == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 16;
		a->t = xreallocarray(a->t, a->cap, sizeof(*a->t));
	}
	a->t[a->nt] = (struct acctask){ xstrndup(task, len), 0, 0, 0 };
	return &a->t[a->nt++];
}

static int
is_bool(const struct json *v)
{
	return v && (v->type == JSON_TRUE || v->type == JSON_FALSE);
}

int
acc_line(struct accsum *a, const char *s, size_t n, char *why, size_t whylen)
{
	const struct json *r, *g, *task, *ok, *un;

	if (!has_needle(s, n))
		return 0;
	json_doc_reset(a->doc);
	if (!(r = json_parse(a->doc, s, n, why, whylen)))
		return -1;
	if (!(g = json_get(json_get(r, "aiperf"), "accuracy")))
		return 0;
	task = json_get(g, "task");
	ok = json_get(g, "correct");
	un = json_get(g, "unparsed");
	if (g->type != JSON_OBJECT || !json_is_str(task) || memchr(task->str, '\0', task->len)
	    || !is_bool(ok) || !is_bool(un))
		return util_seterr(why, whylen, "aiperf.accuracy is not an object with a "
				   "string \"task\" and booleans \"correct\" and \"unparsed\"");
	struct acctask *t = task_of(a, task->str, task->len);
	t->total++;
	a->total++;
	t->correct += ok->type == JSON_TRUE;
	a->correct += ok->type == JSON_TRUE;
	t->unparsed += un->type == JSON_TRUE;
	a->unparsed += un->type == JSON_TRUE;
	return 0;
}

static int
by_task(const void *x, const void *y)
{
	return strcmp(((const struct acctask *)x)->task, ((const struct acctask *)y)->task);
}

/* sorted(), as the original's summarize() orders the tasks */
void
acc_finish(struct accsum *a)
{
	if (a->nt)
		qsort(a->t, a->nt, sizeof(*a->t), by_task);
}

static double
ratio(size_t k, size_t n)
{
	return n ? (double)k / (double)n : 0.0;
}

/* f"{x:.2%}" */
static char *
pct(double x)
{
	return xstrfmt("%.2f%%", x * 100.0);
}

static char *
ci_cell(size_t k, size_t n)
{
	double lo, hi;

	if (wilson_interval(k, n, WILSON_Z95, &lo, &hi) < 0)
		return xstrdup("N/A");
	return xstrfmt("%.2f%%\xe2\x80\x93%.2f%%", lo * 100.0, hi * 100.0);
}

static void
row_cells(char **c, const char *name, size_t k, size_t n, size_t unparsed)
{
	c[0] = xstrdup(name);
	c[1] = xstrfmt("%zu", k);
	c[2] = xstrfmt("%zu", n);
	c[3] = xstrfmt("%zu", unparsed);
	c[4] = pct(ratio(k, n));
	c[5] = ci_cell(k, n);
}

/* The original's AccuracyConsoleExporter (tasks, then OVERALL), with our
 * Wilson interval last; its warning when no reply could be parsed. */
void
acc_table(FILE *f, const struct accsum *a)
{
	static const char *const head[] = { "Task", "Correct", "Total", "Unparsed",
		"Accuracy", "95% CI" };
	char **cells;
	size_t nr = a->nt + 1;

	if (!a->total)
		return;
	cells = xcalloc(nr * 6, sizeof(*cells));
	for (size_t i = 0; i < a->nt; i++)
		row_cells(&cells[i * 6], a->t[i].task, a->t[i].correct, a->t[i].total,
			  a->t[i].unparsed);
	row_cells(&cells[a->nt * 6], "OVERALL", a->correct, a->total, a->unparsed);
	table_accuracy(f, "Accuracy Benchmark Results", 6, head, cells, nr);
	for (size_t i = 0; i < nr * 6; i++)
		free(cells[i]);
	free(cells);
	if (a->unparsed < a->total)
		return;
	fputs("Warning: every accuracy response was unparsed (accuracy=0). The grader "
	      "could not extract an answer from any model output. Verify the inference "
	      "server returns valid completions for this benchmark before trusting the "
	      "accuracy CSV.\n", f);
	runlog(RUNLOG_WARNING, "All %zu accuracy responses were unparsed; grader extracted "
	       "no answers. Likely the inference server is returning unexpected output "
	       "(e.g. mock server). accuracy_results.csv will report 0%% for every task.",
	       a->total);
}

static void
csv_row(FILE *f, const char *task, size_t k, size_t n, size_t unparsed)
{
	char s[64];

	csv_field(f, task, 1);
	snprintf(s, sizeof(s), "%zu,%zu,%zu,%.4f\r\n", k, n, unparsed, ratio(k, n));
	fputc(',', f);
	fputs(s, f);
}

/* accuracy_results.csv, as the original's csv.writer writes it: OVERALL
 * first, then the tasks; written whole under a new name (lib/outfile). */
char *
acc_csv(const struct accsum *a, const char *dir)
{
	struct outfile of;
	char *path;
	FILE *f;

	if (!a->total || !dir)
		return NULL;
	path = xstrfmt("%s/accuracy_results.csv", dir);
	if (!(f = outfile_fopen(&of, AT_FDCWD, path)))
		die("cannot create '%s':", path);
	fputs("task,correct,total,unparsed,accuracy\r\n", f);
	csv_row(f, "OVERALL", a->correct, a->total, a->unparsed);
	for (size_t i = 0; i < a->nt; i++)
		csv_row(f, a->t[i].task, a->t[i].correct, a->t[i].total, a->t[i].unparsed);
	if (ferror(f)) {
		outfile_discard(&of);
		die("cannot write '%s':", path);
	}
	if (outfile_commit(&of) < 0)
		die("cannot write '%s':", path);
	return path;
}

/* One entry: the original's {"unit","count","sum"}, then ours. */
static void
entry(struct jw *w, const char *tag, const char *task, size_t k, size_t n)
{
	struct buf key = BUF_INIT(BUF_NOMAX);
	double lo, hi;

	buf_addstr(&key, tag);
	if (task)
		buf_addstr(&key, task);
	jw_keyn(w, key.s, key.len);
	jw_obj(w);
	jw_key(w, "unit");
	jw_str(w, "ratio");
	jw_key(w, "count");
	jw_int(w, (int64_t)n);
	jw_key(w, "sum");
	jw_int(w, (int64_t)k);
	jw_key(w, "accuracy");
	jw_double_py(w, ratio(k, n));
	wilson_interval(k, n, WILSON_Z95, &lo, &hi);
	jw_key(w, "ci95_low");
	jw_double_py(w, lo);
	jw_key(w, "ci95_high");
	jw_double_py(w, hi);
	jw_obj_end(w);
	buf_release(&key);
}

/* The original's AccuracyResultsProcessor results, in its order. */
void
acc_json(struct jw *w, const void *ctx)
{
	const struct accsum *a = ctx;

	if (!a->total)
		return;
	entry(w, "accuracy.overall", NULL, a->correct, a->total);
	for (size_t i = 0; i < a->nt; i++)
		entry(w, "accuracy.task.", a->t[i].task, a->t[i].correct, a->t[i].total);
	entry(w, "accuracy.unparsed", NULL, a->unparsed, a->total);
	for (size_t i = 0; i < a->nt; i++)
		entry(w, "accuracy.unparsed.task.", a->t[i].task, a->t[i].unparsed,
		      a->t[i].total);
}
