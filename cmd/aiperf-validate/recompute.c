/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-validate's checks of the summary, CSV and timeslice files against what their records give again. */
#include "validate.h"

#include <stdlib.h>

#include "summary/csvfile.h"
#include "summary/jsonfile.h"
#include "util.h"

/* A text written by fn into memory, parsed as JSON into d. */
static const struct json *
written_json(struct json_doc *d, int (*fn)(FILE *, void *), void *arg)
{
	char *s = NULL, err[128];
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	if (!f || fn(f, arg) < 0 || fclose(f) == EOF)
		die("cannot write in memory:");
	const struct json *j = json_parse(d, s, n, err, sizeof(err));
	free(s);
	if (!j)
		die("the recomputed summary does not parse: %s", err);
	return j;
}

static void
written_csv(struct csv *c, int (*fn)(FILE *, void *), void *arg)
{
	char *s = NULL, err[128];
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	if (!f || fn(f, arg) < 0 || fclose(f) == EOF)
		die("cannot write in memory:");
	int rc = csv_read(s, n, c, err, sizeof(err));
	free(s);
	if (rc < 0)
		die("the recomputed CSV does not parse: %s", err);
}

struct recomputed {
	const struct summary *sm;
	struct slices *sl;
	struct exportopts eo;
};

static int
put_json(FILE *f, void *p)
{
	const struct recomputed *r = p;

	return json_export(f, r->sm, &r->eo);
}

static int
put_csv(FILE *f, void *p)
{
	const struct recomputed *r = p;

	return csv_export(f, r->sm, NULL, r->eo.acc);
}

static int
put_slices_json(FILE *f, void *p)
{
	struct recomputed *r = p;

	return slices_json(f, r->sl, &r->eo);
}

static int
put_slices_csv(FILE *f, void *p)
{
	return slices_csv(f, ((struct recomputed *)p)->sl);
}

/* The options the summary was written with, as far as they show in it. */
static struct exportopts
opts_of(const struct json *sum)
{
	struct exportopts eo = { .title = "", .input_config = NULL };

	eo.benchmark_id = json_str_or(json_get(sum, "benchmark_id"), "");
	eo.version = json_str_or(json_get(sum, "aiperf_version"), "");
	eo.was_cancelled = json_get(sum, "was_cancelled") &&
			   json_get(sum, "was_cancelled")->type == JSON_TRUE;
	eo.cs = (struct clientsum){ .cpu_us_per_request = -1, .achieved_rate = -1,
		.target_rate = -1, .cpu_busy = -1 };
	return eo;
}

/* The GPU telemetry section (two empty rows, then "Endpoint,GPU_Index,..."):
 * the records do not hold the samples it comes from, so it is not compared. */
static void
drop_gpu_section(struct csv *c)
{
	size_t k;

	for (k = 2; k < c->n; k++)
		if (c->rows[k].n > 1 && !strcmp(c->rows[k].f[0], "Endpoint") &&
		    !strcmp(c->rows[k].f[1], "GPU_Index") && !c->rows[k - 1].n &&
		    !c->rows[k - 2].n)
			break;
	if (k >= c->n)
		return;
	for (size_t i = k - 2; i < c->n; i++) {
		for (size_t j = 0; j < c->rows[i].n; j++)
			free(c->rows[i].f[j]);
		free(c->rows[i].f);
	}
	c->n = k - 2;
}

/* A CSV file read whole, or -1 with why. */
static int
load_csv(const char *path, struct csv *c, char *why, size_t whylen)
{
	size_t n;
	char *s = util_readfile(path, MAX_TEXT, &n);

	memset(c, 0, sizeof(*c));
	if (!s)
		return util_seterr(why, whylen, "%s", util_strerror(errno));
	int rc = csv_read(s, n, c, why, whylen);
	free(s);
	if (!rc)
		drop_gpu_section(c);
	return rc;
}

static const char *const sum_skip[] = { "input_config", "run_info", "client", "start_time", "end_time",
	"telemetry_data", NULL };
static const char *const slice_skip[] = { "input_config", NULL };

static int
check_summary(struct vrun *v, struct recomputed *r)
{
	const char *name = vrun_rel(v, v->path[ART_JSON]);
	struct json_doc *d = json_doc_new();
	char why[512];

	if (!v->sum || !v->have_records) {
		json_doc_free(d);
		return vrun_report(v, V_SKIP, "summary", "%s", !v->sum ? "no summary to compare" :
				   "no records to recompute it from");
	}
	const struct json *want = written_json(d, put_json, r);
	int rc = json_compare(v->sum, want, sum_skip, "the records", why, sizeof(why));
	json_doc_free(d);
	if (rc < 0)
		return vrun_report(v, V_FAIL, "summary", "%s: %s", name, why);
	return vrun_report(v, V_OK, "summary", "%s: every value as recomputed from the %zu records",
			   name, v->a.valid + v->a.errors);
}

/* The statistics of a metric object of the JSON summary. */
static void
stats_of(const struct json *m, struct stats *st)
{
	const char *keys[] = { "avg", "min", "max", "std", "p1", "p5", "p10", "p25", "p50",
		"p75", "p90", "p95", "p99" };
	double *to[] = { &st->avg, &st->min, &st->max, &st->std, &st->p1, &st->p5, &st->p10,
		&st->p25, &st->p50, &st->p75, &st->p90, &st->p95, &st->p99 };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		json_double(json_get(m, keys[i]), to[i]);
}

/* The accuracy.* entries of the JSON summary: the tasks and counts of
 * the CSV's rows (they hold no value) when no records exist. */
static void
acc_of_json(const struct json *sum, struct accsum *a)
{
	static const char task[] = "accuracy.task.", unp[] = "accuracy.unparsed.task.";
	double count, k;

	for (const struct json *m = sum->child; m; m = m->next) {
		const char *key = m->key;
		struct acctask *t = NULL;

		if (json_double(json_get(m, "count"), &count) < 0 ||
		    json_double(json_get(m, "sum"), &k) < 0 || !(count >= 0 && count <= 1e15) ||
		    !(k >= 0 && k <= count))
			continue;
		if (!strcmp(key, "accuracy.overall")) {
			a->total = (size_t)count;
			a->correct = (size_t)k;
		} else if (!strcmp(key, "accuracy.unparsed")) {
			a->unparsed = (size_t)k;
		} else if (!strncmp(key, task, sizeof(task) - 1)) {
			if ((t = acc_task(a, key + sizeof(task) - 1, strlen(key + sizeof(task) - 1))))
				t->correct = (size_t)k;
		} else if (!strncmp(key, unp, sizeof(unp) - 1)) {
			if ((t = acc_task(a, key + sizeof(unp) - 1, strlen(key + sizeof(unp) - 1))))
				t->unparsed = (size_t)k;
		}
		if (t)
			t->total = (size_t)count;
	}
	acc_finish(a);
}

/* A summary from the JSON file itself, for its CSV when no records exist. */
static void
summary_of_json(const struct json *sum, struct summary *sm)
{
	memset(sm, 0, sizeof(*sm));
	sm->res = xcalloc(metricdefs_len, sizeof(*sm->res));
	for (size_t i = 0; i < metricdefs_len; i++) {
		const struct json *m = json_get(sum, metricdefs[i].tag);
		if (!m || m->type != JSON_OBJECT || !json_get(m, "avg"))
			continue;
		struct result *r = &sm->res[sm->nres++];
		r->def = &metricdefs[i];
		r->dist = json_get(m, "p50") != NULL;
		stats_of(m, &r->st);
	}
}

static int
check_csv(struct vrun *v, struct recomputed *r)
{
	const char *name = vrun_rel(v, v->path[ART_CSV]);
	struct csv got, want = { 0 };
	struct summary js;
	char why[512];
	int rc = V_OK;

	if (!vrun_exists(v->path[ART_CSV]))
		return vrun_report(v, V_SKIP, "csv", "no %s", name);
	if (load_csv(v->path[ART_CSV], &got, why, sizeof(why)) < 0) {
		csv_release(&got);
		return vrun_report(v, V_FAIL, "csv", "%s: %s", name, why);
	}
	if (v->sum) {	/* without it, the goodput configuration is unknown */
		struct recomputed fromjson = *r;
		struct accsum acc;
		acc_init(&acc);
		if (!v->have_records) {	/* the sums are not in the JSON */
			summary_of_json(v->sum, &js);
			acc_of_json(v->sum, &acc);
			fromjson.sm = &js;
			fromjson.eo.acc = &acc;
		}
		written_csv(&want, put_csv, &fromjson);
		if (!v->have_records)
			summary_release(&js);
		acc_release(&acc);
		rc = csv_compare(&got, &want, v->have_records ? -1 : 4,
				 v->have_records ? "the records" : "the JSON summary",
				 why, sizeof(why)) < 0 ? V_FAIL : V_OK;
	}
	if (rc == V_FAIL)
		vrun_report(v, V_FAIL, "csv", "%s: %s", name, why);
	else
		vrun_report(v, V_OK, "csv", "%s parses (%zu lines)%s", name, got.n,
			    !v->sum ? "; values not checked without a JSON summary"
			    : v->have_records ? ", every value as recomputed from the records"
			    : ", every value as in the JSON summary (sums not checked)");
	csv_release(&got);
	csv_release(&want);
	return rc;
}

static int
check_slices_json(struct vrun *v, struct recomputed *r, int known)
{
	const char *name = vrun_rel(v, v->path[ART_SLICE_JSON]);
	struct json_doc *d = json_doc_new();
	char why[512];
	const struct json *got = vrun_load_json(d, v->path[ART_SLICE_JSON], why, sizeof(why));
	const struct json *ts = json_get(got, "timeslices");
	int rc = V_OK;

	if (!got)
		rc = vrun_report(v, V_FAIL, "timeslices", "%s: %s", name, why);
	else if (!ts || ts->type != JSON_ARRAY)
		rc = vrun_report(v, V_FAIL, "timeslices", "%s has no \"timeslices\" list", name);
	else if (known && json_compare(got, written_json(d, put_slices_json, r), slice_skip,
				       "the records", why, sizeof(why)) < 0)
		rc = vrun_report(v, V_FAIL, "timeslices", "%s: %s", name, why);
	else
		vrun_report(v, V_OK, "timeslices", "%s parses (%zu slices)%s", name, ts->len,
			    known ? ", every value as recomputed from the records" : "");
	json_doc_free(d);
	return rc;
}

static int
check_slices_csv(struct vrun *v, struct recomputed *r, int known)
{
	const char *name = vrun_rel(v, v->path[ART_SLICE_CSV]);
	struct csv got, want = { 0 };
	char why[512];
	int rc = load_csv(v->path[ART_SLICE_CSV], &got, why, sizeof(why));

	if (!rc && known) {
		written_csv(&want, put_slices_csv, r);
		rc = csv_compare(&got, &want, -1, "the records", why, sizeof(why));
	}
	if (rc < 0)
		vrun_report(v, V_FAIL, "timeslices", "%s: %s", name, why);
	else
		vrun_report(v, V_OK, "timeslices", "%s parses (%zu lines)%s", name, got.n,
			    known ? ", every value as recomputed from the records" : "");
	csv_release(&got);
	csv_release(&want);
	return rc < 0 ? V_FAIL : V_OK;
}

/* The timeslice files, when there are any; their values when the slice
 * duration is known (--slice-duration, or the summary's input_config). */
static void
check_slices(struct vrun *v, struct recomputed *r)
{
	int known = v->sl.width_ns && v->have_records && v->sum;

	if (!vrun_exists(v->path[ART_SLICE_JSON]) && !vrun_exists(v->path[ART_SLICE_CSV])) {
		vrun_report(v, V_SKIP, "timeslices", "no timeslice files");
		return;
	}
	if (known)
		slices_finish(&v->sl);
	else
		vrun_report(v, V_SKIP, "timeslices", "values not recomputed: %s",
			    !v->have_records ? "no records" : !v->sum ? "no JSON summary"
			    : "the slice duration is unknown (--slice-duration)");
	if (vrun_exists(v->path[ART_SLICE_JSON]))
		check_slices_json(v, r, known);
	if (vrun_exists(v->path[ART_SLICE_CSV]))
		check_slices_csv(v, r, known);
}

void
vrun_recompute(struct vrun *v)
{
	struct summary sm;

	agg_summary(&v->a, &sm);
	acc_finish(&v->acc);
	struct recomputed r = { &sm, &v->sl, opts_of(v->sum) };
	r.eo.acc = &v->acc;
	check_summary(v, &r);
	vrun_gpu(v, &sm);
	check_csv(v, &r);
	check_slices(v, &r);
	summary_release(&sm);
}
