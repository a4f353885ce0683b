/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aiperf-validate's GPU telemetry check: the summary's telemetry_data
 * against what gpu_telemetry_export.jsonl (every scrape, one line per GPU)
 * gives again over the profiling window of the records. The endpoints'
 * lists come from the summary itself (a failed scrape leaves no line),
 * and so do the units of the metrics beyond the original's twelve (a
 * custom metrics CSV's, which the lines name only by key).
 */
#include "validate.h"

#include <stdlib.h>

#include "lines.h"
#include "rand/pystr.h"
#include "summary/gpu.h"
#include "summary/jsonfile.h"
#include "util.h"

#define MAX_GPU_LINE ((size_t)16 << 20)

/* The summary's metric keys beyond the original's, with their units. */
static void
add_metrics(struct gpus *g, const struct json *td)
{
	const struct json *eps = json_get(td, "endpoints");

	for (const struct json *e = eps ? eps->child : NULL; e; e = e->next)
		for (const struct json *d = json_get(e, "gpus") ? json_get(e, "gpus")->child
							     : NULL; d; d = d->next) {
			const struct json *ms = json_get(d, "metrics");
			for (const struct json *m = ms ? ms->child : NULL; m; m = m->next) {
				char *key = xstrndup(m->key, m->keylen);
				gpu_metric_add(g, key, json_str_or(json_get(m, "unit"), ""));
				free(key);
			}
		}
}

static void
add_endpoints(struct gpus *g, const struct json *td)
{
	const struct json *conf = json_path(td, "summary.endpoints_configured");
	const struct json *ok = json_path(td, "summary.endpoints_successful");

	for (const struct json *u = conf ? conf->child : NULL; u; u = u->next) {
		int good = 0;
		if (u->type != JSON_STRING || memchr(u->str, '\0', u->len))
			continue;
		for (const struct json *o = ok ? ok->child : NULL; o && !good; o = o->next)
			good = o->type == JSON_STRING && o->len == u->len &&
			       !memcmp(o->str, u->str, u->len);
		char *url = xstrndup(u->str, u->len);
		gpu_endpoint(g, url, good);
		free(url);
	}
}

/* Read the lines into g: 0, or -1 with why ("N: reason"). */
static int
read_lines(struct gpus *g, const char *path, char *why, size_t whylen)
{
	struct json_doc *doc = json_doc_new();
	struct lines l;
	const char *s;
	size_t n;
	int k, rc = 0;
	char sub[256];

	if (lines_open(&l, path, MAX_GPU_LINE) < 0) {
		json_doc_free(doc);
		return util_seterr(why, whylen, "%s", util_strerror(errno));
	}
	while (!rc && (k = lines_next(&l, &s, &n)) == 1) {
		if (pystr_isblank(s, n))
			continue;
		if (gpu_record(g, doc, s, n, sub, sizeof(sub)) < 0)
			rc = util_seterr(why, whylen, "line %zu: %s", l.lineno, sub);
	}
	if (!rc && k < 0)
		rc = util_seterr(why, whylen, "line %zu: %s", l.lineno,
				 errno == ENOBUFS ? "too long" : util_strerror(errno));
	lines_close(&l);
	json_doc_free(doc);
	return rc;
}

/* Compared apart: the summary, whose start_time and end_time are local
 * times (as the summary check, they depend on the writer's time zone). */
static const char *const skip_top[] = { "summary", NULL };
static const char *const skip_times[] = { "start_time", "end_time", NULL };

void
vrun_gpu(struct vrun *v, const struct summary *sm)
{
	const char *name = vrun_rel(v, v->path[ART_GPU]);
	const struct json *td = json_get(v->sum, "telemetry_data");
	int have = vrun_exists(v->path[ART_GPU]);
	struct gpus g;
	char why[512];

	if (!have && !td) {
		vrun_report(v, V_SKIP, "gpu", "no GPU telemetry");
		return;
	}
	if (!have) {
		vrun_report(v, V_FAIL, "gpu", "the summary has telemetry_data, but there is no %s",
			    name);
		return;
	}
	gpu_init(&g);
	add_metrics(&g, td);
	add_endpoints(&g, td);
	if (read_lines(&g, v->path[ART_GPU], why, sizeof(why)) < 0) {
		vrun_report(v, V_FAIL, "gpu", "%s: %s", name, why);
	} else if (!v->sum) {
		vrun_report(v, V_OK, "gpu", "%s parses (%zu lines); values not checked without "
			    "a JSON summary", name, g.lines);
	} else if (!td) {
		vrun_report(v, g.lines ? V_FAIL : V_OK, "gpu", "%s holds %zu lines%s", name,
			    g.lines, g.lines ? ", but the summary has no telemetry_data" : "");
	} else if (!v->have_records) {
		vrun_report(v, V_SKIP, "gpu", "%s parses (%zu lines); telemetry_data not "
			    "recomputed: no records to give the profiling window", name, g.lines);
	} else {
		struct buf b = BUF_INIT(BUF_NOMAX);
		struct json_doc *d = json_doc_new();
		struct jw w;
		char err[128];
		gpu_window(&g, sm->have_start, sm->start_ns, sm->have_end, sm->end_ns);
		jw_init(&w, &b, 0);
		jw_obj(&w);
		gpu_json(&w, &g, iso_local);
		jw_obj_end(&w);
		const struct json *want = json_parse(d, b.s, b.len, err, sizeof(err));
		if (!want)
			die("the recomputed telemetry_data does not parse: %s", err);
		want = json_get(want, "telemetry_data");
		if (!want)
			vrun_report(v, V_FAIL, "gpu", "%s holds no GPU's values, the summary's "
				    "telemetry_data has", name);
		else if (json_compare(td, want, skip_top, name, why, sizeof(why)) < 0)
			vrun_report(v, V_FAIL, "gpu", "telemetry_data.%s", why);
		else if (!json_get(td, "summary") || json_get(td, "summary")->type != JSON_OBJECT)
			vrun_report(v, V_FAIL, "gpu", "telemetry_data has no summary object");
		else if (json_compare(json_get(td, "summary"), json_get(want, "summary"),
				      skip_times, name, why, sizeof(why)) < 0)
			vrun_report(v, V_FAIL, "gpu", "telemetry_data.summary.%s", why);
		else
			vrun_report(v, V_OK, "gpu", "telemetry_data: every value as recomputed "
				    "from the %zu lines of %s (%zu GPUs)", g.lines, name, g.n);
		json_doc_free(d);
		buf_release(&b);
	}
	gpu_release(&g);
}
