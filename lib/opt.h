/* SPDX-License-Identifier: Apache-2.0 */
/* Option tables: one array per tool drives getopt_long, --help and bash completion. */
#ifndef AIPERF_OPT_H
#define AIPERF_OPT_H

#include <stddef.h>
#include <stdio.h>

/*
 * A tool describes its options once, in a table of struct opt ending with
 * an all-zero entry. From it come the getopt_long arguments, the synopsis
 * that --help prints (equal to the man page's SYNOPSIS) and a bash
 * completion script.
 *
 * Like opt_int() in util.h, this is for cmd/: a usage error prints
 * "argv0: invalid value for --name: ..." and exits 2; an unknown option or
 * a missing argument gets getopt's own message and the synopsis on stderr,
 * then exit 2. --help prints the synopsis on stdout, --version
 * "name VERSION"; both exit 0. Nothing is allocated that outlives the
 * parse; values are stored into the tool's own options struct, and string
 * values point into argv.
 */
enum opt_kind {
	OPT_FLAG,	/* no argument; *(int *)to = 1 */
	OPT_STR,	/* *(const char **)to = the argument */
	OPT_INT,	/* a whole number in [min, max] (util_strtonum) */
	OPT_DOUBLE,	/* a finite number in [lo, hi], into a double */
	OPT_SECONDS,	/* a number in [lo, hi] times scale, rounded, as an integer */
	OPT_SIZE,	/* bytes with units (units_bytes) in [min, max] */
	OPT_CHOICE,	/* one of choices[]; its index as an integer */
			/* (OPT_STR with choices: one of them, as the string) */
	OPT_HELP,	/* print the synopsis on stdout, exit 0 */
	OPT_VERSION,	/* print "name VERSION", exit 0 */
};

enum opt_flags {
	OPT_ALIAS = 1 << 0,	/* another name for the entry with the same key */
	OPT_HIDE = 1 << 1,	/* not in the synopsis (but completed) */
	OPT_BR = 1 << 2,	/* the synopsis breaks the line before it */
	OPT_OR = 1 << 3,	/* joins the item before: "[a | b]" */
	OPT_SHORT = 1 << 4,	/* the synopsis shows "-k", not "--name" */
	OPT_BOTH = 1 << 5,	/* the synopsis shows "-k | --name" */
	OPT_REQ = 1 << 6,	/* the synopsis shows it without brackets */
	OPT_INF = 1 << 7,	/* OPT_SECONDS: "inf" stores -1 */
	OPT_LOOSE = 1 << 8,	/* choices match in any case, '-' for '_'
				 * (the original's enums) */
	OPT_PRIVATE = 1 << 9,	/* the supervisor's (aiperf(7), Supervisor
				 * interface): neither in the synopsis nor
				 * completed; --list-private names it */
};

struct opt {
	const char *name;	/* long name, without "--" */
	int key;		/* a short option letter, or an id >= 256 */
	enum opt_kind kind;
	const char *arg;	/* the argument's name in the synopsis ("n") */
	void *to;		/* where the value goes, or NULL */
	size_t size;		/* sizeof *to (integers: 4 or 8 bytes) */
	long long min, max;	/* OPT_INT, OPT_SIZE */
	double lo, hi, scale;	/* OPT_DOUBLE, OPT_SECONDS */
	const char *const *choices;	/* OPT_CHOICE, OPT_STR: NULL-terminated */
	/* Values known but not built yet, each followed by what brings it
	 * ("nim_embeddings", "the NIM embeddings endpoint (issue #14)", ...,
	 * NULL): "--name value is not supported yet: ..." (exit 2); a text
	 * that starts with '=' is said as it is: "--name value: ...". */
	const char *const *later;
	unsigned flags;		/* enum opt_flags */
	const char *syn;	/* the synopsis item instead of "[--name arg]" */
};

/* The target of an entry: .to and .size from one lvalue. */
#define OPT_TO(lv) .to = &(lv), .size = sizeof(lv)

struct opt_cmd {
	const char *name;	/* "aiperf-send" */
	const struct opt *opts;
	const char *operands;	/* ends the synopsis ("[file ...]"), or NULL */
	int indent;		/* continuation lines; 0: under the first item */
	const char *usage;	/* --help prints this instead of the synopsis */
	const char *bad;	/* an unknown option: this usage error instead */
};

struct opt_iter {
	const struct opt_cmd *cmd;
	int argc;
	char **argv;
	const char *arg;	/* the current option's argument, or NULL */
	long long i;		/* its value: OPT_INT, OPT_SIZE, OPT_CHOICE, OPT_SECONDS */
	double d;		/* its value: OPT_DOUBLE */
	int ind;		/* after the end: the first operand's index */
	struct option *lo;	/* private */
	char *shorts;		/* private */
};

/*
 * Start parsing argv with cmd's table. When argv[1] is "--completion", the
 * next word must be "bash": the completion script is printed and the tool
 * exits 0 (an option getopt never sees, so no abbreviation changes). When
 * argv[1] is "--list-choices", the next word names an option (long name or
 * alias, with or without "--"): its values are printed one a line, exit 0;
 * an unknown option or one without a list of values is a usage error.
 * When argv[1] is "--list-private" (and alone), the OPT_PRIVATE options
 * are printed, "--name" one a line in table order (aliases too), exit 0.
 */
void opt_init(struct opt_iter *it, const struct opt_cmd *cmd, int argc,
	      char **argv);

/*
 * The next option: converts and checks its argument, stores it through the
 * entry's .to when there is one, and returns the entry's key (for aliases,
 * the first entry with that key). Returns -1 at the end of the options,
 * with it->ind set and everything opt_init allocated freed.
 */
int opt_next(struct opt_iter *it);

/* The canonical entry for key, or NULL. */
const struct opt *opt_find(const struct opt_cmd *cmd, int key);

/* Print the synopsis ("usage: name ...") that --help prints. */
void opt_usage(const struct opt_cmd *cmd, FILE *f);

/* Print the synopsis on f and exit with status. */
_Noreturn void opt_usage_exit(const struct opt_cmd *cmd, FILE *f, int status);

/* Print a bash completion script for the tool (complete -F). */
void opt_complete_bash(const struct opt_cmd *cmd, FILE *f);
/* The same for a tool of subcommands: names[i] runs with table subs[i]; the
 * first word completes to a name, --help or --version. */
void opt_complete_bash_subs(const char *tool, const char *const *names,
			    const struct opt_cmd *const *subs, size_t n, FILE *f);

#endif
