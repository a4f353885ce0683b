/* SPDX-License-Identifier: Apache-2.0 */
/* The config file's fields and the aiperf profile options they set (data/config-schema.tsv). */
#ifndef AIPERF_CFG_SCHEMA_H
#define AIPERF_CFG_SCHEMA_H

#include <stddef.h>

/* One field: a line of the table. */
struct cfgfield {
	char *path;	/* snake_case, "[]" for each entry of a named list */
	char type;	/* o s i n b l m h x e a = - (the table's header) */
	char *option;	/* "-" for none */
	char *warmup;	/* a phase field's warmup option, or "-" */
	char *note;
};

struct cfgschema {
	struct cfgfield *f;
	size_t n;
};

/* The table from s[0..n) (a copy is kept); -1 with the bad line's number in *bad. */
int cfgschema_parse(struct cfgschema *s, const char *text, size_t n, size_t *bad);
/* data/config-schema.tsv in the data folder (lib/tok toksrc_datadir()). */
int cfgschema_load(struct cfgschema *s, char *err, size_t errlen);
void cfgschema_release(struct cfgschema *s);

const struct cfgfield *cfgschema_find(const struct cfgschema *s, const char *path);

/*
 * The field name that key names below the section at parent ("" for the
 * top): key itself, or the field whose camelCase alias key is
 * (maxConcurrency: max_concurrency). NULL when the section has no such
 * field; then hint gets the closest names ("'sweep'", or "'a' or 'b'";
 * empty when none is close) and known the section's names (camelCase
 * aliases too, sorted, as the original lists them: "['a', 'b']").
 */
const char *cfgschema_key(const struct cfgschema *s, const char *parent, const char *key,
			  char *hint, size_t hintlen, char *known, size_t knownlen);

/* snake_case of a camelCase name (a "" when it is one already); malloc'd. */
char *cfgschema_snake(const char *key);

/* How alike a and b are, 0..1 (Python difflib's ratio(): 2*M/T). */
double cfgschema_ratio(const char *a, const char *b);

#endif
