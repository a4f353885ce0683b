/* SPDX-License-Identifier: Apache-2.0 */
/* The graded records' accuracy (lib/summary/accuracy's sums): the console table, accuracy_results.csv. */
#include "export.h"

#include <fcntl.h>
#include <stdlib.h>

#include "csvfield.h"
#include "outfile.h"
#include "runlog.h"
#include "stats/wilson.h"
#include "summary/accuracy.h"
#include "util.h"

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
	c[4] = pct(acc_ratio(k, n));
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
	snprintf(s, sizeof(s), "%zu,%zu,%zu,%.4f\r\n", k, n, unparsed, acc_ratio(k, n));
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
	path = artifacts_path(dir, NULL, ART_ACCURACY);
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
