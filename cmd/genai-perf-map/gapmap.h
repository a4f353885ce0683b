/* SPDX-License-Identifier: Apache-2.0 */
/* GenAI-Perf's options mapped onto aiperf profile's, as the options table says. */
#ifndef AIPERF_GAPMAP_H
#define AIPERF_GAPMAP_H

#include <stddef.h>

#include "gaptab.h"

/*
 * A struct gapmap collects what one GenAI-Perf command line (and config
 * file) sets, an entry an aiperf option, in the order first set; a later
 * setting replaces an earlier one (a list option's values add up).
 * gapmap_release() frees it all; it does not own the table. The gapmap_*
 * functions return 0, or -1 with a message in m->err: the caller's usage
 * error (exit 2).
 */
#define GAPMAP_MAX_ENTRIES 512
#define GAPMAP_MAX_VALUES 1024
#define GAPMAP_ERRLEN 512

enum gapmap_action { GAPMAP_RUN, GAPMAP_HELP, GAPMAP_VERSION };

struct gapmap_entry {
	const struct gaptab_row *row;
	char *key;		/* the target's first word */
	char **vals;		/* the values as given (after a matched prefix) */
	size_t n;
};

struct gapmap {
	const struct gaptab *tab;
	struct gapmap_entry *e;
	size_t n;
	char **pass;		/* the words after "--": aiperf's own */
	size_t npass;
	char **warnings;	/* for people: a dropped option, a mapped value */
	size_t nwarn;
	char *sweep_type, *sweep_range, *sweep_list;
	int analyze;		/* --sweep-* accepted */
	int keyvals;		/* KEY=VALUE words set config keys (--override-config) */
	int plots;		/* --generate-plots */
	int dry_run;		/* --dry-run: print, do not run */
	enum gapmap_action action;
	char err[GAPMAP_ERRLEN];
};

void gapmap_init(struct gapmap *m, const struct gaptab *tab);
void gapmap_release(struct gapmap *m);

/* The GenAI-Perf options argv[0..argc) (a subcommand's, after its name);
 * with m->keyvals, a word KEY=VALUE sets the config file's KEY. */
int gapmap_args(struct gapmap *m, int argc, char **argv);

/*
 * One setting by the config file's key: its values (NULL-free, n >= 1; a
 * flag's is "true" or "false"). A value at the row's default is left out.
 */
int gapmap_yaml(struct gapmap *m, const char *key, char **vals, size_t n);

/* analyze: the sweep (--sweep-type, --sweep-range or --sweep-list, the
 * type's default range) as the values of its aiperf option. */
int gapmap_sweep(struct gapmap *m);

/*
 * Expands "START:STOP[:STEP]" (integers, START >= 1) into a comma-separated
 * list in out (malloc'd): every STEP from START, or without STEP the
 * doubling START, 2*START, ... up to STOP. 0, or -1 with err filled.
 */
int gapmap_range(const char *range, char **out, char *err, size_t errlen);

/* The aiperf profile arguments, malloc'd strings (argv-style, *n of them). */
char **gapmap_argv(const struct gapmap *m, size_t *n);

#endif
