/* SPDX-License-Identifier: Apache-2.0 */
/* A sweep's plan, sweep_plan.json: its variations and run directories. */
#include "sweepplan.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

__attribute__((format(printf, 3, 4)))
static int
fail(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Whether s[0..n) is valid UTF-8 (no overlong form, no surrogate). */
static int
utf8_ok(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned c = s[i], need, cp;

		if (c < 0x80) {
			i++;
			continue;
		}
		need = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 ? 1 : 0;
		if (!need || c > 0xf4 || n - i <= need)
			return 0;
		cp = c & (0x3f >> need);
		for (unsigned k = 1; k <= need; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((need == 2 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000))) ||
		    (need == 3 && (cp < 0x10000 || cp > 0x10ffff)))
			return 0;
		i += need + 1;
	}
	return 1;
}

int
sweepplan_safe_path(const char *path, size_t len, int single)
{
	size_t start = 0;

	if (!len || path[0] == '/' || !utf8_ok((const unsigned char *)path, len))
		return 0;
	for (size_t i = 0; i <= len; i++) {
		size_t seg;

		if (i < len && ((unsigned char)path[i] < 0x20 || path[i] == 0x7f))
			return 0;
		if (i < len && path[i] != '/')
			continue;
		if (single && i < len)
			return 0;
		seg = i - start;
		if (!seg || (seg == 1 && path[start] == '.') ||
		    (seg == 2 && path[start] == '.' && path[start + 1] == '.'))
			return 0;
		start = i + 1;
	}
	return 1;
}

/* v's string, if it is a valid UTF-8 string without NUL; else NULL. */
static const char *
str_of(const struct json *v)
{
	size_t n;
	const char *s = json_str(v, &n);

	if (!s || strlen(s) != n || !utf8_ok((const unsigned char *)s, n))
		return NULL;
	return s;
}

/* A non-negative integer below max into *out: 0, or -1. */
static int
index_of(const struct json *v, size_t max, size_t *out)
{
	int64_t i;

	if (!v || v->type != JSON_NUMBER || json_int64(v, &i) < 0 || i < 0 ||
	    (uint64_t)i >= max)
		return -1;
	*out = (size_t)i;
	return 0;
}

static int
parse_param(struct sweepplan_param *pp, const struct json *v, char *err, size_t n)
{
	const struct json *path = json_get(v, "path");

	if (!v || v->type != JSON_OBJECT)
		return fail(err, n, "parameters: an item is no object");
	pp->name = str_of(json_get(v, "name"));
	pp->path = path ? str_of(path) : NULL;
	pp->values = json_get(v, "values");
	if (!pp->name || (path && !pp->path))
		return fail(err, n, "parameters: \"name\" or \"path\" is no string");
	if (!pp->values || pp->values->type != JSON_ARRAY)
		return fail(err, n, "parameters: '%s' has no \"values\" array", pp->name);
	return 0;
}

static int
scalar(const struct json *v)
{
	return v->type != JSON_ARRAY && v->type != JSON_OBJECT;
}

static int
parse_var(struct sweepplan_var *pv, const struct json *v, size_t i, char *err,
	  size_t n)
{
	size_t len;

	if (!v || v->type != JSON_OBJECT)
		return fail(err, n, "variations[%zu]: no object", i);
	if (index_of(json_get(v, "index"), SIZE_MAX, &pv->index) < 0)
		return fail(err, n, "variations[%zu]: \"index\" is no integer >= 0", i);
	pv->label = str_of(json_get(v, "label"));
	pv->dir_name = str_of(json_get(v, "dir_name"));
	pv->values = json_get(v, "values");
	if (!pv->label || !pv->dir_name)
		return fail(err, n, "variations[%zu]: \"label\" or \"dir_name\" is "
			    "no string", i);
	len = strlen(pv->dir_name);
	if (!sweepplan_safe_path(pv->dir_name, len, 1))
		return fail(err, n, "variations[%zu]: \"dir_name\" is no plain "
			    "directory name", i);
	if (!pv->values || pv->values->type != JSON_OBJECT)
		return fail(err, n, "variations[%zu]: \"values\" is no object", i);
	for (const struct json *m = pv->values->child; m; m = m->next)
		if (!scalar(m) || !utf8_ok((const unsigned char *)m->key, m->keylen))
			return fail(err, n, "variations[%zu]: a value is no JSON "
				    "scalar", i);
	return 0;
}

static int
parse_run(struct sweepplan *p, struct sweepplan_run *pr, const struct json *v,
	  size_t i, char *err, size_t n)
{
	if (!v || v->type != JSON_OBJECT)
		return fail(err, n, "runs[%zu]: no object", i);
	if (index_of(json_get(v, "variation"), p->nvars, &pr->variation) < 0)
		return fail(err, n, "runs[%zu]: \"variation\" is no index of a "
			    "variation", i);
	if (index_of(json_get(v, "trial"), SWEEPPLAN_MAX_RUNS, &pr->trial) < 0)
		return fail(err, n, "runs[%zu]: \"trial\" is no integer 0 to %d",
			    i, SWEEPPLAN_MAX_RUNS - 1);
	pr->dir = str_of(json_get(v, "dir"));
	if (!pr->dir || !sweepplan_safe_path(pr->dir, strlen(pr->dir), 0))
		return fail(err, n, "runs[%zu]: \"dir\" is no relative path inside "
			    "the plan's folder", i);
	return 0;
}

/* The array member KEY of root, at most max items: its length, or -1. */
static long
array_of(const struct json *root, const char *key, size_t max,
	 const struct json **out, char *err, size_t n)
{
	const struct json *a = json_get(root, key);

	if (!a || a->type != JSON_ARRAY)
		return fail(err, n, "\"%s\" is no array", key);
	if (a->len > max)
		return fail(err, n, "\"%s\": more than %zu items", key, max);
	*out = a;
	return (long)a->len;
}

static int
parse_arrays(struct sweepplan *p, const struct json *root, char *err, size_t n)
{
	const struct json *a;
	size_t i = 0;

	if (array_of(root, "parameters", SWEEPPLAN_MAX_PARAMS, &a, err, n) < 0)
		return -1;
	p->params = xcalloc(a->len + 1, sizeof(*p->params));
	for (const struct json *v = a->child; v; v = v->next)
		if (parse_param(&p->params[p->nparams++], v, err, n) < 0)
			return -1;
	if (array_of(root, "variations", SWEEPPLAN_MAX_RUNS, &a, err, n) < 0)
		return -1;
	p->vars = xcalloc(a->len + 1, sizeof(*p->vars));
	for (const struct json *v = a->child; v; v = v->next, i++)
		if (parse_var(&p->vars[p->nvars++], v, i, err, n) < 0)
			return -1;
	if (array_of(root, "runs", SWEEPPLAN_MAX_RUNS, &a, err, n) < 0)
		return -1;
	p->runs = xcalloc(a->len + 1, sizeof(*p->runs));
	i = 0;
	for (const struct json *v = a->child; v; v = v->next, i++)
		if (parse_run(p, &p->runs[p->nruns++], v, i, err, n) < 0)
			return -1;
	return 0;
}

static int
parse_head(struct sweepplan *p, const struct json *root, char *err, size_t n)
{
	const struct json *v;
	const char *order;
	int64_t t;

	p->sweep_id = str_of(json_get(root, "sweep_id"));
	p->type = str_of(json_get(root, "type"));
	if (!p->sweep_id || !p->type)
		return fail(err, n, "\"sweep_id\" or \"type\" is no string");
	order = str_of(json_get(root, "iteration_order"));
	if (!order || (strcmp(order, "repeated") && strcmp(order, "independent")))
		return fail(err, n, "\"iteration_order\" is neither \"repeated\" "
			    "nor \"independent\"");
	p->independent = !strcmp(order, "independent");
	v = json_get(root, "trials");
	if (!v || v->type != JSON_NUMBER || json_int64(v, &t) < 0 || t < 1 ||
	    t > SWEEPPLAN_MAX_RUNS)
		return fail(err, n, "\"trials\" is no integer 1 to %d",
			    SWEEPPLAN_MAX_RUNS);
	p->trials = (size_t)t;
	p->level = 0.95;
	v = json_get(root, "confidence_level");
	if (v && (json_double(v, &p->level) < 0 || !(p->level > 0 && p->level < 1)))
		return fail(err, n, "\"confidence_level\" is no number between 0 "
			    "and 1");
	v = json_get(root, "recipe");
	if (v && v->type != JSON_NULL && v->type != JSON_OBJECT)
		return fail(err, n, "\"recipe\" is neither null nor an object");
	p->recipe = v && v->type == JSON_OBJECT ? v : NULL;
	if (p->recipe && !str_of(json_get(p->recipe, "name")))
		return fail(err, n, "recipe: \"name\" is no string");
	return 0;
}

struct sweepplan *
sweepplan_parse(const char *s, size_t n, char *err, size_t errlen)
{
	struct sweepplan *p = xcalloc(1, sizeof(*p));
	const struct json *root;
	char jerr[200];

	p->doc = json_doc_new();
	if (n > SWEEPPLAN_MAX_BYTES) {
		fail(err, errlen, "larger than %u bytes", SWEEPPLAN_MAX_BYTES);
		goto err;
	}
	root = json_parse(p->doc, s, n, jerr, sizeof(jerr));
	if (!root) {
		fail(err, errlen, "invalid JSON: %s", jerr);
		goto err;
	}
	if (root->type != JSON_OBJECT) {
		fail(err, errlen, "not a JSON object");
		goto err;
	}
	p->root = root;
	if (parse_head(p, root, err, errlen) < 0 ||
	    parse_arrays(p, root, err, errlen) < 0)
		goto err;
	return p;
err:
	sweepplan_free(p);
	return NULL;
}

void
sweepplan_free(struct sweepplan *p)
{
	if (!p)
		return;
	json_doc_free(p->doc);
	free(p->params);
	free(p->vars);
	free(p->runs);
	free(p);
}

int
sweepplan_recipe_num(const struct sweepplan *p, const char *key, double *v)
{
	const struct json *m = p->recipe ? json_get(p->recipe, key) : NULL;

	if (!m || m->type != JSON_NUMBER || json_double(m, v) < 0 || !isfinite(*v))
		return -1;
	return 0;
}

const char *
sweepplan_recipe_name(const struct sweepplan *p)
{
	return p->recipe ? json_str(json_get(p->recipe, "name"), NULL) : NULL;
}
