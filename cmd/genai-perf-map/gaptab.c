/* SPDX-License-Identifier: Apache-2.0 */
/* The GenAI-Perf options table: one line a row, tab-separated fields. */
#include "gaptab.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static const char *const kinds[] = { "flag", "arg", "list", "words", "joined", NULL };

void
gaptab_init(struct gaptab *t)
{
	t->rows = NULL;
	t->n = t->alloc = 0;
}

static void
row_release(struct gaptab_row *r)
{
	for (size_t i = 0; i < r->nnames; i++)
		free(r->names[i]);
	free(r->names);
	free(r->value);
	free(r->yaml);
	free(r->def);
	free(r->target);
	free(r->note);
}

void
gaptab_release(struct gaptab *t)
{
	for (size_t i = 0; i < t->n; i++)
		row_release(&t->rows[i]);
	free(t->rows);
	gaptab_init(t);
}

/* The field's text, or NULL for "-". */
static char *
field_dup(const char *s, size_t n)
{
	return n == 1 && *s == '-' ? NULL : xstrndup(s, n);
}

/* A name is an option: "-x" or "--word", letters, digits and dashes. */
static int
name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n < 2 || s[0] != '-' || (s[1] == '-' && n < 3))
		return 0;
	return strspn(s, "-abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") == n &&
	       (n == 2 || s[1] == '-');
}

/* "NAME[=VALUE[*]] ALIAS...": the names; the value goes with the first. */
static int
parse_names(struct gaptab_row *r, const char *s, size_t n)
{
	char *text = xstrndup(s, n), *w = text, *eq;
	int rc = 0;

	while (*w && !rc) {
		size_t k = strcspn(w, " ");
		int last = !w[k];

		w[k] = '\0';
		if ((eq = strchr(w, '=')) && !r->nnames && !r->value) {
			*eq = '\0';
			r->value = xstrdup(eq + 1);
			size_t vl = strlen(r->value);
			if (vl && r->value[vl - 1] == '*')
				r->value[vl - 1] = '\0', r->prefix = 1;
		}
		if (!*w || !name_ok(w) || (r->value && !*r->value && !r->prefix))
			rc = -1;
		r->names = xreallocarray(r->names, r->nnames + 1, sizeof(*r->names));
		r->names[r->nnames++] = xstrdup(w);
		w += last ? k : k + 1;
	}
	free(text);
	return r->nnames ? rc : -1;
}

static int
kind_of(const char *s, size_t n)
{
	for (int i = 0; kinds[i]; i++)
		if (strlen(kinds[i]) == n && !strncmp(kinds[i], s, n))
			return i;
	return -1;
}

/* One line's fields into r: 0 or -1. */
static int
parse_row(struct gaptab_row *r, const char *s, size_t n)
{
	const char *f[GAPTAB_FIELDS];
	size_t len[GAPTAB_FIELDS], k = 0;
	const char *p = s, *end = s + n;
	int kind;

	while (k < GAPTAB_FIELDS) {
		const char *tab = memchr(p, '\t', (size_t)(end - p));

		f[k] = p;
		len[k++] = (size_t)((tab ? tab : end) - p);
		if (!tab)
			break;
		p = tab + 1;
	}
	if (k == GAPTAB_FIELDS)
		len[k - 1] = (size_t)(end - f[k - 1]);
	if (k != GAPTAB_FIELDS || memchr(f[5], '\t', len[5]) || memchr(s, '\0', n))
		return -1;
	for (k = 0; k < GAPTAB_FIELDS; k++)
		if (!len[k])
			return -1;
	if ((kind = kind_of(f[1], len[1])) < 0)
		return -1;
	r->kind = (enum gaptab_kind)kind;
	r->yaml = field_dup(f[2], len[2]);
	r->def = field_dup(f[3], len[3]);
	r->target = xstrndup(f[4], len[4]);
	r->note = field_dup(f[5], len[5]);
	if (len[0] == 1 && *f[0] == '-')
		return r->yaml ? 0 : -1;
	return parse_names(r, f[0], len[0]);
}

static int
tab_fail(struct gaptab *t, size_t *badline, size_t line)
{
	*badline = line;
	gaptab_release(t);
	return -1;
}

int
gaptab_parse(struct gaptab *t, const char *s, size_t n, size_t *badline)
{
	size_t line = 0;
	const char *end = s + n;

	if (n > GAPTAB_MAX_FILE)
		return tab_fail(t, badline, 0);
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = (size_t)((nl ? nl : end) - s);

		line++;
		if (len && *s != '#') {
			struct gaptab_row r = { 0 };

			if (t->n >= GAPTAB_MAX_ROWS)
				return tab_fail(t, badline, 0);
			r.line = line;
			if (parse_row(&r, s, len) < 0) {
				row_release(&r);
				return tab_fail(t, badline, line);
			}
			if (t->n == t->alloc) {
				t->alloc = t->alloc ? 2 * t->alloc : 64;
				t->rows = xreallocarray(t->rows, t->alloc, sizeof(*t->rows));
			}
			t->rows[t->n++] = r;
		}
		s += nl ? len + 1 : len;
	}
	return 0;
}

static int
names(const struct gaptab_row *r, const char *name)
{
	for (size_t i = 0; i < r->nnames; i++)
		if (!strcmp(r->names[i], name))
			return 1;
	return 0;
}

int
gaptab_known(const struct gaptab *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (names(&t->rows[i], name))
			return 1;
	return 0;
}

static int
value_matches(const struct gaptab_row *r, const char *value, const char **rest)
{
	size_t k;

	if (!r->value || !value)
		return 0;
	k = strlen(r->value);
	if (r->prefix ? strncmp(value, r->value, k) : strcmp(value, r->value))
		return 0;
	*rest = value + (r->prefix ? k : strlen(value));
	return 1;
}

const struct gaptab_row *
gaptab_find(const struct gaptab *t, const char *name, const char *value, const char **rest)
{
	const struct gaptab_row *plain = NULL;

	*rest = value;
	for (size_t i = 0; i < t->n; i++) {
		const struct gaptab_row *r = &t->rows[i];

		if (!names(r, name))
			continue;
		if (value_matches(r, value, rest))
			return r;
		if (!r->value && !plain)
			plain = r;
	}
	*rest = value;
	return plain;
}

const struct gaptab_row *
gaptab_yaml(const struct gaptab *t, const char *key)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->rows[i].yaml && !strcmp(t->rows[i].yaml, key))
			return &t->rows[i];
	return NULL;
}
