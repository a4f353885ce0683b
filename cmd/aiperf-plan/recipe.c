/* SPDX-License-Identifier: Apache-2.0 */
/* --search-recipe: the original's grid recipes as sweeps (docs/sweeping/search-recipes.md). */
#include "sweepplan.h"

#include <stdlib.h>
#include <string.h>

#define BO_NOTE "Bayesian optimisation (Optuna, BoTorch) is not built"

struct rctx {
	const struct planner *p;
	struct sweepreq *r;
	sweep_get_fn get;
	void *ctx;
	const char *name;
};

static const char *
rget(const struct rctx *c, const char *canon)
{
	return c->get(c->ctx, canon);
}

/* A positive integer option of the recipe, def when not given. */
static long
rlong(const struct rctx *c, const char *canon, long def)
{
	const char *v = rget(c, canon);
	char *end;
	long x;

	if (!v)
		return def;
	x = strtol(v, &end, 10);
	if (!*v || *end || x < 1 || x > 100000000)
		usage_error("profile: invalid value for %s: '%s' (a positive integer)", canon, v);
	return x;
}

/* A positive number of the recipe; 0 when not given. */
static double
rnum(const struct rctx *c, const char *canon)
{
	const char *v = rget(c, canon);
	char *end;
	double x;

	if (!v)
		return 0;
	x = strtod(v, &end);
	if (!*v || *end || !(x > 0) || x > 1e12)
		usage_error("profile: invalid value for %s: '%s' (a number above 0)", canon, v);
	return x;
}

static void
need_streaming(const struct rctx *c, const char *why)
{
	if (!rget(c, "--streaming"))
		usage_error("recipe '%s' requires --streaming (%s); enable streaming on the endpoint or pick a different recipe.",
			    c->name, why);
}

/* The parameter of option canon, its values log-spaced over [lo, hi]. */
static void
logspaced(const struct rctx *c, const char *canon, const char *path, long lo, long hi, long steps)
{
	struct swparam *sp = &c->r->p[c->r->n++];

	if (steps < 2)
		usage_error("recipe '%s': steps must be >= 2 (got %ld)", c->name, steps);
	if (hi <= lo)
		usage_error("recipe '%s': the maximum (%ld) must be above the minimum (%ld)", c->name, hi, lo);
	*sp = (struct swparam){ .o = opt_get(c->p, canon), .path = path };
	sweep_logspace(lo, hi, steps, &sp->vals);
}

static void
key_num(struct buf *b, const char *key, double x)
{
	buf_addf(b, ", \"%s\": %.17g", key, x);
}

static void
concurrency_axis(const struct rctx *c, long lo, long hi, long steps)
{
	logspaced(c, "--concurrency", "phases.profiling.concurrency", rlong(c, "--concurrency-min", lo),
		  rlong(c, "--concurrency-max", hi), rlong(c, "--concurrency-steps", steps));
}

/* The SLA filters of max-concurrency-under-sla, into the recipe object. */
static void
sla_inputs(const struct rctx *c)
{
	static const char *const sla[] = { "--ttft-sla-ms", "--itl-sla-ms", "--tpot-sla-ms",
					   "--e2e-sla-ms", "--error-rate-sla", NULL };
	int n = 0, streaming = 0;

	for (size_t i = 0; sla[i]; i++) {
		double x = rnum(c, sla[i]);
		char *key = xstrdup(sla[i] + 2);

		if (!x) {
			free(key);
			continue;
		}
		for (char *k = key; *k; k++)
			*k = *k == '-' ? '_' : *k;
		key_num(&c->r->recipe, key, x);
		free(key);
		n++;
		streaming |= i < 3;
	}
	if (!n)
		usage_error("recipe '%s' requires at least one SLA: --ttft-sla-ms, --itl-sla-ms, --tpot-sla-ms, --e2e-sla-ms or --error-rate-sla",
			    c->name);
	if (rnum(c, "--itl-sla-ms") && rnum(c, "--tpot-sla-ms") &&
	    rnum(c, "--itl-sla-ms") != rnum(c, "--tpot-sla-ms"))
		usage_error("--itl-sla-ms and --tpot-sla-ms name one SLA (p95 inter_token_latency): give one of them");
	if (streaming)
		need_streaming(c, "TTFT and ITL are streaming-only metrics");
}

/* --isl-osl-pairs 128/128,512/256: pareto-sweep's named cells, each pair at each concurrency. */
static void
pareto_cells(const struct rctx *c, const struct plan_argv *conc)
{
	const char *v = rget(c, "--isl-osl-pairs");
	struct plan_argv isl = { 0 }, osl = { 0 };
	char *copy, *save = NULL;

	if (!v)
		usage_error("recipe 'pareto-sweep' requires --isl-osl-pairs (e.g. 128/128,512/256,2048/512)");
	copy = xstrdup(v ? v : "");
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		long a, b;
		char tail;

		if (sscanf(w, " %ld / %ld %c", &a, &b, &tail) != 2)
			usage_error("--isl-osl-pairs: '%s' expected '<isl>/<osl>' (one slash)", w);
		if (a < 1 || b < 1)
			usage_error("--isl-osl-pairs: '%s' both sides must be a positive int", w);
		char *s;

		for (size_t i = 0; i < isl.n; i++)
			if (atol(isl.v[i]) == a && atol(osl.v[i]) == b)
				usage_error("--isl-osl-pairs: duplicate pair '%ld/%ld'", a, b);
		s = xstrfmt("%ld", a);
		plan_argv_add(&isl, s);
		free(s);
		s = xstrfmt("%ld", b);
		plan_argv_add(&osl, s);
		free(s);
	}
	free(copy);
	if (isl.n < 2 && conc->n < 2)
		usage_error("recipe 'pareto-sweep': a Pareto sweep with a single point is meaningless. Pass at least 2 pairs OR at least 2 concurrency values.");
	struct swparam *pi = &c->r->p[0], *po = &c->r->p[1], *pc = &c->r->p[2];

	*pi = (struct swparam){ .o = opt_get(c->p, "--isl"), .path = "isl" };
	*po = (struct swparam){ .o = opt_get(c->p, "--osl"), .path = "osl" };
	*pc = (struct swparam){ .o = opt_get(c->p, "--concurrency"), .path = "concurrency" };
	c->r->n = 3;
	c->r->zip = c->r->scenarios = 1;
	for (size_t i = 0; i < isl.n; i++)
		for (size_t k = 0; k < conc->n; k++) {
			char *label = xstrfmt("shape_%s_%s_c%s", isl.v[i], osl.v[i], conc->v[k]);

			plan_argv_add(&pi->vals, isl.v[i]);
			plan_argv_add(&po->vals, osl.v[i]);
			plan_argv_add(&pc->vals, conc->v[k]);
			plan_argv_add(&c->r->labels, label);
			free(label);
		}
	plan_argv_release(&isl);
	plan_argv_release(&osl);
}

static void
pareto(const struct rctx *c)
{
	struct plan_argv conc = { 0 };
	static const char *const dflt[] = { "1", "4", "16", "64", "256" };

	need_streaming(c, "output_token_throughput is a streaming-only metric");
	if (c->r->n == 1 && !strcmp(c->r->p[0].o->name, "--concurrency")) {
		conc = c->r->p[0].vals;
		c->r->p[0].vals = (struct plan_argv){ 0 };
	} else if (c->r->n) {
		usage_error("--search-recipe 'pareto-sweep' takes --concurrency as a list and no other list value (%s)",
			    c->r->p[0].o->name);
	} else if (rget(c, "--concurrency")) {
		plan_argv_add(&conc, rget(c, "--concurrency"));
	} else {
		for (size_t i = 0; i < 5; i++)
			plan_argv_add(&conc, dflt[i]);
	}
	c->r->n = 0;
	pareto_cells(c, &conc);
	plan_argv_release(&conc);
}

static void
refuse_bo(const struct rctx *c)
{
	usage_error("--search-recipe '%s' is a Bayesian-optimisation recipe: " BO_NOTE
		    ". --search-recipe max-concurrency-under-sla (with the same SLA flags; --search-style monotonic, smooth_isotonic or grid) answers the same question: the highest concurrency that meets the SLA, where throughput peaks under it.",
		    c->name);
}

/* max-concurrency-under-sla: grid style is a sweep; the others search run by run. */
static int
under_sla(const struct rctx *c)
{
	const char *style = rget(c, "--search-style");

	style = style ? style : "smooth_isotonic";
	sla_inputs(c);
	if (!strcmp(style, "bo") || !strcmp(style, "optuna"))
		usage_error("--search-style %s: " BO_NOTE "; --search-style monotonic, smooth_isotonic or grid finds the same boundary",
			    style);
	buf_addf(&c->r->recipe, ", \"search_style\": \"%s\"", style);
	if (strcmp(style, "grid"))
		return 1;
	concurrency_axis(c, 1, 1000, 8);
	return 0;
}

static void
check_alone(const struct rctx *c)
{
	if (c->r->n && strcmp(c->name, "pareto-sweep"))
		usage_error("--search-recipe '%s' is mutually exclusive with list values (%s %s ...): drop one or the other",
			    c->name, c->r->p[0].o->name, c->r->p[0].vals.v[0]);
}

/* Returns 1 for a search run by run (aiperf-search), 0 for a sweep. */
int
recipe_expand(const struct planner *p, struct sweepreq *r, sweep_get_fn getter, void *ctx)
{
	struct rctx c = { p, r, getter, ctx, getter(ctx, "--search-recipe") };
	int search = 0;

	if (!c.name)
		return 0;
	c.name = choice(opt_get(p, "--search-recipe"), c.name);
	if (!proftab_has_value(opt_get(p, "--search-recipe"), c.name))
		usage_error("profile: invalid value for --search-recipe: '%s'", c.name);
	check_alone(&c);
	buf_addf(&r->recipe, "{\"name\": \"%s\"", c.name);
	if (!strncmp(c.name, "max-throughput-", 15) || !strcmp(c.name, "max-goodput-under-slo"))
		refuse_bo(&c);
	if (!strcmp(c.name, "max-concurrency-under-sla")) {
		search = under_sla(&c);
	} else if (!strcmp(c.name, "concurrency-ramp")) {
		double t = rget(&c, "--degradation-threshold") ? rnum(&c, "--degradation-threshold") : 0.20;

		key_num(&r->recipe, "degradation_threshold", t);
		buf_addf(&r->recipe, ", \"degradation_metric_tag\": \"%s\", \"degradation_stat\": \"%s\"",
			 rget(&c, "--degradation-metric-tag") ? rget(&c, "--degradation-metric-tag") : "request_latency",
			 rget(&c, "--degradation-stat") ? rget(&c, "--degradation-stat") : "p99");
		concurrency_axis(&c, 1, 1000, 8);
	} else if (!strcmp(c.name, "prefill-ttft-curve")) {
		need_streaming(&c, "TTFT is a streaming-only metric");
		logspaced(&c, "--isl", "datasets.main.prompts.isl", rlong(&c, "--isl-min", 256),
			  rlong(&c, "--isl-max", 32768), rlong(&c, "--isl-steps", 8));
		struct swparam *sp = &r->p[r->n++];

		*sp = (struct swparam){ .o = opt_get(p, "--concurrency"), .path = "phases.profiling.concurrency" };
		plan_argv_add(&sp->vals, "1");
	} else if (!strcmp(c.name, "decode-itl-curve")) {
		need_streaming(&c, "ITL is a streaming-only metric");
		concurrency_axis(&c, 1, 200, 6);
		logspaced(&c, "--osl", "datasets.main.prompts.osl", rlong(&c, "--osl-min", 64),
			  rlong(&c, "--osl-max", 1024), rlong(&c, "--osl-steps", 4));
	} else {
		pareto(&c);
	}
	buf_addch(&r->recipe, '}');
	return search;
}
