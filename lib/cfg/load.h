/* SPDX-License-Identifier: Apache-2.0 */
/* A YAML config file (the original's schema 2.0) as the variations it runs, each as aiperf profile options. */
#ifndef AIPERF_CFG_LOAD_H
#define AIPERF_CFG_LOAD_H

#include <stddef.h>

#include "cfg/tree.h"

/* One option with its values in order (none for a flag; "--url a --url b": two). */
struct cfgopt {
	char *name;
	char **val;
	size_t n;
};

/* Options in the order of their first mention, each once. */
struct cfgargs {
	struct cfgopt *v;
	size_t n;
};

/* One variation of the sweep (a file without one has one, "base"). */
struct cfgvar {
	size_t index;
	char *label, *dir;	/* the original's label and dir_name */
	struct cnode *values;	/* path -> value, as the original's SweepVariation.values */
	struct cnode *body;	/* the benchmark body, normalized and rendered */
	struct cfgargs args;	/* the options of its body */
};

struct cfgplan {
	char *sweep_class;	/* "GridSweep" ... the original's name, or "none" */
	char *type;		/* grid, zip, scenarios, sobol, latin_hypercube; NULL: none */
	struct cfgvar *v;
	size_t nv;
	char **params;		/* the swept paths (the values' keys), sorted */
	size_t nparams;
	struct cfgargs envelope;	/* random_seed, multi_run, the sweep's own options */
	char **warn;		/* warnings, for people */
	size_t nwarn;
};

/*
 * Reads, checks and expands the file at path: ${VAR} substituted, the
 * body normalized (model, dataset, phases shorthands), each variation's
 * sweep values set, {{ }} expressions rendered with variables, every
 * field checked against data/config-schema.tsv (an unknown one refused
 * with a "did you mean" hint, one this implementation does not run
 * refused with why) and turned into aiperf profile options. Returns 0, or
 * -1 with the message in err ("FILE:LINE: ..." where a line is known).
 */
int cfg_load(struct cfgplan *p, const char *path, char *err, size_t errlen);
/* The same, of the text s[0..n) named name in messages. */
int cfg_load_text(struct cfgplan *p, const char *name, const char *s, size_t n, char *err,
		  size_t errlen);
void cfg_release(struct cfgplan *p);

/* The options of the body every variation gives alike (common), and the
 * rest of variation i's (cells[i], p->nv of them); release each. */
void cfg_split(const struct cfgplan *p, struct cfgargs *common, struct cfgargs *cells);

/* A variation's values with every nested value flattened to its dotted
 * path (a list's entry by its name): one scalar a key, as sweep_plan.json
 * holds them. */
struct cnode *cfg_flat_values(const struct cnode *values);

/* The options as an argument vector (each option, then its values) appended to v. */
void cfgargs_argv(const struct cfgargs *a, char ***v, size_t *n);
void cfgargs_add(struct cfgargs *a, const char *name, const char *val);
const struct cfgopt *cfgargs_get(const struct cfgargs *a, const char *name);
void cfgargs_release(struct cfgargs *a);

#endif
