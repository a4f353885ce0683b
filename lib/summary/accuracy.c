/* SPDX-License-Identifier: Apache-2.0 */
/* The graded records' accuracy summed: the accuracy.* entries of the JSON and CSV summaries. */
#include "summary/accuracy.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
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

struct acctask *
acc_task(struct accsum *a, const char *task, size_t len)
{
	if (memchr(task, '\0', len))
		return NULL;
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
	struct acctask *t;

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
	if (g->type != JSON_OBJECT || !json_is_str(task) || !is_bool(ok) || !is_bool(un) ||
	    !(t = acc_task(a, task->str, task->len)))
		return util_seterr(why, whylen, "aiperf.accuracy is not an object with a "
				   "string \"task\" and booleans \"correct\" and \"unparsed\"");
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

/* sorted(), as the original's summarize() orders the tasks (strcmp on
 * UTF-8 is Python's order of code points) */
void
acc_finish(struct accsum *a)
{
	if (a->nt)
		qsort(a->t, a->nt, sizeof(*a->t), by_task);
}

double
acc_ratio(size_t k, size_t n)
{
	return n ? (double)k / (double)n : 0.0;
}

/*
 * The entries in the original's order: overall, each task, unparsed,
 * each task's unparsed. Entry i of 2 * (nt + 1): its counts, its tag and
 * its header (malloc'd).
 */
static void
entry_of(const struct accsum *a, size_t i, size_t *k, size_t *n, char **tag, char **header)
{
	size_t m = a->nt + 1, j = i % m;
	int unparsed = i >= m;
	const struct acctask *t = j ? &a->t[j - 1] : NULL;
	const char *what = unparsed ? "Accuracy Unparsed" : "Accuracy";

	*n = t ? t->total : a->total;
	*k = unparsed ? (t ? t->unparsed : a->unparsed) : (t ? t->correct : a->correct);
	if (t)
		*tag = xstrfmt("accuracy.%stask.%s", unparsed ? "unparsed." : "", t->task);
	else
		*tag = xstrdup(unparsed ? "accuracy.unparsed" : "accuracy.overall");
	*header = xstrfmt("%s (%s)", what, t ? t->task : "Overall");
}

/* One entry: the original's {"unit","count","sum"}, then ours. */
static void
entry_json(struct jw *w, const char *tag, size_t k, size_t n)
{
	double lo, hi;

	jw_key(w, tag);
	jw_obj(w);
	jw_key(w, "unit");
	jw_str(w, "ratio");
	jw_key(w, "count");
	jw_int(w, (int64_t)n);
	jw_key(w, "sum");
	jw_int(w, (int64_t)k);
	jw_key(w, "accuracy");
	jw_double_py(w, acc_ratio(k, n));
	wilson_interval(k, n, WILSON_Z95, &lo, &hi);
	jw_key(w, "ci95_low");
	jw_double_py(w, lo);
	jw_key(w, "ci95_high");
	jw_double_py(w, hi);
	jw_obj_end(w);
}

void
acc_json(struct jw *w, const struct accsum *a)
{
	if (!a || !a->total)
		return;
	for (size_t i = 0; i < 2 * (a->nt + 1); i++) {
		char *tag, *header;
		size_t k, n;

		entry_of(a, i, &k, &n, &tag, &header);
		entry_json(w, tag, k, n);
		free(tag);
		free(header);
	}
}

struct accrow *
acc_rows(const struct accsum *a, size_t *n)
{
	struct accrow *r;
	size_t k, total;

	*n = 0;
	if (!a || !a->total)
		return NULL;
	*n = 2 * (a->nt + 1);
	r = xcalloc(*n, sizeof(*r));
	for (size_t i = 0; i < *n; i++)
		entry_of(a, i, &k, &total, &r[i].tag, &r[i].header);
	return r;
}

void
acc_rows_free(struct accrow *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(r[i].tag);
		free(r[i].header);
	}
	free(r);
}
