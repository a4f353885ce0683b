/* SPDX-License-Identifier: Apache-2.0 */
/* JSON values: a strict parser that keeps number text exact, and a deterministic writer. */
#include "json.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numfmt.h"

struct chunk {
	struct chunk *next;
	size_t used, cap;
	max_align_t data[];
};

struct json_doc {
	struct chunk *head;
};

struct parser {
	struct json_doc *d;
	const char *s, *p, *end;
	char *err;
	size_t errlen;
	int depth;
};

struct json_doc *
json_doc_new(void)
{
	return xcalloc(1, sizeof(struct json_doc));
}

void
json_doc_reset(struct json_doc *d)
{
	struct chunk *c, *next;

	if (!d->head)
		return;
	/* Keep the largest (newest) chunk, drop the others. */
	for (c = d->head->next; c; c = next) {
		next = c->next;
		free(c);
	}
	d->head->next = NULL;
	d->head->used = 0;
}

void
json_doc_free(struct json_doc *d)
{
	struct chunk *c, *next;

	if (!d)
		return;
	for (c = d->head; c; c = next) {
		next = c->next;
		free(c);
	}
	free(d);
}

static void *
arena_alloc(struct json_doc *d, size_t n)
{
	struct chunk *c = d->head;

	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	if (!c || c->cap - c->used < n) {
		size_t cap = c ? c->cap * 2 : 4096;
		while (cap < n)
			cap *= 2;
		c = xmalloc(sizeof(*c) + cap);
		c->cap = cap;
		c->used = 0;
		c->next = d->head;
		d->head = c;
	}
	void *p = (char *)c->data + c->used;
	c->used += n;
	return p;
}

static struct json *
fail(struct parser *ps, const char *what)
{
	if (ps->err && ps->errlen)
		snprintf(ps->err, ps->errlen, "at byte %zu: %s",
			 (size_t)(ps->p - ps->s), what);
	return NULL;
}

static void
skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
				   *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static struct json *
new_value(struct parser *ps, enum json_type t)
{
	struct json *v = arena_alloc(ps->d, sizeof(*v));

	memset(v, 0, sizeof(*v));
	v->type = t;
	return v;
}

static int
hex4(const char *p, unsigned *out)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		char c = p[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static size_t
put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xC0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xE0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	o[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* Decode one escape after the backslash; lone surrogates become U+FFFD. */
static int
unescape(struct parser *ps, const char **pp, char **oo)
{
	const char *p = *pp;
	unsigned cp, lo;

	switch (*p) {
	case '"': case '\\': case '/':
		*(*oo)++ = *p;
		*pp = p + 1;
		return 0;
	case 'b': *(*oo)++ = '\b'; *pp = p + 1; return 0;
	case 'f': *(*oo)++ = '\f'; *pp = p + 1; return 0;
	case 'n': *(*oo)++ = '\n'; *pp = p + 1; return 0;
	case 'r': *(*oo)++ = '\r'; *pp = p + 1; return 0;
	case 't': *(*oo)++ = '\t'; *pp = p + 1; return 0;
	case 'u':
		break;
	default:
		return -1;
	}
	if (ps->end - p < 5 || hex4(p + 1, &cp) < 0)
		return -1;
	p += 5;
	if (cp >= 0xD800 && cp < 0xDC00 && ps->end - p >= 6 && p[0] == '\\' &&
	    p[1] == 'u' && hex4(p + 2, &lo) == 0 && lo >= 0xDC00 && lo < 0xE000) {
		cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
		p += 6;
	} else if (cp >= 0xD800 && cp < 0xE000) {
		cp = 0xFFFD;
	}
	*oo += put_utf8(*oo, cp);
	*pp = p;
	return 0;
}

/* Bytes that end a plain run inside a string: controls, '"' and '\\'. */
static const unsigned char special[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	['"'] = 1, ['\\'] = 1,
};

static const char *
skip_plain(const char *p, const char *end)
{
	while (p < end && !special[(unsigned char)*p])
		p++;
	return p;
}

static int
parse_string_raw(struct parser *ps, const char **out, size_t *outlen)
{
	const char *p = ps->p + 1, *start = p;
	int plain = 1;

	for (;;) {
		p = skip_plain(p, ps->end);
		if (p >= ps->end || *p == '"')
			break;
		if ((unsigned char)*p < 0x20)
			return ps->p = p, fail(ps, "control character in string"), -1;
		if (*p == '\\') {
			plain = 0;
			if (++p >= ps->end)
				break;
		}
		p++;
	}
	if (p >= ps->end)
		return fail(ps, "unterminated string"), -1;
	size_t n = (size_t)(p - start);
	char *o = arena_alloc(ps->d, n + 1), *w = o;
	if (plain) {
		memcpy(o, start, n);
		w = o + n;
	} else {
		const char *q = start;
		while (q < p) {
			const char *bs = memchr(q, '\\', (size_t)(p - q));
			size_t run = bs ? (size_t)(bs - q) : (size_t)(p - q);
			memcpy(w, q, run);
			w += run;
			q += run;
			if (q >= p)
				break;
			q++;
			if (unescape(ps, &q, &w) < 0)
				return ps->p = q, fail(ps, "invalid escape"), -1;
		}
	}
	*w = '\0';
	*out = o;
	*outlen = (size_t)(w - o);
	ps->p = p + 1;
	return 0;
}

static int
isdigit_(char c)
{
	return c >= '0' && c <= '9';
}

static struct json *
parse_number(struct parser *ps)
{
	const char *p = ps->p, *start = p;

	if (p < ps->end && *p == '-')
		p++;
	if (p >= ps->end || !isdigit_(*p))
		return fail(ps, "invalid number");
	if (*p == '0')
		p++;
	else
		while (p < ps->end && isdigit_(*p))
			p++;
	if (p < ps->end && *p == '.') {
		p++;
		if (p >= ps->end || !isdigit_(*p))
			return ps->p = p, fail(ps, "invalid number");
		while (p < ps->end && isdigit_(*p))
			p++;
	}
	if (p < ps->end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < ps->end && (*p == '+' || *p == '-'))
			p++;
		if (p >= ps->end || !isdigit_(*p))
			return ps->p = p, fail(ps, "invalid number");
		while (p < ps->end && isdigit_(*p))
			p++;
	}
	struct json *v = new_value(ps, JSON_NUMBER);
	size_t n = (size_t)(p - start);
	char *t = arena_alloc(ps->d, n + 1);
	memcpy(t, start, n);
	t[n] = '\0';
	v->str = t;
	v->len = n;
	ps->p = p;
	return v;
}

static struct json *parse_value(struct parser *ps);

static struct json *
parse_container(struct parser *ps, enum json_type t)
{
	struct json *v = new_value(ps, t), **tail = &v->child;
	char close = t == JSON_ARRAY ? ']' : '}';

	if (++ps->depth > JSON_MAX_DEPTH)
		return fail(ps, "nesting too deep");
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		ps->depth--;
		return v;
	}
	for (;;) {
		const char *key = NULL;
		size_t keylen = 0;
		skip_ws(ps);
		if (t == JSON_OBJECT) {
			if (ps->p >= ps->end || *ps->p != '"')
				return fail(ps, "expected string key");
			if (parse_string_raw(ps, &key, &keylen) < 0)
				return NULL;
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != ':')
				return fail(ps, "expected ':'");
			ps->p++;
		}
		struct json *c = parse_value(ps);
		if (!c)
			return NULL;
		c->key = key;
		c->keylen = keylen;
		*tail = c;
		tail = &c->next;
		v->len++;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			ps->depth--;
			return v;
		}
		return fail(ps, t == JSON_ARRAY ? "expected ',' or ']'"
						: "expected ',' or '}'");
	}
}

static struct json *
parse_word(struct parser *ps, const char *w, enum json_type t)
{
	size_t n = strlen(w);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, w, n))
		return fail(ps, "invalid literal");
	ps->p += n;
	return new_value(ps, t);
}

static struct json *
parse_value(struct parser *ps)
{
	skip_ws(ps);
	if (ps->p >= ps->end)
		return fail(ps, "unexpected end of input");
	switch (*ps->p) {
	case '{':
		return parse_container(ps, JSON_OBJECT);
	case '[':
		return parse_container(ps, JSON_ARRAY);
	case '"': {
		struct json *v = new_value(ps, JSON_STRING);
		if (parse_string_raw(ps, &v->str, &v->len) < 0)
			return NULL;
		return v;
	}
	case 't':
		return parse_word(ps, "true", JSON_TRUE);
	case 'f':
		return parse_word(ps, "false", JSON_FALSE);
	case 'n':
		return parse_word(ps, "null", JSON_NULL);
	default:
		if (*ps->p == '-' || isdigit_(*ps->p))
			return parse_number(ps);
		return fail(ps, "unexpected character");
	}
}

struct json *
json_parse(struct json_doc *d, const char *s, size_t n, char *err,
	   size_t errlen)
{
	struct parser ps = { d, s, s, s + n, err, errlen, 0 };
	struct json *v = parse_value(&ps);

	if (!v)
		return NULL;
	skip_ws(&ps);
	if (ps.p != ps.end)
		return fail(&ps, "trailing characters after value");
	return v;
}

struct json *
json_get(const struct json *obj, const char *key)
{
	struct json *c, *found = NULL;
	size_t n;

	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	n = strlen(key);
	for (c = obj->child; c; c = c->next)
		if (c->keylen == n && !memcmp(c->key, key, n))
			found = c;
	return found;
}

struct json *
json_at(const struct json *arr, size_t i)
{
	struct json *c;

	if (!arr || arr->type != JSON_ARRAY)
		return NULL;
	for (c = arr->child; c && i; c = c->next)
		i--;
	return c;
}

struct json *
json_path(const struct json *v, const char *path)
{
	char key[256];

	while (v && *path) {
		const char *dot = strchr(path, '.');
		size_t n = dot ? (size_t)(dot - path) : strlen(path);
		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		v = json_get(v, key);
		path += n + (dot ? 1 : 0);
	}
	return (struct json *)v;
}

int
json_is_str(const struct json *v)
{
	return v && v->type == JSON_STRING;
}

int
json_is_num(const struct json *v)
{
	return v && v->type == JSON_NUMBER;
}

int
json_int64(const struct json *v, int64_t *out)
{
	char *end;
	double d;

	if (!json_is_num(v))
		return -1;
	if (!strpbrk(v->str, ".eE")) {
		errno = 0;
		long long x = strtoll(v->str, &end, 10);
		if (errno || *end)
			return -1;
		*out = x;
		return 0;
	}
	d = strtod(v->str, &end);
	if (d != floor(d) || fabs(d) > 9.2e18)
		return -1;
	*out = (int64_t)d;
	return 0;
}

int
json_double(const struct json *v, double *out)
{
	if (!json_is_num(v))
		return -1;
	*out = strtod(v->str, NULL);
	return 0;
}

const char *
json_str(const struct json *v, size_t *len)
{
	if (!json_is_str(v))
		return NULL;
	if (len)
		*len = v->len;
	return v->str;
}

const char *
json_str_or(const struct json *v, const char *dflt)
{
	return json_is_str(v) ? v->str : dflt;
}

int
json_truthy(const struct json *v)
{
	if (!v)
		return 0;
	switch (v->type) {
	case JSON_NULL: case JSON_FALSE:
		return 0;
	case JSON_NUMBER:
		return strtod(v->str, NULL) != 0;
	case JSON_STRING: case JSON_ARRAY: case JSON_OBJECT:
		return v->len != 0;
	default:
		return 1;
	}
}

/*
 * The bytes of v below 0x20, '"' or '\\' as their high bits. Bits above the
 * lowest are not exact (borrows), the lowest set one is: enough to find the
 * first byte to escape.
 */
static uint64_t
esc_mask(uint64_t v)
{
	const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
	uint64_t q = v ^ (ones * '"'), bs = v ^ (ones * '\\');

	return (((v - ones * 0x20) & ~v) | ((q - ones) & ~q) |
		((bs - ones) & ~bs)) & high;
}

/* One byte, escaped where JSON needs it; returns the new end of output. */
static char *
quote_byte(char *o, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";

	if (c >= 0x20 && c != '"' && c != '\\') {
		*o++ = (char)c;
		return o;
	}
	*o++ = '\\';
	switch (c) {
	case '"': *o++ = '"'; break;
	case '\\': *o++ = '\\'; break;
	case '\n': *o++ = 'n'; break;
	case '\r': *o++ = 'r'; break;
	case '\t': *o++ = 't'; break;
	case '\b': *o++ = 'b'; break;
	case '\f': *o++ = 'f'; break;
	default:
		memcpy(o, "u00", 3);
		o[3] = hex[c >> 4];
		o[4] = hex[c & 15];
		o += 5;
	}
	return o;
}

/*
 * json_quote into room already there (6n + 2 bytes): eight bytes at a time,
 * copied whole, then cut at the first one to escape.
 */
static void
quote_fast(struct buf *b, const char *s, size_t n)
{
	char *o = b->s + b->len;
	size_t i = 0;

	*o++ = '"';
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (n - i >= 8) {
		uint64_t v, m;
		memcpy(&v, s + i, 8);
		memcpy(o, s + i, 8);
		if (!(m = esc_mask(v))) {
			o += 8;
			i += 8;
			continue;
		}
		size_t k = (size_t)__builtin_ctzll(m) >> 3;
		o = quote_byte(o + k, (unsigned char)s[i + k]);
		i += k + 1;
	}
#endif
	for (; i < n; i++)
		o = quote_byte(o, (unsigned char)s[i]);
	*o++ = '"';
	b->len = (size_t)(o - b->s);
	b->s[b->len] = '\0';
}

void
json_quote(struct buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, run = 0;

	/* Room for the worst case (every byte \u00XX): write in place. */
	if (n <= 1 << 16 && buf_grow(b, 6 * n + 2) == 0) {
		quote_fast(b, s, n);
		return;
	}
	buf_grow(b, n + 2);
	buf_addch(b, '"');
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *esc = NULL;
		char u[7];
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		buf_add(b, s + run, i - run);
		run = i + 1;
		switch (c) {
		case '"': esc = "\\\""; break;
		case '\\': esc = "\\\\"; break;
		case '\n': esc = "\\n"; break;
		case '\r': esc = "\\r"; break;
		case '\t': esc = "\\t"; break;
		case '\b': esc = "\\b"; break;
		case '\f': esc = "\\f"; break;
		default:
			memcpy(u, "\\u00", 4);
			u[4] = hex[c >> 4];
			u[5] = hex[c & 15];
			u[6] = '\0';
			esc = u;
		}
		buf_addstr(b, esc);
	}
	buf_add(b, s + run, n - run);
	buf_addch(b, '"');
}

void
jw_init(struct jw *w, struct buf *b, int indent)
{
	w->b = b;
	w->indent = indent;
	w->depth = 0;
	w->need_comma = 0;
	w->after_key = 0;
}

static void
newline(struct jw *w)
{
	buf_addch(w->b, '\n');
	for (int i = 0; i < w->depth * w->indent; i++)
		buf_addch(w->b, ' ');
}

/* Called before every value or key: comma and indentation. */
static void
sep(struct jw *w)
{
	if (w->after_key) {
		w->after_key = 0;
		return;
	}
	if (w->need_comma)
		buf_addch(w->b, ',');
	if (w->indent && w->depth)
		newline(w);
}

static void
open_(struct jw *w, char c)
{
	sep(w);
	buf_addch(w->b, c);
	w->depth++;
	w->need_comma = 0;
}

static void
close_(struct jw *w, char c)
{
	w->depth--;
	if (w->indent && w->need_comma)
		newline(w);
	buf_addch(w->b, c);
	w->need_comma = 1;
}

void
jw_obj(struct jw *w)
{
	open_(w, '{');
}

void
jw_obj_end(struct jw *w)
{
	close_(w, '}');
}

void
jw_arr(struct jw *w)
{
	open_(w, '[');
}

void
jw_arr_end(struct jw *w)
{
	close_(w, ']');
}

void
jw_keyn(struct jw *w, const char *key, size_t n)
{
	sep(w);
	json_quote(w->b, key, n);
	buf_addstr(w->b, w->indent ? ": " : ":");
	w->after_key = 1;
	w->need_comma = 1;
}

void
jw_key(struct jw *w, const char *key)
{
	jw_keyn(w, key, strlen(key));
}

static void
done(struct jw *w)
{
	w->need_comma = 1;
}

void
jw_strn(struct jw *w, const char *s, size_t n)
{
	sep(w);
	json_quote(w->b, s, n);
	done(w);
}

void
jw_str(struct jw *w, const char *s)
{
	jw_strn(w, s, strlen(s));
}

void
jw_int(struct jw *w, int64_t v)
{
	sep(w);
	buf_addf(w->b, "%lld", (long long)v);
	done(w);
}

void
jw_bool(struct jw *w, int v)
{
	sep(w);
	buf_addstr(w->b, v ? "true" : "false");
	done(w);
}

void
jw_null(struct jw *w)
{
	sep(w);
	buf_addstr(w->b, "null");
	done(w);
}

static void
put_double(struct jw *w, double v, enum numfmt_style st)
{
	char tmp[40];

	sep(w);
	if (!isfinite(v))
		buf_addstr(w->b, "null");
	else
		buf_add(w->b, tmp, numfmt_repr(tmp, v, st));
	done(w);
}

void
jw_double(struct jw *w, double v)
{
	put_double(w, v, NUMFMT_ORJSON);
}

void
jw_double_py(struct jw *w, double v)
{
	put_double(w, v, NUMFMT_PYDANTIC);
}

void
jw_raw(struct jw *w, const char *s, size_t n)
{
	sep(w);
	buf_add(w->b, s, n);
	done(w);
}

void
jw_value(struct jw *w, const struct json *v)
{
	const struct json *c;

	switch (v->type) {
	case JSON_NULL: jw_null(w); return;
	case JSON_FALSE: jw_bool(w, 0); return;
	case JSON_TRUE: jw_bool(w, 1); return;
	case JSON_NUMBER: jw_raw(w, v->str, v->len); return;
	case JSON_STRING: jw_strn(w, v->str, v->len); return;
	case JSON_ARRAY:
		jw_arr(w);
		for (c = v->child; c; c = c->next)
			jw_value(w, c);
		jw_arr_end(w);
		return;
	case JSON_OBJECT:
		jw_obj(w);
		for (c = v->child; c; c = c->next) {
			jw_keyn(w, c->key, c->keylen);
			jw_value(w, c);
		}
		jw_obj_end(w);
		return;
	}
}
