/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-search: the planner of an adaptive SLA search; iteration results in, the next concurrency out. */
#include "search.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>

#include "util.h"

#define MAX_ITERS 200

static const char synopsis[] =
	"usage: aiperf-search next --recipe name [--ttft-sla-ms x] [--itl-sla-ms x | --tpot-sla-ms x]\n"
	"                          [--e2e-sla-ms x] [--error-rate-sla x] [--search-sla tag:stat:op:x ...]\n"
	"                          [--search-style smooth_isotonic | monotonic] [--concurrency-min n]\n"
	"                          [--concurrency-max n] [--search-max-iterations n] [--precision f]\n"
	"                          [--stability-trials n] [--sla-replicates n] --history file [iterdir ...]\n";

struct options {
	const char *recipe, *style, *history;
	double ttft, itl, tpot, e2e, err;
	struct sla_filter filters[MAX_FILTERS];
	size_t nfilters;
	const char *extra[MAX_FILTERS];	/* --search-sla, in order */
	size_t nextra;
	struct cfg cfg;
	int max_set;
	char **dirs;
	int ndirs;
};

enum {
	O_RECIPE = 256, O_TTFT, O_ITL, O_TPOT, O_E2E, O_ERR, O_SLA, O_STYLE, O_HISTORY,
	O_MIN, O_MAX, O_ITERS, O_PREC, O_STAB, O_REPL, O_SPACE, O_METRIC, O_HELP,
};

static const struct option longopts[] = {
	{ "recipe", required_argument, NULL, O_RECIPE },
	{ "search-recipe", required_argument, NULL, O_RECIPE },
	{ "ttft-sla-ms", required_argument, NULL, O_TTFT },
	{ "itl-sla-ms", required_argument, NULL, O_ITL },
	{ "tpot-sla-ms", required_argument, NULL, O_TPOT },
	{ "e2e-sla-ms", required_argument, NULL, O_E2E },
	{ "error-rate-sla", required_argument, NULL, O_ERR },
	{ "search-sla", required_argument, NULL, O_SLA },
	{ "search-style", required_argument, NULL, O_STYLE },
	{ "history", required_argument, NULL, O_HISTORY },
	{ "concurrency-min", required_argument, NULL, O_MIN },
	{ "concurrency-max", required_argument, NULL, O_MAX },
	{ "search-max-iterations", required_argument, NULL, O_ITERS },
	{ "precision", required_argument, NULL, O_PREC },
	{ "stability-trials", required_argument, NULL, O_STAB },
	{ "sla-replicates", required_argument, NULL, O_REPL },
	{ "search-space", required_argument, NULL, O_SPACE },
	{ "search-metric", required_argument, NULL, O_METRIC },
	{ "help", no_argument, NULL, O_HELP },
	{ 0 },
};

static _Noreturn void
usage(FILE *f, int status)
{
	fputs(synopsis, f);
	exit(status);
}

static const char *const bo_recipes[] = {
	"max-throughput-ttft-sla", "max-throughput-itl-sla", "max-goodput-under-slo", NULL,
};

static _Noreturn void
no_bo(const char *what)
{
	die_usage("%s: Bayesian optimisation (Optuna/BoTorch) is not built; the same "
		  "question has a grid answer: --search-recipe max-concurrency-under-sla "
		  "with --search-style monotonic (or smooth_isotonic, or grid: a "
		  "--concurrency list and aiperf-aggregate's SLA filters)", what);
}

static void
add(struct options *o, const char *metric, const char *stat, enum sla_op op, double thr)
{
	struct sla_filter *f;

	if (o->nfilters >= MAX_FILTERS)
		die_usage("at most %d SLA filters", MAX_FILTERS);
	f = &o->filters[o->nfilters];
	*f = (struct sla_filter){ .metric = metric, .stat = stat, .op = op, .threshold = thr };
	sla_key(f, (int)o->nfilters++);
}

static const char *const stats[] = {
	"avg", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99", "min", "max", NULL,
};

static const char *
pick(const char *s, size_t n, const char *const *names)
{
	for (size_t i = 0; names[i]; i++)
		if (strlen(names[i]) == n && !strncmp(s, names[i], n))
			return names[i];
	return NULL;
}

/* --search-sla "TAG:STAT:OP:THRESHOLD", a strict colon-delimited 4-tuple. */
static _Noreturn void
bad_sla(const char *s, const char *why)
{
	die_usage("invalid value for --search-sla: '%s': %s", s, why);
}

static void
add_search_sla(struct options *o, char *s)
{
	static const char *const ops[] = { "lt", "le", "gt", "ge", NULL };
	char *c1, *c2, *c3;
	const char *stat, *op;
	double thr;

	if (!(c1 = strchr(s, ':')) || !(c2 = strchr(c1 + 1, ':')) || !(c3 = strchr(c2 + 1, ':')) ||
	    strchr(c3 + 1, ':') || c1 == s)
		bad_sla(s, "want TAG:STAT:OP:THRESHOLD");
	if (!(stat = pick(c1 + 1, (size_t)(c2 - c1 - 1), stats)))
		bad_sla(s, "unknown stat");
	if (!(op = pick(c2 + 1, (size_t)(c3 - c2 - 1), ops)))
		bad_sla(s, "op is one of lt, le, gt, ge");
	if (util_strtod(c3 + 1, &thr) < 0)
		bad_sla(s, "threshold is not a number");
	*c1 = '\0';
	add(o, s, stat, (enum sla_op)((op[0] == 'g') * 2 + (op[1] == 'e')), thr);
}

static void
build_filters(struct options *o)
{
	if (o->tpot > 0 && o->itl > 0 && o->tpot != o->itl)
		die_usage("--tpot-sla-ms and --itl-sla-ms are aliases for the same "
			  "inter-token-latency SLA but were set to different values; pass only one");
	if (o->ttft > 0)
		add(o, "time_to_first_token", "p95", SLA_LT, o->ttft);
	if (o->tpot > 0 || o->itl > 0)
		add(o, "inter_token_latency", "p95", SLA_LT, o->tpot > 0 ? o->tpot : o->itl);
	if (o->e2e > 0)
		add(o, "request_latency", "p99", SLA_LT, o->e2e);
	if (o->err > 0)
		add(o, "request_error_rate", "p99", SLA_LT, o->err);
	for (size_t i = 0; i < o->nextra; i++)
		add_search_sla(o, xstrdup(o->extra[i]));
	if (!o->nfilters)
		die_usage("recipe 'max-concurrency-under-sla' requires at least one of "
			  "--ttft-sla-ms / --tpot-sla-ms / --itl-sla-ms / --e2e-sla-ms / "
			  "--error-rate-sla / --search-sla");
}

static void
check_style(struct options *o)
{
	if (!o->style || util_choice_eq(o->style, "smooth_isotonic"))
		return;
	if (util_choice_eq(o->style, "monotonic"))
		return;
	if (util_choice_eq(o->style, "bo") || util_choice_eq(o->style, "optuna"))
		no_bo(xstrfmt("--search-style %s", o->style));
	if (util_choice_eq(o->style, "grid"))
		die_usage("--search-style grid is a sweep, not an adaptive search: run "
			  "'aiperf profile --search-recipe max-concurrency-under-sla "
			  "--search-style grid' (8 log-spaced concurrencies)");
	die_usage("unknown --search-style '%s'; expected one of smooth_isotonic, "
		  "monotonic, bo, optuna, grid", o->style);
}

static void
check_recipe(const char *r)
{
	if (!r)
		die_usage("--recipe is required");
	for (size_t i = 0; bo_recipes[i]; i++)
		if (!strcmp(r, bo_recipes[i]))
			no_bo(xstrfmt("recipe '%s'", r));
	if (strcmp(r, "max-concurrency-under-sla"))
		die_usage("unknown adaptive recipe '%s' (aiperf-search plans "
			  "max-concurrency-under-sla)", r);
}

static double
ms(const char *opt, const char *arg, double max)
{
	double v = opt_double(opt, arg, 0, max);

	if (v <= 0)
		die_usage("invalid value for %s: '%s' (must be > 0)", opt, arg);
	return v;
}

static void
parse_opt(struct options *o, int c, const char *arg)
{
	switch (c) {
	case O_RECIPE: o->recipe = arg; break;
	case O_TTFT: o->ttft = ms("--ttft-sla-ms", arg, 1e12); break;
	case O_ITL: o->itl = ms("--itl-sla-ms", arg, 1e12); break;
	case O_TPOT: o->tpot = ms("--tpot-sla-ms", arg, 1e12); break;
	case O_E2E: o->e2e = ms("--e2e-sla-ms", arg, 1e12); break;
	case O_ERR: o->err = ms("--error-rate-sla", arg, 1); break;
	case O_SLA:
		if (o->nextra >= MAX_FILTERS)
			die_usage("at most %d --search-sla filters", MAX_FILTERS);
		o->extra[o->nextra++] = arg;
		break;
	case O_STYLE: o->style = arg; break;
	case O_HISTORY: o->history = arg; break;
	case O_MIN: o->cfg.lo = opt_int("--concurrency-min", arg, 1, 1000000000); break;
	case O_MAX: o->cfg.hi = opt_int("--concurrency-max", arg, 1, 1000000000); break;
	case O_ITERS:
		o->cfg.max_iterations = (int)opt_int("--search-max-iterations", arg, 2, MAX_ITERS);
		o->max_set = 1;
		break;
	case O_PREC: o->cfg.precision = opt_double("--precision", arg, 1e-9, 0.999999); break;
	case O_STAB: o->cfg.stability_trials = (int)opt_int("--stability-trials", arg, 1, 100); break;
	case O_REPL: o->cfg.sla_replicates = (int)opt_int("--sla-replicates", arg, 0, 1000); break;
	case O_SPACE: no_bo("--search-space");
	case O_METRIC: no_bo("--search-metric");
	case O_HELP: usage(stdout, 0);
	default: usage(stderr, 2);
	}
}

static void
defaults(struct options *o)
{
	const char *env = getenv("AIPERF_SEARCH_PLANNER_SLA_PRECISION_DEFAULT");

	o->cfg.lo = 1;
	o->cfg.hi = 1000;
	o->cfg.precision = 0.05;
	o->cfg.stability_trials = 2;
	if (env && *env)
		o->cfg.precision = opt_double("AIPERF_SEARCH_PLANNER_SLA_PRECISION_DEFAULT", env,
					      1e-9, 0.999999);
}

static void
parse_args(struct options *o, int argc, char **argv)
{
	int c;

	defaults(o);
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		usage(argc < 2 ? stderr : stdout, argc < 2 ? 2 : 0);
	if (strcmp(argv[1], "next"))
		die_usage("unknown command '%s' (aiperf-search next ...)", argv[1]);
	optind = 2;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1)
		parse_opt(o, c, optarg);
	check_recipe(o->recipe);
	check_style(o);
	build_filters(o);
	if (!o->history)
		die_usage("--history is required");
	if (o->cfg.lo >= o->cfg.hi)
		die_usage("--concurrency-min (%lld) must be < --concurrency-max (%lld)",
			  o->cfg.lo, o->cfg.hi);
	if (!o->max_set)
		o->cfg.max_iterations = o->style && util_choice_eq(o->style, "monotonic") ? 20 : 30;
	o->cfg.filters = o->filters;
	o->cfg.nfilters = o->nfilters;
	o->dirs = argv + optind;
	o->ndirs = argc - optind;
	if (o->ndirs > MAX_ITERS)
		die_usage("at most %d iterations", MAX_ITERS);
}

/* The run must be the one asked for, when it says what it ran. */
static void
check_value(const struct iter *it, const char *dir)
{
	for (size_t i = 0; i < it->ntrials; i++) {
		long long c = trial_concurrency(&it->trials[i]);

		if (c >= 0 && c != it->value)
			die("'%s' ran concurrency %lld, but the search asked for %lld there",
			    it->trials[i].dir, c, it->value);
	}
	(void)dir;
}

static int
replay(struct planner *p, struct iter *its, const struct options *o)
{
	for (int i = 0; i < o->ndirs; i++) {
		long long v = planner_ask(p);

		if (v < 0)
			die("'%s': the search was already done after %d iterations (%s)",
			    o->dirs[i], i, p->reason);
		its[i].value = v;
		if (iter_load(&its[i], o->dirs[i]) < 0)
			exit(1);
		check_value(&its[i], o->dirs[i]);
		p->quiet = i + 1 < o->ndirs;
		planner_tell(p, &its[i]);
	}
	return o->ndirs;
}

int
main(int argc, char **argv)
{
	struct options o = { 0 };
	struct planner p;
	struct iter *its;
	long long next;
	int n, smooth;

	util_setprogname("aiperf-search");
	signal(SIGPIPE, SIG_IGN);
	parse_args(&o, argc, argv);
	smooth = !o.style || util_choice_eq(o.style, "smooth_isotonic");
	planner_init(&p, &o.cfg, smooth);
	its = xcalloc((size_t)o.ndirs + 1, sizeof(*its));
	n = replay(&p, its, &o);
	next = planner_ask(&p);
	if (history_write(o.history, &p, its, (size_t)n, o.recipe) < 0)
		return 1;
	if (next >= 0)
		printf("next %lld\n", next);
	else
		printf("done %lld\n", p.feasible_max > 0 ? p.feasible_max : 0);
	for (int i = 0; i < n; i++)
		iter_release(&its[i]);
	free(its);
	planner_release(&p);
	return util_fshut(stdout, "stdout") < 0;
}
