/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-plan's sweep section: the swept options, a recipe's grid, the runs. */
#ifndef AIPERF_PLAN_SWEEPPLAN_H
#define AIPERF_PLAN_SWEEPPLAN_H

#include "planner.h"

#define SWEEP_MAX_PARAMS 16

/* One swept option: its values as JSON scalars (numbers as the original types them). */
struct swparam {
	const struct proftab_opt *o;	/* the option a cell sets */
	const char *path;		/* the original's parameter path */
	struct plan_argv vals;
};

/* A config file's sweep (lib/cfg, cfgfile.c): its variations whole. */
struct swcfg {
	char *type;		/* grid, zip, scenarios, sobol, latin_hypercube */
	char **params;		/* the swept paths */
	size_t nparams;
	size_t n;		/* variations */
	char **label, **dir;
	char **values;		/* each variation's values: a JSON object's text */
	struct plan_argv *args;	/* each variation's own options */
};

/* What the command line asks to sweep. */
struct sweepreq {
	struct swparam p[SWEEP_MAX_PARAMS];
	size_t n;
	int zip;		/* --sweep-type zip (or a recipe's pairs) */
	int scenarios;		/* pareto-sweep: the cells are named (labels) */
	struct plan_argv labels;	/* scenarios: one a cell */
	struct buf recipe;	/* the plan's "recipe" object (JSON), empty for none */
	const struct swcfg *cfg;	/* a config file's variations, or NULL */
};

/* How the runs of a sweep go. */
struct sweepopts {
	long trials;		/* --num-profile-runs */
	int independent;	/* --parameter-sweep-mode independent */
	long seed;		/* --random-seed, else 42 */
	int same_seed;		/* --parameter-sweep-same-seed */
	double level;		/* --confidence-level */
	const char *sweep_cool, *trial_cool;	/* seconds, as given */
};

/* sweeprun.c: the variations (grid or zip) and their runs in the
 * original's order and layout; writes <base>/sweep_plan.json and emits
 * the shell's SW_* assignments into out. */
void sweep_emit(const struct sweepreq *r, const struct sweepopts *so, const char *base,
		struct buf *out);

/* sweep.c */
void sweep_add_list(struct sweepreq *r, const struct proftab_opt *o, const char *list);
const char *sweep_number(const struct proftab_opt *o, const char *w);
void sweep_logspace(long lo, long hi, long steps, struct plan_argv *out);

/* recipe.c: --search-recipe NAME as the original expands it: the swept
 * parameters into r, its inputs into r->recipe; get(name) is the
 * section's value of an option (NULL: not given; "1" for a flag).
 * Returns 1 for a search run by run (aiperf-search), 0 for a sweep. */
typedef const char *(*sweep_get_fn)(void *ctx, const char *canon);
int recipe_expand(const struct planner *p, struct sweepreq *r, sweep_get_fn getter, void *ctx);

#endif
