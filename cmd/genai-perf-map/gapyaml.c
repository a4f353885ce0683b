/* SPDX-License-Identifier: Apache-2.0 */
/* GenAI-Perf's YAML config: libyaml's document, walked into dotted keys. */
#include "gapyaml.h"

#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "buf.h"
#include "util.h"

struct walk {
	struct gapmap *m;
	yaml_document_t *doc;
	size_t nodes;		/* walked: aliases may reach a node many times */
};

static int
yaml_fail(struct gapmap *m, const char *key, const char *what)
{
	snprintf(m->err, sizeof(m->err), "'%s': %s", key, what);
	return -1;
}

static const char *
scalar(yaml_node_t *node)
{
	return node && node->type == YAML_SCALAR_NODE ? (const char *)node->data.scalar.value : NULL;
}

/* A null ("", "~", "null") scalar: unset. */
static int
is_null(const char *s)
{
	return !*s || !strcmp(s, "~") || !strcasecmp(s, "null");
}

/* YAML's booleans as the table's "true"/"false"; other text as is. */
static const char *
norm(const char *s)
{
	if (!strcasecmp(s, "true") || !strcasecmp(s, "yes"))
		return "true";
	if (!strcasecmp(s, "false") || !strcasecmp(s, "no"))
		return "false";
	return s;
}

static void
ypush(char ***v, size_t *n, const char *s)
{
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
}

static void
yvals_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int
yset(struct walk *w, const char *key, char **v, size_t n)
{
	int rc = n ? gapmap_yaml(w->m, key, v, n) : 0;

	yvals_free(v, n);
	return rc;
}

/* A sequence of scalars: its values (a comma list for analyze). */
static int
sequence(struct walk *w, const char *key, yaml_node_t *node)
{
	char **v = NULL;
	size_t n = 0;
	struct buf b;

	for (yaml_node_item_t *it = node->data.sequence.items.start;
	     it < node->data.sequence.items.top; it++) {
		const char *s = scalar(yaml_document_get_node(w->doc, *it));

		if (!s || ++w->nodes > GAPYAML_MAX_NODES) {
			yvals_free(v, n);
			return yaml_fail(w->m, key, "a list of values only");
		}
		if (!is_null(s) && n < GAPMAP_MAX_VALUES)
			ypush(&v, &n, norm(s));
	}
	if (strncmp(key, "analyze.", 8) || !n)
		return yset(w, key, v, n);
	buf_init(&b, BUF_NOMAX);
	for (size_t i = 0; i < n; i++)
		buf_addf(&b, "%s%s", i ? "," : "", v[i]);
	yvals_free(v, n);
	v = xmalloc(sizeof(*v));
	v[0] = buf_detach(&b, NULL);
	return yset(w, key, v, 1);
}

/* A mapping of scalars: NAME:VALUE words (input.extra), or analyze's
 * {start, stop, step} as START:STOP[:STEP]. */
static int
pairs(struct walk *w, const char *key, yaml_node_t *node)
{
	char **v = NULL, *rng[3] = { NULL, NULL, NULL };
	size_t n = 0;
	int analyze = !strncmp(key, "analyze.", 8);
	static const char *const parts[] = { "start", "stop", "step" };

	for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top;
	     p++) {
		const char *k = scalar(yaml_document_get_node(w->doc, p->key));
		const char *s = scalar(yaml_document_get_node(w->doc, p->value));
		int i = 0;

		if (!k || !s || ++w->nodes > GAPYAML_MAX_NODES) {
			yvals_free(v, n);
			return yaml_fail(w->m, key, "NAME: VALUE pairs only");
		}
		while (analyze && i < 3 && strcmp(k, parts[i]))
			i++;
		if (analyze && i == 3) {
			yvals_free(v, n);
			return yaml_fail(w->m, key, "start, stop and step only");
		}
		if (analyze)
			rng[i] = (char *)s;
		else if (n < GAPMAP_MAX_VALUES)
			v = xreallocarray(v, n + 1, sizeof(*v)), v[n++] = xstrfmt("%s:%s", k, s);
	}
	if (!analyze)
		return yset(w, key, v, n);
	if (!rng[0] || !rng[1])
		return yaml_fail(w->m, key, "needs start and stop");
	v = xmalloc(sizeof(*v));
	v[0] = rng[2] ? xstrfmt("%s:%s:%s", rng[0], rng[1], rng[2]) : xstrfmt("%s:%s", rng[0], rng[1]);
	return yset(w, key, v, 1);
}

static int node_walk(struct walk *w, const char *key, yaml_node_t *node, int depth);

static int
mapping(struct walk *w, const char *key, yaml_node_t *node, int depth)
{
	for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top;
	     p++) {
		const char *k = scalar(yaml_document_get_node(w->doc, p->key));
		char *sub;
		int rc;

		if (!k || !*k || strchr(k, '.'))
			return yaml_fail(w->m, *key ? key : "(top)", "a key is not a plain name");
		sub = *key ? xstrfmt("%s.%s", key, k) : xstrdup(k);
		rc = node_walk(w, sub, yaml_document_get_node(w->doc, p->value), depth + 1);
		free(sub);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* A mapping whose values are all scalars, below a section: pairs. */
static int
flat_mapping(struct walk *w, yaml_node_t *node)
{
	for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top;
	     p++)
		if (!scalar(yaml_document_get_node(w->doc, p->value)))
			return 0;
	return 1;
}

static int
node_walk(struct walk *w, const char *key, yaml_node_t *node, int depth)
{
	const char *s;
	char **v = NULL;
	size_t n = 0;

	if (!node || depth > GAPYAML_MAX_DEPTH)
		return yaml_fail(w->m, key, "nested too deep");
	if (++w->nodes > GAPYAML_MAX_NODES)
		return yaml_fail(w->m, key, "too many values");
	switch (node->type) {
	case YAML_SCALAR_NODE:
		s = scalar(node);
		if (!*key)
			return is_null(s) ? 0 : yaml_fail(w->m, "(top)", "not a mapping");
		if (is_null(s))
			return 0;
		ypush(&v, &n, norm(s));
		return yset(w, key, v, n);
	case YAML_SEQUENCE_NODE:
		return *key ? sequence(w, key, node) : yaml_fail(w->m, "(top)", "not a mapping");
	case YAML_MAPPING_NODE:
		if ((!strcmp(key, "input.extra") || !strncmp(key, "analyze.", 8)) &&
		    flat_mapping(w, node))
			return pairs(w, key, node);
		return mapping(w, key, node, depth);
	default:
		return yaml_fail(w->m, key, "not a value");
	}
}

int
gapyaml_load(struct gapmap *m, const char *s, size_t n)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	struct walk w = { m, &doc, 0 };
	yaml_node_t *root;
	int rc;

	if (n > GAPYAML_MAX_FILE)
		return yaml_fail(m, "(file)", "too large");
	if (!yaml_parser_initialize(&parser))
		return yaml_fail(m, "(file)", "out of memory");
	yaml_parser_set_input_string(&parser, (const unsigned char *)s, n);
	if (!yaml_parser_load(&parser, &doc)) {
		snprintf(m->err, sizeof(m->err), "line %zu: %s", parser.problem_mark.line + 1,
			 parser.problem ? parser.problem : "not YAML");
		yaml_parser_delete(&parser);
		return -1;
	}
	root = yaml_document_get_root_node(&doc);
	rc = root ? node_walk(&w, "", root, 0) : 0;
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return rc;
}
