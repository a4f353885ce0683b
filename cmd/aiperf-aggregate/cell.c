/* SPDX-License-Identifier: Apache-2.0 */
/* --sweep PLAN --cell J: one line on run J of a sweep as it ends, for the console and the log. */
#include "cell.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "rundir.h"
#include "sweepplan.h"
#include "util.h"

#define SUMMARY_MAX (64u << 20)

/* The stat of metric tag in the summary, or NAN. */
static double
stat_of(const struct json *doc, const char *tag, const char *stat)
{
	double v;
	const struct json *m = json_get(doc, tag);

	if (!m || json_double(json_get(m, stat), &v) < 0)
		return NAN;
	return v;
}

static void
metrics(FILE *out, const char *dir, const char *export)
{
	char *path = xstrfmt("%s/%s", dir, export), err[128];
	size_t n;
	char *text = util_readfile(path, SUMMARY_MAX, &n);
	struct json_doc *d = json_doc_new();
	const struct json *doc = text ? json_parse(d, text, n, err, sizeof(err)) : NULL;
	double thr, ttft, e2e, tok;

	if (!doc) {
		fprintf(out, ", no summary");
	} else {
		thr = stat_of(doc, "request_throughput", "avg");
		ttft = stat_of(doc, "time_to_first_token", "p99");
		e2e = stat_of(doc, "request_latency", "p99");
		tok = stat_of(doc, "output_token_throughput", "avg");
		if (thr == thr)
			fprintf(out, ", %.2f requests/sec", thr);
		if (tok == tok)
			fprintf(out, ", %.2f tokens/sec", tok);
		if (ttft == ttft)
			fprintf(out, ", TTFT p99 %.2f ms", ttft);
		if (e2e == e2e)
			fprintf(out, ", latency p99 %.2f ms", e2e);
	}
	json_doc_free(d);
	free(text);
	free(path);
}

int
sweep_cell_line(const struct sweepplan *p, const char *base, long j, const char *export,
		FILE *out)
{
	const struct sweepplan_run *r;
	char *dir, why[512];

	if (j < 0 || (size_t)j >= p->nruns) {
		warn("--cell %ld: the sweep has %zu runs", j, p->nruns);
		return 2;
	}
	r = &p->runs[j];
	dir = xstrfmt("%s/%s", base, r->dir);
	fprintf(out, "cell %ld/%zu %s", j + 1, p->nruns, p->vars[r->variation].dir_name);
	if (p->trials > 1)
		fprintf(out, " trial %zu", r->trial + 1);
	if (rundir_failed(dir, why, sizeof(why)))
		fprintf(out, ": failed (%s)", why);
	else {
		fprintf(out, ": ok");
		metrics(out, dir, export);
	}
	fputc('\n', out);
	free(dir);
	return 0;
}
