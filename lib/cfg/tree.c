/* SPDX-License-Identifier: Apache-2.0 */
/* A config file's values as a tree that can be changed: normalized, merged, swept, rendered. */
#include "cfg/tree.h"

#include <stdlib.h>
#include <string.h>

#include "json/jw.h"
#include "util.h"

struct cnode *
cnode_new(enum cnode_type t)
{
	struct cnode *c = xcalloc(1, sizeof(*c));

	c->type = t;
	return c;
}

struct cnode *
cnode_str(const char *s, size_t n)
{
	struct cnode *c = cnode_new(CN_STR);

	c->s = xstrndup(s, n);
	c->len = n;
	return c;
}

void
cnode_push(struct cnode *arr, struct cnode *v)
{
	if (arr->n == arr->cap) {
		arr->cap = arr->cap ? 2 * arr->cap : 4;
		arr->kids = xrealloc(arr->kids, arr->cap * sizeof(*arr->kids));
	}
	arr->kids[arr->n++] = v;
}

struct cnode *
cnode_from_json(const struct json *v)
{
	static const enum cnode_type t[] = { [JSON_NULL] = CN_NULL, [JSON_FALSE] = CN_FALSE,
		[JSON_TRUE] = CN_TRUE, [JSON_NUMBER] = CN_NUM, [JSON_STRING] = CN_STR,
		[JSON_ARRAY] = CN_ARR, [JSON_OBJECT] = CN_OBJ };
	struct cnode *c = cnode_new(t[v->type]);

	if (v->type == JSON_NUMBER || v->type == JSON_STRING) {
		c->s = xmalloc(v->len + 1);
		memcpy(c->s, v->str, v->len);
		c->s[v->len] = '\0';
		c->len = v->len;
	}
	for (const struct json *k = v->child; k; k = k->next) {
		struct cnode *kid = cnode_from_json(k);

		if (v->type == JSON_OBJECT)
			kid->key = xstrndup(k->key, k->keylen);
		cnode_push(c, kid);
	}
	return c;
}

struct cnode *
cnode_parse(const char *s, size_t n)
{
	struct json_doc *d = json_doc_new();
	char err[64];
	struct json *v = json_parse(d, s, n, err, sizeof(err));
	struct cnode *c = v ? cnode_from_json(v) : NULL;

	json_doc_free(d);
	return c;
}

struct cnode *
cnode_clone(const struct cnode *c)
{
	struct cnode *d = cnode_new(c->type);

	if (c->s) {
		d->s = xmalloc(c->len + 1);
		memcpy(d->s, c->s, c->len + 1);
		d->len = c->len;
	}
	d->key = c->key ? xstrdup(c->key) : NULL;
	for (size_t i = 0; i < c->n; i++)
		cnode_push(d, cnode_clone(c->kids[i]));
	return d;
}

void
cnode_free(struct cnode *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		cnode_free(c->kids[i]);
	free(c->kids);
	free(c->s);
	free(c->key);
	free(c);
}

struct cnode *
cnode_get(const struct cnode *obj, const char *key)
{
	if (!obj || obj->type != CN_OBJ)
		return NULL;
	for (size_t i = obj->n; i-- > 0;)
		if (!strcmp(obj->kids[i]->key, key))
			return obj->kids[i];
	return NULL;
}

void
cnode_set(struct cnode *obj, const char *key, struct cnode *v)
{
	free(v->key);
	v->key = xstrdup(key);
	for (size_t i = 0; i < obj->n; i++)
		if (!strcmp(obj->kids[i]->key, key)) {
			cnode_free(obj->kids[i]);
			obj->kids[i] = v;
			return;
		}
	cnode_push(obj, v);
}

struct cnode *
cnode_take(struct cnode *obj, const char *key)
{
	for (size_t i = 0; obj && obj->type == CN_OBJ && i < obj->n; i++)
		if (!strcmp(obj->kids[i]->key, key)) {
			struct cnode *v = obj->kids[i];

			memmove(obj->kids + i, obj->kids + i + 1, (obj->n - i - 1) * sizeof(*obj->kids));
			obj->n--;
			return v;
		}
	return NULL;
}

const char *
cnode_strval(const struct cnode *obj, const char *key)
{
	const struct cnode *v = cnode_get(obj, key);

	return v && v->type == CN_STR ? v->s : NULL;
}

struct cnode *
cnode_named(const struct cnode *arr, const char *name)
{
	for (size_t i = 0; arr && arr->type == CN_ARR && i < arr->n; i++) {
		const char *nm = cnode_strval(arr->kids[i], "name");

		if (nm && !strcmp(nm, name))
			return arr->kids[i];
	}
	return NULL;
}

static void
emit(struct jw *w, const struct cnode *c)
{
	switch (c->type) {
	case CN_NULL:
		jw_null(w);
		break;
	case CN_FALSE:
	case CN_TRUE:
		jw_bool(w, c->type == CN_TRUE);
		break;
	case CN_NUM:
		jw_raw(w, c->s, c->len);
		break;
	case CN_STR:
		jw_strn(w, c->s, c->len);
		break;
	case CN_ARR:
		jw_arr(w);
		for (size_t i = 0; i < c->n; i++)
			emit(w, c->kids[i]);
		jw_arr_end(w);
		break;
	case CN_OBJ:
		jw_obj(w);
		for (size_t i = 0; i < c->n; i++) {
			jw_key(w, c->kids[i]->key);
			emit(w, c->kids[i]);
		}
		jw_obj_end(w);
		break;
	}
}

void
cnode_json(const struct cnode *c, struct buf *out, int indent)
{
	struct jw w;

	jw_init(&w, out, indent);
	emit(&w, c);
}

void
cnode_pystr(const struct cnode *c, struct buf *out)
{
	switch (c->type) {
	case CN_NULL:
		buf_addstr(out, "None");
		break;
	case CN_FALSE:
		buf_addstr(out, "False");
		break;
	case CN_TRUE:
		buf_addstr(out, "True");
		break;
	case CN_NUM:
	case CN_STR:
		buf_add(out, c->s, c->len);
		break;
	default:
		cnode_json(c, out, 0);
	}
}

/* Whether a string can be written plain in YAML and read back the same string. */
static int
plain_ok(const char *s, size_t n)
{
	static const char *const words[] = { "", "~", "null", "Null", "NULL", "true", "True", "TRUE",
		"false", "False", "FALSE", "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON",
		"off", "Off", "OFF", NULL };
	struct cnode *num;

	for (size_t i = 0; words[i]; i++)
		if (strlen(words[i]) == n && !memcmp(words[i], s, n))
			return 0;
	if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '/' ||
	      s[0] == '_'))
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		      strchr("_-./:", ch)))
			return 0;
	}
	if (s[n - 1] == ':')
		return 0;
	num = cnode_parse(s, n);	/* never a number (plain "1e3" reads as a string anyway) */
	if (num) {
		cnode_free(num);
		return 0;
	}
	return 1;
}

static void
indent(struct buf *out, int depth)
{
	for (int i = 0; i < depth; i++)
		buf_addstr(out, "  ");
}

static void
scalar(const struct cnode *c, struct buf *out)
{
	if (c->type == CN_STR && plain_ok(c->s, c->len))
		buf_add(out, c->s, c->len);
	else if (c->type == CN_ARR || c->type == CN_OBJ)
		buf_addstr(out, c->type == CN_ARR ? "[]" : "{}");
	else
		cnode_json(c, out, 0);
}

void
cnode_yaml(const struct cnode *c, struct buf *out, int depth)
{
	if (c->type == CN_OBJ && c->n) {
		for (size_t i = 0; i < c->n; i++) {
			const struct cnode *k = c->kids[i];
			struct cnode key = { .type = CN_STR, .s = k->key, .len = strlen(k->key) };

			indent(out, depth);
			scalar(&key, out);
			buf_addch(out, ':');
			if ((k->type == CN_OBJ || k->type == CN_ARR) && k->n) {
				buf_addch(out, '\n');
				/* a list under a key is not indented (PyYAML's style) */
				cnode_yaml(k, out, k->type == CN_ARR ? depth : depth + 1);
			} else {
				buf_addch(out, ' ');
				scalar(k, out);
				buf_addch(out, '\n');
			}
		}
	} else if (c->type == CN_ARR && c->n) {
		for (size_t i = 0; i < c->n; i++) {
			const struct cnode *k = c->kids[i];

			indent(out, depth);
			buf_addstr(out, "- ");
			if ((k->type == CN_OBJ || k->type == CN_ARR) && k->n) {
				struct buf sub = BUF_INIT(BUF_NOMAX);

				cnode_yaml(k, &sub, depth + 1);
				/* the first line goes after "- " */
				buf_add(out, sub.s + 2 * (size_t)(depth + 1), sub.len - 2 * (size_t)(depth + 1));
				buf_release(&sub);
			} else {
				scalar(k, out);
				buf_addch(out, '\n');
			}
		}
	} else {
		indent(out, depth);
		scalar(c, out);
		buf_addch(out, '\n');
	}
}
