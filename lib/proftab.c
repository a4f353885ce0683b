/* SPDX-License-Identifier: Apache-2.0 */
/* The options table of aiperf profile: one line an option, tab-separated fields. */
#include "proftab.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static const char *const kinds[] = { "flag", "arg", "list", NULL };
static const char *const supports[] = { "yes", "ours", "inert", "no", NULL };
static const char *const forms[] = { "split", "words", "nargs", "run", "warmup", NULL };

void
proftab_init(struct proftab *t)
{
	t->opts = NULL;
	t->n = t->alloc = 0;
}

static void
words_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void
opt_release(struct proftab_opt *o)
{
	free(o->name);
	words_free(o->aliases, o->naliases);
	free(o->stages);
	free(o->config);
	free(o->def);
	words_free(o->values, o->nvalues);
	free(o->note);
	free(o->sweep_path);
	free(o->group);
}

void
proftab_release(struct proftab *t)
{
	for (size_t i = 0; i < t->n; i++)
		opt_release(&t->opts[i]);
	free(t->opts);
	proftab_init(t);
}

/* The field's text, or NULL for "-". */
static char *
field_dup(const char *s, size_t n)
{
	return n == 1 && *s == '-' ? NULL : xstrndup(s, n);
}

static int
word_index(const char *const *list, const char *s, size_t n)
{
	for (int i = 0; list[i]; i++)
		if (strlen(list[i]) == n && !memcmp(list[i], s, n))
			return i;
	return -1;
}

/* Splits s[0..n) on sep into *v (no empty word); "-" is none. */
static int
split_words(const char *s, size_t n, char sep, char ***v, size_t *nv)
{
	const char *end = s + n, *p;

	*v = NULL;
	*nv = 0;
	if (n == 1 && *s == '-')
		return 0;
	while (s < end) {
		for (p = s; p < end && *p != sep; p++)
			;
		if (p == s)
			goto err;
		*v = xreallocarray(*v, *nv + 1, sizeof(**v));
		(*v)[(*nv)++] = xstrndup(s, (size_t)(p - s));
		s = p < end ? p + 1 : p;
		if (p < end && s == end)
			goto err;
	}
	return 0;
err:
	words_free(*v, *nv);
	*v = NULL;
	*nv = 0;
	return -1;
}

static int
name_ok(const char *s, size_t n)
{
	size_t i = s[0] == '-' && s[1] == '-' ? 2 : 1;

	if (n <= i || s[0] != '-')
		return 0;
	for (; i < n; i++)
		if (!(s[i] == '-' || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9')))
			return 0;
	return 1;
}

static int
stages_ok(const char *s)
{
	return !s || strspn(s, "gsmewya") == strlen(s);
}

/* PATH:TYPE, PATH of [a-z_.], TYPE one of bBifsLIF. */
static int
config_parse(struct proftab_opt *o, const char *s, size_t n)
{
	const char *colon = memchr(s, ':', n);
	size_t plen;

	if (n == 1 && *s == '-')
		return 0;
	if (!colon || colon == s || (size_t)(colon - s) != n - 2 || !strchr("bBifsLIF", colon[1]))
		return -1;
	plen = (size_t)(colon - s);
	for (size_t i = 0; i < plen; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (i && s[i] >= '0' && s[i] <= '9') ||
		      s[i] == '_' || s[i] == '.'))
			return -1;
	o->config = xstrndup(s, plen);
	o->config_type = colon[1];
	return 0;
}

/* sweep:PATH, the original's sweep parameter a list value of the option sets. */
static int
sweep_path(struct proftab_opt *o, const char *path)
{
	size_t n = strlen(path);

	if (!n || path[0] == '.' || path[n - 1] == '.' || strstr(path, ".."))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!((path[i] >= 'a' && path[i] <= 'z') || path[i] == '_' || path[i] == '.'))
			return -1;
	o->sweep_path = xstrdup(path);
	return 0;
}

static int
form_parse(struct proftab_opt *o, const char *s, size_t n)
{
	char **w;
	size_t nw;
	int i, rc = 0;

	if (split_words(s, n, ',', &w, &nw) < 0)
		return -1;
	for (size_t k = 0; k < nw && !rc; k++) {
		if (!strncmp(w[k], "sweep:", 6) && !o->sweep_path)
			rc = sweep_path(o, w[k] + 6);
		else if ((i = word_index(forms, w[k], strlen(w[k]))) < 0)
			rc = -1;
		else
			o->form |= 1u << i;
	}
	words_free(w, nw);
	return rc;
}

struct span {
	const char *s;
	size_t n;
};

/* The fields of the line s[0..n) into f: how many there were. */
static size_t
fields_of(const char *s, size_t n, struct span *f, size_t max)
{
	const char *end = s + n, *p;
	size_t k = 0;

	for (;;) {
		p = memchr(s, '\t', (size_t)(end - s));
		if (k < max)
			f[k] = (struct span){ s, p ? (size_t)(p - s) : (size_t)(end - s) };
		k++;
		if (!p)
			return k;
		s = p + 1;
	}
}

static int
line_parse(struct proftab_opt *o, const char *s, size_t n)
{
	struct span f[PROFTAB_FIELDS];
	int kind, support;

	if (fields_of(s, n, f, PROFTAB_FIELDS) != PROFTAB_FIELDS)
		return -1;
	for (size_t i = 0; i < PROFTAB_FIELDS; i++)
		if (f[i].n == 0 || memchr(f[i].s, '\0', f[i].n))
			return -1;
	kind = word_index(kinds, f[2].s, f[2].n);
	support = word_index(supports, f[7].s, f[7].n);
	if (!name_ok(f[0].s, f[0].n) || kind < 0 || support < 0)
		return -1;
	o->kind = (enum proftab_kind)kind;
	o->support = (enum proftab_support)support;
	o->name = xstrndup(f[0].s, f[0].n);
	o->stages = field_dup(f[3].s, f[3].n);
	o->def = field_dup(f[5].s, f[5].n);
	o->note = field_dup(f[8].s, f[8].n);
	o->group = field_dup(f[9].s, f[9].n);
	if (split_words(f[1].s, f[1].n, ' ', &o->aliases, &o->naliases) < 0 ||
	    split_words(f[6].s, f[6].n, ' ', &o->values, &o->nvalues) < 0 ||
	    config_parse(o, f[4].s, f[4].n) < 0 || form_parse(o, f[10].s, f[10].n) < 0 ||
	    !stages_ok(o->stages))
		return -1;
	for (size_t i = 0; i < o->naliases; i++)
		if (!name_ok(o->aliases[i], strlen(o->aliases[i])))
			return -1;
	if (!o->stages)
		o->stages = xstrdup("");
	return 0;
}

static int
add_line(struct proftab *t, const char *s, size_t n, size_t line)
{
	struct proftab_opt *o;

	if (t->n == PROFTAB_MAX_OPTIONS)
		return -1;
	if (t->n == t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 64;
		t->opts = xreallocarray(t->opts, t->alloc, sizeof(*t->opts));
	}
	o = &t->opts[t->n];
	memset(o, 0, sizeof(*o));
	o->line = line;
	if (line_parse(o, s, n) < 0) {
		opt_release(o);
		return -1;
	}
	t->n++;
	return 0;
}

int
proftab_parse(struct proftab *t, const char *s, size_t n, size_t *badline)
{
	const char *end = s + n, *nl;
	size_t line = 0, len;

	*badline = 0;
	if (n > PROFTAB_MAX_FILE)
		return -1;
	for (; s < end; s = nl ? nl + 1 : end) {
		nl = memchr(s, '\n', (size_t)(end - s));
		len = nl ? (size_t)(nl - s) : (size_t)(end - s);
		line++;
		if (len && s[len - 1] == '\r')
			len--;
		if (len == 0 || *s == '#')
			continue;
		if (add_line(t, s, len, line) < 0) {
			*badline = line;
			proftab_release(t);
			return -1;
		}
	}
	return 0;
}

static int
has_word(char *const *v, size_t n, const char *w)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], w))
			return 1;
	return 0;
}

const struct proftab_opt *
proftab_find(const struct proftab *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct proftab_opt *o = &t->opts[i];

		if (!strcmp(o->name, name) || has_word(o->aliases, o->naliases, name))
			return o;
	}
	return NULL;
}

int
proftab_has_value(const struct proftab_opt *o, const char *word)
{
	return has_word(o->values, o->nvalues, word);
}
