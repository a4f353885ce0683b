/* SPDX-License-Identifier: Apache-2.0 */
/* The options table of aiperf profile (data/profile-options.tsv), read into memory. */
#ifndef AIPERF_PROFTAB_H
#define AIPERF_PROFTAB_H

#include <stddef.h>

/*
 * profile-options.tsv holds one option a line in PROFTAB_FIELDS
 * tab-separated fields (its header comment says what each means); "-" is
 * an empty field, a line starting with '#' or empty is skipped.
 * proftab_parse() fills a struct proftab that owns every string in it;
 * proftab_release() frees them all. The returned pointers of
 * proftab_find() point into the table.
 */
#define PROFTAB_FIELDS 11
#define PROFTAB_MAX_FILE (1 << 20)
#define PROFTAB_MAX_OPTIONS 4096

enum proftab_kind { PROFTAB_FLAG, PROFTAB_ARG, PROFTAB_LIST };
enum proftab_support { PROFTAB_YES, PROFTAB_OURS, PROFTAB_INERT, PROFTAB_NO };

/* The form column: how the values are read off the command line, and the
 * option's part in a multi-run. */
enum proftab_form {
	PROFTAB_SPLIT = 1 << 0,		/* a value splits on commas (--model a,b) */
	PROFTAB_WORDS = 1 << 1,		/* the words after the value, up to an option, are values too */
	PROFTAB_NARGS = 1 << 2,		/* zero or more words up to the next option */
	PROFTAB_RUN = 1 << 3,		/* the multi-run loop's option (each run gets it back) */
	PROFTAB_WARMUP = 1 << 4,	/* a warmup option: dropped after the first run */
	/* and sweep:PATH (proftab_opt.sweep_path) */
};

struct proftab_opt {
	char *name;		/* canonical */
	char **aliases;		/* naliases names, short ones included */
	size_t naliases;
	enum proftab_kind kind;
	char *stages;		/* "" for none */
	char *config;		/* input_config PATH (NULL: kept out) */
	char config_type;	/* b B i f s L I F, or 0 */
	char *def;		/* the documented default, or NULL */
	char **values;		/* the documented choices */
	size_t nvalues;
	enum proftab_support support;
	char *note;		/* or NULL */
	char *group;		/* --help's section, or NULL (a refused option) */
	unsigned form;		/* enum proftab_form */
	char *sweep_path;	/* form sweep:PATH: a list value (8,16,32) sweeps the original's PATH, or NULL */
	size_t line;		/* in the file, for messages */
};

struct proftab {
	struct proftab_opt *opts;
	size_t n, alloc;
};

void proftab_init(struct proftab *t);
void proftab_release(struct proftab *t);

/*
 * Fills t (proftab_init()ed) from the text s[0..n): 0, or -1 with the
 * 1-based number of the first malformed line in *badline (0: the text as a
 * whole, too large or too many options), t then released.
 */
int proftab_parse(struct proftab *t, const char *s, size_t n, size_t *badline);

/* The option named name (canonical or alias, refused ones too), or NULL. */
const struct proftab_opt *proftab_find(const struct proftab *t, const char *name);

/* Whether word is one of o's documented choices (exactly as written). */
int proftab_has_value(const struct proftab_opt *o, const char *word);

#endif
