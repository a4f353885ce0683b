/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-validate's checks of the files themselves: which exist, that they parse, that their counts agree. */
#include "validate.h"

#include <stdlib.h>

#include "lines.h"
#include "rand/pystr.h"
#include "util.h"

#define MAX_LINE ((size_t)64 << 20)

static int
check_files(struct vrun *v)
{
	struct buf have = BUF_INIT(BUF_NOMAX), miss = BUF_INIT(BUF_NOMAX);
	static const char *const lvl[] = { "summary", "records", "raw" };

	for (int k = 0; k < ART_N; k++) {
		int want = artifacts_written(k, v->lvl, v->sl.width_ns != 0, 0);
		struct buf *b = vrun_exists(v->path[k]) ? &have : want ? &miss : NULL;
		if (b && (want || k == ART_SLICE_CSV || k == ART_SLICE_JSON || k == ART_ACCURACY))
			buf_addf(b, "%s%s", b->len ? ", " : "", vrun_rel(v, v->path[k]));
	}
	struct buf *in = vrun_exists(v->inputs) ? &have : &miss;
	buf_addf(in, "%s%s", in->len ? ", " : "", vrun_rel(v, v->inputs));
	if (miss.len)
		vrun_report(v, V_FAIL, "files", "missing %s (export level %s%s: %s)",
			    buf_str(&miss), lvl[v->lvl], v->sl.width_ns ? ", timeslices" : "",
			    v->lvl_from);
	else
		vrun_report(v, V_OK, "files", "%s (export level %s: %s)", buf_str(&have),
			    lvl[v->lvl], v->lvl_from);
	buf_release(&have);
	buf_release(&miss);
	return 0;
}

static int
check_json(struct vrun *v, const char *why)
{
	const char *name = vrun_rel(v, v->path[ART_JSON]);
	size_t n = 0;

	if (!vrun_exists(v->path[ART_JSON]))
		return vrun_report(v, V_SKIP, "json", "no %s", name);
	if (!v->sum)
		return vrun_report(v, V_FAIL, "json", "%s: %s", name, why);
	for (const struct json *m = v->sum->child; m; m = m->next)
		n += json_get(m, "unit") != NULL;
	return vrun_report(v, V_OK, "json", "%s parses (%zu metrics)", name, n);
}

static int
check_inputs(struct vrun *v)
{
	char why[256];
	struct json_doc *d = json_doc_new();
	int have = vrun_exists(v->inputs);
	const struct json *j = have ? vrun_load_json(d, v->inputs, why, sizeof(why)) : NULL;
	const struct json *data = json_get(j, "data");

	if (!have)
		vrun_report(v, V_SKIP, "inputs", "no inputs.json");
	else if (!j)
		vrun_report(v, V_FAIL, "inputs", "inputs.json: %s", why);
	else if (!data || data->type != JSON_ARRAY)
		vrun_report(v, V_FAIL, "inputs", "inputs.json has no \"data\" list");
	else
		vrun_report(v, V_OK, "inputs", "inputs.json parses (%zu sessions)", data->len);
	json_doc_free(d);
	return 0;
}

/* Read the records file into v->a (the slices, the grades): 0, or -1 with why
 * ("N: reason", N the line). */
static int
read_records(struct vrun *v, const char *path, size_t *n, char *why, size_t whylen)
{
	struct lines l;
	const struct json *r;
	const char *s;
	size_t len;
	int rc = 0, k = 0;
	char sub[256];

	if (lines_open(&l, path, MAX_LINE) < 0)
		return util_seterr(why, whylen, " %s", util_strerror(errno));	/* "name: why" */
	while (!rc && (k = lines_next(&l, &s, &len)) == 1) {
		if (pystr_isblank(s, len))
			continue;
		int got = agg_line(&v->a, s, len, &r, sub, sizeof(sub));
		if (got == 1 && slices_add(&v->sl, &v->a, r, sub, sizeof(sub)) < 0)
			got = -1;
		if (got == 1 && acc_line(&v->acc, s, len, sub, sizeof(sub)) < 0)
			got = -1;
		if (got == 0)
			snprintf(sub, sizeof(sub), "a warmup record (the file holds profiling ones)");
		if (got != 1)
			rc = util_seterr(why, whylen, "%zu: %s", l.lineno, sub);
		*n += got == 1;
	}
	if (!rc && k < 0)
		rc = util_seterr(why, whylen, "%zu: %s", l.lineno,
				 errno == ENOBUFS ? "line too long" : util_strerror(errno));
	lines_close(&l);
	return rc;
}

static int
check_records(struct vrun *v)
{
	const char *name = vrun_rel(v, v->path[ART_RECORDS]);
	double rc = vrun_avg(v->sum, "request_count"), ec = vrun_avg(v->sum, "error_request_count");
	size_t n = 0;
	char why[512];

	if (v->lvl < LEVEL_RECORDS)
		return vrun_report(v, V_SKIP, "records", "export level summary writes none");
	if (!vrun_exists(v->path[ART_RECORDS]))
		return vrun_report(v, V_SKIP, "records", "no %s", name);
	if (read_records(v, v->path[ART_RECORDS], &n, why, sizeof(why)) < 0)
		return vrun_report(v, V_FAIL, "records", "%s:%s", name, why);
	v->have_records = 1;
	if (!v->sum)
		return vrun_report(v, V_OK, "records", "%s: %zu records", name, n);
	if ((double)v->a.valid != rc || (double)v->a.errors != ec)
		return vrun_report(v, V_FAIL, "records", "%s holds %zu valid and %zu error "
				   "records, the summary counts request_count %g, "
				   "error_request_count %g", name, v->a.valid, v->a.errors, rc, ec);
	return vrun_report(v, V_OK, "records", "%s: %zu records, as the summary counts "
			   "(request_count %g, error_request_count %g)", name, n, rc, ec);
}

static int
check_errors(struct vrun *v)
{
	const struct json *es = json_get(v->sum, "error_summary");
	double ec = vrun_avg(v->sum, "error_request_count"), total = 0, c;

	if (!v->sum)
		return vrun_report(v, V_SKIP, "errors", "no summary");
	if (!es || es->type != JSON_ARRAY)
		return vrun_report(v, V_FAIL, "errors", "the summary has no error_summary list");
	for (const struct json *g = es->child; g; g = g->next) {
		if (json_double(json_get(g, "count"), &c) < 0)
			return vrun_report(v, V_FAIL, "errors", "an error_summary entry has no count");
		total += c;
	}
	if (total != ec)
		return vrun_report(v, V_FAIL, "errors", "error_summary counts %g errors, "
				   "error_request_count %g", total, ec);
	return vrun_report(v, V_OK, "errors", "error_summary counts %g errors, as "
			   "error_request_count", total);
}

/* Each raw record parses; the profiling ones are at least the records. */
static int
check_raw(struct vrun *v)
{
	const char *name = vrun_rel(v, v->path[ART_RAW]);
	struct json_doc *d;
	size_t total = 0, prof = 0, len;
	const char *s;
	struct lines l;
	char err[128];
	int k = 0, bad = 0;

	if (v->lvl < LEVEL_RAW || !vrun_exists(v->path[ART_RAW]))
		return vrun_report(v, V_SKIP, "raw", "%s", v->lvl < LEVEL_RAW ?
				   "the export level writes none" : "no raw records file");
	if (lines_open(&l, v->path[ART_RAW], MAX_LINE) < 0)
		return vrun_report(v, V_FAIL, "raw", "%s: %s", name, util_strerror(errno));
	d = json_doc_new();
	while (!bad && (k = lines_next(&l, &s, &len)) == 1) {
		if (pystr_isblank(s, len))
			continue;
		json_doc_reset(d);
		const struct json *r = json_parse(d, s, len, err, sizeof(err));
		bad = !r ? 1 : r->type != JSON_OBJECT ? 2 : 0;
		total++;
		prof += !bad && strcmp(json_str_or(json_path(r, "metadata.benchmark_phase"), ""),
				       "warmup") != 0;
	}
	size_t line = l.lineno;
	lines_close(&l);
	json_doc_free(d);
	double want = vrun_avg(v->sum, "request_count") + vrun_avg(v->sum, "error_request_count");
	if (bad || k < 0)
		return vrun_report(v, V_FAIL, "raw", "%s:%zu: %s", name, line,
				   k < 0 ? "unreadable or too long" : bad == 1 ? err
				   : "not an object");
	if ((double)prof < want)
		return vrun_report(v, V_FAIL, "raw", "%s holds %zu profiling records, fewer "
				   "than the %g the summary counts", name, prof, want);
	return vrun_report(v, V_OK, "raw", "%s: %zu records, %zu profiling (the summary "
			   "counts %g)", name, total, prof, want);
}

void
vrun_check(struct vrun *v, const char *why)
{
	check_files(v);
	check_json(v, why);
	check_inputs(v);
	check_records(v);
	check_errors(v);
	check_raw(v);
}
