/* SPDX-License-Identifier: Apache-2.0 */
/* A YAML config file (the original's schema 2.0) as the variations it runs, each as aiperf profile options. */
#include "cfg/load.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cfg/expr.h"
#include "cfg/schema.h"
#include "cfg/yaml.h"
#include "proftab.h"
#include "stats/spacefill.h"
#include "sweep.h"
#include "tok/toksrc.h"
#include "util.h"

#define MAX_VARIATIONS 10000

struct ctx {
	const char *file;
	struct cfgyaml y;
	struct cfgschema s;
	struct proftab tab;
	int have_tab;
	struct cfgplan *p;
	char *err;
	size_t errlen;
	int failed;
	/* rendering: the variation's envelope, its variables' state */
	struct cnode *env;
	struct cnode *vars;	/* resolved (or being resolved) values */
	int depth;
	int warned_summary;
};

/* --- options --- */

void
cfgargs_add(struct cfgargs *a, const char *name, const char *val)
{
	struct cfgopt *o = NULL;

	for (size_t i = 0; i < a->n && !o; i++)
		if (!strcmp(a->v[i].name, name))
			o = &a->v[i];
	if (!o) {
		a->v = xrealloc(a->v, (a->n + 1) * sizeof(*a->v));
		o = &a->v[a->n++];
		*o = (struct cfgopt){ xstrdup(name), NULL, 0 };
	}
	if (val) {
		o->val = xrealloc(o->val, (o->n + 1) * sizeof(*o->val));
		o->val[o->n++] = xstrdup(val);
	}
}

const struct cfgopt *
cfgargs_get(const struct cfgargs *a, const char *name)
{
	for (size_t i = 0; i < a->n; i++)
		if (!strcmp(a->v[i].name, name))
			return &a->v[i];
	return NULL;
}

static void
opt_free(struct cfgopt *o)
{
	for (size_t k = 0; k < o->n; k++)
		free(o->val[k]);
	free(o->val);
	free(o->name);
}

void
cfgargs_release(struct cfgargs *a)
{
	for (size_t i = 0; i < a->n; i++)
		opt_free(&a->v[i]);
	free(a->v);
	memset(a, 0, sizeof(*a));
}

static void
argv_push(char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 2) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
	(*v)[*n] = NULL;
}

void
cfgargs_argv(const struct cfgargs *a, char ***v, size_t *n)
{
	for (size_t i = 0; i < a->n; i++) {
		if (!a->v[i].n)
			argv_push(v, n, a->v[i].name);
		for (size_t k = 0; k < a->v[i].n; k++) {
			argv_push(v, n, a->v[i].name);
			argv_push(v, n, a->v[i].val[k]);
		}
	}
}

static int
opt_eq(const struct cfgopt *a, const struct cfgopt *b)
{
	if (!a || !b || a->n != b->n)
		return 0;
	for (size_t k = 0; k < a->n; k++)
		if (strcmp(a->val[k], b->val[k]))
			return 0;
	return 1;
}

void
cfg_split(const struct cfgplan *p, struct cfgargs *common, struct cfgargs *cells)
{
	memset(common, 0, sizeof(*common));
	for (size_t i = 0; i < p->nv; i++)
		memset(&cells[i], 0, sizeof(cells[i]));
	if (!p->nv)
		return;
	for (size_t k = 0; k < p->v[0].args.n; k++) {
		const struct cfgopt *o = &p->v[0].args.v[k];
		int same = 1;

		for (size_t i = 1; i < p->nv && same; i++)
			same = opt_eq(o, cfgargs_get(&p->v[i].args, o->name));
		if (!same)
			continue;
		cfgargs_add(common, o->name, NULL);
		for (size_t j = 0; j < o->n; j++)
			cfgargs_add(common, o->name, o->val[j]);
	}
	for (size_t i = 0; i < p->nv; i++)
		for (size_t k = 0; k < p->v[i].args.n; k++) {
			const struct cfgopt *o = &p->v[i].args.v[k];

			if (cfgargs_get(common, o->name))
				continue;
			cfgargs_add(&cells[i], o->name, NULL);
			for (size_t j = 0; j < o->n; j++)
				cfgargs_add(&cells[i], o->name, o->val[j]);
		}
}

/* --- errors --- */

/* The line of the value whose path ends in key (the last such one), or 0. */
static long
line_of(const struct ctx *c, const char *path)
{
	long l = cfgyaml_line(&c->y, path);
	const char *leaf = strrchr(path, '.');
	size_t n = 0;

	if (l || !leaf)
		return l;
	for (size_t i = 0; i < c->y.n; i++) {
		const char *p = c->y.paths[i], *e = strrchr(p, '.');

		if (e && !strcmp(e, leaf))
			l = c->y.lines[i], n++;
	}
	return n == 1 ? l : 0;
}

static int fail(struct ctx *c, const char *path, const char *fmt, ...) FMT(3, 4);
static void warnf(struct cfgplan *p, const char *fmt, ...) FMT(2, 3);

static int
fail(struct ctx *c, const char *path, const char *fmt, ...)
{
	va_list ap;
	size_t off;
	long line = path ? line_of(c, path) : 0;

	if (c->failed)
		return -1;
	c->failed = 1;
	off = line ? (size_t)snprintf(c->err, c->errlen, "%s:%ld: ", c->file, line)
		   : (size_t)snprintf(c->err, c->errlen, "%s: ", c->file);
	if (off < c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err + off, c->errlen - off, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static void
warnf(struct cfgplan *p, const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	p->warn = xrealloc(p->warn, (p->nwarn + 1) * sizeof(*p->warn));
	p->warn[p->nwarn++] = xstrdup(msg);
}

static const char *
kind(const struct cnode *v)
{
	static const char *const k[] = { "null", "a boolean", "a boolean", "a number", "a string",
		"a list", "a mapping" };

	return k[v->type];
}

/* --- keys: camelCase to the field's name, unknown ones refused --- */

/* path with "[]" for list entries: the schema's path of a child. */
static char *
child_path(const char *parent, const char *field)
{
	return *parent ? xstrfmt("%s.%s", parent, field) : xstrdup(field);
}

static int canon(struct ctx *c, struct cnode *obj, const char *spath, const char *vpath);

/* One member: its name made the field's, its value checked. */
static int
canon_member(struct ctx *c, struct cnode *m, const char *spath, const char *vpath)
{
	char hint[128], known[4096];
	const char *f = cfgschema_key(&c->s, spath, m->key, hint, sizeof(hint), known, sizeof(known));
	char *vp = xstrfmt("%s%s%s", vpath, *vpath ? "." : "", m->key);
	int rc = 0;

	if (!f) {
		if (!*spath)
			rc = fail(c, vp, "Unknown top-level envelope key(s): '%s'%s%s%s. Known keys: %s", m->key,
				  *hint ? " (did you mean " : "", hint, *hint ? "?)" : "", known);
		else
			rc = fail(c, vp, "%s: unknown field '%s'%s%s%s (the fields of %s: %s)", vpath, m->key,
				  *hint ? " (did you mean " : "", hint, *hint ? "?)" : "", vpath, known);
		free(vp);
		return rc;
	}
	size_t len = strlen(f);
	int list = len > 2 && !strcmp(f + len - 2, "[]");
	char *name = xstrndup(f, list ? len - 2 : len);
	char *sp = child_path(spath, f);
	const struct cfgfield *fd = cfgschema_find(&c->s, sp);

	if (strcmp(m->key, name)) {
		free(m->key);
		m->key = xstrdup(name);
	}
	free(vp);
	vp = xstrfmt("%s%s%s", vpath, *vpath ? "." : "", name);
	/* a field not run here may be off: false or null */
	if (fd && fd->type == '-' && m->type != CN_FALSE && m->type != CN_NULL)
		rc = fail(c, vp, "%s: not supported by this implementation (%s)", vp, fd->note);
	else if (list && m->type == CN_ARR) {
		for (size_t i = 0; i < m->n && !rc; i++) {
			const char *nm = cnode_strval(m->kids[i], "name");
			char *ep = nm ? xstrfmt("%s.%s", vp, nm) : xstrfmt("%s.%zu", vp, i);

			if (m->kids[i]->type == CN_OBJ)
				rc = canon(c, m->kids[i], sp, ep);
			free(ep);
		}
	} else if (fd && fd->type == 'o' && m->type == CN_OBJ && strcmp(sp, "benchmark")) {
		/* (the body is checked once its shorthands are written out) */
		rc = canon(c, m, sp, vp);
	} else if (fd && fd->type == '=' && m->type == CN_OBJ && strcmp(name, "variables") &&
		   strcmp(name, "sweep") && strcmp(name, "slos")) {
		rc = canon(c, m, sp, vp);
	}
	free(vp);
	free(sp);
	free(name);
	return rc;
}

static int
canon(struct ctx *c, struct cnode *obj, const char *spath, const char *vpath)
{
	for (size_t i = 0; i < obj->n; i++) {
		if (canon_member(c, obj->kids[i], spath, vpath) < 0)
			return -1;
		for (size_t k = 0; k < i; k++)
			if (!strcmp(obj->kids[k]->key, obj->kids[i]->key))
				return fail(c, vpath, "%s%s'%s' is given twice (as snake_case and camelCase)",
					    vpath, *vpath ? ": " : "", obj->kids[i]->key);
	}
	return 0;
}

/* --- the body's shorthands made its one form --- */

/* obj's member key replaced by v named name, where key was (v owned by obj). */
static void
replace_key(struct cnode *obj, const char *key, const char *name, struct cnode *v)
{
	for (size_t i = 0; i < obj->n; i++)
		if (!strcmp(obj->kids[i]->key, key)) {
			cnode_free(obj->kids[i]);
			free(v->key);
			v->key = xstrdup(name);
			obj->kids[i] = v;
			return;
		}
	cnode_set(obj, name, v);
}

static int
normalize(struct ctx *c, struct cnode *b)
{
	struct cnode *v, *ph;

	if (cnode_get(b, "warmup") && cnode_get(b, "phases"))
		return fail(c, "benchmark.warmup", "'warmup' cannot be used with 'phases'. Use 'warmup'/'profiling' for simple configs or 'phases' for advanced multi-phase configs.");
	if (cnode_get(b, "profiling") && cnode_get(b, "phases"))
		return fail(c, "benchmark.profiling", "'profiling' cannot be used with 'phases'. Use 'warmup'/'profiling' for simple configs or 'phases' for advanced multi-phase configs.");
	if (cnode_get(b, "dataset") && cnode_get(b, "datasets"))
		return fail(c, "benchmark.dataset", "'dataset' cannot be used with 'datasets'. Use 'dataset' for a single dataset or 'datasets' for multiple named datasets.");
	if (cnode_get(b, "model") && cnode_get(b, "models"))
		return fail(c, "benchmark.model", "'model' cannot be used with 'models'. Use 'model' for a single model or 'models' for multiple named models.");
	if (cnode_get(b, "warmup") && !cnode_get(b, "profiling"))
		return fail(c, "benchmark.warmup", "'warmup' requires 'profiling'. A warmup-only config without a profiling phase would produce no results.");
	if (cnode_get(b, "warmup") || cnode_get(b, "profiling")) {
		size_t at = 0;

		while (at < b->n && strcmp(b->kids[at]->key, "warmup") && strcmp(b->kids[at]->key, "profiling"))
			at++;
		ph = cnode_new(CN_ARR);
		for (int k = 0; k < 2; k++) {
			const char *nm = k ? "profiling" : "warmup";

			if (!(v = cnode_take(b, nm)))
				continue;
			if (v->type == CN_OBJ && !cnode_get(v, "name")) {
				struct cnode *named = cnode_new(CN_OBJ);

				cnode_set(named, "name", cnode_str(nm, strlen(nm)));
				for (size_t i = 0; i < v->n; i++)
					cnode_set(named, v->kids[i]->key, cnode_clone(v->kids[i]));
				cnode_free(v);
				v = named;
			}
			cnode_push(ph, v);
		}
		/* the list takes the place of the first of them */
		cnode_set(b, "phases", ph);
		memmove(b->kids + at + 1, b->kids + at, (b->n - 1 - at) * sizeof(*b->kids));
		b->kids[at] = ph;
	}
	if ((v = cnode_get(b, "model")))
		replace_key(b, "model", "models", cnode_clone(v));
	if ((v = cnode_get(b, "models")) && (v->type == CN_STR || v->type == CN_ARR)) {
		struct cnode *m = cnode_new(CN_OBJ), *items = cnode_new(CN_ARR);

		for (size_t i = 0; i < (v->type == CN_STR ? 1 : v->n); i++) {
			const struct cnode *nm = v->type == CN_STR ? v : v->kids[i];
			struct cnode *it;

			if (nm->type == CN_OBJ) {
				it = cnode_clone(nm);
			} else {
				if (nm->type != CN_STR) {
					cnode_free(items);
					cnode_free(m);
					return fail(c, "benchmark.models", "benchmark.models: a model is a name, not %s", kind(nm));
				}
				it = cnode_new(CN_OBJ);
				cnode_set(it, "name", cnode_str(nm->s, nm->len));
			}
			cnode_push(items, it);
		}
		cnode_set(m, "items", items);
		replace_key(b, "models", "models", m);
	}
	if ((v = cnode_get(b, "dataset"))) {
		struct cnode *l = cnode_new(CN_ARR);

		v = cnode_clone(v);

		if (v->type == CN_OBJ && !cnode_get(v, "name")) {
			struct cnode *named = cnode_new(CN_OBJ);

			cnode_set(named, "name", cnode_str("default", 7));
			for (size_t i = 0; i < v->n; i++)
				cnode_set(named, v->kids[i]->key, cnode_clone(v->kids[i]));
			cnode_free(v);
			v = named;
		}
		cnode_push(l, v);
		replace_key(b, "dataset", "datasets", l);
	}
	if ((v = cnode_get(b, "datasets"))) {
		if (v->type != CN_ARR)
			return fail(c, "benchmark.datasets", "datasets must be a list of named entries (was a dict in earlier versions); got %s. Use [{'name': 'main', 'type': 'synthetic', ...}, ...].", kind(v));
		for (size_t i = 0; i < v->n; i++) {
			struct cnode *d = v->kids[i], *pr;

			if (d->type != CN_OBJ)
				return fail(c, "benchmark.datasets", "datasets[%zu] must be a mapping; got %s", i, kind(d));
			if (!cnode_get(d, "name"))
				return fail(c, "benchmark.datasets", "datasets[%zu] is missing required 'name' field. Each dataset entry needs a name (e.g. 'main', 'eval').", i);
			if (!cnode_get(d, "type"))
				cnode_set(d, "type", cnode_str("synthetic", 9));
			if (!strcmp(cnode_strval(d, "type") ? cnode_strval(d, "type") : "", "synthetic") &&
			    (cnode_get(d, "isl") || cnode_get(d, "osl"))) {
				if (!(pr = cnode_get(d, "prompts"))) {
					cnode_set(d, "prompts", cnode_new(CN_OBJ));
					pr = cnode_get(d, "prompts");
				}
				if (pr->type == CN_OBJ)
					for (int k = 0; k < 2; k++) {
						const char *nm = k ? "osl" : "isl";

						if (cnode_get(d, nm) && !cnode_get(pr, nm))
							cnode_set(pr, nm, cnode_take(d, nm));
					}
			}
		}
		if (v->n != 1)
			return fail(c, "benchmark.datasets", "benchmark.datasets: exactly one dataset (the original's limit; several are on its roadmap), not %zu", v->n);
	}
	if ((v = cnode_get(b, "phases")) && v->type == CN_OBJ && cnode_get(v, "type")) {
		struct cnode *l = cnode_new(CN_ARR), *named = cnode_new(CN_OBJ);

		cnode_set(named, "name", cnode_str("profiling", 9));
		for (size_t i = 0; i < v->n; i++)
			cnode_set(named, v->kids[i]->key, cnode_clone(v->kids[i]));
		cnode_push(l, named);
		replace_key(b, "phases", "phases", l);
	}
	if ((v = cnode_get(b, "tokenizer")) && v->type == CN_STR) {
		struct cnode *t = cnode_new(CN_OBJ);

		cnode_set(t, "name", cnode_clone(v));
		cnode_set(b, "tokenizer", t);
	}
	for (int k = 0; k < 2; k++) {
		const char *nm = k ? "server_metrics" : "gpu_telemetry";

		if ((v = cnode_get(b, nm)) && (v->type == CN_STR || v->type == CN_ARR)) {
			struct cnode *t = cnode_new(CN_OBJ);

			cnode_set(t, "urls", cnode_clone(v));
			cnode_set(b, nm, t);
		} else if (v && v->type == CN_FALSE) {
			struct cnode *t = cnode_new(CN_OBJ);

			cnode_set(t, "enabled", cnode_new(CN_FALSE));
			cnode_set(b, nm, t);
		} else if (v && v->type == CN_OBJ && cnode_get(v, "url")) {
			cnode_set(v, "urls", cnode_take(v, "url"));
		}
	}
	return 0;
}

/* --- {{ }} rendering --- */

static int render(struct ctx *c, struct cnode *n, const char *path);

/* The node at a dotted path below root (a list's entry by its name or index). */
static const struct cnode *
walk_path(const struct cnode *root, const char *path)
{
	char *copy = xstrdup(path), *save = NULL;
	const struct cnode *cur = root;

	for (char *seg = strtok_r(copy, ".", &save); seg && cur; seg = strtok_r(NULL, ".", &save)) {
		if (cur->type == CN_OBJ) {
			cur = cnode_get(cur, seg);
		} else if (cur->type == CN_ARR) {
			const struct cnode *m = cnode_named(cur, seg);
			char *end;
			unsigned long i = strtoul(seg, &end, 10);

			cur = m ? m : (!*end && *seg && i < cur->n) ? cur->kids[i] : NULL;
		} else {
			cur = NULL;
		}
	}
	free(copy);
	return cur;
}

/* A variable's value, rendered (once; a cycle is an error). */
static int
variable(struct ctx *c, const char *name, struct buf *out, char *err, size_t errlen)
{
	struct cnode *vars = cnode_get(c->env, "variables"), *v = cnode_get(vars, name);
	struct cnode *done = cnode_get(c->vars, name);

	if (!v)
		return 1;
	if (done) {
		if (done->type == CN_NULL && done->s && !strcmp(done->s, "resolving")) {
			snprintf(err, errlen, "variable '%s' refers to itself (a cycle of variables)", name);
			return -1;
		}
		cnode_json(done, out, 0);
		return 0;
	}
	struct cnode *mark = cnode_new(CN_NULL), *val = cnode_clone(v);
	char *path = xstrfmt("variables.%s", name);

	mark->s = xstrdup("resolving");
	mark->len = 9;
	cnode_set(c->vars, name, mark);
	if (render(c, val, path) < 0) {
		snprintf(err, errlen, "%s", c->err);
		free(path);
		cnode_free(val);
		return -1;
	}
	free(path);
	cnode_set(c->vars, name, val);
	cnode_json(val, out, 0);
	return 0;
}

static int
lookup(void *ctx, const char *name, struct buf *out, char *err, size_t errlen)
{
	struct ctx *c = ctx;
	const struct cnode *v;
	int r;

	if (c->depth > 32) {
		snprintf(err, errlen, "variables nested deeper than 32");
		return -1;
	}
	c->depth++;
	r = variable(c, name, out, err, errlen);
	c->depth--;
	if (r <= 0)
		return r;
	if (!strncmp(name, "variables.", 10)) {
		c->depth++;
		r = variable(c, name + 10, out, err, errlen);
		c->depth--;
		return r;
	}
	if ((v = walk_path(c->env, name)) ||
	    (v = walk_path(cnode_get(c->env, "benchmark"), name))) {
		cnode_json(v, out, 0);
		return 0;
	}
	return 1;
}

static int
skip_render(const char *key, const char *path)
{
	return key && (!strcmp(key, "template") || !strcmp(key, "body") ||
		       !strcmp(key, "payload_template") || strstr(path, "artifacts.user_files"));
}

static int
render(struct ctx *c, struct cnode *n, const char *path)
{
	if (n->type == CN_STR && cfgexpr_has(n->s, n->len)) {
		struct buf out = BUF_INIT(BUF_NOMAX);
		char e[512];
		struct cnode *v;

		c->depth++;
		if (c->depth > 64 || cfgexpr_render(n->s, n->len, lookup, c, &out, e, sizeof(e)) < 0) {
			c->depth--;
			buf_release(&out);
			if (c->failed)
				return -1;
			return fail(c, path, "%s: %s", path, c->depth > 63 ? "expressions nested too deep" : e);
		}
		c->depth--;
		v = cnode_parse(out.s, out.len);
		buf_release(&out);
		if (!v)
			return fail(c, path, "%s: the expression gave no value", path);
		free(n->s);
		n->s = v->s;
		n->len = v->len;
		n->type = v->type;
		v->s = NULL;
		cnode_free(v);
		return 0;
	}
	for (size_t i = 0; i < n->n; i++) {
		struct cnode *k = n->kids[i];
		const char *nm = cnode_strval(k, "name");
		char *cp = k->key ? xstrfmt("%s.%s", path, k->key)
				  : nm ? xstrfmt("%s.%s", path, nm) : xstrfmt("%s.%zu", path, i);
		int rc = skip_render(k->key, cp) ? 0 : render(c, k, cp);

		free(cp);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* --- the body as options --- */

static int
is_int(const struct cnode *v)
{
	return v->type == CN_NUM && !strpbrk(v->s, ".eE");
}

/* A scalar's text as an option's value. */
static const char *
text(const struct cnode *v, struct buf *tmp)
{
	buf_reset(tmp);
	if (v->type == CN_STR || v->type == CN_NUM)
		buf_add(tmp, v->s, v->len);
	else if (v->type == CN_TRUE || v->type == CN_FALSE)
		buf_addstr(tmp, v->type == CN_TRUE ? "true" : "false");
	else
		cnode_json(v, tmp, 0);
	return buf_str(tmp);
}

/* One valued field: checked for its type, its option added. */
static int
field_value(struct ctx *c, const struct cfgfield *f, const char *opt, const struct cnode *v,
	    const char *path, struct cfgargs *a)
{
	struct buf t = BUF_INIT(BUF_NOMAX);
	int rc = 0;
	char *o1 = xstrdup(opt), *o2 = strchr(o1, '/'), *o3 = strchr(o1, ',');

	if (o2)
		*o2++ = '\0';
	if (o3)
		*o3++ = '\0';
	switch (f->type) {
	case 'i':
		if (!is_int(v))
			rc = fail(c, path, "%s: an integer, not %s", path, kind(v));
		else
			cfgargs_add(a, o1, v->s);
		break;
	case 'n':
		if (v->type != CN_NUM)
			rc = fail(c, path, "%s: a number, not %s", path, kind(v));
		else
			cfgargs_add(a, o1, v->s);
		break;
	case 's':
	case 'e':
		if (v->type != CN_STR && v->type != CN_NUM)
			rc = fail(c, path, "%s: a string, not %s", path, kind(v));
		else {
			const struct proftab_opt *po = c->have_tab ? proftab_find(&c->tab, o1) : NULL;

			size_t k = 0;

			while (f->type == 'e' && po && v->type == CN_STR && k < po->nvalues &&
			       !util_choice_eq(v->s, po->values[k]))
				k++;
			if (f->type == 'e' && po && po->nvalues && k == po->nvalues) {
				struct buf ch = BUF_INIT(BUF_NOMAX);

				for (size_t q = 0; q < po->nvalues; q++)
					buf_addf(&ch, "%s%s", q ? ", " : "", po->values[q]);
				rc = fail(c, path, "%s: '%s' is not one of %s's choices (%s)", path, text(v, &t), o1,
					  buf_str(&ch));
				buf_release(&ch);
			} else
				cfgargs_add(a, o1, text(v, &t));
		}
		break;
	case 'b':
		if (v->type != CN_TRUE && v->type != CN_FALSE)
			rc = fail(c, path, "%s: true or false, not %s", path, kind(v));
		else if (v->type == CN_TRUE)
			cfgargs_add(a, o1, NULL);
		else if (o2)
			cfgargs_add(a, o2, NULL);
		break;
	case 'l':
		if (v->type == CN_ARR) {
			for (size_t i = 0; i < v->n && !rc; i++)
				if (v->kids[i]->type != CN_STR && v->kids[i]->type != CN_NUM)
					rc = fail(c, path, "%s: a list of strings; item %zu is %s", path, i, kind(v->kids[i]));
				else
					cfgargs_add(a, o1, text(v->kids[i], &t));
		} else if (v->type == CN_STR || v->type == CN_NUM) {
			cfgargs_add(a, o1, text(v, &t));
		} else {
			rc = fail(c, path, "%s: a string or a list of strings, not %s", path, kind(v));
		}
		break;
	case 'm':
		if (v->type == CN_NUM) {
			cfgargs_add(a, o1, v->s);
		} else if (v->type == CN_OBJ) {
			/* the original's distributions: normal (mean, stddev) and
			 * fixed (value) are the ones these options hold */
			const char *dt = cnode_strval(v, "type");

			if (dt && strcmp(dt, "normal") && strcmp(dt, "fixed"))
				rc = fail(c, path, "%s: a %s distribution is not run here (normal {mean, stddev} and fixed {value} are)", path, dt);
			for (size_t i = 0; i < v->n && !rc; i++) {
				const struct cnode *k = v->kids[i];
				int mean = !strcmp(k->key, "mean") || (dt && !strcmp(dt, "fixed") && !strcmp(k->key, "value"));

				if (!strcmp(k->key, "type"))
					continue;
				if ((!mean && strcmp(k->key, "stddev")) || (!mean && !o3) ||
				    (dt && !strcmp(dt, "fixed") && !mean))
					rc = fail(c, path, "%s: a distribution here is {mean, stddev}; '%s' is not run here", path, k->key);
				else if (k->type != CN_NUM)
					rc = fail(c, path, "%s.%s: a number, not %s", path, k->key, kind(k));
				else
					cfgargs_add(a, mean ? o1 : o3, k->s);
			}
		} else {
			rc = fail(c, path, "%s: a number or {mean, stddev}, not %s", path, kind(v));
		}
		break;
	case 'h':
	case 'x':
		if (v->type != CN_OBJ) {
			rc = fail(c, path, "%s: a mapping, not %s", path, kind(v));
			break;
		}
		for (size_t i = 0; i < v->n; i++) {
			struct buf kv = BUF_INIT(BUF_NOMAX);

			buf_addf(&kv, f->type == 'h' ? "%s: " : "%s:", v->kids[i]->key);
			if (v->kids[i]->type == CN_STR)
				buf_add(&kv, v->kids[i]->s, v->kids[i]->len);
			else
				cnode_json(v->kids[i], &kv, 0);
			cfgargs_add(a, o1, buf_str(&kv));
			buf_release(&kv);
		}
		break;
	case 'k':	/* the original's dict[str, str]: no other type */
		if (v->type != CN_OBJ) {
			rc = fail(c, path, "%s: a mapping, not %s", path, kind(v));
			break;
		}
		for (size_t i = 0; i < v->n && !rc; i++) {
			struct buf kv = BUF_INIT(BUF_NOMAX);

			if (v->kids[i]->type != CN_STR) {
				rc = fail(c, path, "%s.%s: a string, not %s", path,
					  v->kids[i]->key, kind(v->kids[i]));
				break;
			}
			buf_addf(&kv, "%s=", v->kids[i]->key);
			buf_add(&kv, v->kids[i]->s, v->kids[i]->len);
			cfgargs_add(a, o1, buf_str(&kv));
			buf_release(&kv);
		}
		break;
	case 'a':
		cfgargs_add(a, o1, text(v, &t));
		break;
	default:
		rc = fail(c, path, "%s: internal: field type '%c'", path, f->type);
	}
	buf_release(&t);
	free(o1);
	return rc;
}

static int body_section(struct ctx *c, const struct cnode *obj, const char *spath, const char *vpath,
			struct cfgargs *a, int warmup);

/* A plain field below a section (not one the loader reads itself). */
static int
member(struct ctx *c, const struct cnode *m, const char *spath, const char *vpath, struct cfgargs *a,
       int warmup)
{
	char *sp = child_path(spath, m->key), *vp = xstrfmt("%s.%s", vpath, m->key);
	const struct cfgfield *f = cfgschema_find(&c->s, sp);
	int rc = 0;

	if (!f) {
		char *lp = xstrfmt("%s[]", sp);

		f = cfgschema_find(&c->s, lp);
		free(lp);
	}
	if (!f)
		rc = fail(c, vp, "%s: unknown field", vp);
	else if (f->type == '-' && m->type != CN_FALSE && m->type != CN_NULL)
		rc = fail(c, vp, "%s: not supported by this implementation (%s)", vp, f->note);
	else if (f->type == '-')
		rc = 0;
	else if (f->type == 'o') {
		if (m->type != CN_OBJ)
			rc = fail(c, vp, "%s: a mapping, not %s", vp, kind(m));
		else
			rc = body_section(c, m, sp, vp, a, warmup);
	} else if (f->type != '=' && m->type != CN_NULL) {
		const char *opt = warmup ? f->warmup : f->option;

		if (!strcmp(opt, "-"))
			rc = fail(c, vp, "%s: not run in a %s phase here", vp, warmup ? "warmup" : "profiling");
		else
			rc = field_value(c, f, opt, m, vp, a);
	}
	free(sp);
	free(vp);
	return rc;
}

static int
body_section(struct ctx *c, const struct cnode *obj, const char *spath, const char *vpath,
	     struct cfgargs *a, int warmup)
{
	for (size_t i = 0; i < obj->n; i++)
		if (member(c, obj->kids[i], spath, vpath, a, warmup) < 0)
			return -1;
	return 0;
}

/* The fields each phase type has beyond the common ones. */
static int
phase_field_ok(const char *type, const char *key)
{
	static const char *const rate_types = " constant poisson gamma user_centric ";
	char t[64];

	snprintf(t, sizeof(t), " %s ", type);
	if (!strcmp(key, "rate") || !strcmp(key, "rate_ramp"))
		return strstr(rate_types, t) != NULL;
	if (!strcmp(key, "smoothness"))
		return !strcmp(type, "gamma");
	if (!strcmp(key, "users"))
		return !strcmp(type, "user_centric");
	if (!strcmp(key, "auto_offset") || !strcmp(key, "start_offset") || !strcmp(key, "end_offset"))
		return !strcmp(type, "fixed_schedule");
	return 1;
}

static int
phase(struct ctx *c, const struct cnode *ph, const char *vpath, int warmup, struct cfgargs *a)
{
	static const char *const types[] = { "concurrency", "constant", "poisson", "gamma",
		"fixed_schedule", "user_centric", NULL };
	const char *type = cnode_strval(ph, "type");
	size_t t;

	if (!type)
		return fail(c, vpath, "%s: a phase needs a 'type' (%s)", vpath,
			    "concurrency, constant, poisson, gamma, fixed_schedule or user_centric");
	for (t = 0; types[t] && strcmp(types[t], type); t++)
		;
	if (!types[t])
		return fail(c, vpath, "%s.type: '%s' is not a phase type (concurrency, constant, poisson, gamma, fixed_schedule, user_centric)",
			    vpath, type);
	if (t >= 1 && t <= 3 && !cnode_get(ph, "rate"))
		return fail(c, vpath, "%s: a %s phase needs a 'rate'", vpath, type);
	if (t == 5 && (!cnode_get(ph, "rate") || !cnode_get(ph, "users")))
		return fail(c, vpath, "%s: a user_centric phase needs 'rate' and 'users'", vpath);
	if (warmup && (t == 4 || t == 5))
		return fail(c, vpath, "%s: a %s warmup phase is not run here (warmup by concurrency or rate)", vpath, type);
	for (size_t i = 0; i < ph->n; i++) {
		const struct cnode *m = ph->kids[i];

		if (!strcmp(m->key, "name") || !strcmp(m->key, "type") ||
		    !strcmp(m->key, "exclude_from_results") ||
		    (!strcmp(m->key, "seamless") && m->type == CN_FALSE))
			continue;
		if (!phase_field_ok(type, m->key)) {
			char *vp = xstrfmt("%s.%s", vpath, m->key);
			int rc = fail(c, vp, "%s: '%s' is not a field of a %s phase", vpath, m->key, type);

			free(vp);
			return rc;
		}
		if (t == 5 && !strcmp(m->key, "rate")) {
			char *vp = xstrfmt("%s.rate", vpath);

			if (m->type != CN_NUM) {
				int rc = fail(c, vp, "%s: a number, not %s", vp, kind(m));

				free(vp);
				return rc;
			}
			cfgargs_add(a, "--user-centric-rate", m->s);
			free(vp);
			continue;
		}
		if (member(c, m, "benchmark.phases[]", vpath, a, warmup) < 0)
			return -1;
	}
	if (t >= 1 && t <= 3)
		cfgargs_add(a, warmup ? "--warmup-arrival-pattern" : "--arrival-pattern", type);
	if (t == 4)
		cfgargs_add(a, "--fixed-schedule", NULL);
	return 0;
}

static int
phases(struct ctx *c, const struct cnode *l, struct cfgargs *a)
{
	size_t nwarm = 0, nprof = 0;

	if (l->type != CN_ARR)
		return fail(c, "benchmark.phases", "benchmark.phases: a list of phases, or one phase with its 'type'; not %s", kind(l));
	for (size_t i = 0; i < l->n; i++) {
		const struct cnode *ph = l->kids[i], *ex;
		const char *nm;
		char *vp;
		int warm, rc;

		if (ph->type != CN_OBJ)
			return fail(c, "benchmark.phases", "benchmark.phases[%zu]: a mapping, not %s", i, kind(ph));
		if (!(nm = cnode_strval(ph, "name")))
			return fail(c, "benchmark.phases", "benchmark.phases[%zu]: a phase needs a 'name'", i);
		ex = cnode_get(ph, "exclude_from_results");
		if (ex && ex->type != CN_TRUE && ex->type != CN_FALSE)
			return fail(c, "benchmark.phases", "benchmark.phases.%s.exclude_from_results: true or false", nm);
		warm = ex ? ex->type == CN_TRUE : !strcmp(nm, "warmup");
		if (warm && (nprof || nwarm))
			return fail(c, "benchmark.phases", "benchmark.phases: one warmup phase, before the profiling phase, is run here ('%s' is another)", nm);
		if (!warm && nprof)
			return fail(c, "benchmark.phases", "benchmark.phases: one profiling phase is run here ('%s' is a second; a sweep varies one phase across runs)", nm);
		nwarm += (size_t)warm;
		nprof += (size_t)!warm;
		vp = xstrfmt("benchmark.phases.%s", nm);
		rc = phase(c, ph, vp, warm, a);
		free(vp);
		if (rc < 0)
			return -1;
	}
	if (!nprof)
		return fail(c, "benchmark.phases", "benchmark.phases: no profiling phase (a phase without exclude_from_results: true)");
	return 0;
}

static int
dataset(struct ctx *c, const struct cnode *d, struct cfgargs *a)
{
	static const char *const only[][2] = {
		{ "synthetic", " name type entries isl osl prefix_prompts prompts random_seed rankings sampling turn_delay turn_delay_ratio turns images audio video " },
		{ "file", " name type entries format path records sampling synthesis osl random_seed inter_turn_delay_cap_seconds " },
		{ "public", " name type dataset entries filters hf_subset sampling random_seed " },
	};
	const char *type = cnode_strval(d, "type"), *nm = cnode_strval(d, "name");
	char *vp = xstrfmt("benchmark.datasets.%s", nm ? nm : "0");
	size_t t;
	int rc = 0;

	for (t = 0; t < 3 && (!type || strcmp(type, only[t][0])); t++)
		;
	if (t == 3)
		rc = fail(c, vp, "%s.type: '%s' is not a dataset type (synthetic, file, public)", vp, type ? type : "?");
	for (size_t i = 0; i < d->n && !rc; i++) {
		const struct cnode *m = d->kids[i];
		char k[128];

		snprintf(k, sizeof(k), " %s ", m->key);
		if (!strstr(only[t][1], k)) {
			rc = fail(c, vp, "%s: '%s' is not a field of a %s dataset", vp, m->key, type);
			break;
		}
		if (!strcmp(m->key, "osl") && t == 1) {
			/* a file's osl: the output length of its requests */
			rc = member(c, m, "benchmark.datasets[]", vp, a, 0);
			continue;
		}
		rc = member(c, m, "benchmark.datasets[]", vp, a, 0);
	}
	if (!rc && t == 1 && !cnode_get(d, "path"))
		rc = fail(c, vp, "%s: a file dataset needs its 'path'", vp);
	if (!rc && t == 2 && !cnode_get(d, "dataset"))
		rc = fail(c, vp, "%s: a public dataset needs its 'dataset' name", vp);
	free(vp);
	return rc;
}

static int
body_args(struct ctx *c, const struct cnode *b, struct cfgargs *a)
{
	struct buf t = BUF_INIT(BUF_NOMAX);
	int rc = 0;

	if (b->type != CN_OBJ)
		return fail(c, "benchmark", "benchmark: a mapping, not %s", kind(b));
	if (!cnode_get(b, "endpoint"))
		return fail(c, "benchmark", "benchmark: an 'endpoint' is required (its url at least)");
	for (size_t i = 0; i < b->n && !rc; i++) {
		const struct cnode *m = b->kids[i];
		const char *k = m->key;

		if (!strcmp(k, "models")) {
			const struct cnode *items = m->type == CN_OBJ ? cnode_get(m, "items") : NULL;
			size_t nw = 0;

			if (!items || items->type != CN_ARR) {
				rc = fail(c, "benchmark.models", "benchmark.models: a name, a list of names, or {items: [{name}], strategy}");
				break;
			}
			for (size_t j = 0; j < items->n && !rc; j++) {
				const struct cnode *it = items->kids[j];
				const char *nm = cnode_strval(it, "name");

				if (!nm)
					rc = fail(c, "benchmark.models", "benchmark.models.items[%zu]: a model needs its 'name'", j);
				for (size_t q = 0; !rc && q < it->n; q++) {
					const struct cnode *f = it->kids[q];

					if (!strcmp(f->key, "weight") && f->type == CN_NUM) {
						/* --model-weights, in the items' order */
						buf_addf(&t, "%s%s", nw++ ? "," : "", f->s);
					} else if (!strcmp(f->key, "weight")) {
						rc = fail(c, "benchmark.models", "benchmark.models.items[%zu].weight: a number, not %s",
							  j, kind(f));
					} else if (strcmp(f->key, "name")) {
						rc = fail(c, "benchmark.models", "benchmark.models.items[%zu].%s: not supported by this implementation (a model is its name here)",
							  j, f->key);
					}
				}
				if (!rc)
					cfgargs_add(a, "--model", nm);
			}
			/* every item's weight or none (ModelsAdvanced's check, when
			 * weighted, says so) */
			if (!rc && nw && nw == items->n)
				cfgargs_add(a, "--model-weights", buf_str(&t));
			buf_reset(&t);
			for (size_t q = 0; !rc && q < m->n; q++)
				if (strcmp(m->kids[q]->key, "items"))
					rc = member(c, m->kids[q], "benchmark.models", "benchmark.models", a, 0);
		} else if (!strcmp(k, "datasets")) {
			rc = dataset(c, m->kids[0], a);
		} else if (!strcmp(k, "phases")) {
			rc = phases(c, m, a);
		} else if (!strcmp(k, "slos")) {
			struct buf g = BUF_INIT(BUF_NOMAX);

			if (m->type != CN_OBJ)
				rc = fail(c, "benchmark.slos", "benchmark.slos: a mapping of metric: threshold, not %s", kind(m));
			for (size_t j = 0; !rc && j < m->n; j++) {
				if (m->kids[j]->type != CN_NUM)
					rc = fail(c, "benchmark.slos", "benchmark.slos.%s: a number, not %s", m->kids[j]->key, kind(m->kids[j]));
				else
					buf_addf(&g, "%s%s:%s", g.len ? " " : "", m->kids[j]->key, m->kids[j]->s);
			}
			if (!rc && g.len)
				cfgargs_add(a, "--goodput", buf_str(&g));
			buf_release(&g);
		} else if (!strcmp(k, "tokenizer")) {
			rc = m->type == CN_OBJ ? body_section(c, m, "benchmark.tokenizer", "benchmark.tokenizer", a, 0)
					       : fail(c, "benchmark.tokenizer", "benchmark.tokenizer: a name or {name, revision, trust_remote_code}");
		} else if (!strcmp(k, "gpu_telemetry") || !strcmp(k, "server_metrics")) {
			char *sp = xstrfmt("benchmark.%s", k);
			const struct cnode *en = cnode_get(m, "enabled");

			if (m->type != CN_OBJ)
				rc = fail(c, sp, "%s: false, a URL, a list of URLs or {urls}", sp);
			else if (en && en->type == CN_FALSE)
				cfgargs_add(a, *k == 'g' ? "--no-gpu-telemetry" : "--no-server-metrics", NULL);
			for (size_t j = 0; !rc && j < m->n; j++)
				if (strcmp(m->kids[j]->key, "enabled"))
					rc = member(c, m->kids[j], sp, sp, a, 0);
			free(sp);
		} else if (!strcmp(k, "artifacts") && m->type == CN_OBJ) {
			const struct cnode *raw = cnode_get(m, "raw"), *rec = cnode_get(m, "records");

			for (size_t j = 0; !rc && j < m->n; j++)
				if (!strcmp(m->kids[j]->key, "summary")) {
					if (!c->warned_summary++)
						warnf(c->p, "benchmark.artifacts.summary: the summary is written as JSON and CSV here, whichever are named");
				} else if (strcmp(m->kids[j]->key, "raw") && strcmp(m->kids[j]->key, "records")) {
					rc = member(c, m->kids[j], "benchmark.artifacts", "benchmark.artifacts", a, 0);
				}
			if (!rc && raw && raw->type == CN_TRUE)
				cfgargs_add(a, "--export-level", "raw");
			else if (!rc && rec && rec->type == CN_FALSE)
				cfgargs_add(a, "--export-level", "summary");
		} else {
			rc = member(c, m, "benchmark", "benchmark", a, 0);
		}
	}
	buf_release(&t);
	return rc;
}

/* --- the sweep --- */

struct overlay {
	char **path;	/* body-rooted, or variables.NAME */
	struct cnode **val;
	size_t n;
	struct cnode *scenario;	/* a scenario's partial envelope, deep-merged */
};

static const char *const aliases[] = { "concurrency", "prefill_concurrency", "rate", "requests",
	"duration", "sessions", "users", "smoothness", "grace_period", "concurrency_ramp",
	"prefill_ramp", "rate_ramp", NULL };

/* A sweep path checked, its bare-name sugar expanded, its segments in snake_case. */
static char *
sweep_path(struct ctx *c, const char *raw, const char *where)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	char *copy, *save = NULL;
	const char *first;

	for (size_t i = 0; aliases[i]; i++) {
		char *snake = cfgschema_snake(raw);

		if (!strcmp(snake, aliases[i])) {
			free(snake);
			return xstrfmt("phases.profiling.%s", aliases[i]);
		}
		free(snake);
	}
	if (!*raw || *raw == '.' || raw[strlen(raw) - 1] == '.' || strstr(raw, "..")) {
		fail(c, "sweep", "%s: dimension path '%s' must be a dotted path without empty segments", where, raw);
		return NULL;
	}
	copy = xstrdup(raw);
	for (char *seg = strtok_r(copy, ".", &save); seg; seg = strtok_r(NULL, ".", &save)) {
		char *s = b.len ? xstrdup(seg) : cfgschema_snake(seg);

		buf_addf(&b, "%s%s", b.len ? "." : "", s);
		free(s);
	}
	free(copy);
	first = buf_str(&b);
	if (!strncmp(first, "sweep", 5) && (!first[5] || first[5] == '.'))
		fail(c, "sweep", "%s: dimension path '%s' targets the sweep config itself; 'sweep.*' paths are not sweepable.", where, raw);
	else if ((!strncmp(first, "multi_run", 9) && (!first[9] || first[9] == '.')) ||
		 (!strncmp(first, "random_seed", 11) && (!first[11] || first[11] == '.')))
		fail(c, "sweep", "%s: dimension path '%s' targets non-sweepable top-level field.", where, raw);
	else if (!strncmp(first, "benchmark.", 10))
		fail(c, "sweep", "%s: dimension path '%s' must not include the redundant 'benchmark.' prefix. Paths target fields under the benchmark block; drop the prefix (e.g. 'phases.profiling.rate' instead of 'benchmark.phases.profiling.rate').",
		     where, raw);
	if (c->failed) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b, NULL);
}

/* Sets value at path below root (a list's entry by its name; the phase
 * "profiling" falls back to the one phase that is not warmup). */
static int
set_path(struct ctx *c, struct cnode *root, const char *path, const struct cnode *value)
{
	char *copy = xstrdup(path), *save = NULL, *seg, *next;
	struct cnode *cur = root;
	const char *parent = "";
	int rc = 0;

	seg = strtok_r(copy, ".", &save);
	while (seg) {
		next = strtok_r(NULL, ".", &save);
		if (cur->type == CN_ARR) {
			struct cnode *m = cnode_named(cur, seg);

			if (!m && !strcmp(seg, "profiling") && !strcmp(parent, "phases")) {
				struct cnode *only = NULL;
				size_t k = 0;

				for (size_t i = 0; i < cur->n; i++) {
					const char *nm = cnode_strval(cur->kids[i], "name");

					if (!nm || strcmp(nm, "warmup"))
						only = cur->kids[i], k++;
				}
				m = k == 1 ? only : NULL;
			}
			if (!m) {
				struct buf names = BUF_INIT(BUF_NOMAX);

				for (size_t i = 0; i < cur->n; i++) {
					const char *nm = cnode_strval(cur->kids[i], "name");

					buf_addf(&names, "%s'%s'", i ? ", " : "", nm ? nm : "?");
				}
				rc = fail(c, "sweep", "sweep path '%s': no entry named '%s' found (existing: [%s]). Add the entry first or fix the typo.",
					  path, seg, buf_str(&names));
				buf_release(&names);
				break;
			}
			if (!next) {
				rc = fail(c, "sweep", "sweep path '%s': cannot assign into a list entry", path);
				break;
			}
			cur = m;
		} else if (cur->type == CN_OBJ) {
			const char *f = NULL;
			char *key = NULL;

			if (!next) {
				cnode_set(cur, seg, cnode_clone(value));
				break;
			}
			f = cnode_get(cur, seg) ? seg : NULL;
			if (!f && (!strcmp(seg, "phases") || !strcmp(seg, "datasets")) && cur == root) {
				rc = fail(c, "sweep", "sweep path '%s': no entry named '%s' found (the file has no %s)",
					  path, next, seg);
				break;
			}
			key = xstrdup(f ? f : seg);
			if (!cnode_get(cur, key))
				cnode_set(cur, key, cnode_new(CN_OBJ));
			cur = cnode_get(cur, key);
			free(key);
		} else {
			rc = fail(c, "sweep", "sweep path '%s': cannot descend into %s at segment '%s'; expected a mapping or a list of named entries.",
				  path, kind(cur), parent);
			break;
		}
		parent = seg;
		seg = next;
	}
	free(copy);
	return rc;
}

/* The original's _deep_merge: mappings merged, lists of named entries by name. */
static void
deep_merge(struct cnode *base, const struct cnode *over)
{
	for (size_t i = 0; i < over->n; i++) {
		const struct cnode *o = over->kids[i];
		struct cnode *b = cnode_get(base, o->key);

		if (b && b->type == CN_OBJ && o->type == CN_OBJ) {
			deep_merge(b, o);
		} else if (b && b->type == CN_ARR && o->type == CN_ARR && b->n && o->n &&
			   cnode_strval(b->kids[0], "name") && cnode_strval(o->kids[0], "name")) {
			for (size_t k = 0; k < o->n; k++) {
				const char *nm = cnode_strval(o->kids[k], "name");
				struct cnode *e = nm ? cnode_named(b, nm) : NULL;

				if (e && o->kids[k]->type == CN_OBJ)
					deep_merge(e, o->kids[k]);
				else
					cnode_push(b, cnode_clone(o->kids[k]));
			}
		} else {
			cnode_set(base, o->key, cnode_clone(o));
		}
	}
}

static const char *const magic[] = { "level", "concurrency", "prefill_concurrency", "rate", "count",
	"requests", "duration", "sessions", "users", "time", "mean", NULL };

struct vlist {
	struct overlay *o;
	char **label;
	struct cnode **values;
	size_t n;
};

static void
vlist_add(struct vlist *l, struct overlay o, char *label, struct cnode *values)
{
	l->o = xrealloc(l->o, (l->n + 1) * sizeof(*l->o));
	l->label = xrealloc(l->label, (l->n + 1) * sizeof(*l->label));
	l->values = xrealloc(l->values, (l->n + 1) * sizeof(*l->values));
	l->o[l->n] = o;
	l->label[l->n] = label;
	l->values[l->n++] = values;
}

static void
overlay_free(struct overlay *o)
{
	for (size_t i = 0; i < o->n; i++) {
		free(o->path[i]);
		cnode_free(o->val[i]);
	}
	free(o->path);
	free(o->val);
	cnode_free(o->scenario);
}

static void
overlay_set(struct overlay *o, const char *path, const struct cnode *v)
{
	o->path = xrealloc(o->path, (o->n + 1) * sizeof(*o->path));
	o->val = xrealloc(o->val, (o->n + 1) * sizeof(*o->val));
	o->path[o->n] = xstrdup(path);
	o->val[o->n++] = cnode_clone(v);
}

/* grid or zip over parameters (path -> list), the paths sorted as the original sorts them. */
static int
grid(struct ctx *c, const struct cnode *params, int zip, int sorted, struct vlist *out)
{
	struct cfgplan *p = c->p;
	size_t n = params->n, total = 1;
	const struct cnode **vals;
	size_t *pick;

	if (params->type != CN_OBJ || !n)
		return fail(c, "sweep.parameters", "sweep.parameters: a mapping of path: [values], with one path at least");
	p->params = xcalloc(n, sizeof(*p->params));
	vals = xcalloc(n, sizeof(*vals));
	for (size_t i = 0; i < n; i++) {
		const struct cnode *v = params->kids[i];

		if (!(p->params[i] = sweep_path(c, v->key, zip ? "zip sweep parameter" : "grid sweep parameter")))
			goto bad;
		p->nparams++;
		for (size_t k = 0; k < i; k++)
			if (!strcmp(p->params[k], p->params[i])) {
				fail(c, "sweep.parameters", "sweep parameter '%s' resolves to '%s', which is already a parameter. Pick one spelling (the bare alias or the full dotted path) and remove the other.",
				     v->key, p->params[i]);
				goto bad;
			}
		if (v->type != CN_ARR || !v->n) {
			fail(c, "sweep.parameters", "%s sweep parameter '%s': value list must be non-empty.", zip ? "zip" : "grid", v->key);
			goto bad;
		}
	}
	for (size_t i = 0; i < n; i++)
		vals[i] = params->kids[i];
	if (sorted) {
		for (size_t i = 1; i < n; i++)
			for (size_t k = i; k > 0 && strcmp(p->params[k - 1], p->params[k]) > 0; k--) {
				char *t = p->params[k];
				const struct cnode *tv = vals[k];

				p->params[k] = p->params[k - 1], p->params[k - 1] = t;
				vals[k] = vals[k - 1], vals[k - 1] = tv;
			}
	}
	for (size_t i = 0; i < n; i++) {
		if (zip && vals[i]->n != vals[0]->n) {
			struct buf l = BUF_INIT(BUF_NOMAX);

			for (size_t k = 0; k < n; k++)
				buf_addf(&l, "%s'%s': %zu", k ? ", " : "", params->kids[k]->key, params->kids[k]->n);
			fail(c, "sweep.parameters", "zip sweep parameters must all have equal length; got {%s}.", buf_str(&l));
			buf_release(&l);
			goto bad;
		}
		if (!zip && total > MAX_VARIATIONS / vals[i]->n) {
			fail(c, "sweep.parameters", "the sweep has more than %d variations", MAX_VARIATIONS);
			goto bad;
		}
		total = zip ? vals[0]->n : total * vals[i]->n;
	}
	pick = xcalloc(n, sizeof(*pick));
	for (size_t k = 0; k < total; k++) {
		struct overlay o = { 0 };
		struct cnode *values = cnode_new(CN_OBJ);
		struct buf label = BUF_INIT(BUF_NOMAX);
		size_t rest = k;

		for (size_t i = n; i-- > 0;) {
			pick[i] = zip ? k : rest % vals[i]->n;
			rest = zip ? rest : rest / vals[i]->n;
		}
		for (size_t i = 0; i < n; i++) {
			const struct cnode *v = vals[i]->kids[pick[i]];

			overlay_set(&o, p->params[i], v);
			cnode_set(values, p->params[i], cnode_clone(v));
			buf_addf(&label, "%s%s=", i ? ", " : "", p->params[i]);
			cnode_pystr(v, &label);
		}
		vlist_add(out, o, buf_detach(&label, NULL), values);
	}
	free(pick);
	free(vals);
	return 0;
bad:
	free(vals);
	return -1;
}

static int
scenarios(struct ctx *c, const struct cnode *runs, struct vlist *out)
{
	if (!runs || runs->type != CN_ARR || !runs->n)
		return fail(c, "sweep.runs", "sweep.runs: a list of scenarios, one at least");
	for (size_t i = 0; i < runs->n; i++) {
		const struct cnode *r = runs->kids[i], *vals, *nm;
		struct overlay o = { 0 };
		struct cnode *part = cnode_new(CN_OBJ), *values;

		if (r->type != CN_OBJ) {
			cnode_free(part);
			return fail(c, "sweep.runs", "sweep run [%zu]: a mapping, not %s", i, kind(r));
		}
		for (size_t k = 0; k < r->n; k++) {
			const char *key = r->kids[k]->key;

			if (strcmp(key, "name") && strcmp(key, "variables") && strcmp(key, "benchmark") &&
			    strcmp(key, "values")) {
				cnode_free(part);
				return fail(c, "sweep.runs", "sweep run [%zu]: unknown field(s) ['%s']; allowed: ['benchmark', 'name', 'values', 'variables']. (If you migrated from the flat shape, wrap body fields under `benchmark:` inside the run.)",
					    i, key);
			}
			if (!strcmp(key, "variables") || !strcmp(key, "benchmark"))
				cnode_set(part, key, cnode_clone(r->kids[k]));
		}
		vals = cnode_get(r, "values");
		if (vals && vals->type != CN_OBJ) {
			cnode_free(part);
			return fail(c, "sweep.runs", "sweep run [%zu].values must be a dict, got %s", i, kind(vals));
		}
		for (size_t k = 0; vals && k < vals->n; k++)
			if (vals->kids[k]->type == CN_ARR || vals->kids[k]->type == CN_OBJ) {
				cnode_free(part);
				return fail(c, "sweep.runs", "sweep run [%zu].values['%s'] must be a hashable scalar; got %s", i,
					    vals->kids[k]->key, kind(vals->kids[k]));
			}
		nm = cnode_get(r, "name");
		values = vals ? cnode_clone(vals) : cnode_clone(part);
		o.scenario = part;
		if (!nm)
			warnf(c->p, "sweep run [%zu]: no 'name:' set, so its artifacts go to the positional name 'scenario_%zu'. Add a 'name:' for readable directory names.", i, i);
		if (nm) {
			struct buf l = BUF_INIT(BUF_NOMAX);

			cnode_pystr(nm, &l);
			vlist_add(out, o, buf_detach(&l, NULL), values);
		} else {
			vlist_add(out, o, xstrfmt("scenario_%zu", i), values);
		}
	}
	return 0;
}

static int
qmc(struct ctx *c, const struct cnode *sw, int sobol, struct vlist *out)
{
	const struct cnode *samples = cnode_get(sw, "samples"), *seed = cnode_get(sw, "seed");
	const struct cnode *dims = cnode_get(sw, "dimensions"), *scr = cnode_get(sw, "scramble");
	const struct cnode *opt = cnode_get(sw, "optimization");
	const char *lf = cnode_strval(sw, "label_format");
	const char *name = sobol ? "sobol" : "latin_hypercube";
	struct spacefill_dim *d;
	size_t n, nd;
	double *u;
	int rc;

	if (!samples || !is_int(samples) || atol(samples->s) < 1 || atol(samples->s) > MAX_VARIATIONS)
		return fail(c, "sweep.samples", "sweep.samples: the number of points, an integer from 1 to %d", MAX_VARIATIONS);
	if (!dims || dims->type != CN_ARR || !dims->n || dims->n > SPACEFILL_MAX_DIM)
		return fail(c, "sweep.dimensions", "sweep.dimensions: a list of 1 to %d dimensions ({path, lo, hi} or {path, choices})", SPACEFILL_MAX_DIM);
	if (seed && (!is_int(seed) || seed->s[0] == '-'))
		return fail(c, "sweep.seed", "sweep.seed: a non-negative integer");
	if (lf && strcmp(lf, "index") && strcmp(lf, "kv"))
		return fail(c, "sweep.label_format", "sweep.label_format: index or kv, not '%s'", lf);
	if (sobol && opt)
		return fail(c, "sweep.optimization", "sweep.optimization: a latin_hypercube field");
	if (!sobol && scr)
		return fail(c, "sweep.scramble", "sweep.scramble: a sobol field");
	if (opt && opt->type != CN_NULL && !(opt->type == CN_STR && !strcmp(opt->s, "random-cd")))
		return fail(c, "sweep.optimization", "sweep.optimization: null or random-cd");
	if (scr && scr->type != CN_TRUE && scr->type != CN_FALSE)
		return fail(c, "sweep.scramble", "sweep.scramble: true or false");
	n = (size_t)atol(samples->s);
	nd = dims->n;
	d = xcalloc(nd, sizeof(*d));
	c->p->params = xcalloc(nd, sizeof(*c->p->params));
	for (size_t k = 0; k < nd; k++) {
		const struct cnode *dm = dims->kids[k], *lo, *hi, *ch, *sc, *kd;
		char *where = xstrfmt("%s dimension %zu", name, k);

		if (dm->type != CN_OBJ || !cnode_strval(dm, "path")) {
			free(where);
			rc = fail(c, "sweep.dimensions", "sweep.dimensions[%zu]: a mapping with its 'path'", k);
			free(d);
			return rc;
		}
		for (size_t q = 0; q < dm->n; q++)
			if (!strstr(" path lo hi scale kind choices ", dm->kids[q]->key) ||
			    strchr(dm->kids[q]->key, ' ')) {
				free(where);
				rc = fail(c, "sweep.dimensions", "sweep.dimensions[%zu]: unknown field '%s' (path, lo, hi, scale, kind, choices)", k, dm->kids[q]->key);
				free(d);
				return rc;
			}
		c->p->params[k] = sweep_path(c, cnode_strval(dm, "path"), where);
		free(where);
		if (!c->p->params[k]) {
			free(d);
			return -1;
		}
		c->p->nparams++;
		lo = cnode_get(dm, "lo"), hi = cnode_get(dm, "hi"), ch = cnode_get(dm, "choices");
		sc = cnode_get(dm, "scale"), kd = cnode_get(dm, "kind");
		if (ch && ch->type != CN_NULL) {
			if (ch->type != CN_ARR || !ch->n || (lo && lo->type != CN_NULL) || (hi && hi->type != CN_NULL)) {
				rc = fail(c, "sweep.dimensions", "dim '%s': choices (a non-empty list) or lo and hi, not both", c->p->params[k]);
				free(d);
				return rc;
			}
			d[k].nchoices = ch->n;
			continue;
		}
		if (!lo || !hi || lo->type != CN_NUM || hi->type != CN_NUM) {
			rc = fail(c, "sweep.dimensions", "dim '%s': needs lo and hi (numbers) or choices", c->p->params[k]);
			free(d);
			return rc;
		}
		d[k].lo = atof(lo->s);
		d[k].hi = atof(hi->s);
		d[k].log = sc && sc->type == CN_STR && !strcmp(sc->s, "log");
		d[k].integer = kd && kd->type == CN_STR && !strcmp(kd->s, "int");
		if ((sc && !(sc->type == CN_STR && (!strcmp(sc->s, "log") || !strcmp(sc->s, "linear")))) ||
		    (kd && !(kd->type == CN_STR && (!strcmp(kd->s, "int") || !strcmp(kd->s, "real"))))) {
			rc = fail(c, "sweep.dimensions", "dim '%s': scale is linear or log, kind int or real", c->p->params[k]);
			free(d);
			return rc;
		}
		if (!(d[k].lo < d[k].hi) || (d[k].log && d[k].lo <= 0)) {
			rc = fail(c, "sweep.dimensions", "dim '%s': lo < hi%s", c->p->params[k], d[k].log ? ", both > 0 on a log scale" : "");
			free(d);
			return rc;
		}
		if (d[k].integer && ceil(d[k].lo) > floor(d[k].hi)) {
			rc = fail(c, "sweep.dimensions", "dim '%s': no integer between lo and hi", c->p->params[k]);
			free(d);
			return rc;
		}
	}
	if (sobol && (n & (n - 1)))
		warnf(c->p, "Sobol balance is best at powers of 2 (8, 16, 32, ...); got samples=%zu.", n);
	u = xcalloc(n * nd, sizeof(*u));
	uint64_t sd = seed ? strtoull(seed->s, NULL, 10) : 0;

	rc = sobol ? spacefill_sobol(n, nd, !scr || scr->type == CN_TRUE, sd, u)
		   : spacefill_lhs(n, nd, !opt || opt->type != CN_NULL, sd, u);
	if (rc < 0) {
		free(u);
		rc = fail(c, "sweep", "sweep: cannot draw %zu points in %zu dimensions", n, nd);
		free(d);
		return rc;
	}
	for (size_t i = 0; i < n; i++) {
		struct overlay o = { 0 };
		struct cnode *values = cnode_new(CN_OBJ);
		struct buf label = BUF_INIT(BUF_NOMAX);

		for (size_t k = 0; k < nd; k++) {
			double v;
			size_t choice;
			struct cnode *val;

			spacefill_map(&d[k], u[i * nd + k], &v, &choice);
			if (d[k].nchoices) {
				val = cnode_clone(cnode_get(dims->kids[k], "choices")->kids[choice]);
			} else {
				struct buf t = BUF_INIT(BUF_NOMAX);
				struct jw w;

				jw_init(&w, &t, 0);
				if (d[k].integer)
					jw_int(&w, (int64_t)v);
				else
					jw_double_py(&w, v);
				val = cnode_parse(t.s, t.len);
				buf_release(&t);
			}
			overlay_set(&o, c->p->params[k], val);
			buf_addf(&label, "%s%s=", k ? ", " : "", c->p->params[k]);
			cnode_pystr(val, &label);
			cnode_set(values, c->p->params[k], val);
		}
		if (!lf || !strcmp(lf, "index")) {
			buf_reset(&label);
			buf_addf(&label, "%s_%04zu", name, i);
		}
		vlist_add(out, o, buf_detach(&label, NULL), values);
	}
	free(u);
	free(d);
	return 0;
}

/* The sweep block's own options and its variations. */
static int
sweep(struct ctx *c, struct cnode *sw, struct vlist *out)
{
	static const char *const classes[][2] = { { "grid", "GridSweep" }, { "zip", "ZipSweep" },
		{ "scenarios", "ScenarioSweep" }, { "sobol", "SobolSweep" },
		{ "latin_hypercube", "LatinHypercubeSweep" } };
	static const char *const keys = " type parameters runs samples seed scramble optimization dimensions label_format cooldown_seconds iteration_order same_seed recipe_name post_process sla_filters ";
	const char *type;
	const struct cnode *v;
	size_t t;

	if (sw->type != CN_OBJ)
		return fail(c, "sweep", "sweep: a mapping, not %s", kind(sw));
	for (size_t i = 0; i < sw->n; i++) {
		char *snake = cfgschema_snake(sw->kids[i]->key), k[128];

		snprintf(k, sizeof(k), " %s ", snake);
		if (!strstr(keys, k) || strchr(snake, ' ')) {
			int rc = fail(c, "sweep", "sweep: unknown field '%s'", sw->kids[i]->key);

			free(snake);
			return rc;
		}
		free(sw->kids[i]->key);
		sw->kids[i]->key = snake;
	}
	type = cnode_strval(sw, "type") ? cnode_strval(sw, "type") : "grid";
	if (!strcmp(type, "adaptive_search"))
		return fail(c, "sweep.type", "sweep.type: adaptive_search (Bayesian optimization) is not run here; a grid sweep, or --search-recipe max-concurrency-under-sla for a capacity search");
	for (t = 0; t < 5 && strcmp(classes[t][0], type); t++)
		;
	if (t == 5)
		return fail(c, "sweep.type", "sweep.type: '%s' is not a sweep type (grid, zip, scenarios, sobol, latin_hypercube)", type);
	if (cnode_get(sw, "post_process") || cnode_get(sw, "sla_filters") || cnode_get(sw, "recipe_name"))
		return fail(c, "sweep", "sweep: post_process, sla_filters and recipe_name are a recipe's: give --search-recipe on the command line");
	c->p->type = xstrdup(type);
	c->p->sweep_class = xstrdup(classes[t][1]);
	if ((v = cnode_get(sw, "cooldown_seconds"))) {
		if (v->type != CN_NUM)
			return fail(c, "sweep.cooldown_seconds", "sweep.cooldown_seconds: a number");
		cfgargs_add(&c->p->envelope, "--parameter-sweep-cooldown-seconds", v->s);
	}
	if ((v = cnode_get(sw, "iteration_order"))) {
		if (v->type != CN_STR || (strcmp(v->s, "repeated") && strcmp(v->s, "independent")))
			return fail(c, "sweep.iteration_order", "sweep.iteration_order: repeated or independent");
		cfgargs_add(&c->p->envelope, "--parameter-sweep-mode", v->s);
	}
	if ((v = cnode_get(sw, "same_seed"))) {
		if (v->type != CN_TRUE && v->type != CN_FALSE)
			return fail(c, "sweep.same_seed", "sweep.same_seed: true or false");
		cfgargs_add(&c->p->envelope, v->type == CN_TRUE ? "--parameter-sweep-same-seed" : "--no-parameter-sweep-same-seed", NULL);
	}
	if (t <= 1) {
		if (!cnode_get(sw, "parameters"))
			return fail(c, "sweep", "sweep: a %s sweep needs its 'parameters'", type);
		return grid(c, cnode_get(sw, "parameters"), t == 1, 1, out);
	}
	if (t == 2)
		return scenarios(c, cnode_get(sw, "runs"), out);
	return qmc(c, sw, t == 3, out);
}

/* A list at a phase's MAGIC field is the original's implicit grid. */
static int
magic_lists(struct ctx *c, const struct cnode *body, struct vlist *out)
{
	const struct cnode *ph = cnode_get(body, "phases");
	struct cnode *params = cnode_new(CN_OBJ);
	int rc = 0;

	for (size_t i = 0; ph && ph->type == CN_ARR && i < ph->n; i++) {
		const char *nm = cnode_strval(ph->kids[i], "name");

		for (size_t k = 0; nm && k < ph->kids[i]->n; k++) {
			const struct cnode *v = ph->kids[i]->kids[k];
			int all_num = v->type == CN_ARR && v->n;

			for (size_t q = 0; all_num && q < v->n; q++)
				all_num = v->kids[q]->type == CN_NUM;
			for (size_t m = 0; all_num && magic[m]; m++)
				if (!strcmp(magic[m], v->key)) {
					char *path = xstrfmt("phases.%s.%s", nm, v->key);

					cnode_set(params, path, cnode_clone(v));
					free(path);
				}
		}
	}
	if (params->n) {
		c->p->type = xstrdup("grid");
		c->p->sweep_class = xstrdup("GridSweep");
		rc = grid(c, params, 0, 0, out);
	}
	cnode_free(params);
	return rc;
}

/* --- the envelope --- */

static int
envelope(struct ctx *c, const struct cnode *root)
{
	const struct cnode *v = cnode_get(root, "schema_version");

	if (v && !((v->type == CN_STR && !strcmp(v->s, "2.0")) || (v->type == CN_NUM && atof(v->s) == 2.0)))
		return fail(c, "schema_version", "schemaVersion: '%s' is not a version read here (\"2.0\")", v->s ? v->s : kind(v));
	if (!cnode_get(root, "benchmark"))
		return fail(c, NULL, "no 'benchmark:' block: the workload goes under benchmark: (schemaVersion \"2.0\"; see aiperf-config(1))");
	if ((v = cnode_get(root, "random_seed")) && (!is_int(v) || v->s[0] == '-'))
		return fail(c, "random_seed", "random_seed: a non-negative integer");
	if (v)
		cfgargs_add(&c->p->envelope, "--random-seed", v->s);
	if ((v = cnode_get(root, "variables")) && v->type != CN_OBJ)
		return fail(c, "variables", "variables: a mapping of name: value");
	for (size_t i = 0; i < root->n; i++) {
		const struct cnode *m = root->kids[i];

		if (!strcmp(m->key, "multi_run")) {
			if (m->type != CN_OBJ)
				return fail(c, "multi_run", "multi_run: a mapping, not %s", kind(m));
			if (body_section(c, m, "multi_run", "multi_run", &c->p->envelope, 0) < 0)
				return -1;
		} else if (!strcmp(m->key, "no_sweep_table")) {
			if (member(c, m, "", "", &c->p->envelope, 0) < 0)
				return -1;
		}
	}
	return 0;
}

static int
variation(struct ctx *c, const struct cnode *root, const struct overlay *o, struct cfgvar *out)
{
	struct cnode *env = cnode_clone(root), *body;
	int rc = 0;

	cnode_free(cnode_take(env, "sweep"));
	cnode_free(cnode_take(env, "multi_run"));
	if (o->scenario) {
		struct cnode *part = cnode_clone(o->scenario), *b = cnode_get(part, "benchmark");

		if (b && b->type == CN_OBJ) {
			struct cnode *dv = cnode_take(b, "dataset");

			if (dv && dv->type == CN_OBJ) {
				struct cnode *base_ds = cnode_get(cnode_get(env, "benchmark"), "datasets");
				const char *nm = cnode_strval(dv, "name");
				struct cnode *l = cnode_new(CN_ARR), *named = cnode_new(CN_OBJ);

				if (!nm && base_ds && base_ds->n == 1)
					nm = cnode_strval(base_ds->kids[0], "name");
				cnode_set(named, "name", cnode_str(nm ? nm : "default", strlen(nm ? nm : "default")));
				for (size_t i = 0; i < dv->n; i++)
					if (strcmp(dv->kids[i]->key, "name"))
						cnode_set(named, dv->kids[i]->key, cnode_clone(dv->kids[i]));
				cnode_push(l, named);
				cnode_set(b, "datasets", l);
			}
			cnode_free(dv);
			rc = normalize(c, b);
		}
		if (!rc)
			deep_merge(env, part);
		cnode_free(part);
	}
	for (size_t i = 0; !rc && i < o->n; i++) {
		struct cnode *b = cnode_get(env, "benchmark");

		if (!strncmp(o->path[i], "variables.", 10)) {
			if (!cnode_get(env, "variables"))
				cnode_set(env, "variables", cnode_new(CN_OBJ));
			rc = set_path(c, cnode_get(env, "variables"), o->path[i] + 10, o->val[i]);
		} else if (!strcmp(o->path[i], "model") || !strcmp(o->path[i], "models")) {
			/* the models anew, as the file would have written them */
			replace_key(b, "models", "model", cnode_clone(o->val[i]));
			rc = normalize(c, b);
		} else if (!strncmp(o->path[i], "dataset.", 8)) {
			/* the singular shorthand's path: the one dataset's */
			const struct cnode *ds = cnode_get(b, "datasets");
			const char *nm = ds && ds->type == CN_ARR && ds->n == 1 ? cnode_strval(ds->kids[0], "name") : NULL;
			char *p = xstrfmt("datasets.%s.%s", nm ? nm : "default", o->path[i] + 8);

			rc = set_path(c, b, p, o->val[i]);
			free(p);
		} else {
			rc = set_path(c, b, o->path[i], o->val[i]);
		}
	}
	body = cnode_get(env, "benchmark");
	if (!rc && body)
		rc = canon(c, body, "benchmark", "benchmark");
	if (!rc) {
		c->env = env;
		c->vars = cnode_new(CN_OBJ);
		rc = render(c, body, "benchmark");
		cnode_free(c->vars);
		c->vars = NULL;
		c->env = NULL;
	}
	if (!rc)
		rc = body_args(c, body, &out->args);
	if (!rc)
		out->body = cnode_take(env, "benchmark");
	cnode_free(env);
	return rc;
}

/* The original's dir_name: leaf_value joined by "__", else the label's. */
static char *
dir_name(const struct cnode *values, const char *label, size_t index)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	char *r;

	for (size_t i = 0; i < values->n; i++) {
		if (values->kids[i]->type == CN_OBJ || values->kids[i]->type == CN_ARR) {
			buf_release(&b);
			return sweep_dir_segment(label, index);
		}
		buf_addf(&b, "%s%s_", i ? "__" : "", sweep_leaf(values->kids[i]->key));
		cnode_pystr(values->kids[i], &b);
	}
	if (!b.len) {
		buf_release(&b);
		return sweep_dir_segment(label, index);
	}
	r = sweep_dir_segment(buf_str(&b), index);
	buf_release(&b);
	return r;
}

static int load(struct cfgplan *p, const char *path, const char *text, size_t len, char *err,
		size_t errlen);

int
cfg_load(struct cfgplan *p, const char *path, char *err, size_t errlen)
{
	return load(p, path, NULL, 0, err, errlen);
}

int
cfg_load_text(struct cfgplan *p, const char *name, const char *text, size_t n, char *err,
	      size_t errlen)
{
	return load(p, name, text, n, err, errlen);
}

static int
load(struct cfgplan *p, const char *path, const char *yaml, size_t ylen, char *err, size_t errlen)
{
	struct ctx c = { .file = path, .p = p, .err = err, .errlen = errlen };
	struct cnode *root = NULL, *sw;
	struct vlist vl = { 0 };
	char *tabpath;
	size_t n, bad;
	char *text;
	int rc = -1;

	memset(p, 0, sizeof(*p));
	if ((yaml ? cfgyaml_parse(&c.y, yaml, ylen, err, errlen) : cfgyaml_load(&c.y, path, err, errlen)) < 0) {
		if (strncmp(err, "Configuration file not found", 28) && strncmp(err, "cannot read", 11)) {
			char *m = xstrdup(err);

			snprintf(err, errlen, "%s:%s", path, m);
			free(m);
		}
		return -1;
	}
	if (cfgschema_load(&c.s, err, errlen) < 0)
		goto out;
	tabpath = xstrfmt("%s/profile-options.tsv", toksrc_datadir());
	proftab_init(&c.tab);
	if ((text = util_readfile(tabpath, 1u << 20, &n))) {
		c.have_tab = proftab_parse(&c.tab, text, n, &bad) == 0;
		free(text);
	}
	free(tabpath);
	root = cnode_from_json(c.y.root);
	if (canon(&c, root, "", "") < 0 || envelope(&c, root) < 0)
		goto out;
	if (normalize(&c, cnode_get(root, "benchmark")) < 0 ||
	    canon(&c, cnode_get(root, "benchmark"), "benchmark", "benchmark") < 0)
		goto out;
	if ((sw = cnode_get(root, "sweep")) && sw->type != CN_NULL) {
		struct cnode *sweep_copy = cnode_clone(sw);

		/* the sweep block's own expressions, with the file's variables */
		c.env = root;
		c.vars = cnode_new(CN_OBJ);
		rc = render(&c, sweep_copy, "sweep");
		cnode_free(c.vars);
		c.vars = NULL;
		c.env = NULL;
		if (rc == 0)
			rc = sweep(&c, sweep_copy, &vl);
		cnode_free(sweep_copy);
		if (rc < 0)
			goto out;
		rc = -1;
	} else if (magic_lists(&c, cnode_get(root, "benchmark"), &vl) < 0) {
		goto out;
	}
	if (!vl.n) {
		p->sweep_class = xstrdup("none");
		vlist_add(&vl, (struct overlay){ 0 }, xstrdup("base"), cnode_new(CN_OBJ));
	}
	p->v = xcalloc(vl.n, sizeof(*p->v));
	for (size_t i = 0; i < vl.n; i++) {
		struct cfgvar *v = &p->v[p->nv++];

		v->index = i;
		v->label = vl.label[i];
		v->values = vl.values[i];
		vl.label[i] = NULL;
		vl.values[i] = NULL;
		v->dir = dir_name(v->values, v->label, i);
		if (variation(&c, root, &vl.o[i], v) < 0)
			goto out;
	}
	rc = 0;
out:
	for (size_t i = 0; i < vl.n; i++) {
		overlay_free(&vl.o[i]);
		free(vl.label[i]);
		cnode_free(vl.values[i]);
	}
	free(vl.o);
	free(vl.label);
	free(vl.values);
	cnode_free(root);
	cfgyaml_release(&c.y);
	cfgschema_release(&c.s);
	proftab_release(&c.tab);
	if (rc < 0)
		cfg_release(p);
	return rc;
}

static void
flatten(const struct cnode *v, const char *path, struct cnode *out)
{
	if (v->type != CN_OBJ && v->type != CN_ARR) {
		cnode_set(out, path, cnode_clone(v));
		return;
	}
	for (size_t i = 0; i < v->n; i++) {
		const struct cnode *k = v->kids[i];
		const char *nm = cnode_strval(k, "name");
		char *p = k->key ? xstrfmt("%s%s%s", path, *path ? "." : "", k->key)
				 : nm ? xstrfmt("%s.%s", path, nm) : xstrfmt("%s.%zu", path, i);

		if (!k->key && nm && k->type == CN_OBJ) {
			for (size_t q = 0; q < k->n; q++)
				if (strcmp(k->kids[q]->key, "name")) {
					char *pq = xstrfmt("%s.%s", p, k->kids[q]->key);

					flatten(k->kids[q], pq, out);
					free(pq);
				}
		} else {
			flatten(k, p, out);
		}
		free(p);
	}
}

struct cnode *
cfg_flat_values(const struct cnode *values)
{
	struct cnode *out = cnode_new(CN_OBJ);

	flatten(values, "", out);
	return out;
}

void
cfg_release(struct cfgplan *p)
{
	for (size_t i = 0; i < p->nv; i++) {
		free(p->v[i].label);
		free(p->v[i].dir);
		cnode_free(p->v[i].values);
		cnode_free(p->v[i].body);
		cfgargs_release(&p->v[i].args);
	}
	free(p->v);
	for (size_t i = 0; i < p->nparams; i++)
		free(p->params[i]);
	free(p->params);
	for (size_t i = 0; i < p->nwarn; i++)
		free(p->warn[i]);
	free(p->warn);
	cfgargs_release(&p->envelope);
	free(p->sweep_class);
	free(p->type);
	memset(p, 0, sizeof(*p));
}
