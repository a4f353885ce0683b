/* SPDX-License-Identifier: Apache-2.0 */
/* A sweep's plan, sweep_plan.json: its variations and run directories. */
#ifndef AIPERF_SWEEPPLAN_H
#define AIPERF_SWEEPPLAN_H

#include <stddef.h>

#include "json/json.h"

/*
 * sweepplan_parse() reads the text of a sweep_plan.json (outside input:
 * strict JSON, at most SWEEPPLAN_MAX_BYTES) into a struct sweepplan that
 * owns everything it points to, values included (they stay parsed JSON,
 * numbers with their source text); sweepplan_free() frees all of it.
 * Each run's "dir" is checked to stay inside the plan's folder: relative,
 * no "." or ".." component, no empty one, no control byte; each
 * variation's "dir_name" is one such component.
 */
#define SWEEPPLAN_MAX_BYTES (16u << 20)
#define SWEEPPLAN_MAX_RUNS 65536
#define SWEEPPLAN_MAX_PARAMS 64

struct sweepplan_param {
	const char *name, *path;	/* path NULL when absent */
	const struct json *values;	/* an array */
};

struct sweepplan_var {
	size_t index;
	const char *label, *dir_name;
	const struct json *values;	/* an object {path: scalar} */
};

struct sweepplan_run {
	size_t variation;	/* an index into vars */
	size_t trial;		/* 0-based */
	const char *dir;	/* relative to the plan's folder */
};

struct sweepplan {
	struct json_doc *doc;
	const struct json *root;	/* the whole plan */
	const char *sweep_id, *type;
	int independent;	/* iteration_order "independent" */
	size_t trials;
	double level;		/* confidence_level, 0.95 when absent */
	struct sweepplan_param *params;
	size_t nparams;
	struct sweepplan_var *vars;
	size_t nvars;
	struct sweepplan_run *runs;
	size_t nruns;
	const struct json *recipe;	/* an object, or NULL (null, absent) */
};

/*
 * The plan in s[0..n), or NULL with why in err (invalid JSON, a field
 * missing or of the wrong type, a run's dir that leaves the folder, a
 * variation that does not exist, more than SWEEPPLAN_MAX_RUNS runs or
 * variations).
 */
struct sweepplan *sweepplan_parse(const char *s, size_t n, char *err,
				  size_t errlen);
void sweepplan_free(struct sweepplan *p);

/* Whether path is a safe relative path (one component if single). */
int sweepplan_safe_path(const char *path, size_t len, int single);

/* The recipe's member KEY as a number into *v: 0, or -1 (absent, not a number). */
int sweepplan_recipe_num(const struct sweepplan *p, const char *key, double *v);
/* The recipe's name, or NULL when there is no recipe. */
const char *sweepplan_recipe_name(const struct sweepplan *p);

#endif
