/* SPDX-License-Identifier: Apache-2.0 */
/* run_info.json: the run's place in a sweep or a multi-run, for the summary's run_info. */
#include "planner.h"

#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "json/jw.h"

#define SWEEP_PLAN_MAX (64u << 20)

/* A sweep's run: its fields from the plan, run K. */
static void
from_plan(struct jw *w, const char *path, long k)
{
	size_t n;
	char err[128], *text = util_readfile(path, SWEEP_PLAN_MAX, &n);
	struct json_doc *d = json_doc_new();
	const struct json *doc, *run, *var;
	int64_t vi;

	if (!text)
		die("cannot read '%s':", path);
	doc = json_parse(d, text, n, err, sizeof(err));
	run = doc ? json_at(json_get(doc, "runs"), (size_t)k) : NULL;
	if (!run || json_int64(json_get(run, "variation"), &vi) < 0 || vi < 0 ||
	    !(var = json_at(json_get(doc, "variations"), (size_t)vi)))
		die("%s: no run %ld of the sweep%s%s", path, k, doc ? "" : ": ", doc ? "" : err);
	jw_key(w, "sweep_id");
	jw_value(w, json_get(doc, "sweep_id"));
	jw_key(w, "random_seed");
	jw_value(w, json_get(run, "random_seed"));
	jw_key(w, "trial");
	jw_value(w, json_get(run, "trial"));
	jw_key(w, "run_label");
	jw_value(w, json_get(var, "dir_name"));
	jw_key(w, "variation_label");
	jw_value(w, json_get(var, "label"));
	jw_key(w, "variation_index");
	jw_int(w, vi);
	jw_key(w, "variation_values");
	jw_value(w, json_get(var, "values"));
	json_doc_free(d);
	free(text);
}

/* One run, or trial N of a multi-run (AIPERF_RUN_AT=run:N). */
static void
alone(const struct planner *p, struct jw *w, long trial)
{
	const char *seed = get(p, "--random-seed");

	char *end;
	long long x = seed ? strtoll(seed, &end, 10) : -1;

	if (seed && *seed && !*end && x >= 0) {
		jw_key(w, "random_seed");
		jw_int(w, x);
	}
	jw_key(w, "trial");
	jw_int(w, trial > 0 ? trial - 1 : 0);
	if (trial > 0) {
		char label[32];

		snprintf(label, sizeof(label), "run_%04ld", trial);
		jw_key(w, "run_label");
		jw_str(w, label);
	}
	jw_key(w, "variation_label");
	jw_str(w, "base");
	jw_key(w, "variation_index");
	jw_int(w, 0);
	jw_key(w, "variation_values");
	jw_obj(w);
	jw_obj_end(w);
}

/*
 * The run's place, from AIPERF_RUN_AT (the multi-run and sweep loops of
 * aiperf profile set it for each run): PLAN:K, run K of the sweep whose
 * sweep_plan.json is PLAN; run:N, trial N of a multi-run; unset, one run.
 */
void
run_info(const struct planner *p, struct buf *out)
{
	const char *at = getenv("AIPERF_RUN_AT"), *colon = at ? strrchr(at, ':') : NULL;
	struct jw w;
	long k = -1;
	char *end;

	if (colon) {
		k = strtol(colon + 1, &end, 10);
		if (colon[1] == '\0' || *end || k < 0)
			die("AIPERF_RUN_AT: '%s' is not PLAN:K or run:N", at);
	}
	jw_init(&w, out, 2);
	jw_obj(&w);
	if (colon && strncmp(at, "run:", 4)) {
		char *plan = xstrndup(at, (size_t)(colon - at));

		from_plan(&w, plan, k);
		free(plan);
	} else {
		alone(p, &w, colon ? k : 0);
	}
	jw_obj_end(&w);
	buf_addch(out, '\n');
}
