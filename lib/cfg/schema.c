/* SPDX-License-Identifier: Apache-2.0 */
/* The config file's fields and the aiperf profile options they set (data/config-schema.tsv). */
#include "cfg/schema.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "tok/toksrc.h"
#include "util.h"

#define TABLE "config-schema.tsv"
#define MAX_TABLE (1u << 20)

static char *
field(char **s)
{
	char *tab = strchr(*s, '\t'), *f = *s;

	if (!tab)
		return NULL;
	*tab = '\0';
	*s = tab + 1;
	return f;
}

int
cfgschema_parse(struct cfgschema *s, const char *text, size_t n, size_t *bad)
{
	char *copy = xstrndup(text, n), *save = NULL;
	size_t line = 0, cap = 0;

	memset(s, 0, sizeof(*s));
	*bad = 0;
	for (char *l = copy; l; l = save) {
		char *nl = strchr(l, '\n'), *p = l, *path, *type, *opt, *warm;

		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		line++;
		if (!*l || *l == '#')
			continue;
		if (!(path = field(&p)) || !(type = field(&p)) || !(opt = field(&p)) ||
		    !(warm = field(&p)) || strchr(p, '\t') || strlen(type) != 1 ||
		    !strchr("osinblmhxkea=-", *type) || !*path) {
			*bad = line;
			free(copy);
			cfgschema_release(s);
			return -1;
		}
		if (s->n == cap) {
			cap = cap ? 2 * cap : 256;
			s->f = xrealloc(s->f, cap * sizeof(*s->f));
		}
		s->f[s->n++] = (struct cfgfield){ xstrdup(path), *type, xstrdup(opt), xstrdup(warm),
						  xstrdup(p) };
	}
	free(copy);
	return 0;
}

int
cfgschema_load(struct cfgschema *s, char *err, size_t errlen)
{
	char *path = xstrfmt("%s/" TABLE, toksrc_datadir());
	size_t n, bad;
	char *text = util_readfile(path, MAX_TABLE, &n);
	int rc = 0;

	if (!text) {
		snprintf(err, errlen, "cannot read '%s': %s (set AIPERF_DATA_DIR to the folder holding " TABLE ")",
			 path, util_strerror(errno));
		free(path);
		memset(s, 0, sizeof(*s));
		return -1;
	}
	if (cfgschema_parse(s, text, n, &bad) < 0) {
		snprintf(err, errlen, "%s:%zu: malformed line", path, bad);
		rc = -1;
	}
	free(text);
	free(path);
	return rc;
}

void
cfgschema_release(struct cfgschema *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->f[i].path);
		free(s->f[i].option);
		free(s->f[i].warmup);
		free(s->f[i].note);
	}
	free(s->f);
	memset(s, 0, sizeof(*s));
}

const struct cfgfield *
cfgschema_find(const struct cfgschema *s, const char *path)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->f[i].path, path))
			return &s->f[i];
	return NULL;
}

char *
cfgschema_snake(const char *key)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	for (const char *k = key; *k; k++) {
		if (*k >= 'A' && *k <= 'Z') {
			if (k != key)
				buf_addch(&b, '_');
			buf_addch(&b, *k - 'A' + 'a');
		} else {
			buf_addch(&b, *k);
		}
	}
	return buf_detach(&b, NULL);
}

static char *
camel(const char *snake)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	for (const char *k = snake; *k; k++) {
		if (*k == '_' && k[1] >= 'a' && k[1] <= 'z' && k != snake) {
			buf_addch(&b, k[1] - 'a' + 'A');
			k++;
		} else {
			buf_addch(&b, *k);
		}
	}
	return buf_detach(&b, NULL);
}

/* The longest common block of a[alo..ahi) and b[blo..bhi) (difflib's
 * find_longest_match, without junk): its length, at *i, *j. */
static size_t
longest(const char *a, size_t alo, size_t ahi, const char *b, size_t blo, size_t bhi, size_t *i,
	size_t *j)
{
	size_t best = 0;

	*i = alo;
	*j = blo;
	for (size_t x = alo; x < ahi; x++)
		for (size_t y = blo; y < bhi; y++) {
			size_t k = 0;

			while (x + k < ahi && y + k < bhi && a[x + k] == b[y + k])
				k++;
			if (k > best)
				best = k, *i = x, *j = y;
		}
	return best;
}

static size_t
matches(const char *a, size_t alo, size_t ahi, const char *b, size_t blo, size_t bhi)
{
	size_t i, j, k = longest(a, alo, ahi, b, blo, bhi, &i, &j);

	if (!k)
		return 0;
	return k + matches(a, alo, i, b, blo, j) + matches(a, i + k, ahi, b, j + k, bhi);
}

double
cfgschema_ratio(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (la > 256 || lb > 256)
		return 0;
	return la + lb ? 2.0 * (double)matches(a, 0, la, b, 0, lb) / (double)(la + lb) : 1.0;
}

/* The field names directly below parent, in table order. */
static size_t
names_below(const struct cfgschema *s, const char *parent, const char **out, size_t max)
{
	size_t plen = strlen(parent), n = 0;

	for (size_t i = 0; i < s->n && n < max; i++) {
		const char *p = s->f[i].path, *rest;

		if (plen && (strncmp(p, parent, plen) || p[plen] != '.'))
			continue;
		rest = plen ? p + plen + 1 : p;
		if (strchr(rest, '.'))
			continue;
		out[n++] = rest;
	}
	return n;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

const char *
cfgschema_key(const struct cfgschema *s, const char *parent, const char *key, char *hint,
	      size_t hintlen, char *known, size_t knownlen)
{
	const char *names[512];
	size_t n = names_below(s, parent, names, 512);
	char *snake = cfgschema_snake(key);
	const char *found = NULL, *best = NULL;
	double best_r = 0;

	for (size_t i = 0; i < n && !found; i++) {
		size_t len = strlen(names[i]);
		/* "phases[]" is the field "phases" */
		int list = len > 2 && !strcmp(names[i] + len - 2, "[]");

		if ((strlen(key) == len - (list ? 2 : 0) && !strncmp(names[i], key, strlen(key))) ||
		    (strlen(snake) == len - (list ? 2 : 0) && !strncmp(names[i], snake, strlen(snake))))
			found = names[i];
	}
	if (found) {
		free(snake);
		return found;
	}
	if (hint && hintlen)
		*hint = '\0';
	if (known && knownlen) {
		char **all = xcalloc(2 * n + 1, sizeof(*all));
		size_t k = 0;
		struct buf b = BUF_INIT(BUF_NOMAX);

		for (size_t i = 0; i < n; i++) {
			char *nm = xstrdup(names[i]), *c;
			size_t len = strlen(nm);

			if (len > 2 && !strcmp(nm + len - 2, "[]"))
				nm[len - 2] = '\0';
			c = camel(nm);
			all[k++] = nm;
			if (strcmp(c, nm))
				all[k++] = c;
			else
				free(c);
		}
		qsort(all, k, sizeof(*all), cmp_str);
		buf_addch(&b, '[');
		for (size_t i = 0; i < k; i++) {
			buf_addf(&b, "%s'%s'", i ? ", " : "", all[i]);
			free(all[i]);
		}
		buf_addch(&b, ']');
		snprintf(known, knownlen, "%s", buf_str(&b));
		buf_release(&b);
		free(all);
	}
	for (size_t i = 0; i < n; i++) {
		char *nm = xstrdup(names[i]);
		size_t len = strlen(nm);
		double r;

		if (len > 2 && !strcmp(nm + len - 2, "[]"))
			nm[len - 2] = '\0';
		r = cfgschema_ratio(snake, nm);
		if (r >= 0.6 && r > best_r)
			best_r = r, best = names[i];
		free(nm);
	}
	if (best && hint && hintlen) {
		size_t len = strlen(best);

		snprintf(hint, hintlen, "'%.*s'", (int)(len > 2 && !strcmp(best + len - 2, "[]") ? len - 2 : len),
			 best);
	}
	free(snake);
	return NULL;
}
