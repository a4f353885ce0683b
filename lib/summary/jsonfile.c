/* SPDX-License-Identifier: Apache-2.0 */
/* profile_export_aiperf.json as the original's pydantic model_dump_json(indent=2) writes it. */
#include "summary/jsonfile.h"

#include <math.h>
#include <time.h>

#include "buf.h"
#include "http/redact.h"
#include "util.h"

#define MAX_JSON_OUT ((size_t)1 << 30)

/* The fixed fields of the original's JsonExportData model, in order. */
static const char *const fixed[] = {
	"request_throughput", "request_latency", "request_count",
	"time_to_first_token", "time_to_second_token", "inter_token_latency",
	"output_token_throughput", "output_token_throughput_per_user",
	"output_sequence_length", "input_sequence_length", "goodput",
	"good_request_count", "output_token_count", "reasoning_token_count",
	"min_request_timestamp", "max_response_timestamp", "inter_chunk_latency",
	"total_output_tokens", "total_reasoning_tokens", "benchmark_duration",
	"total_isl", "total_osl", "error_request_count", "error_isl",
	"total_error_isl",
};

static int
is_fixed(const char *tag)
{
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (!strcmp(fixed[i], tag))
			return 1;
	return 0;
}

int
result_exported(const struct result *r)
{
	return r && !(r->def->flags & (MF_INTERNAL | MF_EXPERIMENTAL));
}

void
json_metric(struct jw *w, const struct result *r)
{
	const struct stats *s = &r->st;
	const char *keys[] = { "p1", "p5", "p10", "p25", "p50", "p75", "p90",
		"p95", "p99", "min", "max", "std" };
	const double vals[] = { s->p1, s->p5, s->p10, s->p25, s->p50, s->p75,
		s->p90, s->p95, s->p99, s->min, s->max, s->std };

	jw_key(w, r->def->tag);
	jw_obj(w);
	jw_key(w, "unit");
	jw_str(w, r->def->display);
	jw_key(w, "avg");
	jw_double_py(w, s->avg);
	for (size_t i = 0; r->dist && i < sizeof(keys) / sizeof(keys[0]); i++) {
		jw_key(w, keys[i]);
		jw_double_py(w, vals[i]);
	}
	jw_obj_end(w);
}

/* datetime.fromtimestamp(ns / 1e9).isoformat(): microseconds rounded half-even. */
void
iso_local(int64_t ns, char out[64])
{
	double t = (double)ns / 1e9, ip;
	double frac = modf(t, &ip);
	long long us = llrint(frac * 1e6);	/* default rounding: half-even */
	time_t secs = (time_t)ip;
	struct tm tm;

	if (us >= 1000000) {
		secs++;
		us -= 1000000;
	} else if (us < 0) {
		secs--;
		us += 1000000;
	}
	localtime_r(&secs, &tm);
	snprintf(out, 64, "%04d-%02d-%02dT%02d:%02d:%02d", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
	if (us)		/* isoformat() drops a zero microsecond part */
		snprintf(out + 19, 45, ".%06lld", us);
}

static void
errors(struct jw *w, const struct summary *sm)
{
	jw_key(w, "error_summary");
	jw_arr(w);
	for (size_t i = 0; i < sm->nerrs; i++) {
		const struct errgroup *g = &sm->errs[i];
		jw_obj(w);
		jw_key(w, "error_details");
		jw_obj(w);
		if (g->has_code) {
			jw_key(w, "code");
			jw_int(w, g->code);
		}
		if (g->type) {
			jw_key(w, "type");
			jw_str(w, g->type);
		}
		jw_key(w, "message");
		jw_str(w, g->message);
		jw_obj_end(w);
		jw_key(w, "count");
		jw_int(w, (int64_t)g->count);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

int
json_input_config(struct jw *w, const char *text)
{
	char err[128];
	struct json_doc *d = json_doc_new();
	struct json *v = json_parse(d, text, strlen(text), err, sizeof(err));

	if (!v || v->type != JSON_OBJECT) {	/* aiperf-export checked it first */
		json_doc_free(d);
		return -1;
	}
	jw_key(w, "input_config");
	redact_json(w, v);	/* pretty-printed at the writer's indent */
	json_doc_free(d);
	return 0;
}

/* The run's place in a sweep, in the original's RunInfo order: the
 * planner's fields (text: a JSON object) between our benchmark id and
 * command line; a field it lacks is left out, as exclude_none does. */
static const char *const run_info_keys[] = {
	"sweep_id", "random_seed", "trial", "run_label", "variation_label",
	"variation_index", "variation_values", NULL,
};

static int
run_info(struct jw *w, const struct exportopts *o)
{
	char err[128];
	struct json_doc *d = json_doc_new();
	struct json *v = o->run_info ? json_parse(d, o->run_info, strlen(o->run_info), err, sizeof(err)) : NULL;

	if (o->run_info && (!v || v->type != JSON_OBJECT)) {	/* aiperf-export checked it first */
		json_doc_free(d);
		return -1;
	}
	jw_key(w, "run_info");
	jw_obj(w);
	jw_key(w, "benchmark_id");
	jw_str(w, o->benchmark_id);
	for (size_t i = 0; v && run_info_keys[i]; i++) {
		const struct json *f = json_get(v, run_info_keys[i]);

		if (f && f->type != JSON_NULL) {
			jw_key(w, run_info_keys[i]);
			jw_value(w, f);
		}
	}
	if (o->cli_command) {
		jw_key(w, "cli_command");
		jw_str(w, o->cli_command);
	}
	jw_obj_end(w);
	json_doc_free(d);
	return 0;
}

static void
times(struct jw *w, const struct summary *sm)
{
	char iso[64];

	if (sm->have_start) {
		iso_local(sm->start_ns, iso);
		jw_key(w, "start_time");
		jw_str(w, iso);
	}
	if (sm->have_end) {
		iso_local(sm->end_ns, iso);
		jw_key(w, "end_time");
		jw_str(w, iso);
	}
}

static int
body(struct jw *w, const struct summary *sm, const struct exportopts *o)
{
	jw_obj(w);
	jw_key(w, "schema_version");
	jw_str(w, "1.3");
	jw_key(w, "aiperf_version");
	jw_str(w, o->version);
	jw_key(w, "benchmark_id");
	jw_str(w, o->benchmark_id);
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		const struct result *r = summary_find(sm, fixed[i]);
		if (result_exported(r))
			json_metric(w, r);
	}
	gpu_json(w, o->gpu, iso_local);
	if (o->input_config && json_input_config(w, o->input_config) < 0)
		return -1;
	if (run_info(w, o) < 0)
		return -1;
	jw_key(w, "was_cancelled");
	jw_bool(w, o->was_cancelled);
	errors(w, sm);
	times(w, sm);
	for (size_t i = 0; i < sm->nres; i++)
		if (result_exported(&sm->res[i]) && !is_fixed(sm->res[i].def->tag))
			json_metric(w, &sm->res[i]);
	acc_json(w, o->acc);
	if (client_known(&o->cs))
		client_json(w, &o->cs);
	jw_obj_end(w);
	return 0;
}

int
json_export(FILE *f, const struct summary *sm, const struct exportopts *o)
{
	struct buf b;
	struct jw w;
	int rc = 0;

	buf_init(&b, MAX_JSON_OUT);
	jw_init(&w, &b, 2);
	if (body(&w, sm, o) < 0)
		rc = -1;
	else if (fwrite(b.s, 1, b.len, f) != b.len)
		rc = -1;
	buf_release(&b);
	return rc;
}
