/* SPDX-License-Identifier: Apache-2.0 */
/* The deterministic JSON writer: commas, indentation, escapes and number forms. */
#include "json/jw.h"

#include <string.h>
#include "json/json.h"
#include "stats/numfmt.h"

static inline void
putc_(struct buf *b, char c)
{
	buf_put(b, &c, 1);
}

/* Bytes json_quote() escapes: controls, '"' and '\\'. */
static const unsigned char quote_esc[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	['"'] = 1, ['\\'] = 1,
};

static void
quote_escape(struct buf *b, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	char u[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

	switch (c) {
	case '"': buf_put(b, "\\\"", 2); return;
	case '\\': buf_put(b, "\\\\", 2); return;
	case '\n': buf_put(b, "\\n", 2); return;
	case '\r': buf_put(b, "\\r", 2); return;
	case '\t': buf_put(b, "\\t", 2); return;
	case '\b': buf_put(b, "\\b", 2); return;
	case '\f': buf_put(b, "\\f", 2); return;
	default: buf_put(b, u, 6); return;
	}
}

/*
 * The bytes of v below 0x20, '"' or '\\' as their high bits, exactly: no
 * borrow or carry crosses a byte (the sums stay below 0x100), so every
 * byte to escape in a word is found at once.
 */
static uint64_t
esc_mask(uint64_t v)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7fu, ones = 0x0101010101010101u;
	uint64_t q = v ^ (ones * '"'), bs = v ^ (ones * '\\');
	uint64_t ctl = (v & low7) + ones * 0x60;	/* high bit: low 7 bits >= 0x20 */
	uint64_t qz = (q & low7) + low7, bz = (bs & low7) + low7;	/* high bit: nonzero */

	return ~((ctl | v) & (qz | q) & (bz | bs)) & ~low7;
}

/* The letter after the backslash of a two-byte escape; 'u' for \u00XX. */
static const char quote_letter[256] = {
	'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'b', 't', 'n', 'u', 'f', 'r', 'u', 'u',
	'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u',
	['"'] = '"', ['\\'] = '\\',
};

/* One byte, escaped where JSON needs it; returns the new end of output. */
static inline char *
quote_byte(char *o, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	char e = quote_letter[c];

	if (!e) {
		*o = (char)c;
		return o + 1;
	}
	o[0] = '\\';
	o[1] = e;
	if (e != 'u')
		return o + 2;
	memcpy(o + 2, "00", 2);
	o[4] = hex[c >> 4];
	o[5] = hex[c & 15];
	return o + 6;
}

/*
 * json_quote into room already there (6n + 2 bytes): eight bytes at a time,
 * copied whole, then cut at each byte to escape in it (JSON sent as a
 * string, as SSE data is, has one every few bytes). A word's bytes go out
 * as one 8-byte store, the tail of which the next store overwrites: at most
 * 6 * 7 + 9 bytes past the word's start, within the room.
 */
static void
quote_fast(struct buf *b, const char *s, size_t n)
{
	char *o = b->s + b->len;
	size_t i = 0;

	*o++ = '"';
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (n - i >= 8) {
		uint64_t v, m, rest;
		size_t j = 0;	/* the word's bytes before j are out */
		memcpy(&v, s + i, 8);
		for (m = esc_mask(v); m; m &= m - 1) {
			size_t k = (size_t)__builtin_ctzll(m) >> 3;
			rest = v >> (8 * j);
			memcpy(o, &rest, 8);
			o = quote_byte(o + (k - j), (unsigned char)s[i + k]);
			j = k + 1;
		}
		if (j < 8) {
			rest = v >> (8 * j);
			memcpy(o, &rest, 8);
			o += 8 - j;
		}
		i += 8;
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
	size_t i = 0, run = 0;

	/* Room for the worst case (every byte \u00XX): write in place. */
	if (n <= 1 << 16 && buf_grow(b, 6 * n + 2) == 0) {
		quote_fast(b, s, n);
		return;
	}
	buf_grow(b, n + 2);
	putc_(b, '"');
	for (;;) {
		while (i < n && !quote_esc[(unsigned char)s[i]])
			i++;
		buf_put(b, s + run, i - run);
		if (i == n)
			break;
		quote_escape(b, (unsigned char)s[i]);
		run = ++i;
	}
	putc_(b, '"');
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
	putc_(w->b, '\n');
	for (int i = 0; i < w->depth * w->indent; i++)
		putc_(w->b, ' ');
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
		putc_(w->b, ',');
	if (w->indent && w->depth)
		newline(w);
}

static void
open_(struct jw *w, char c)
{
	sep(w);
	putc_(w->b, c);
	w->depth++;
	w->need_comma = 0;
}

static void
close_(struct jw *w, char c)
{
	w->depth--;
	if (w->indent && w->need_comma)
		newline(w);
	putc_(w->b, c);
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
	buf_put(w->b, ": ", w->indent ? 2 : 1);
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
	char tmp[24];

	sep(w);
	buf_put(w->b, tmp, numfmt_int(tmp, v));
	done(w);
}

void
jw_bool(struct jw *w, int v)
{
	sep(w);
	buf_put(w->b, v ? "true" : "false", v ? 4 : 5);
	done(w);
}

void
jw_null(struct jw *w)
{
	sep(w);
	buf_put(w->b, "null", 4);
	done(w);
}

static void
put_double(struct jw *w, double v, enum numfmt_style st)
{
	char tmp[40];

	sep(w);
	buf_put(w->b, tmp, numfmt_repr(tmp, v, st));
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
	buf_put(w->b, s, n);
	done(w);
}

void
jw_value_with(struct jw *w, const struct json *v, jw_num_fn num)
{
	const struct json *c;

	switch (v->type) {
	case JSON_NULL: jw_null(w); return;
	case JSON_FALSE: jw_bool(w, 0); return;
	case JSON_TRUE: jw_bool(w, 1); return;
	case JSON_NUMBER:
		if (num)
			num(w, v);
		else
			jw_raw(w, v->str, v->len);
		return;
	case JSON_STRING: jw_strn(w, v->str, v->len); return;
	case JSON_ARRAY:
		jw_arr(w);
		for (c = v->child; c; c = c->next)
			jw_value_with(w, c, num);
		jw_arr_end(w);
		return;
	case JSON_OBJECT:
		jw_obj(w);
		for (c = v->child; c; c = c->next) {
			jw_keyn(w, c->key, c->keylen);
			jw_value_with(w, c, num);
		}
		jw_obj_end(w);
		return;
	}
}

void
jw_value(struct jw *w, const struct json *v)
{
	jw_value_with(w, v, NULL);
}
