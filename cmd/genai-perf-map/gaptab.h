/* SPDX-License-Identifier: Apache-2.0 */
/* GenAI-Perf's options and their aiperf counterparts (data/genai-perf-options.tsv), read into memory. */
#ifndef AIPERF_GAPTAB_H
#define AIPERF_GAPTAB_H

#include <stddef.h>

/*
 * One row a line, GAPTAB_FIELDS tab-separated fields (the file's header
 * says what each means); "-" is an empty field. gaptab_parse() fills a
 * struct gaptab that owns every string in it; gaptab_release() frees
 * them. The pointers gaptab_find() and gaptab_yaml() return point into it.
 */
#define GAPTAB_FIELDS 6
#define GAPTAB_MAX_FILE (1 << 20)
#define GAPTAB_MAX_ROWS 4096

enum gaptab_kind { GAPTAB_FLAG, GAPTAB_ARG, GAPTAB_LIST, GAPTAB_WORDS, GAPTAB_JOINED };

struct gaptab_row {
	char **names;		/* the option's names (none for a config-file key alone) */
	size_t nnames;
	char *value;		/* NAME=VALUE: the value (or prefix) this row is for, or NULL */
	int prefix;		/* NAME=PREFIX*: value is a prefix */
	enum gaptab_kind kind;
	char *yaml;		/* the config file's dotted key, or NULL */
	char *def;		/* GenAI-Perf's default, or NULL */
	char *target;		/* never NULL */
	char *note;		/* or NULL */
	size_t line;
};

struct gaptab {
	struct gaptab_row *rows;
	size_t n, alloc;
};

void gaptab_init(struct gaptab *t);
void gaptab_release(struct gaptab *t);

/*
 * Fills t (gaptab_init()ed) from s[0..n): 0, or -1 with the 1-based number
 * of the first malformed line in *badline (0: the text as a whole is too
 * large or has too many rows); t is then released.
 */
int gaptab_parse(struct gaptab *t, const char *s, size_t n, size_t *badline);

/* Whether name is an option of the table (any row). */
int gaptab_known(const struct gaptab *t, const char *name);

/*
 * The row for option name given value (NULL for a flag): the first row
 * naming it whose NAME=VALUE (exact) or NAME=PREFIX* matches value, else
 * its plain row; NULL when none. *rest is value past a matched prefix.
 */
const struct gaptab_row *gaptab_find(const struct gaptab *t, const char *name,
				     const char *value, const char **rest);

/* The row whose yaml key is key, or NULL (its option's rows for a given
 * value: gaptab_find() by its first name). */
const struct gaptab_row *gaptab_yaml(const struct gaptab *t, const char *key);

#endif
