/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-plot: the plot configuration YAML read with libyaml, checked with line numbers. */
#include "cfg.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "util.h"

#define MAX_ITEMS 256		/* plots in a list, patterns, keys of a mapping */
#define MAX_STR 1024
#define MAX_NAME 100

struct ctx {
	yaml_document_t *doc;
	const char *name;
	char *err;
	size_t errlen;
};

static const char *const types[] = {
	"scatter", "area", "histogram", "pareto", "scatter_line", "dual_axis",
	"scatter_with_percentiles", NULL,
};

FMT(3, 4) static int
fail(struct ctx *x, const yaml_node_t *n, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return util_seterr(x->err, x->errlen, "%s:%lu: %s", x->name,
			  n ? (unsigned long)n->start_mark.line + 1 : 1UL, msg);
}

static yaml_node_t *
node(struct ctx *x, int id)
{
	return yaml_document_get_node(x->doc, id);
}

static int
is_scalar(const yaml_node_t *n, const char *s)
{
	return n->type == YAML_SCALAR_NODE && n->data.scalar.length == strlen(s) &&
	       !memcmp(n->data.scalar.value, s, n->data.scalar.length);
}

/* A YAML null: "~", "null" or nothing, unquoted. */
static int
is_null(const yaml_node_t *n)
{
	return n->type == YAML_SCALAR_NODE && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	       (!n->data.scalar.length || is_scalar(n, "~") || is_scalar(n, "null") ||
		is_scalar(n, "Null") || is_scalar(n, "NULL"));
}

static const char *
kind(const yaml_node_t *n)
{
	return n->type == YAML_MAPPING_NODE ? "a mapping" :
	       n->type == YAML_SEQUENCE_NODE ? "a list" : "a scalar";
}

/* A scalar as a new string: no NUL or control characters, MAX_STR at most. */
static int
str(struct ctx *x, const yaml_node_t *n, const char *what, char **out)
{
	size_t i, len;

	if (n->type != YAML_SCALAR_NODE)
		return fail(x, n, "%s: expected a string, got %s", what, kind(n));
	len = n->data.scalar.length;
	if (len > MAX_STR)
		return fail(x, n, "%s: longer than %d bytes", what, MAX_STR);
	for (i = 0; i < len; i++)
		if (n->data.scalar.value[i] < 0x20 || n->data.scalar.value[i] == 0x7f)
			return fail(x, n, "%s: control character in the string", what);
	free(*out);
	*out = xstrndup((const char *)n->data.scalar.value, len);
	return 0;
}

/* Each key of mapping n: a string, given once; MAX_ITEMS at most. */
static int
check_keys(struct ctx *x, const yaml_node_t *n, const char *what)
{
	yaml_node_pair_t *p, *q;

	if (n->type != YAML_MAPPING_NODE)
		return fail(x, n, "%s: expected a mapping, got %s", what, kind(n));
	if (n->data.mapping.pairs.top - n->data.mapping.pairs.start > MAX_ITEMS)
		return fail(x, n, "%s: more than %d keys", what, MAX_ITEMS);
	for (p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = node(x, p->key);

		if (!k || k->type != YAML_SCALAR_NODE)
			return fail(x, k ? k : n, "%s: a key that is not a string", what);
		for (q = n->data.mapping.pairs.start; q < p; q++) {
			yaml_node_t *o = node(x, q->key);

			if (o->data.scalar.length == k->data.scalar.length &&
			    !memcmp(o->data.scalar.value, k->data.scalar.value, k->data.scalar.length))
				return fail(x, k, "%s: key '%.*s' given twice", what,
					    (int)(k->data.scalar.length > 64 ? 64 : k->data.scalar.length),
					    (const char *)k->data.scalar.value);
		}
	}
	return 0;
}

/* The value of key in mapping m (checked by check_keys), or NULL. */
static yaml_node_t *
get(struct ctx *x, const yaml_node_t *m, const char *key)
{
	yaml_node_pair_t *p;

	for (p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++)
		if (is_scalar(node(x, p->key), key))
			return node(x, p->value);
	return NULL;
}

/* "labels: [col]", "labels: col" or "labels: []" (none). */
static int
one_column(struct ctx *x, const yaml_node_t *n, const char *what, char **out)
{
	yaml_node_item_t *b;

	if (n->type != YAML_SEQUENCE_NODE)
		return is_null(n) ? 0 : str(x, n, what, out);
	b = n->data.sequence.items.start;
	if (n->data.sequence.items.top - b > 1)
		return fail(x, n, "%s: one column only (multi-column grouping is not supported)",
			    what);
	return n->data.sequence.items.top == b ? 0 : str(x, node(x, *b), what, out);
}

/* x: request_latency_avg, or x: {metric: request_latency, stat: avg}. */
static int
metric(struct ctx *x, const yaml_node_t *n, const char *what, char **out)
{
	char *m = NULL, *s = NULL;
	yaml_node_t *v;
	int rc = 0;

	if (n->type != YAML_MAPPING_NODE)
		return str(x, n, what, out);
	if (check_keys(x, n, what) < 0)
		return -1;
	if (!(v = get(x, n, "metric")))
		return fail(x, n, "%s: missing 'metric'", what);
	if (str(x, v, what, &m) < 0 || ((v = get(x, n, "stat")) && str(x, v, what, &s) < 0))
		rc = -1;
	if (rc == 0) {
		free(*out);
		*out = s ? xstrfmt("%s_%s", m, s) : xstrdup(m);
	}
	free(m);
	free(s);
	return rc;
}

static void
preset_release(struct preset *p)
{
	free(p->name);
	free(p->type);
	free(p->x);
	free(p->y);
	free(p->y2);
	free(p->stat);
	free(p->source);
	free(p->title);
	free(p->labels);
	free(p->groups);
}

static int
check_name(struct ctx *x, const yaml_node_t *k, const char *name)
{
	size_t i, n = strlen(name);

	/* the name is a file name base: data/NAME.dat, NAME.png */
	for (i = 0; i < n; i++)
		if (!strchr("-_.", name[i]) && !(name[i] >= 'a' && name[i] <= 'z') &&
		    !(name[i] >= 'A' && name[i] <= 'Z') && !(name[i] >= '0' && name[i] <= '9'))
			break;
	if (!n || n > MAX_NAME || i < n || name[0] == '.')
		return fail(x, k, "plot name '%.64s': use 1 to %d letters, digits, '-', '_' "
			    "or '.' (not first)", name, MAX_NAME);
	return 0;
}

#define COLUMNS "run_name, model, concurrency, experiment_group, experiment_type"

/* The columns of the run table that label or group runs. */
static int
is_column(const char *s)
{
	static const char *const cols[] = {
		"run_name", "model", "concurrency", "experiment_group", "experiment_type", NULL,
	};
	int i;

	for (i = 0; cols[i]; i++)
		if (!strcmp(s, cols[i]))
			return 1;
	return 0;
}

static int
preset_fields(struct ctx *x, const yaml_node_t *v, struct preset *p)
{
	static const char *const strs[] = { "type", "stat", "source", "title", NULL };
	static const char *const metrics[] = { "x", "y", "y2", NULL };
	char **sp[] = { &p->type, &p->stat, &p->source, &p->title };
	char **mp[] = { &p->x, &p->y, &p->y2 };
	yaml_node_t *f;
	int i;

	for (i = 0; strs[i]; i++)
		if ((f = get(x, v, strs[i])) && !is_null(f) && str(x, f, strs[i], sp[i]) < 0)
			return -1;
	for (i = 0; metrics[i]; i++)
		if ((f = get(x, v, metrics[i])) && !is_null(f) && metric(x, f, metrics[i], mp[i]) < 0)
			return -1;
	if ((f = get(x, v, "labels")) && one_column(x, f, "labels", &p->labels) < 0)
		return -1;
	if ((f = get(x, v, "groups")) && one_column(x, f, "groups", &p->groups) < 0)
		return -1;
	if (p->labels && !is_column(p->labels))
		return fail(x, get(x, v, "labels"), "labels: unknown column '%s' (%s)", p->labels,
			    COLUMNS);
	if (p->groups && !is_column(p->groups))
		return fail(x, get(x, v, "groups"), "groups: unknown column '%s' (%s)", p->groups,
			    COLUMNS);
	return 0;
}

/* The preset k: v of a *_plots mapping. */
static int
preset(struct ctx *x, const yaml_node_t *k, const yaml_node_t *v, struct preset *p)
{
	char what[160];
	int i;

	memset(p, 0, sizeof(*p));
	p->line = (int)k->start_mark.line + 1;
	if (str(x, k, "plot name", &p->name) < 0 || check_name(x, k, p->name) < 0)
		return -1;
	snprintf(what, sizeof(what), "plot '%s'", p->name);
	if (check_keys(x, v, what) < 0 || preset_fields(x, v, p) < 0)
		return -1;
	if (!p->type)
		return fail(x, v, "plot '%s': missing 'type'", p->name);
	for (i = 0; types[i] && strcmp(types[i], p->type); i++)
		;
	if (!types[i])
		return fail(x, get(x, v, "type"), "plot '%s': unknown type '%s' (scatter, area, "
			    "histogram, pareto, scatter_line, dual_axis, scatter_with_percentiles)",
			    p->name, p->type);
	return 0;
}

/* defaults (a list of names) resolved in plots (a mapping), into *out. */
static int
resolve(struct ctx *x, const yaml_node_t *defs, const char *dname, const yaml_node_t *plots,
	const char *pname, struct preset **out, size_t *nout)
{
	yaml_node_item_t *it;
	yaml_node_pair_t *p;

	if (!defs || is_null(defs))
		return 0;
	if (defs->type != YAML_SEQUENCE_NODE)
		return fail(x, defs, "'visualization.%s' must be a list, got %s", dname, kind(defs));
	if (defs->data.sequence.items.top - defs->data.sequence.items.start > MAX_ITEMS)
		return fail(x, defs, "'visualization.%s': more than %d plots", dname, MAX_ITEMS);
	for (it = defs->data.sequence.items.start; it < defs->data.sequence.items.top; it++) {
		yaml_node_t *n = node(x, *it), *k = NULL;
		char *name = NULL;

		if (str(x, n, dname, &name) < 0)
			return -1;
		for (p = plots ? plots->data.mapping.pairs.start : NULL;
		     p && p < plots->data.mapping.pairs.top && !k; p++)
			if (is_scalar(node(x, p->key), name))
				k = node(x, p->key);
		if (!k) {
			fail(x, n, "plot '%.128s' listed in %s but not found in %s", name, dname,
			     pname);
			free(name);
			return -1;
		}
		free(name);
		*out = xreallocarray(*out, *nout + 1, sizeof(**out));
		if (preset(x, k, node(x, (p - 1)->value), &(*out)[*nout]) < 0) {
			preset_release(&(*out)[*nout]);
			return -1;
		}
		(*nout)++;
	}
	return 0;
}

static int
visualization(struct ctx *x, const yaml_node_t *v, struct plotcfg *c)
{
	yaml_node_t *sp, *mp;

	if (check_keys(x, v, "'visualization'") < 0)
		return -1;
	sp = get(x, v, "single_run_plots");
	mp = get(x, v, "multi_run_plots");
	if (sp && is_null(sp))
		sp = NULL;
	if (mp && is_null(mp))
		mp = NULL;
	if (sp && check_keys(x, sp, "'visualization.single_run_plots'") < 0)
		return -1;
	if (mp && check_keys(x, mp, "'visualization.multi_run_plots'") < 0)
		return -1;
	if (resolve(x, get(x, v, "single_run_defaults"), "single_run_defaults", sp,
		    "single_run_plots", &c->single, &c->nsingle) < 0)
		return -1;
	return resolve(x, get(x, v, "multi_run_defaults"), "multi_run_defaults", mp,
		       "multi_run_plots", &c->multi, &c->nmulti);
}

static int
patterns(struct ctx *x, const yaml_node_t *n, const char *what, char ***out, size_t *nout)
{
	yaml_node_item_t *it;

	if (!n || is_null(n))
		return 0;
	if (n->type != YAML_SEQUENCE_NODE)
		return fail(x, n, "%s: expected a list of glob patterns, got %s", what, kind(n));
	if (n->data.sequence.items.top - n->data.sequence.items.start > MAX_ITEMS)
		return fail(x, n, "%s: more than %d patterns", what, MAX_ITEMS);
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
		*out = xreallocarray(*out, *nout + 1, sizeof(**out));
		(*out)[*nout] = NULL;
		if (str(x, node(x, *it), what, &(*out)[*nout]) < 0)
			return -1;
		(*nout)++;
	}
	return 0;
}

/* group_display_names: {group id: legend text}. */
static int
display_names(struct ctx *x, const yaml_node_t *n, struct plotcfg *c)
{
	yaml_node_pair_t *p;

	if (!n || is_null(n))
		return 0;
	if (check_keys(x, n, "group_display_names") < 0)
		return -1;
	for (p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		size_t k = c->ngroup_names;

		c->group_ids = xreallocarray(c->group_ids, k + 1, sizeof(*c->group_ids));
		c->group_names = xreallocarray(c->group_names, k + 1, sizeof(*c->group_names));
		c->group_ids[k] = c->group_names[k] = NULL;
		c->ngroup_names++;
		if (str(x, node(x, p->key), "group_display_names", &c->group_ids[k]) < 0 ||
		    str(x, node(x, p->value), "group_display_names", &c->group_names[k]) < 0)
			return -1;
	}
	return 0;
}

static int
classification(struct ctx *x, const yaml_node_t *n, struct plotcfg *c)
{
	yaml_node_t *d;
	char *def = NULL;
	int rc = 0;

	if (is_null(n))	/* "experiment_classification:" alone: off */
		return 0;
	if (check_keys(x, n, "'experiment_classification'") < 0 ||
	    patterns(x, get(x, n, "baselines"), "baselines", &c->baselines, &c->nbaselines) < 0 ||
	    patterns(x, get(x, n, "treatments"), "treatments", &c->treatments,
		     &c->ntreatments) < 0)
		return -1;
	if (display_names(x, get(x, n, "group_display_names"), c) < 0)
		return -1;
	c->classify = 1;
	c->fallback = CLASS_TREATMENT;
	if ((d = get(x, n, "default")) && !is_null(d)) {
		if (str(x, d, "default", &def) < 0)
			return -1;
		if (!strcmp(def, "baseline"))
			c->fallback = CLASS_BASELINE;
		else if (strcmp(def, "treatment"))
			rc = fail(x, d, "default: '%.64s' is neither 'baseline' nor 'treatment'", def);
		free(def);
	}
	return rc;
}

static int
root(struct ctx *x, struct plotcfg *c)
{
	yaml_node_t *r = yaml_document_get_root_node(x->doc), *v;

	if (!r)
		return fail(x, NULL, "empty configuration: expected a mapping with 'visualization'");
	if (check_keys(x, r, "the configuration") < 0)
		return -1;
	if (!(v = get(x, r, "visualization")) || is_null(v))
		return fail(x, r, "missing 'visualization' top-level key");
	if (visualization(x, v, c) < 0)
		return -1;
	v = get(x, r, "experiment_classification");
	return v ? classification(x, v, c) : 0;
}

/* What follows the first document: nothing. */
static int
one_document(yaml_parser_t *parser, const char *name, char *err, size_t errlen)
{
	yaml_document_t doc;
	int more;

	if (!yaml_parser_load(parser, &doc))
		return util_seterr(err, errlen, "%s:%lu: %s", name,
				   (unsigned long)parser->problem_mark.line + 1,
				   parser->problem ? parser->problem : "not valid YAML");
	more = yaml_document_get_root_node(&doc) != NULL;
	if (more)
		util_seterr(err, errlen, "%s:%lu: a second YAML document: one only", name,
			    (unsigned long)doc.start_mark.line + 1);
	yaml_document_delete(&doc);
	return more ? -1 : 0;
}

int
cfg_parse(struct plotcfg *c, const char *text, size_t n, const char *name, char *err,
	  size_t errlen)
{
	struct ctx x = { NULL, name, err, errlen };
	yaml_parser_t parser;
	yaml_document_t doc;
	int rc;

	memset(c, 0, sizeof(*c));
	if (memchr(text, '\0', n))
		return util_seterr(err, errlen, "%s: a NUL byte: not a text file", name);
	if (!yaml_parser_initialize(&parser))
		return util_seterr(err, errlen, "%s: cannot start the YAML parser", name);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, n);
	if (!yaml_parser_load(&parser, &doc)) {
		rc = util_seterr(err, errlen, "%s:%lu: %s%s%s", name,
				 (unsigned long)parser.problem_mark.line + 1,
				 parser.context ? parser.context : "",
				 parser.context ? ": " : "",
				 parser.problem ? parser.problem : "not valid YAML");
		yaml_parser_delete(&parser);
		return rc;
	}
	x.doc = &doc;
	rc = root(&x, c);
	yaml_document_delete(&doc);
	if (rc == 0)
		rc = one_document(&parser, name, err, errlen);
	yaml_parser_delete(&parser);
	if (rc < 0)
		cfg_release(c);
	return rc;
}

int
cfg_load(struct plotcfg *c, const char *path, char *err, size_t errlen)
{
	size_t n;
	char *s = util_readfile(path, CFG_MAX_BYTES, &n);
	int rc;

	memset(c, 0, sizeof(*c));
	if (!s)
		return util_seterr(err, errlen, "cannot read '%s': %s", path,
				   errno == EFBIG ? "larger than 1 MiB" : util_strerror(errno));
	rc = cfg_parse(c, s, n, path, err, errlen);
	free(s);
	return rc;
}

void
cfg_release(struct plotcfg *c)
{
	size_t i;

	for (i = 0; i < c->nsingle; i++)
		preset_release(&c->single[i]);
	for (i = 0; i < c->nmulti; i++)
		preset_release(&c->multi[i]);
	for (i = 0; i < c->nbaselines; i++)
		free(c->baselines[i]);
	for (i = 0; i < c->ntreatments; i++)
		free(c->treatments[i]);
	for (i = 0; i < c->ngroup_names; i++) {
		free(c->group_ids[i]);
		free(c->group_names[i]);
	}
	free(c->group_ids);
	free(c->group_names);
	free(c->single);
	free(c->multi);
	free(c->baselines);
	free(c->treatments);
	memset(c, 0, sizeof(*c));
}

static int
matches(char *const *pats, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (fnmatch(pats[i], s, 0) == 0)
			return 1;
	return 0;
}

enum cfg_class
cfg_classify(const struct plotcfg *c, const char *name, const char *path)
{
	if (!c || !c->classify)
		return CLASS_NONE;
	if (matches(c->baselines, c->nbaselines, name) ||
	    matches(c->baselines, c->nbaselines, path))
		return CLASS_BASELINE;
	if (matches(c->treatments, c->ntreatments, name) ||
	    matches(c->treatments, c->ntreatments, path))
		return CLASS_TREATMENT;
	return c->fallback;
}

const char *
cfg_group(const struct plotcfg *c, const char *name, const char *path, size_t *len)
{
	size_t e = strlen(path), b;

	*len = strlen(name);
	if (!c || !c->classify)
		return name;
	while (e > 0 && path[e - 1] == '/')	/* path's last component ends at e */
		e--;
	while (e > 0 && path[e - 1] != '/')
		e--;
	while (e > 0 && path[e - 1] == '/')	/* the parent's end */
		e--;
	for (b = e; b > 0 && path[b - 1] != '/'; b--)
		;
	if (e > b) {
		char *parent = xstrndup(path + b, e - b);
		int hit = matches(c->baselines, c->nbaselines, parent) ||
			  matches(c->treatments, c->ntreatments, parent);

		free(parent);
		if (hit) {
			*len = e - b;
			return path + b;
		}
	}
	return name;
}

const char *
cfg_group_title(const struct plotcfg *c, const char *id)
{
	size_t i;

	for (i = 0; c && i < c->ngroup_names; i++)
		if (!strcmp(c->group_ids[i], id))
			return c->group_names[i];
	return id;
}
