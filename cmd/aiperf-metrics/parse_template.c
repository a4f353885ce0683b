/* SPDX-License-Identifier: Apache-2.0 */
/* Response parsing for --endpoint-type template: the record's response_field (a jq program), else the original's auto-detection. */
#include "metrics.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/jqprog.h"

#define FIELD_OUT_MAX ((size_t)64 << 20)
#define SHOW 200

/* One per struct rec (so one per thread): the last field compiled. */
struct tmplfield {
	char *field;		/* the jq text of prog, or NULL */
	struct jqprog *prog;
	char cerr[512];		/* its compile error ("" when it compiled) */
	struct buf out;
	struct buf miss;	/* the record's first miss, for tfield_end() */
	int had_data;
};

void
tfield_free(struct tmplfield *f)
{
	if (!f)
		return;
	free(f->field);
	jqprog_free(f->prog);
	buf_release(&f->out);
	buf_release(&f->miss);
	free(f);
}

/* The compiled field of r's record (cached while records repeat it). */
static struct tmplfield *
field_of(struct rec *r, const struct json *fv)
{
	struct tmplfield *f = r->tf;

	if (!f) {
		f = r->tf = xcalloc(1, sizeof(*f));
		buf_init(&f->out, FIELD_OUT_MAX);
		buf_init(&f->miss, 8192);
	}
	buf_reset(&f->miss);
	f->had_data = 0;
	if (!fv || fv->type != JSON_STRING || memchr(fv->str, '\0', fv->len))
		return f;
	if (f->field && !strcmp(f->field, fv->str))
		return f;
	free(f->field);
	jqprog_free(f->prog);
	f->field = xstrndup(fv->str, fv->len);
	f->cerr[0] = '\0';
	f->prog = jqprog_new(f->field, f->cerr, sizeof(f->cerr));
	return f;
}

void
tfield_begin(struct rec *r)
{
	const struct json *fv = json_get(r->aiperf, "response_field");
	struct tmplfield *f = field_of(r, fv);
	char m[1024];

	r->tfield = fv && fv->type == JSON_STRING ? f : NULL;
	if (r->tfield && !f->prog) {
		snprintf(m, sizeof(m), "response_field '%.*s' does not compile: %s",
			 SHOW, f->field, f->cerr);
		rec_throw(r, "ValueError", m);
	}
}

static int
truthy(const struct json *v)
{
	switch (v->type) {
	case JSON_NULL: case JSON_FALSE: return 0;
	case JSON_TRUE: return 1;
	case JSON_NUMBER: {
		double d = 0;

		json_double(v, &d);
		return d != 0;
	}
	default: return v->len > 0;
	}
}

static int
text_data(struct rec *r, const char *s, size_t n, int *output)
{
	if (!n)
		return 0;
	if (buf_add(&r->out_text, s, n) == 0)
		r->has_out = 1;
	return *output = 1;
}

/* convert_to_response_data: embeddings (a list of numbers, or of lists
 * starting with one), rankings (a list of objects), text (a string). */
static int
convert(struct rec *r, const struct json *v, int *output)
{
	const struct json *first = v->type == JSON_ARRAY ? v->child : NULL;

	if (first && first->type == JSON_ARRAY && first->child)
		return first->child->type == JSON_NUMBER;
	if (first)
		return first->type == JSON_NUMBER || first->type == JSON_OBJECT;
	if (v->type == JSON_STRING)
		return text_data(r, v->str, v->len, output);
	return 0;
}

/* try_extract_embeddings. */
static int
embeddings(const struct json *obj)
{
	const struct json *d = json_get(obj, "data"), *v;
	static const char *const keys[] = { "embeddings", "embedding" };

	if (d && d->type == JSON_ARRAY && d->child && d->child->type == JSON_OBJECT
	    && !strcmp(json_str_or(json_get(d->child, "object"), ""), "embedding"))
		for (const struct json *it = d->child; it; it = it->next)
			if (json_get(it, "embedding"))
				return 1;
	for (size_t i = 0; i < 2; i++) {
		v = json_get(obj, keys[i]);
		if (v && v->type == JSON_ARRAY && v->child &&
		    (v->child->type == JSON_NUMBER || v->child->type == JSON_ARRAY))
			return 1;
	}
	return 0;
}

/* The truthy text of choice[key].content; a truthy non-object raises. */
static const struct json *
choice_content(struct rec *r, const struct json *c, const char *key)
{
	const struct json *m = json_get(c, key);

	if (!m || !truthy(m))
		return NULL;
	if (m->type != JSON_OBJECT)
		return rec_not_object(r, m), NULL;
	return json_get(m, "content");
}

/* try_extract_text. */
static int
text_fields(struct rec *r, const struct json *obj, int *output)
{
	static const char *const keys[] = { "text", "content", "response", "output", "result" };
	const struct json *c, *t;

	for (size_t i = 0; i < 5; i++) {
		const struct json *v = json_get(obj, keys[i]), *e;
		size_t before = r->out_text.len;

		if (v && v->type == JSON_STRING)
			return text_data(r, v->str, v->len, output);
		if (!v || v->type != JSON_ARRAY || !v->child)
			continue;
		for (e = v->child; e && e->type == JSON_STRING; e = e->next)
			;
		if (e)
			continue;
		for (e = v->child; e; e = e->next)
			buf_add(&r->out_text, e->str, e->len);
		if (r->out_text.len == before)
			return 0;
		r->has_out = 1;
		return *output = 1;
	}
	c = json_at(json_get(obj, "choices"), 0);
	if (!c)
		return 0;
	if (c->type != JSON_OBJECT)
		return rec_not_object(r, c), 0;
	t = json_get(c, "text");
	if (!t || !truthy(t))
		t = choice_content(r, c, "message");
	if ((!t || !truthy(t)) && !r->perr)
		t = choice_content(r, c, "delta");
	return t && t->type == JSON_STRING ? text_data(r, t->str, t->len, output) : 0;
}

/* auto_detect_and_extract. */
static int
auto_detect(struct rec *r, const struct json *v, int *output)
{
	static const char *const rk[] = { "rankings", "results" };

	if (v->type != JSON_OBJECT)
		return convert(r, v, output);
	if (embeddings(v))
		return 1;
	for (size_t i = 0; i < 2; i++) {
		const struct json *l = json_get(v, rk[i]);

		if (l && l->type == JSON_ARRAY)
			return 1;
	}
	return text_fields(r, v, output);
}

static int
key_cmp(const void *a, const void *b)
{
	const struct json *x = *(const struct json *const *)a;
	const struct json *y = *(const struct json *const *)b;
	size_t n = x->keylen < y->keylen ? x->keylen : y->keylen;
	int c = memcmp(x->key, y->key, n);

	return c ? c : (x->keylen > y->keylen) - (x->keylen < y->keylen);
}

/* sorted(json_obj.keys()) as Python prints the list (UTF-8 byte order is
 * code point order), cut short past 4 KiB. */
static void
top_keys(struct buf *b, const struct json *v)
{
	const struct json **k;
	size_t n = 0;

	if (v->type != JSON_OBJECT) {
		buf_addstr(b, "<non-dict>");
		return;
	}
	k = xreallocarray(NULL, v->len + 1, sizeof(*k));
	for (const struct json *c = v->child; c; c = c->next)
		k[n++] = c;
	qsort(k, n, sizeof(*k), key_cmp);
	buf_addch(b, '[');
	for (size_t i = 0; i < n && b->len < 4096; i++) {
		if (i)
			buf_addstr(b, ", ");
		py_repr_str(b, k[i]->key, k[i]->keylen);
	}
	buf_addch(b, ']');
	free(k);
}

/* What x is, for a message: "a number (7)", "a list of strings ([...])". */
static void
describe(struct buf *b, const struct json *x, const struct buf *text)
{
	static const char *const kinds[] = {
		[JSON_NULL] = "null", [JSON_FALSE] = "a boolean", [JSON_TRUE] = "a boolean",
		[JSON_NUMBER] = "a number", [JSON_STRING] = "a string",
		[JSON_ARRAY] = "a list", [JSON_OBJECT] = "an object",
	};
	static const char *const items[] = {
		[JSON_NULL] = "nulls", [JSON_FALSE] = "booleans", [JSON_TRUE] = "booleans",
		[JSON_NUMBER] = "numbers", [JSON_STRING] = "strings",
		[JSON_ARRAY] = "lists", [JSON_OBJECT] = "objects",
	};

	if (x->type == JSON_ARRAY && x->child && x->child->type == JSON_ARRAY)
		buf_addf(b, "a list of lists of %s", x->child->child ?
			 items[x->child->child->type] : "nothing");
	else if (x->type == JSON_ARRAY && x->child)
		buf_addf(b, "a list of %s", items[x->child->type]);
	else if (!x->len && (x->type == JSON_STRING || x->type == JSON_OBJECT))
		buf_addf(b, "an empty %s", x->type == JSON_STRING ? "string" : "object");
	else if (x->type == JSON_ARRAY)
		buf_addstr(b, "an empty list");
	else
		buf_addstr(b, kinds[x->type]);
	buf_addf(b, " (%.*s%s)", SHOW / 2, text->s, text->len > SHOW / 2 ? "..." : "");
}

static void
missed(struct tmplfield *f, const struct json *v, const struct json *x, const char *jqerr)
{
	if (f->miss.len)
		return;
	if (jqerr) {
		buf_addf(&f->miss, "response_field '%.*s' failed on a 200 OK response: %s",
			 SHOW, f->field, jqerr);
		return;
	}
	if (x && x->type != JSON_NULL) {
		buf_addf(&f->miss, "response_field '%.*s' matched ", SHOW, f->field);
		describe(&f->miss, x, &f->out);
		buf_addstr(&f->miss, " in a 200 OK response, where a non-empty string "
			   "(text), a list of numbers or of lists of numbers (embeddings) "
			   "or a list of objects (rankings) was expected");
		return;
	}
	buf_addf(&f->miss, "response_field '%.*s' did not match any value in a 200 OK "
		 "response (top-level keys: ", SHOW, f->field);
	top_keys(&f->miss, v);
	buf_addstr(&f->miss, ")");
}

/* jqprog_run() stopped the program (errno: a limit) or could not run it:
 * the record fails now, whatever its other responses hold. */
static void
stopped(struct rec *r, const struct tmplfield *f, int e, const char *jqerr)
{
	int limit = e == ENOBUFS || e == ENOMEM || e == ETIME || e == E2BIG;
	char m[1024];

	snprintf(m, sizeof(m), "response_field '%.*s' %s on a 200 OK response: %s", SHOW,
		 f->field, limit ? "was stopped" : "could not run", jqerr);
	rec_throw(r, limit ? "ResponseFieldLimitError" : "ValueError", m);
}

/* The response field's value of v (text s[0..n)), converted. */
static int
by_field(struct rec *r, const char *s, size_t n, const struct json *v, int *output)
{
	struct tmplfield *f = r->tfield;
	const struct json *x;
	char err[512];
	int k;

	buf_reset(&f->out);
	k = jqprog_run(f->prog, s, n, &f->out, err, sizeof(err));
	if (k < 0 && errno != EINVAL)
		return stopped(r, f, errno, err), 0;
	if (k < 0)
		return missed(f, v, NULL, err), 0;
	x = k ? json_parse(r->doc, f->out.s, f->out.len, NULL, 0) : NULL;
	if (x && truthy(x) && convert(r, x, output))
		return 1;
	return missed(f, v, x, NULL), 0;
}

int
tfield_body(struct rec *r, const char *s, size_t n, int *output)
{
	const struct json *v = json_parse(r->doc, s, n, NULL, 0);
	int data;

	if (!v && errno == ELOOP)
		return rec_too_deep(r), 0;
	/* get_json() falsy (not JSON, or a falsy value): the body's text */
	if (!v || !truthy(v))
		data = text_data(r, s, n, output);
	else if (r->tfield)
		data = by_field(r, s, n, v, output);
	else
		data = auto_detect(r, v, output);
	if (data && r->tfield)
		r->tfield->had_data = 1;
	return data;
}

void
tfield_end(struct rec *r)
{
	struct tmplfield *f = r->tfield;

	if (f && !f->had_data && f->miss.len)
		rec_throw(r, "ValueError", buf_str(&f->miss));
}
