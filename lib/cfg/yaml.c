/* SPDX-License-Identifier: Apache-2.0 */
/* A YAML config file read as PyYAML's safe_load reads it, into a JSON tree, with ${VAR} substituted. */
#include "cfg/yaml.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "buf.h"
#include "json/jw.h"
#include "pytext.h"
#include "util.h"

struct walk {
	struct cfgyaml *y;
	yaml_document_t *doc;
	struct jw w;
	struct buf out;
	struct buf path;
	char *err;
	size_t errlen;
	int failed;
};

static int fail(struct walk *k, const yaml_node_t *n, const char *fmt, ...) FMT(3, 4);

static int
fail(struct walk *k, const yaml_node_t *n, const char *fmt, ...)
{
	va_list ap;
	size_t off = 0;

	if (k->failed)
		return -1;
	k->failed = 1;
	if (n)
		off = (size_t)snprintf(k->err, k->errlen, "%zu:%zu: ", (size_t)n->start_mark.line + 1,
				       (size_t)n->start_mark.column + 1);
	if (off < k->errlen) {
		va_start(ap, fmt);
		vsnprintf(k->err + off, k->errlen - off, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static void
note_line(struct cfgyaml *y, const char *path, long line)
{
	if (y->n == y->cap) {
		y->cap = y->cap ? 2 * y->cap : 64;
		y->paths = xrealloc(y->paths, y->cap * sizeof(*y->paths));
		y->lines = xrealloc(y->lines, y->cap * sizeof(*y->lines));
	}
	y->paths[y->n] = xstrdup(path);
	y->lines[y->n++] = line;
}

long
cfgyaml_line(const struct cfgyaml *y, const char *path)
{
	for (size_t i = y->n; i-- > 0;)
		if (!strcmp(y->paths[i], path))
			return y->lines[i];
	return 0;
}

static int
one_of(const char *s, size_t n, const char *const *v)
{
	for (; *v; v++)
		if (strlen(*v) == n && !memcmp(*v, s, n))
			return 1;
	return 0;
}

static const char *const nulls[] = { "", "~", "null", "Null", "NULL", NULL };
static const char *const trues[] = { "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON",
	NULL };
static const char *const falses[] = { "no", "No", "NO", "false", "False", "FALSE", "off", "Off",
	"OFF", NULL };

/* digits of base b with '_' between (PyYAML allows '_' anywhere after the
 * first): the value, or -1 when not that or too large for int64. */
static int
digits(const char *s, size_t n, int base, int under_first, uint64_t *v)
{
	size_t nd = 0;

	*v = 0;
	for (size_t i = 0; i < n; i++) {
		int d;

		if (s[i] == '_' && (i > 0 || under_first))
			continue;
		if (s[i] >= '0' && s[i] <= '9')
			d = s[i] - '0';
		else if (s[i] >= 'a' && s[i] <= 'f')
			d = s[i] - 'a' + 10;
		else if (s[i] >= 'A' && s[i] <= 'F')
			d = s[i] - 'A' + 10;
		else
			return -1;
		if (d >= base)
			return -1;
		if (*v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return -2;
		*v = *v * (uint64_t)base + (uint64_t)d;
		nd++;
	}
	return nd ? 0 : -1;
}

/* A plain scalar as YAML 1.1 int: 1 (into out), 0 not one, -1 too large. */
static int
yaml_int(const char *s, size_t n, struct buf *out)
{
	int neg = 0, r;
	uint64_t v;

	if (n && (*s == '-' || *s == '+'))
		neg = *s == '-', s++, n--;
	if (!n)
		return 0;
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'b'))
		r = digits(s + 2, n - 2, s[1] == 'x' ? 16 : 2, 1, &v);
	else if (n > 1 && s[0] == '0')	/* 0o17 is YAML 1.2's: PyYAML's string */
		r = digits(s + 1, n - 1, 8, 1, &v);
	else if (s[0] == '0')
		r = (v = 0, 0);
	else
		r = s[0] >= '1' && s[0] <= '9' ? digits(s, n, 10, 0, &v) : -1;
	if (r == -1)
		return 0;
	if (r == -2 || v > (uint64_t)INT64_MAX + (uint64_t)neg)
		return -1;
	if (neg)
		buf_addch(out, '-');
	buf_addf(out, "%llu", (unsigned long long)v);
	return 1;
}

/* A plain scalar as YAML 1.1 float (PyYAML's: a dot, an exponent only
 * with its sign): 1 (into out), 0 not one, -1 inf or nan. */
static int
yaml_float(const char *s, size_t n, struct buf *out)
{
	char tmp[128], *end;
	size_t i = 0, k = 0, ndig = 0;
	struct jw w;

	if (one_of(s, n, (const char *const[]){ ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF",
						"-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN",
						NULL }))
		return -1;
	if (n >= sizeof(tmp) - 2)
		return 0;
	if (s[i] == '-' || s[i] == '+')
		tmp[k++] = s[i++];
	if (i < n && s[i] >= '0' && s[i] <= '9') {
		while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			if (s[i++] != '_')
				tmp[k++] = s[i - 1], ndig++;
	} else if (i < n && s[i] == '.' && k) {
		return 0;	/* "-.5" is PyYAML's string */
	}
	if (i >= n || s[i] != '.')
		return 0;
	tmp[k++] = s[i++];
	while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
		if (s[i++] != '_')
			tmp[k++] = s[i - 1], ndig++;
	if (!ndig)
		return 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		tmp[k++] = s[i++];
		if (i >= n || (s[i] != '-' && s[i] != '+'))
			return 0;
		tmp[k++] = s[i++];
		if (i >= n)
			return 0;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			tmp[k++] = s[i++];
	}
	if (i != n)
		return 0;
	tmp[k] = '\0';
	errno = 0;
	double d = strtod(tmp, &end);

	if (*end || !isfinite(d))
		return -1;
	jw_init(&w, out, 0);
	jw_double_py(&w, d);
	return 1;
}

void
cfgyaml_coerce(const char *s, size_t n, struct buf *out)
{
	struct jw w;
	double d;

	jw_init(&w, out, 0);
	if ((n == 4 && !strncasecmp(s, "true", 4)) || (n == 5 && !strncasecmp(s, "false", 5)))
		jw_bool(&w, n == 4);
	else if (pytext_int(s, n, out))
		;
	else if (pytext_float(s, n, &d) && isfinite(d))	/* JSON has no inf or nan: those stay strings */
		jw_double_py(&w, d);
	else
		jw_strn(&w, s, n);
}

int
cfgyaml_env(const char *s, size_t n, struct buf *out, char *err, size_t errlen)
{
	size_t i = 0, count = 0;
	int whole = 0;

	while (i < n) {
		const char *d = i + 1 < n ? memchr(s + i, '$', n - i - 1) : NULL;

		while (d && d[1] != '{')
			d = (size_t)(d - s) + 2 < n ? memchr(d + 1, '$', n - (size_t)(d - s) - 2) : NULL;
		if (!d) {
			buf_add(out, s + i, n - i);
			break;
		}
		size_t at = (size_t)(d - s), j = at + 2, name0 = j;

		buf_add(out, s + i, at - i);
		if (j < n && (s[j] == '_' || ((s[j] | 32) >= 'a' && (s[j] | 32) <= 'z')))
			while (j < n && (s[j] == '_' || ((s[j] | 32) >= 'a' && (s[j] | 32) <= 'z') ||
					 (s[j] >= '0' && s[j] <= '9')))
				j++;
		const char *close = memchr(s + j, '}', n - j), *nl = memchr(s + j, '\n', n - j);

		if (!close || (nl && nl < close)) {
			snprintf(err, errlen, "unterminated '${' in '%.*s'", (int)(n > 80 ? 80 : n), s);
			return -1;
		}
		if (j == name0 || (s[j] != '}' && s[j] != ':')) {
			/* not ${NAME} nor ${NAME:...}: the text as it is */
			buf_add(out, s + at, 2);
			i = at + 2;
			continue;
		}
		char *name = xstrndup(s + name0, j - name0);
		const char *v = getenv(name);

		if (v)
			buf_addstr(out, v);
		else if (s[j] == ':')
			buf_add(out, s + j + 1, (size_t)(close - s) - j - 1);
		else {
			snprintf(err, errlen, "Required environment variable '%s' is not set (use ${%s:default} for a default)",
				 name, name);
			free(name);
			return -1;
		}
		free(name);
		count++;
		whole = at == 0 && (size_t)(close - s) == n - 1;
		i = (size_t)(close - s) + 1;
	}
	return count == 1 && whole;
}

static int node_out(struct walk *k, yaml_node_t *n, int depth);

/* A scalar's JSON as PyYAML types it. */
static int
scalar_out(struct walk *k, yaml_node_t *n, int is_key)
{
	const char *s = (const char *)n->data.scalar.value;
	size_t len = n->data.scalar.length;
	/* libyaml's documents tag every untagged scalar !!str, so a plain
	 * scalar is typed whatever its tag of the core schema says (an
	 * explicit "!!str 16" is 16: quote it); another tag is refused */
	int plain = n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	struct buf typed = BUF_INIT(BUF_NOMAX);
	int r;

	if (n->tag && strncmp((char *)n->tag, "tag:yaml.org,2002:", 18))
		return fail(k, n, "unknown tag '%s'", (char *)n->tag);
	if (n->tag && strcmp((char *)n->tag + 18, "str") && strcmp((char *)n->tag + 18, "int") &&
	    strcmp((char *)n->tag + 18, "float") && strcmp((char *)n->tag + 18, "bool") &&
	    strcmp((char *)n->tag + 18, "null"))
		return fail(k, n, "unknown tag '%s'", (char *)n->tag);
	if (plain) {
		if (one_of(s, len, nulls))
			buf_addstr(&typed, "null");
		else if (one_of(s, len, trues))
			buf_addstr(&typed, "true");
		else if (one_of(s, len, falses))
			buf_addstr(&typed, "false");
		else if ((r = yaml_int(s, len, &typed)) < 0) {
			buf_release(&typed);
			return fail(k, n, "integer '%.*s' out of range", (int)len, s);
		} else if (!r && (r = yaml_float(s, len, &typed)) < 0) {
			buf_release(&typed);
			return fail(k, n, "'%.*s': inf and nan are no values here", (int)len, s);
		}
	}
	if (is_key) {
		if (typed.len) {
			fail(k, n, "a key must be a string: '%.*s' is not (quote it)", (int)len, s);
			buf_release(&typed);
			return -1;
		}
		jw_keyn(&k->w, s, len);
		return 0;
	}
	if (typed.len) {
		jw_raw(&k->w, typed.s, typed.len);
		buf_release(&typed);
		return 0;
	}
	buf_release(&typed);
	/* a string: ${VAR} substituted */
	struct buf sub = BUF_INIT(BUF_NOMAX);
	char e[256];

	r = memchr(s, '$', len) ? cfgyaml_env(s, len, &sub, e, sizeof(e)) : (buf_add(&sub, s, len), 0);
	if (r < 0) {
		buf_release(&sub);
		return fail(k, n, "%s", e);
	}
	if (r == 1) {
		struct buf c = BUF_INIT(BUF_NOMAX);

		cfgyaml_coerce(sub.s ? sub.s : "", sub.len, &c);
		jw_raw(&k->w, c.s, c.len);
		buf_release(&c);
	} else {
		jw_strn(&k->w, sub.s ? sub.s : "", sub.len);
	}
	buf_release(&sub);
	return 0;
}

static yaml_node_t *
node(struct walk *k, int id)
{
	return yaml_document_get_node(k->doc, id);
}

static int
is_merge(const yaml_node_t *key)
{
	return key->type == YAML_SCALAR_NODE && key->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	       key->data.scalar.length == 2 && !memcmp(key->data.scalar.value, "<<", 2);
}

static int
key_eq(const yaml_node_t *a, const yaml_node_t *b)
{
	return a->type == YAML_SCALAR_NODE && b->type == YAML_SCALAR_NODE &&
	       a->data.scalar.length == b->data.scalar.length &&
	       !memcmp(a->data.scalar.value, b->data.scalar.value, a->data.scalar.length);
}

/* The pairs of a mapping with its merge keys flattened (PyYAML's
 * flatten_mapping): merged pairs first, each key once, explicit ones winning. */
struct pairs {
	yaml_node_pair_t *v;
	size_t n, cap;
};

static void
pairs_add(struct pairs *p, yaml_node_pair_t x)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 16;
		p->v = xrealloc(p->v, p->cap * sizeof(*p->v));
	}
	p->v[p->n++] = x;
}

static int
flatten(struct walk *k, yaml_node_t *m, struct pairs *out, int depth)
{
	struct pairs merged = { 0 };

	if (depth > CFGYAML_MAX_DEPTH)
		return fail(k, m, "nested deeper than %d (a cycle of aliases?)", CFGYAML_MAX_DEPTH);
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
		yaml_node_t *key = node(k, p->key), *val = node(k, p->value);

		if (!key || !val)
			return fail(k, m, "a broken mapping");
		if (!is_merge(key))
			continue;
		size_t nsrc = val->type == YAML_SEQUENCE_NODE ?
			(size_t)(val->data.sequence.items.top - val->data.sequence.items.start) : 1;

		for (size_t s = 0; s < nsrc; s++) {
			yaml_node_t *src = val->type == YAML_SEQUENCE_NODE ?
				node(k, val->data.sequence.items.start[s]) : val;
			struct pairs sub = { 0 };

			if (!src || src->type != YAML_MAPPING_NODE) {
				free(merged.v);
				return fail(k, val, "a merge key (<<) takes a mapping or a list of mappings");
			}
			if (flatten(k, src, &sub, depth + 1) < 0) {
				free(sub.v);
				free(merged.v);
				return -1;
			}
			for (size_t i = 0; i < sub.n; i++) {
				int seen = 0;

				for (size_t j = 0; j < merged.n && !seen; j++)
					seen = key_eq(node(k, merged.v[j].key), node(k, sub.v[i].key));
				if (!seen)
					pairs_add(&merged, sub.v[i]);
			}
			free(sub.v);
		}
	}
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
		yaml_node_t *key = node(k, p->key);

		if (is_merge(key))
			continue;
		for (yaml_node_pair_t *q = m->data.mapping.pairs.start; q < p; q++)
			if (key_eq(node(k, q->key), key)) {
				free(merged.v);
				return fail(k, key, "duplicate key '%s'", (char *)key->data.scalar.value);
			}
		if (key->type != YAML_SCALAR_NODE) {
			free(merged.v);
			return fail(k, key, "a key must be a string");
		}
	}
	for (size_t i = 0; i < merged.n; i++) {
		yaml_node_pair_t x = merged.v[i];

		for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++)
			if (!is_merge(node(k, p->key)) && key_eq(node(k, p->key), node(k, x.key)))
				x = *p;
		pairs_add(out, x);
	}
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
		int seen = 0;

		if (is_merge(node(k, p->key)))
			continue;
		for (size_t i = 0; i < merged.n && !seen; i++)
			seen = key_eq(node(k, merged.v[i].key), node(k, p->key));
		if (!seen)
			pairs_add(out, *p);
	}
	free(merged.v);
	return 0;
}

static int
child_out(struct walk *k, const char *seg, size_t seglen, yaml_node_t *n, int depth)
{
	size_t mark = k->path.len;
	int r;

	if (mark)
		buf_addch(&k->path, '.');
	buf_add(&k->path, seg, seglen);
	note_line(k->y, buf_str(&k->path), (long)n->start_mark.line + 1);
	r = node_out(k, n, depth + 1);
	k->path.len = mark;
	if (k->path.s)
		k->path.s[mark] = '\0';
	return r;
}

static int
node_out(struct walk *k, yaml_node_t *n, int depth)
{
	if (depth > CFGYAML_MAX_DEPTH)
		return fail(k, n, "nested deeper than %d (a cycle of aliases?)", CFGYAML_MAX_DEPTH);
	if (k->out.len > CFGYAML_MAX_TREE)
		return fail(k, n, "larger than %u MiB with its aliases expanded", CFGYAML_MAX_TREE >> 20);
	switch (n->type) {
	case YAML_SCALAR_NODE:
		return scalar_out(k, n, 0);
	case YAML_SEQUENCE_NODE: {
		size_t i = 0;

		jw_arr(&k->w);
		for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top;
		     it++, i++) {
			char seg[32];
			yaml_node_t *c = node(k, *it);

			if (!c)
				return fail(k, n, "a broken list");
			snprintf(seg, sizeof(seg), "%zu", i);
			if (child_out(k, seg, strlen(seg), c, depth) < 0)
				return -1;
		}
		jw_arr_end(&k->w);
		return 0;
	}
	case YAML_MAPPING_NODE: {
		struct pairs p = { 0 };

		if (flatten(k, n, &p, depth) < 0) {
			free(p.v);
			return -1;
		}
		jw_obj(&k->w);
		for (size_t i = 0; i < p.n; i++) {
			yaml_node_t *key = node(k, p.v[i].key), *val = node(k, p.v[i].value);

			if (scalar_out(k, key, 1) < 0 ||
			    child_out(k, (char *)key->data.scalar.value, key->data.scalar.length, val,
				      depth) < 0) {
				free(p.v);
				return -1;
			}
		}
		free(p.v);
		jw_obj_end(&k->w);
		return 0;
	}
	default:
		return fail(k, n, "an empty node");
	}
}

int
cfgyaml_parse(struct cfgyaml *y, const char *s, size_t n, char *err, size_t errlen)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	struct walk k = { .y = y, .doc = &doc, .err = err, .errlen = errlen };
	yaml_node_t *root;
	int rc = -1;

	memset(y, 0, sizeof(*y));
	if (!yaml_parser_initialize(&parser)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)s, n);
	if (!yaml_parser_load(&parser, &doc)) {
		snprintf(err, errlen, "%zu:%zu: Invalid YAML syntax: %s%s%s", parser.problem_mark.line + 1,
			 parser.problem_mark.column + 1, parser.problem ? parser.problem : "an error",
			 parser.context ? " " : "", parser.context ? parser.context : "");
		yaml_parser_delete(&parser);
		return -1;
	}
	root = yaml_document_get_root_node(&doc);
	buf_init(&k.out, BUF_NOMAX);
	buf_init(&k.path, BUF_NOMAX);
	jw_init(&k.w, &k.out, 0);
	if (!root || (root->type == YAML_SCALAR_NODE &&
		      one_of((char *)root->data.scalar.value, root->data.scalar.length, nulls) &&
		      root->data.scalar.style == YAML_PLAIN_SCALAR_STYLE))
		snprintf(err, errlen, "Configuration file is empty");
	else if (root->type != YAML_MAPPING_NODE)
		snprintf(err, errlen, "Configuration must be a YAML mapping, got a %s",
			 root->type == YAML_SEQUENCE_NODE ? "list" : "scalar");
	else if (node_out(&k, root, 0) == 0) {
		yaml_document_t next;

		/* one document: a second is an error, as safe_load's */
		if (yaml_parser_load(&parser, &next)) {
			if (yaml_document_get_root_node(&next))
				snprintf(err, errlen, "expected a single document in the stream");
			else
				rc = 0;
			yaml_document_delete(&next);
		} else {
			snprintf(err, errlen, "Invalid YAML syntax: %s", parser.problem ? parser.problem : "an error");
		}
	}
	if (rc == 0) {
		char jerr[128];

		y->doc = json_doc_new();
		y->root = json_parse(y->doc, k.out.s, k.out.len, jerr, sizeof(jerr));
		if (!y->root) {
			snprintf(err, errlen, "internal: %s", jerr);
			rc = -1;
		}
	}
	buf_release(&k.out);
	buf_release(&k.path);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	if (rc < 0)
		cfgyaml_release(y);
	return rc;
}

int
cfgyaml_load(struct cfgyaml *y, const char *path, char *err, size_t errlen)
{
	size_t n;
	char *s = util_readfile(path, CFGYAML_MAX_FILE, &n);
	int rc;

	if (!s) {
		memset(y, 0, sizeof(*y));
		if (errno == ENOENT)
			snprintf(err, errlen, "Configuration file not found: %s", path);
		else
			snprintf(err, errlen, "cannot read '%s': %s", path, util_strerror(errno));
		return -1;
	}
	rc = cfgyaml_parse(y, s, n, err, errlen);
	free(s);
	return rc;
}

void
cfgyaml_release(struct cfgyaml *y)
{
	if (y->doc)
		json_doc_free(y->doc);
	for (size_t i = 0; i < y->n; i++)
		free(y->paths[i]);
	free(y->paths);
	free(y->lines);
	memset(y, 0, sizeof(*y));
}
