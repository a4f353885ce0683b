/* SPDX-License-Identifier: Apache-2.0 */
/* The multi-run section's planning: its options split off and checked, the runs' arguments. */
#include "planner.h"
#include "sweepplan.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* What mr_split makes of the command line. */
struct mr {
	struct plan_argv args;	/* the other arguments, as given */
	struct plan_argv warm;	/* their indexes that are warmup options or their values */
	struct plan_argv pass;	/* the multi-run options, canonical */
	struct plan_argv names, values;	/* MR: canonical option -> value (1 for a flag) */
	const char *dir;	/* --artifact-dir, as given */
	struct sweepreq sw;	/* the list values (--concurrency 8,16,32) */
};

static const char *
mr_get(const struct mr *m, const char *canon)
{
	const char *v = NULL;

	for (size_t i = 0; i < m->names.n; i++)
		if (!strcmp(m->names.v[i], canon))
			v = m->values.v[i];
	return v;
}

static void
mr_put(struct mr *m, const char *canon, const char *v)
{
	for (size_t i = 0; i < m->names.n; i++)
		if (!strcmp(m->names.v[i], canon)) {
			plan_set(&m->values.v[i], v);
			return;
		}
	plan_argv_add(&m->names, canon);
	plan_argv_add(&m->values, v);
}

static void
add_index(struct plan_argv *a, size_t i)
{
	char *s = xstrfmt("%zu", i);

	plan_argv_add(a, s);
	free(s);
}

/* One argument of mr_split: how many it took. */
static int
split_one(const struct planner *p, struct mr *m, int argc, char **argv)
{
	const char *v;
	const struct proftab_opt *o = arg_option(p, argv[0], &v);
	int taken = 1;
	const char *list = v ? v : argc > 1 ? argv[1] : NULL;

	if (o && o->sweep_path && list && strchr(list, ',')) {
		sweep_add_list(&m->sw, o, list);
		return v ? 1 : 2;
	}

	if (o && (o->form & PROFTAB_RUN)) {
		if (o->kind == PROFTAB_FLAG) {
			mr_put(m, o->name, "1");
			plan_argv_add(&m->pass, o->name);
			return 1;
		}
		if (!v && argc < 2)
			usage_error("profile: option '%s' needs a value", o->name);
		v = v ? v : argv[taken++];
		mr_put(m, o->name, v);
		plan_argv_add(&m->pass, o->name);
		plan_argv_add(&m->pass, v);
		return taken;
	}
	if (o && !strcmp(o->name, "--artifact-dir")) {
		m->dir = v ? v : argc > 1 ? argv[taken++] : "";
		return v || argc < 2 ? 1 : 2;
	}
	if (o && (o->form & PROFTAB_WARMUP))
		add_index(&m->warm, m->args.n);
	plan_argv_add(&m->args, argv[0]);
	if (o && o->kind != PROFTAB_FLAG && !v && argc > 1 && !(o->form & PROFTAB_NARGS)) {
		if (o->form & PROFTAB_WARMUP)
			add_index(&m->warm, m->args.n);
		plan_argv_add(&m->args, argv[taken++]);
	}
	return taken;
}

/* MR and its arguments; 0 when there is nothing to do here. */
static int
mr_split(const struct planner *p, struct mr *m, int argc, char **argv)
{
	for (int i = 0; i < argc;) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 0;
		i += split_one(p, m, argc - i, argv + i);
	}
	return m->names.n > 0;
}

/* The value of option canon in the arguments, the last one winning. */
static const char *
mr_value(const struct planner *p, const struct mr *m, const char *canon)
{
	const char *v = "", *eqv;

	for (size_t i = 0; i < m->args.n; i++) {
		const struct proftab_opt *o = arg_option(p, m->args.v[i], &eqv);

		if (!o || strcmp(o->name, canon))
			continue;
		v = eqv ? eqv : i + 1 < m->args.n ? m->args.v[i + 1] : "";
	}
	return v;
}

/* value within (lo, hi) as the original checks them: lo_incl/hi_incl
 * inclusive, hi < 0 none. */
static void
mr_number(const char *n, const char *v, double lo, int lo_incl, double hi, int hi_incl, int integer)
{
	size_t d = strspn(v, "0123456789");
	int ok = d > 0 && (!v[d] || (!integer && v[d] == '.' &&
				     strspn(v + d + 1, "0123456789") == strlen(v + d + 1)));
	double x = ok ? strtod(v, NULL) : 0;
	char hs[32];

	ok = ok && (lo_incl ? x >= lo : x > lo) && (hi < 0 || (hi_incl ? x <= hi : x < hi));
	if (ok)
		return;
	snprintf(hs, sizeof(hs), "%g", hi);
	usage_error("profile: invalid value for %s: '%s' (%g to %s%s)", n, v, lo, hi < 0 ? "inf" : hs,
		    lo_incl ? "" : ", exclusive");
}

static void
check_convergence(const struct planner *p, struct mr *m)
{
	const char *mode = mr_get(m, "--convergence-mode");
	const char *deps[] = { "--convergence-mode", "--convergence-threshold", "--convergence-stat" };

	if (mode) {
		const struct proftab_opt *o = opt_get(p, "--convergence-mode");

		char *c = xstrdup(choice(o, mode));

		mr_put(m, "--convergence-mode", c);
		free(c);
		mode = mr_get(m, "--convergence-mode");
		if (!proftab_has_value(o, mode))
			usage_error("profile: invalid value for --convergence-mode: '%s' (ci_width, cv, distribution)", mode);
	}
	if (mr_get(m, "--convergence-stat") && mode && !strcmp(mode, "distribution"))
		usage_error("--convergence-stat is not applicable with --convergence-mode distribution. Distribution mode uses per-request data directly and ignores the stat parameter. Remove --convergence-stat or use --convergence-mode ci_width or cv.");
	for (size_t i = 0; i < 3; i++)
		if (mr_get(m, deps[i]) && !mr_get(m, "--convergence-metric"))
			usage_error("%s requires --convergence-metric to be set. Either add --convergence-metric or remove %s.",
				    deps[i], deps[i]);
}

static void
check_many(const struct planner *p, const struct mr *m, const char *n)
{
	const char *mode = mr_get(m, "--convergence-mode");
	char *ui = xstrdup(mr_value(p, m, "--ui-type"));

	if (mode && !strcmp(mode, "distribution") && !strcmp(mr_value(p, m, "--export-level"), "summary"))
		usage_error("--convergence-mode distribution needs the per-request records: --export-level records or raw");
	if (!strcmp(mr_value(p, m, "--input-file"), "-"))
		usage_error("profile: --input-file - (standard input) can be read by one run only, not by --num-profile-runs %s", n);
	for (char *c = ui; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	if (!strcmp(ui, "dashboard") && (m->sw.n || mr_get(m, "--search-recipe")))
		usage_error("Dashboard UI is not supported with sweep/multi-run mode.\nPlease use '--ui simple' or '--ui none' instead.");
	if (!strcmp(ui, "dashboard"))
		usage_error("Dashboard UI is not supported with multi-run mode (--num-profile-runs > 1) due to terminal control limitations. Please use '--ui simple' or '--ui none' instead.");
	free(ui);
}

/* The original's checks of the multi-run options; the number of runs. */
static long
mr_check(const struct planner *p, struct mr *m)
{
	const char *n = mr_get(m, "--num-profile-runs"), *v;

	n = n ? n : "1";
	mr_number("--num-profile-runs", n, 1, 1, 10, 1, 1);
	if ((v = mr_get(m, "--confidence-level")))
		mr_number("--confidence-level", v, 0, 0, 1, 0, 0);
	if ((v = mr_get(m, "--profile-run-cooldown-seconds")))
		mr_number("--profile-run-cooldown-seconds", v, 0, 1, -1, 0, 0);
	if ((v = mr_get(m, "--convergence-threshold")))
		mr_number("--convergence-threshold", v, 0, 0, 1, 0, 0);
	check_convergence(p, m);
	if (atol(n) == 1) {
		for (size_t i = 0; i < m->names.n; i++) {
			const char *o = m->names.v[i];

			const char *g = opt_get(p, o)->group;

			if (strcmp(o, "--num-profile-runs") && !strcmp(g, "Multi-run"))
				usage_error("%s only applies when running multiple trials (--num-profile-runs > 1). Either remove %s or add --num-profile-runs 5 (or higher).",
					    strncmp(o, "--no-", 5) ? o : o + 5, o);
		}
		if (!m->sw.n && !m->sw.cfg && !mr_get(m, "--search-recipe"))
			return 1;
	}
	check_many(p, m, n);
	return atol(n);
}

/* aiperf-aggregate's names of a run's summary and records. */
static void
mr_names(const struct planner *p, const struct mr *m, struct plan_argv *names)
{
	const char *pre = mr_value(p, m, "--profile-export-prefix");
	char *argv[] = { (char *)"aiperf-export", (char *)"--list-files",
			 (char *)"--profile-export-prefix", (char *)pre, (char *)"--artifact-dir",
			 (char *)"/.x", NULL };
	struct buf out;
	char *line, *nl;

	if (!*pre)
		return;
	buf_init(&out, 1 << 20);
	run_tool(argv, "/dev/null", &out, NULL);
	buf_addch(&out, '\0');
	for (line = out.s; line && *line; line = nl) {
		if ((nl = strchr(line, '\n')))
			*nl++ = '\0';
		if (!strncmp(line, "json\t/.x/", 9))
			plan_argv_add(names, "--export-file"), plan_argv_add(names, line + 9);
		if (!strncmp(line, "records\t/.x/", 12))
			plan_argv_add(names, "--records-file"), plan_argv_add(names, line + 12);
	}
	buf_release(&out);
}

/* The artifact directory, as the single run names it. */
static char *
mr_base_dir(struct planner *p, const struct mr *m)
{
	const char *input;
	char **v, *dir, *sub;
	struct buf out;
	int st;

	if (m->dir && *m->dir)
		return xstrdup(m->dir);
	parse_profile(p, (int)m->args.n, m->args.v);
	check_load_options(p);
	input = val(p, "--input-file", "");
	if (*input)
		add_stage_arg(p, "g", "--input-file", input);
	v = xcalloc(p->gen.n + 3, sizeof(*v));
	v[0] = (char *)"aiperf-gen";
	if (p->gen.n)
		memcpy(v + 1, p->gen.v, p->gen.n * sizeof(*v));
	v[p->gen.n + 1] = (char *)"--print-timing-mode";
	buf_init(&out, 1 << 20);
	if ((st = run_tool(v, NULL, &out, NULL)))
		exit(st);
	while (out.len && out.s[out.len - 1] == '\n')
		out.len--;
	buf_addch(&out, '\0');
	sub = artifact_subdir(p, out.s);
	dir = xstrfmt("artifacts/%s", sub);
	free(sub);
	buf_release(&out);
	free(v);
	return dir;
}

static void
mr_emit(const struct planner *p, struct mr *m, long n, const char *base, struct buf *b)
{
	struct plan_argv names = { 0 }, seed = { 0 }, mr = { 0 };

	mr_names(p, m, &names);
	if (!mr_get(m, "--no-set-consistent-seed") && !*mr_value(p, m, "--random-seed"))
		plan_argv_add(&seed, "--random-seed"), plan_argv_add(&seed, "42");
	if (!*mr_value(p, m, "--ui-type"))
		plan_argv_add(&m->args, "--ui-type"), plan_argv_add(&m->args, "simple");
	emit_long(b, "MR_N", n);
	for (size_t i = 0; i < m->names.n; i++) {
		char *s = xstrfmt("%s", m->names.v[i]);

		plan_argv_add(&mr, s);
		plan_argv_add(&mr, m->values.v[i]);
		free(s);
	}
	emit_argv(b, "MR_KV", &mr, 0);
	emit_argv(b, "MR_ARGS", &m->args, 0);
	emit_argv(b, "MR_WARM", &m->warm, 0);
	emit_argv(b, "MR_PASS", &m->pass, 0);
	emit_argv(b, "MR_NAMES", &names, 0);
	emit_argv(b, "seed", &seed, 0);
	emit_str(b, "base", base);
	plan_argv_release(&names);
	plan_argv_release(&seed);
	plan_argv_release(&mr);
}

/* Whether the runs' arguments give option canon (a flag, or one with a value). */
static const char *
args_get(const struct planner *p, const struct mr *m, const char *canon)
{
	const char *v = NULL;

	for (size_t i = 0; i < m->args.n; i++) {
		const char *eqv;
		const struct proftab_opt *o = arg_option(p, m->args.v[i], &eqv);

		if (!o || strcmp(o->name, canon))
			continue;
		if (o->kind == PROFTAB_FLAG)
			v = "1";
		else
			v = eqv ? eqv : i + 1 < m->args.n ? m->args.v[i + 1] : "";
	}
	return v;
}

struct getctx {
	const struct planner *p;
	const struct mr *m;
};

static const char *
sweep_get(void *ctx, const char *canon)
{
	const struct getctx *g = ctx;
	const char *v = mr_get(g->m, canon);

	return v ? v : args_get(g->p, g->m, canon);
}

/* An adaptive search (max-concurrency-under-sla, monotonic or
 * smooth_isotonic): aiperf-search's options (SR_ARGS); the wrapper's loop
 * asks it for each next concurrency. */
static void
search_emit(const struct planner *p, const struct mr *m, long n, struct buf *b)
{
	static const char *const pass[] = { "--ttft-sla-ms", "--itl-sla-ms", "--tpot-sla-ms",
		"--e2e-sla-ms", "--error-rate-sla", "--search-style", "--concurrency-min",
		"--concurrency-max", NULL };
	struct plan_argv a = { 0 };

	if (n > 1)
		usage_error("--search-recipe max-concurrency-under-sla searches one trial an iteration: --num-profile-runs %ld is for a grid (--search-style grid)",
			    n);
	plan_argv_add(&a, "--recipe");
	plan_argv_add(&a, "max-concurrency-under-sla");
	for (size_t i = 0; pass[i]; i++) {
		const char *v = mr_get(m, pass[i]);

		if (v) {
			plan_argv_add(&a, pass[i]);
			plan_argv_add(&a, i == 5 ? choice(opt_get(p, pass[i]), v) : v);
		}
	}
	emit_argv(b, "SR_ARGS", &a, 0);
	emit_long(b, "SEARCH", 1);
	plan_argv_release(&a);
}

/* A sweep: its options, the runs, sweep_plan.json (sweeprun.c). */
static void
mr_sweep(struct planner *p, struct mr *m, long n, struct buf *b)
{
	struct getctx g = { p, m };
	const char *mode = mr_get(m, "--parameter-sweep-mode"), *seed = args_get(p, m, "--random-seed");
	const char *type = mr_get(m, "--sweep-type");
	struct sweepopts so = { .trials = n, .seed = seed ? atol(seed) : 42,
				.level = mr_get(m, "--confidence-level") ? atof(mr_get(m, "--confidence-level")) : 0.95,
				.sweep_cool = mr_get(m, "--parameter-sweep-cooldown-seconds"),
				.trial_cool = mr_get(m, "--profile-run-cooldown-seconds") };
	char *base;

	if (mode && !proftab_has_value(opt_get(p, "--parameter-sweep-mode"), choice(opt_get(p, "--parameter-sweep-mode"), mode)))
		usage_error("profile: invalid value for --parameter-sweep-mode: '%s' (repeated, independent)", mode);
	if (type && !proftab_has_value(opt_get(p, "--sweep-type"), choice(opt_get(p, "--sweep-type"), type)))
		usage_error("profile: invalid value for --sweep-type: '%s' (grid, zip)", type);
	if (so.sweep_cool)
		mr_number("--parameter-sweep-cooldown-seconds", so.sweep_cool, 0, 1, 86400, 1, 0);
	so.sweep_cool = so.sweep_cool ? so.sweep_cool : "0";
	so.trial_cool = so.trial_cool ? so.trial_cool : "0";
	so.independent = mode && !strcmp(choice(opt_get(p, "--parameter-sweep-mode"), mode), "independent");
	so.same_seed = mr_get(m, "--parameter-sweep-same-seed") && !mr_get(m, "--no-parameter-sweep-same-seed");
	m->sw.zip = m->sw.zip || (type && !strcmp(choice(opt_get(p, "--sweep-type"), type), "zip"));
	int search = recipe_expand(p, &m->sw, sweep_get, &g);
	char *abs;

	base = mr_base_dir(p, m);
	abs = absolute(base);
	free(base);
	base = abs;
	mr_emit(p, m, n, base, b);
	if (search)
		search_emit(p, m, n, b);
	else
		sweep_emit(&m->sw, &so, base, b);
	free(base);
}

static void
mr_release(struct mr *m)
{
	plan_argv_release(&m->args);
	plan_argv_release(&m->warm);
	plan_argv_release(&m->pass);
	plan_argv_release(&m->names);
	plan_argv_release(&m->values);
	for (size_t i = 0; i < m->sw.n; i++)
		plan_argv_release(&m->sw.p[i].vals);
	plan_argv_release(&m->sw.labels);
	buf_release(&m->sw.recipe);
}

int
multi_run_plan(struct planner *p, int argc, char **argv, struct buf *out)
{
	struct mr m = { 0 };
	long n;

	buf_init(&m.sw.recipe, BUF_NOMAX);
	m.sw.cfg = p->cfgsw;
	if ((!mr_split(p, &m, argc, argv) && !m.sw.n && !m.sw.cfg) ||
	    ((n = mr_check(p, &m)) == 1 && !m.sw.n && !m.sw.cfg && !mr_get(&m, "--search-recipe"))) {
		mr_release(&m);
		return 0;
	}
	if (m.sw.cfg && (m.sw.n || mr_get(&m, "--search-recipe")))
		usage_error("profile: the config file's sweep and %s: one or the other",
			    m.sw.n ? "a list value on the command line" : "--search-recipe");
	if (m.sw.n || m.sw.cfg || mr_get(&m, "--search-recipe"))
		mr_sweep(p, &m, n, out);
	else {
		char *base = mr_base_dir(p, &m);

		mr_emit(p, &m, n, base, out);
		free(base);
	}
	mr_release(&m);
	return 1;
}
