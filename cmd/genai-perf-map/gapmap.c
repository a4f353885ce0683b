/* SPDX-License-Identifier: Apache-2.0 */
/* GenAI-Perf's command line and config keys mapped onto aiperf profile's options. */
#include "gapmap.h"

#include <ctype.h>
#include <stdarg.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "util.h"

void
gapmap_init(struct gapmap *m, const struct gaptab *tab)
{
	memset(m, 0, sizeof(*m));
	m->tab = tab;
}

static void
vals_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void
gapmap_release(struct gapmap *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->e[i].key);
		vals_free(m->e[i].vals, m->e[i].n);
	}
	free(m->e);
	vals_free(m->pass, m->npass);
	vals_free(m->warnings, m->nwarn);
	free(m->sweep_type);
	free(m->sweep_range);
	free(m->sweep_list);
	gapmap_init(m, m->tab);
}

static int
map_fail(struct gapmap *m, const char *fmt, ...) FMT(2, 3);

static int
map_fail(struct gapmap *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m->err, sizeof(m->err), fmt, ap);
	va_end(ap);
	return -1;
}

static void
vpush(char ***v, size_t *n, const char *s)
{
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
}

static void
warn_add(struct gapmap *m, const char *fmt, ...) FMT(2, 3);

static void
warn_add(struct gapmap *m, const char *fmt, ...)
{
	char msg[GAPMAP_ERRLEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (m->nwarn < GAPMAP_MAX_ENTRIES)
		vpush(&m->warnings, &m->nwarn, msg);
}

/* The entry of aiperf option key, made when absent (NULL: too many). */
static struct gapmap_entry *
entry(struct gapmap *m, const char *key, const struct gaptab_row *row)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->e[i].key, key)) {
			m->e[i].row = row;
			return &m->e[i];
		}
	if (m->n >= GAPMAP_MAX_ENTRIES)
		return NULL;
	m->e = xreallocarray(m->e, m->n + 1, sizeof(*m->e));
	m->e[m->n] = (struct gapmap_entry){ .row = row, .key = xstrndup(row->target,
		strcspn(row->target, " ")) };
	return &m->e[m->n++];
}

static void
entry_drop(struct gapmap *m, const char *target)
{
	size_t k = strcspn(target, " ");

	for (size_t i = 0; i < m->n; i++) {
		if (strlen(m->e[i].key) != k || strncmp(m->e[i].key, target, k))
			continue;
		free(m->e[i].key);
		vals_free(m->e[i].vals, m->e[i].n);
		memmove(&m->e[i], &m->e[i + 1], (m->n - i - 1) * sizeof(*m->e));
		m->n--;
		return;
	}
}

/* A rule's row (refused, dropped, a wrapper's setting): 1 when r is one,
 * -1 when refused, 0 for an option to set. */
static int
apply_rule(struct gapmap *m, const struct gaptab_row *r, const char *name, const char *val)
{
	const char *v = r->value ? " " : "", *rv = r->value ? val : "";

	if (r->target[0] == '!')
		return map_fail(m, "'%s%s%s' has no counterpart in aiperf: %s", name, v, rv,
				r->note ? r->note : "not supported");
	if (r->target[0] == '~') {
		if (r->note)
			warn_add(m, "'%s%s%s' is ignored: %s", name, v, rv, r->note);
		return 1;
	}
	if (r->value && r->note)
		warn_add(m, "'%s %s': %s", name, rv, r->note);
	if (!strcmp(r->target, "@plots"))
		m->plots = strcmp(val, "false") != 0;
	else if (!strcmp(r->target, "@dry-run"))
		m->dry_run = 1;
	else if (!strcmp(r->target, "@help") || !strcmp(r->target, "@version"))
		m->action = r->target[1] == 'h' ? GAPMAP_HELP : GAPMAP_VERSION;
	else
		return 0;
	return 1;
}

/* What name (as given, with value for a row of one value) sets. */
static int
apply(struct gapmap *m, const struct gaptab_row *r, const char *name, char **vals, size_t n)
{
	struct gapmap_entry *e;
	int rule = apply_rule(m, r, name, vals[0]);

	if (rule)
		return rule < 0 ? -1 : 0;
	if (r->kind == GAPTAB_FLAG && !strcmp(vals[0], "false")) {
		entry_drop(m, r->target);
		return 0;
	}
	if (!(e = entry(m, r->target, r)))
		return map_fail(m, "too many options");
	if (r->kind != GAPTAB_LIST) {
		vals_free(e->vals, e->n);
		e->vals = NULL, e->n = 0;
	}
	for (size_t i = 0; i < n; i++) {
		if (e->n >= GAPMAP_MAX_VALUES)
			return map_fail(m, "'%s': too many values", name);
		/* a matched NAME=PREFIX* row: the value past the prefix */
		vpush(&e->vals, &e->n, i == 0 && r->value ? vals[0] + strlen(r->value) * r->prefix
			: vals[i]);
	}
	return 0;
}

/* A word that is a value, not an option: not "-x", or a negative number. */
static int
is_value(const char *w)
{
	return w[0] != '-' || isdigit((unsigned char)w[1]) || (w[1] == '.' && w[2]);
}

/* --sweep-type, --sweep-range, --sweep-list (analyze's own). */
static char **
sweep_slot(struct gapmap *m, const char *name)
{
	if (!strcmp(name, "--sweep-type"))
		return &m->sweep_type;
	if (!strcmp(name, "--sweep-range"))
		return &m->sweep_range;
	if (!strcmp(name, "--sweep-list"))
		return &m->sweep_list;
	return NULL;
}

/* One option at argv[0] with its values: how many arguments it took, or -1. */
static int
one_option(struct gapmap *m, int argc, char **argv)
{
	char *eq = argv[0][1] == '-' ? strchr(argv[0], '=') : NULL;
	char *name = eq ? xstrndup(argv[0], (size_t)(eq - argv[0])) : xstrdup(argv[0]);
	const char *rest;
	const struct gaptab_row *r = gaptab_find(m->tab, name, NULL, &rest);
	char *one[1];
	char **slot = sweep_slot(m, name);
	int taken = 1, rc;

	if (slot && !m->analyze)
		rc = map_fail(m, "'%s' is an option of genai-perf analyze", name);
	else if (!slot && !r)
		rc = map_fail(m, "unknown option '%s' (aiperf's own go after '--')", name);
	else if (r && r->kind == GAPTAB_FLAG && eq)
		rc = map_fail(m, "option '%s' takes no value", name);
	else if (r && r->kind == GAPTAB_FLAG)
		rc = apply(m, r, name, (one[0] = (char *)"true", one), 1);
	else if (!eq && (argc < 2 || ((!r || r->kind == GAPTAB_WORDS || r->kind == GAPTAB_JOINED) &&
				      !is_value(argv[1]))))
		rc = map_fail(m, "option '%s' needs a value", name);
	else if (slot) {
		free(*slot);
		*slot = xstrdup(eq ? eq + 1 : argv[taken++]);
		rc = 0;
	} else if (r->kind == GAPTAB_ARG || r->kind == GAPTAB_LIST || eq) {
		one[0] = eq ? eq + 1 : argv[taken++];
		r = gaptab_find(m->tab, name, one[0], &rest);
		rc = apply(m, r, name, one, 1);
	} else {
		int k = 1;

		while (k < argc && is_value(argv[k]))
			k++;
		rc = apply(m, r, name, argv + 1, (size_t)(k - 1));
		taken = k;
	}
	free(name);
	return rc < 0 ? -1 : taken;
}

/* KEY=VALUE: the config file's key set (--override-config). */
static int
keyval(struct gapmap *m, const char *kv)
{
	const char *eq = strchr(kv, '=');
	char *key = xstrndup(kv, (size_t)(eq - kv)), *val = xstrdup(eq + 1);

	/* YAML's booleans, as the config file's reader takes them */
	if (!strcasecmp(val, "true") || !strcasecmp(val, "false"))
		for (char *c = val; *c; c++)
			*c = (char)tolower((unsigned char)*c);
	int rc = gapmap_yaml(m, key, &val, 1);

	free(key);
	free(val);
	return rc;
}

int
gapmap_args(struct gapmap *m, int argc, char **argv)
{
	for (int i = 0; i < argc;) {
		int k;

		if (!strcmp(argv[i], "--")) {
			for (i++; i < argc; i++)
				vpush(&m->pass, &m->npass, argv[i]);
			break;
		}
		if (m->keyvals && argv[i][0] != '-' && strchr(argv[i], '=')) {
			if (keyval(m, argv[i++]) < 0)
				return -1;
			continue;
		}
		if (argv[i][0] != '-' || !argv[i][1])
			return map_fail(m, "unexpected argument '%s'", argv[i]);
		if ((k = one_option(m, argc - i, argv + i)) < 0)
			return -1;
		i += k;
	}
	return 0;
}

/* Whether the config's value is GenAI-Perf's default for the row. */
static int
at_default(const struct gaptab_row *r, char **vals, size_t n)
{
	const char *d = r->def, *v = vals[0];

	if (!d || n != 1)
		return 0;
	while (!strncmp(d, "./", 2))
		d += 2;
	while (!strncmp(v, "./", 2))
		v += 2;
	return !strcasecmp(d, v);
}

int
gapmap_yaml(struct gapmap *m, const char *key, char **vals, size_t n)
{
	const char *rest;
	const struct gaptab_row *r;

	if (!strncmp(key, "analyze.", 8) && n == 1) {
		free(m->sweep_type);
		m->sweep_type = xstrdup(key + 8);
		free(strchr(vals[0], ':') ? m->sweep_range : m->sweep_list);
		*(strchr(vals[0], ':') ? &m->sweep_range : &m->sweep_list) = xstrdup(vals[0]);
		return 0;
	}
	if (!(r = gaptab_yaml(m->tab, key)))
		return map_fail(m, "unknown key '%s'", key);
	if (at_default(r, vals, n)) {
		/* left to aiperf's default: what an earlier setting set is undone */
		if (r->target[0] == '!' || r->target[0] == '~')
			return 0;
		if (r->kind == GAPTAB_FLAG)
			return apply(m, r, key, (char *[]){ (char *)"false" }, 1);
		if (r->target[0] == '-')
			entry_drop(m, r->target);
		return 0;
	}
	if (r->nnames && !(r = gaptab_find(m->tab, r->names[0], vals[0], &rest)))
		return map_fail(m, "unknown key '%s'", key);
	if (r->kind == GAPTAB_FLAG && strcmp(vals[0], "true") && strcmp(vals[0], "false"))
		return map_fail(m, "'%s': not a boolean: '%s'", key, vals[0]);
	if (r->kind == GAPTAB_ARG && n != 1)
		return map_fail(m, "'%s' takes one value", key);
	return apply(m, r, r->nnames ? r->names[r->nnames - 1] : key, vals, n);
}

static int
check_list(struct gapmap *m, const char *list)
{
	char *s = xstrdup(list), *w = s;
	size_t k = 0;
	double d;
	int rc = 0;

	for (;;) {
		char *comma = strchr(w, ',');

		if (comma)
			*comma = '\0';
		if (util_strtod(w, &d) < 0 || d <= 0 || ++k > GAPMAP_MAX_VALUES) {
			rc = map_fail(m, "--sweep-list: not a list of positive numbers: '%s'", list);
			break;
		}
		if (!comma)
			break;
		w = comma + 1;
	}
	free(s);
	return rc;
}

int
gapmap_sweep(struct gapmap *m)
{
	const char *type = m->sweep_type ? m->sweep_type : "concurrency", *rest;
	const struct gaptab_row *r = gaptab_find(m->tab, "--sweep-type", type, &rest);
	char *list = NULL;
	struct gapmap_entry *e;

	if (m->sweep_range && m->sweep_list)
		return map_fail(m, "--sweep-range and --sweep-list: give one");
	if (!r || !r->value)
		return map_fail(m, "unknown --sweep-type '%s' (concurrency, request_rate, "
			    "input_sequence_length, num_dataset_entries)", type);
	if (r->target[0] == '!')
		return map_fail(m, "'--sweep-type %s' has no counterpart in aiperf: %s", type,
			    r->note ? r->note : "");
	if (m->sweep_list && check_list(m, m->sweep_list) < 0)
		return -1;
	if (m->sweep_list)
		list = xstrdup(m->sweep_list);
	else if (gapmap_range(m->sweep_range ? m->sweep_range : r->def, &list, m->err,
			      sizeof(m->err)) < 0)
		return -1;
	if (!(e = entry(m, r->target, r))) {
		free(list);
		return map_fail(m, "too many options");
	}
	vals_free(e->vals, e->n);
	e->vals = xmalloc(sizeof(*e->vals));
	e->vals[0] = list;
	e->n = 1;
	return 0;
}

static int
range_parts(const char *range, long long v[3], int *nv)
{
	char *s = xstrdup(range), *w = s;
	const char *why;
	int rc = 0;

	*nv = 0;
	for (;;) {
		char *colon = strchr(w, ':');

		if (colon)
			*colon = '\0';
		if (*nv == 3 || util_strtonum(w, 1, 1000000000, &v[(*nv)++], &why) < 0) {
			rc = -1;
			break;
		}
		if (!colon)
			break;
		w = colon + 1;
	}
	free(s);
	return rc < 0 || *nv < 2 || v[1] < v[0] ? -1 : 0;
}

int
gapmap_range(const char *range, char **out, char *err, size_t errlen)
{
	long long v[3], x;
	int nv;
	size_t k = 0;
	struct buf b;

	if (range_parts(range, v, &nv) < 0)
		return util_seterr(err, errlen, "--sweep-range: not START:STOP[:STEP] "
				   "(integers, 1 <= START <= STOP): '%s'", range);
	buf_init(&b, BUF_NOMAX);
	for (x = v[0]; x <= v[1]; x = nv == 3 ? x + v[2] : 2 * x) {
		if (++k > GAPMAP_MAX_VALUES) {
			buf_release(&b);
			return util_seterr(err, errlen, "--sweep-range: more than %d values: '%s'",
					   GAPMAP_MAX_VALUES, range);
		}
		buf_addf(&b, "%s%lld", k > 1 ? "," : "", x);
	}
	*out = buf_detach(&b, NULL);
	return 0;
}

/* The words of target, each "*" the value v. */
static void
expand(const char *target, const char *v, char ***out, size_t *n)
{
	char *s = xstrdup(target), *w = s;

	for (;;) {
		size_t k = strcspn(w, " ");
		int last = !w[k];

		w[k] = '\0';
		vpush(out, n, strcmp(w, "*") ? w : v);
		if (last)
			break;
		w += k + 1;
	}
	free(s);
}

static void
entry_argv(const struct gapmap_entry *e, char ***out, size_t *n)
{
	const struct gaptab_row *r = e->row;
	struct buf b;

	if (strchr(r->target, '*')) {
		for (size_t i = 0; i < e->n; i++)
			expand(r->target, e->vals[i], out, n);
	} else if (r->kind == GAPTAB_FLAG || strchr(r->target, ' ')) {
		/* a flag, or a value's whole rule (--endpoint-type chat) */
		expand(r->target, "", out, n);
	} else if (r->kind == GAPTAB_JOINED) {
		buf_init(&b, BUF_NOMAX);
		for (size_t i = 0; i < e->n; i++)
			buf_addf(&b, "%s%s", i ? " " : "", e->vals[i]);
		expand(r->target, "", out, n);
		vpush(out, n, buf_str(&b));
		buf_release(&b);
	} else {
		for (size_t i = 0; i < e->n; i++) {
			expand(r->target, "", out, n);
			vpush(out, n, e->vals[i]);
		}
	}
}

char **
gapmap_argv(const struct gapmap *m, size_t *n)
{
	char **out = NULL;

	*n = 0;
	for (size_t i = 0; i < m->n; i++)
		entry_argv(&m->e[i], &out, n);
	for (size_t i = 0; i < m->npass; i++)
		vpush(&out, n, m->pass[i]);
	return out;
}
