/* SPDX-License-Identifier: Apache-2.0 */
/* The graded records' accuracy summed: the accuracy.* entries of the JSON and CSV summaries. */
#ifndef AIPERF_SUMMARY_ACCURACY_H
#define AIPERF_SUMMARY_ACCURACY_H

#include <stddef.h>
#include <stdio.h>

#include "json/json.h"
#include "json/jw.h"

/*
 * The sums of the metric records' aiperf.accuracy objects (aiperf-metrics
 * writes them; profiling records only: the caller passes those), as the
 * original's AccuracyResultsProcessor keeps them. aiperf-export and
 * aiperf-validate both compute them here. struct accsum owns its task
 * names and its parse document; acc_release() frees them.
 */
struct acctask {
	char *task;
	size_t correct, total, unparsed;
};

struct accsum {
	struct acctask *t;	/* sorted by acc_finish() */
	size_t nt, cap;
	size_t correct, total, unparsed;
	struct json_doc *doc;
};

void acc_init(struct accsum *a);
void acc_release(struct accsum *a);
/* Count one profiling record line's grade, if it has one: 0, or -1 when
 * the line does not parse or its grade is malformed (message in why). */
int acc_line(struct accsum *a, const char *s, size_t n, char *why, size_t whylen);
/* The task named task[0..len), added with no counts when new; NULL when
 * the name holds a NUL byte. */
struct acctask *acc_task(struct accsum *a, const char *task, size_t len);
/* Sort the tasks by name, as the original's summarize() does. */
void acc_finish(struct accsum *a);
/* k / n, 0 when n is 0. */
double acc_ratio(size_t k, size_t n);
/* The accuracy.* entries of profile_export_aiperf.json, in the original's
 * order; none when nothing was graded (a may be NULL). */
void acc_json(struct jw *w, const struct accsum *a);

/* One accuracy.* entry as a row of the CSV summary's Metric,Value section. */
struct accrow {
	char *tag;		/* accuracy.overall, accuracy.task.NAME, ... */
	char *header;		/* Accuracy (Overall), Accuracy (NAME), ... */
};

/* The entries' rows in JSON order (which is also tag order): a malloc'd
 * array of *n rows (NULL, 0 when nothing was graded); acc_rows_free()
 * frees it. */
struct accrow *acc_rows(const struct accsum *a, size_t *n);
void acc_rows_free(struct accrow *r, size_t n);

#endif
