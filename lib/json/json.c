/* SPDX-License-Identifier: Apache-2.0 */
/* JSON values: a strict parser that keeps number text exact (the writer is jw.c). */
#include "json/json.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct chunk {
	struct chunk *next;
	size_t used, cap;
	max_align_t data[];
};

struct json_doc {
	struct chunk *head;
	size_t nomem;		/* the chunk the last parse could not have */
};

#define STR_(x) #x
#define STR(x) STR_(x)

struct parser {
	struct json_doc *d;
	const char *s, *p, *end;
	char *err;
	size_t errlen;
	int depth;
	int deep;		/* the parse failed at JSON_MAX_DEPTH */
	const struct json_hook *hook;
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

static void *arena_grow(struct json_doc *d, size_t n);

static inline void *
arena_alloc(struct json_doc *d, size_t n)
{
	struct chunk *c = d->head;

	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	if (c && c->cap - c->used >= n) {
		void *p = (char *)c->data + c->used;

		c->used += n;
		return p;
	}
	return arena_grow(d, n);
}

/* arena_alloc() when the newest chunk is full: a chunk twice as large. */
static void *
arena_grow(struct json_doc *d, size_t n)
{
	struct chunk *c = d->head;
	size_t cap = c ? c->cap * 2 : 4096;

	while (cap < n)
		cap *= 2;
	/* a response's tree may not fit the memory left: that parse fails
	 * (ENOMEM), not the process */
	if (!(c = malloc(sizeof(*c) + cap))) {
		d->nomem = sizeof(*c) + cap;
		return NULL;
	}
	c->cap = cap;
	c->used = n;
	c->next = d->head;
	d->head = c;
	return c->data;
}

static struct json *
fail(struct parser *ps, const char *what)
{
	if (ps->err && ps->errlen)
		snprintf(ps->err, ps->errlen, "at byte %zu: %s",
			 (size_t)(ps->p - ps->s), what);
	return NULL;
}

static inline void
skip_ws(struct parser *ps)
{
	if (ps->p < ps->end && (unsigned char)*ps->p > ' ')
		return;
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
				   *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static inline struct json *
new_value(struct parser *ps, enum json_type t)
{
	struct json *v = arena_alloc(ps->d, sizeof(*v));

	if (v)
		*v = (struct json){ .type = t };
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

static inline const char *
skip_plain(const char *p, const char *end)
{
	const unsigned char *u = (const unsigned char *)p;

	while (end - (const char *)u >= 4
	       && !(special[u[0]] | special[u[1]] | special[u[2]] | special[u[3]]))
		u += 4;
	p = (const char *)u;
	while (p < end && !special[(unsigned char)*p])
		p++;
	return p;
}

#define ONES ((uint64_t)0x0101010101010101)
#define HIGHS ((uint64_t)0x8080808080808080)

/*
 * Bit 7 set in each byte of x (little-endian order) that is below 0x20,
 * '"' or '\\'; bytes after the first such one may be marked too (borrows),
 * so only the lowest mark is exact, which is all the caller uses.
 */
static inline uint64_t
word_special(uint64_t x)
{
	uint64_t q = x ^ (ONES * '"'), b = x ^ (ONES * '\\');

	return ((x - ONES * 0x20) | (q - ONES) | (b - ONES)) & ~x & HIGHS;
}

/* Index of the first marked byte of m (m != 0) in memory order. */
static inline unsigned
first_marked(uint64_t m)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return (unsigned)__builtin_ctzll(m) / 8;
#else
	unsigned char b[8];
	unsigned i = 0;

	memcpy(b, &m, 8);
	while (!(b[i] & 0x80))
		i++;
	return i;
#endif
}

/* The one-character escapes; 0: not one (\u or invalid). */
static const char esc1[256] = {
	['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b',
	['f'] = '\f', ['n'] = '\n', ['r'] = '\r', ['t'] = '\t',
};

/*
 * One pass: decode straight into the newest arena chunk when it has room
 * for the rest of the input (decoded text is never longer), eight bytes at
 * a time (stores may run ahead of the decoded length: the room covers
 * them). Returns 1 to leave the string to the two-pass code below, which
 * also words every error exactly.
 */
static inline int
string_onepass(struct parser *ps, const char **out, size_t *outlen)
{
	const char *p = ps->p + 1, *end = ps->end;
	struct chunk *c = ps->d->head;
	char *o, *w;
	uint64_t x, m;
	size_t used;

	if (!c || c->cap - c->used <= (size_t)(end - p) + 8)
		return 1;
	o = w = (char *)c->data + c->used;
	for (;;) {
		while (end - p >= 8) {
			memcpy(&x, p, 8);
			memcpy(w, &x, 8);
			if ((m = word_special(x)) != 0) {
				unsigned k = first_marked(m);

				p += k;
				w += k;
				goto stop;
			}
			p += 8;
			w += 8;
		}
		while (p < end && !special[(unsigned char)*p])
			*w++ = *p++;
stop:
		if (p >= end || (*p != '"' && *p != '\\'))
			return 1;
		if (*p++ == '"')
			break;
		if (p < end && esc1[(unsigned char)*p]) {
			*w++ = esc1[(unsigned char)*p++];
			/* Escapes come close together in JSON escaped inside a
			 * string (SSE packets): a few bytes one at a time
			 * before the next word (7% on bench/metrics.sh's records). */
			if (end - p >= 8)
				for (int i = 0; i < 4; i++) {
					if (special[(unsigned char)*p])
						goto stop;
					*w++ = *p++;
				}
			continue;
		}
		if (p >= end || unescape(ps, &p, &w) < 0)
			return 1;
	}
	*w = '\0';
	used = (size_t)(w - o) + 1;
	c->used += (used + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	*out = o;
	*outlen = (size_t)(w - o);
	ps->p = p;
	return 0;
}

static int
string_twopass(struct parser *ps, const char **out, size_t *outlen)
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
	if (!o)
		return -1;
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

static inline int
parse_string_raw(struct parser *ps, const char **out, size_t *outlen)
{
	if (string_onepass(ps, out, outlen) == 0)
		return 0;
	return string_twopass(ps, out, outlen);
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
	char *t = v ? arena_alloc(ps->d, n + 1) : NULL;
	if (!t)
		return NULL;
	memcpy(t, start, n);
	t[n] = '\0';
	v->str = t;
	v->len = n;
	ps->p = p;
	return v;
}

static struct json *parse_value(struct parser *ps);

/* The root member the hook takes: an empty array in the tree when it
 * takes the value, else the value parsed as usual. */
static struct json *
hooked_value(struct parser *ps, const char *key, size_t keylen)
{
	const struct json_hook *h = ps->hook;
	size_t k;

	if (keylen != h->keylen || memcmp(key, h->key, keylen))
		return parse_value(ps);
	skip_ws(ps);
	k = h->fn(h->ctx, ps->p, (size_t)(ps->end - ps->p));
	if (!k)
		return parse_value(ps);
	ps->p += k;
	return new_value(ps, JSON_ARRAY);
}

static struct json *
parse_container(struct parser *ps, enum json_type t)
{
	struct json *v = new_value(ps, t), **tail;
	char close = t == JSON_ARRAY ? ']' : '}';

	if (!v)
		return NULL;
	tail = &v->child;
	if (++ps->depth > JSON_MAX_DEPTH) {
		ps->deep = 1;
		return fail(ps, "nested deeper than " STR(JSON_MAX_DEPTH) " arrays and objects");
	}
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
		struct json *c = ps->hook && ps->depth == 1 && t == JSON_OBJECT
				 ? hooked_value(ps, key, keylen) : parse_value(ps);
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
		if (!v || parse_string_raw(ps, &v->str, &v->len) < 0)
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
	return json_parse_hook(d, s, n, err, errlen, NULL);
}

struct json *
json_parse_hook(struct json_doc *d, const char *s, size_t n, char *err,
		size_t errlen, const struct json_hook *hook)
{
	struct parser ps = { d, s, s, s + n, err, errlen, 0, 0, hook };
	struct json *v;

	d->nomem = 0;
	if (!(v = parse_value(&ps))) {
		if (d->nomem && err && errlen)
			snprintf(err, errlen, "at byte %zu: out of memory (allocating %zu "
				 "bytes failed)", (size_t)(ps.p - ps.s), d->nomem);
		errno = d->nomem ? ENOMEM : ps.deep ? ELOOP : EINVAL;
		return NULL;
	}
	skip_ws(&ps);
	if (ps.p != ps.end) {
		errno = EINVAL;
		return fail(&ps, "trailing characters after value");
	}
	return v;
}

size_t
json_doc_nomem(const struct json_doc *d)
{
	return d->nomem;
}

struct json *
json_getn(const struct json *obj, const char *key, size_t n)
{
	struct json *c, *found = NULL;

	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (c = obj->child; c; c = c->next)
		if (c->keylen == n && (!n || c->key[0] == key[0]) && !memcmp(c->key, key, n))
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

/* Plain integer text of at most 18 digits (no overflow possible), or 19
 * (nanosecond timestamps) with the fast paths on, that fits: its value;
 * -1 for anything else, which strtoll/strtod then judge. */
static int
int_text(const char *s, size_t n, int64_t *out)
{
	size_t i = s[0] == '-';
	uint64_t x = 0;
	int neg = s[0] == '-';

	if (n - i == 0 || n - i > 19 || (n - i == 19 && !util_fastpath()))
		return -1;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	if (x > (uint64_t)INT64_MAX + neg)
		return -1;
	*out = neg ? (int64_t)(0 - x) : (int64_t)x;
	return 0;
}

int
json_int64(const struct json *v, int64_t *out)
{
	char *end;
	double d;

	if (!json_is_num(v))
		return -1;
	if (int_text(v->str, v->len, out) == 0)
		return 0;
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

/*
 * Clinger's fast path: a number of at most 15 significant digits with a
 * decimal exponent within +-22 is one exact double times or over one exact
 * power of ten, so a single IEEE operation rounds it as strtod does. Returns
 * -1 (the caller asks strtod) for anything else.
 */
static int
double_fast(const char *s, size_t n, double *out)
{
	static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
		1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
		1e19, 1e20, 1e21, 1e22 };
	const char *p = s, *end = s + n;
	uint64_t m = 0;
	int neg = 0, digits = 0, e10 = 0, ex = 0, exneg = 0, exdigits = 0;
	double d;

	if (p < end && *p == '-')
		neg = 1, p++;
	if (p >= end || *p < '0' || *p > '9')
		return -1;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		m = m * 10 + (uint64_t)(*p - '0');
		digits += m != 0;
		if (digits > 15)
			return -1;
	}
	if (p < end && *p == '.') {
		for (p++; p < end && *p >= '0' && *p <= '9'; p++) {
			m = m * 10 + (uint64_t)(*p - '0');
			digits += m != 0;
			e10--;
			if (digits > 15)
				return -1;
		}
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			exneg = *p++ == '-';
		for (; p < end && *p >= '0' && *p <= '9'; p++)
			if (++exdigits > 4)
				return -1;
			else
				ex = ex * 10 + (*p - '0');
		if (!exdigits)
			return -1;
		e10 += exneg ? -ex : ex;
	}
	if (p != end || e10 < -22 || e10 > 22)
		return -1;
	d = (double)m;
	d = e10 < 0 ? d / pow10[-e10] : d * pow10[e10];
	*out = neg ? -d : d;
	return 0;
}

int
json_double(const struct json *v, double *out)
{
	if (!json_is_num(v))
		return -1;
	if (util_fastpath() && double_fast(v->str, v->len, out) == 0)
		return 0;
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
json_is_obj_array(const struct json *v)
{
	if (!v || v->type != JSON_ARRAY)
		return 0;
	for (const struct json *e = v->child; e; e = e->next)
		if (e->type != JSON_OBJECT)
			return 0;
	return 1;
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
