/* SPDX-License-Identifier: Apache-2.0 */
/* The values of lib/cfg/expr expressions: Python operators, str() and the Jinja filters. */
#include "cfg/exprval.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "json/json.h"
#include "rand/pystr.h"
#include "stats/numfmt.h"

#define TWO63 9223372036854775808.0

static int
fail(struct exprval_ctx *c, const char *msg)
{
	return util_seterr(c->err, c->errlen, "%s", msg);
}

const char *
exprval_type_name(const struct exprval *v)
{
	static const char *const names[] = {
		"NoneType", "Undefined", "bool", "int", "float", "str",
	};

	if (v->t == EV_JSON)
		return v->j->type == JSON_ARRAY ? "list" : "dict";
	return names[v->t];
}

void
exprval_release(struct exprval *v)
{
	free(v->s);
	memset(v, 0, sizeof(*v));
}

static void
set_int(struct exprval *v, int64_t i)
{
	exprval_release(v);
	v->t = EV_INT;
	v->i = i;
}

static void
set_float(struct exprval *v, double f)
{
	exprval_release(v);
	v->t = EV_FLOAT;
	v->f = f;
}

static void
set_bool(struct exprval *v, int b)
{
	exprval_release(v);
	v->t = EV_BOOL;
	v->i = !!b;
}

/* Take the string's bytes (a malloc'd s of n bytes, NUL-terminated). */
static int
take_str(struct exprval_ctx *c, struct exprval *v, char *s, size_t n)
{
	exprval_release(v);
	if (n > EXPRVAL_MAX_STR) {
		free(s);
		return fail(c, "string longer than 1 MiB");
	}
	if (n > c->budget) {
		free(s);
		return fail(c, "expression makes more than 16 MiB of strings");
	}
	c->budget -= n;
	v->t = EV_STR;
	v->s = s;
	v->n = n;
	return 0;
}

int
exprval_str(struct exprval_ctx *c, struct exprval *v, const char *s, size_t n)
{
	if (n > EXPRVAL_MAX_STR) {
		exprval_release(v);
		return fail(c, "string longer than 1 MiB");
	}
	return take_str(c, v, xstrndup(s ? s : "", n), n);
}

void
exprval_undef(struct exprval *v, const char *s, size_t n)
{
	exprval_release(v);
	v->t = EV_UNDEF;
	v->s = xstrndup(s, n);
	v->n = n;
}

int
exprval_undef_error(struct exprval_ctx *c, const struct exprval *v)
{
	return util_seterr(c->err, c->errlen, "undefined variable '%.*s'",
			   (int)(v->n > 80 ? 80 : v->n), v->s ? v->s : "");
}

static int
is_int_text(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == '.' || s[i] == 'e' || s[i] == 'E')
			return 0;
	return 1;
}

int
exprval_from_json(struct exprval_ctx *c, const struct json *j, struct exprval *v)
{
	exprval_release(v);
	switch (j->type) {
	case JSON_NULL:
		return 0;
	case JSON_FALSE:
	case JSON_TRUE:
		set_bool(v, j->type == JSON_TRUE);
		return 0;
	case JSON_NUMBER:
		if (!is_int_text(j->str, j->len)) {
			double f = 0;

			json_double(j, &f);
			set_float(v, f);
		} else if (json_int64(j, &v->i) == 0) {
			v->t = EV_INT;
		} else {
			return util_seterr(c->err, c->errlen, "integer %.*s out of range",
					   (int)(j->len > 40 ? 40 : j->len), j->str);
		}
		return 0;
	case JSON_STRING:
		return exprval_str(c, v, j->str, j->len);
	default:
		v->t = EV_JSON;
		v->j = j;
		return 0;
	}
}

/* Append to the text being made; b's max is the rendering's. */
static int
put(struct exprval_ctx *c, struct buf *b, const char *s, size_t n)
{
	if (buf_add(b, s, n) < 0)
		return fail(c, "rendered text too long");
	return 0;
}

/* Whether Python's str.isprintable() is false for cp >= 0x80 (the common
 * cases: C1 controls, separators, format characters, private use). */
static int
unprintable(unsigned cp)
{
	return (cp >= 0x80 && cp <= 0xa0) || cp == 0xad || cp == 0x1680 ||
	       (cp >= 0x2000 && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202f) ||
	       (cp >= 0x205f && cp <= 0x206f) || cp == 0x3000 || cp == 0xfeff ||
	       (cp >= 0xe000 && cp <= 0xf8ff);
}

/* The code point of the UTF-8 sequence at s (its length in *len), or
 * -1 (one byte) where it is not valid UTF-8. */
static long
utf8_cp(const unsigned char *s, size_t n, size_t *len)
{
	unsigned cp, k = s[0] >= 0xf0 ? 3 : s[0] >= 0xe0 ? 2 : s[0] >= 0xc0 ? 1 : 0;

	*len = 1;
	if (!k || k >= n || s[0] > 0xf4)
		return -1;
	cp = s[0] & (0x3f >> k);
	for (unsigned i = 1; i <= k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	*len = k + 1;
	return cp;
}

/* Python's repr() of a str. */
static int
repr_str(struct exprval_ctx *c, struct buf *b, const char *s, size_t n)
{
	char q = memchr(s, '\'', n) && !memchr(s, '"', n) ? '"' : '\'', e[12];
	size_t run = 0, i = 0, len;

	if (put(c, b, &q, 1))
		return -1;
	while (i < n) {
		unsigned char ch = (unsigned char)s[i];
		long cp = ch < 0x80 ? ch : utf8_cp((const unsigned char *)s + i, n - i, &len);
		int el = 0;

		len = ch < 0x80 ? 1 : len;
		if (ch == '\\' || ch == (unsigned char)q)
			el = snprintf(e, sizeof(e), "\\%c", ch);
		else if (ch == '\n' || ch == '\r' || ch == '\t')
			el = snprintf(e, sizeof(e), "\\%c", ch == '\n' ? 'n' : ch == '\r' ? 'r' : 't');
		else if (ch < 0x20 || ch == 0x7f || (cp >= 0 && cp <= 0xff && unprintable((unsigned)cp)))
			el = snprintf(e, sizeof(e), "\\x%02lx", cp < 0 ? ch : (unsigned long)cp);
		else if (cp > 0xff && unprintable((unsigned)cp))
			el = snprintf(e, sizeof(e), "\\u%04lx", (unsigned long)cp);
		if (el && (put(c, b, s + run, i - run) || put(c, b, e, (size_t)el)))
			return -1;
		i += len;
		if (el)
			run = i;
	}
	return put(c, b, s + run, n - run) || put(c, b, &q, 1) ? -1 : 0;
}

static int
float_text(struct exprval_ctx *c, struct buf *b, double f)
{
	char t[40];

	if (!isfinite(f))
		return util_seterr(c->err, c->errlen, "cannot render %s (not a finite number)",
				   isnan(f) ? "nan" : "inf");
	return put(c, b, t, numfmt_repr(t, f, NUMFMT_PYREPR));
}

/* Python's repr() of a parsed JSON value (a list or dict's element). */
static int
repr_json(struct exprval_ctx *c, struct buf *b, const struct json *j)
{
	const char *sep = "";
	char t[40];

	switch (j->type) {
	case JSON_NULL:
		return put(c, b, "None", 4);
	case JSON_FALSE:
		return put(c, b, "False", 5);
	case JSON_TRUE:
		return put(c, b, "True", 4);
	case JSON_STRING:
		return repr_str(c, b, j->str, j->len);
	case JSON_NUMBER:
		if (!is_int_text(j->str, j->len))
			return put(c, b, t, numfmt_repr(t, strtod(j->str, NULL), NUMFMT_PYREPR));
		if (j->len == 2 && !memcmp(j->str, "-0", 2))
			return put(c, b, "0", 1);
		return put(c, b, j->str, j->len);
	default:
		break;
	}
	if (put(c, b, j->type == JSON_ARRAY ? "[" : "{", 1))
		return -1;
	for (const struct json *e = j->child; e; e = e->next, sep = ", ") {
		if (put(c, b, sep, strlen(sep)))
			return -1;
		if (j->type == JSON_OBJECT &&
		    (repr_str(c, b, e->key, e->keylen) || put(c, b, ": ", 2)))
			return -1;
		if (repr_json(c, b, e))
			return -1;
	}
	return put(c, b, j->type == JSON_ARRAY ? "]" : "}", 1);
}

int
exprval_text(struct exprval_ctx *c, const struct exprval *v, struct buf *b)
{
	char t[24];

	switch (v->t) {
	case EV_UNDEF:
		return exprval_undef_error(c, v);
	case EV_NONE:
		return put(c, b, "None", 4);
	case EV_BOOL:
		return v->i ? put(c, b, "True", 4) : put(c, b, "False", 5);
	case EV_INT:
		return put(c, b, t, numfmt_int(t, v->i));
	case EV_FLOAT:
		return float_text(c, b, v->f);
	case EV_STR:
		return put(c, b, v->s, v->n);
	case EV_JSON:
		return repr_json(c, b, v->j);
	}
	return -1;
}

int
exprval_truthy(struct exprval_ctx *c, const struct exprval *v)
{
	switch (v->t) {
	case EV_UNDEF:
		return exprval_undef_error(c, v);
	case EV_NONE:
		return 0;
	case EV_BOOL:
	case EV_INT:
		return v->i != 0;
	case EV_FLOAT:
		return v->f != 0;
	case EV_STR:
		return v->n > 0;
	case EV_JSON:
		return v->j->len > 0;
	}
	return 0;
}

static int
is_num(const struct exprval *v)
{
	return v->t == EV_BOOL || v->t == EV_INT || v->t == EV_FLOAT;
}

static double
num_dbl(const struct exprval *v)
{
	return v->t == EV_FLOAT ? v->f : (double)v->i;
}

/* Python's exact comparison of an int with a float: -1, 0, 1, or 2 when
 * unordered (nan). */
static int
cmp_int_float(int64_t i, double f)
{
	double t;

	if (isnan(f))
		return 2;
	if (f >= TWO63)
		return -1;
	if (f < -TWO63)
		return 1;
	t = trunc(f);
	if (i != (int64_t)t)
		return i < (int64_t)t ? -1 : 1;
	return f > t ? -1 : f < t ? 1 : 0;
}

static int
cmp_num(const struct exprval *a, const struct exprval *b)
{
	int r;

	if (a->t != EV_FLOAT && b->t != EV_FLOAT)
		return (a->i > b->i) - (a->i < b->i);
	if (a->t == EV_FLOAT && b->t == EV_FLOAT) {
		if (isnan(a->f) || isnan(b->f))
			return 2;
		return (a->f > b->f) - (a->f < b->f);
	}
	if (a->t != EV_FLOAT)
		return cmp_int_float(a->i, b->f);
	r = cmp_int_float(b->i, a->f);
	return r == 2 ? 2 : -r;
}

static int
json_num_eq(const struct json *a, const struct json *b)
{
	int64_t x, y;
	double f, g;

	if (json_int64(a, &x) == 0 && json_int64(b, &y) == 0)
		return x == y;
	json_double(a, &f);
	json_double(b, &g);
	return f == g;
}

/* Python's == of two parsed values (dicts regardless of member order). */
static int
json_eq(const struct json *a, const struct json *b)
{
	int ta = a->type == JSON_TRUE ? JSON_FALSE : a->type;
	int tb = b->type == JSON_TRUE ? JSON_FALSE : b->type;
	const struct json *x, *y;

	if (ta != tb || a->len != b->len)
		return a->type == JSON_NUMBER && b->type == JSON_NUMBER && json_num_eq(a, b);
	switch (a->type) {
	case JSON_NUMBER:
		return json_num_eq(a, b);
	case JSON_STRING:
		return !memcmp(a->str, b->str, a->len);
	case JSON_ARRAY:
		for (x = a->child, y = b->child; x && y; x = x->next, y = y->next)
			if (!json_eq(x, y))
				return 0;
		return 1;
	case JSON_OBJECT:
		for (x = a->child; x; x = x->next)
			if (!(y = json_getn(b, x->key, x->keylen)) || !json_eq(x, y))
				return 0;
		return 1;
	default:
		return a->type == b->type;
	}
}

static int
equal(const struct exprval *a, const struct exprval *b)
{
	if (is_num(a) && is_num(b))
		return cmp_num(a, b) == 0;
	if (a->t != b->t)
		return 0;
	if (a->t == EV_STR)
		return a->n == b->n && !memcmp(a->s, b->s, a->n);
	if (a->t == EV_JSON)
		return json_eq(a->j, b->j);
	return a->t == EV_NONE;
}

static const char *
op_name(int op)
{
	switch (op) {
	case EXPRVAL_FLOORDIV: return "//";
	case EXPRVAL_POW: return "**";
	case EXPRVAL_EQ: return "==";
	case EXPRVAL_NE: return "!=";
	case EXPRVAL_LE: return "<=";
	case EXPRVAL_GE: return ">=";
	case EXPRVAL_LT: return "<";
	case EXPRVAL_GT: return ">";
	case EXPRVAL_ADD: return "+";
	case EXPRVAL_SUB: return "-";
	case EXPRVAL_MUL: return "*";
	case EXPRVAL_DIV: return "/";
	case EXPRVAL_MOD: return "%";
	default: return "~";
	}
}

int
exprval_compare(struct exprval_ctx *c, int op, const struct exprval *a, const struct exprval *b)
{
	int r;

	if (a->t == EV_UNDEF || b->t == EV_UNDEF)
		return exprval_undef_error(c, a->t == EV_UNDEF ? a : b);
	if (op == EXPRVAL_EQ || op == EXPRVAL_NE)
		return equal(a, b) == (op == EXPRVAL_EQ);
	if (is_num(a) && is_num(b)) {
		r = cmp_num(a, b);
		if (r == 2)
			return 0;
	} else if (a->t == EV_STR && b->t == EV_STR) {
		r = memcmp(a->s, b->s, a->n < b->n ? a->n : b->n);
		r = r ? r : (a->n > b->n) - (a->n < b->n);
	} else {
		return util_seterr(c->err, c->errlen,
				   "'%s' not supported between instances of '%s' and '%s'",
				   op_name(op), exprval_type_name(a), exprval_type_name(b));
	}
	switch (op) {
	case EXPRVAL_LT: return r < 0;
	case EXPRVAL_LE: return r <= 0;
	case EXPRVAL_GT: return r > 0;
	default: return r >= 0;
	}
}

static int
int_pow(struct exprval_ctx *c, int64_t x, int64_t y, struct exprval *out)
{
	int64_t r = 1, base = x;

	if (y < 0) {
		if (x == 0)
			return fail(c, "0.0 cannot be raised to a negative power");
		set_float(out, pow((double)x, (double)y));
		return 0;
	}
	while (y) {
		if ((y & 1) && __builtin_mul_overflow(r, base, &r))
			return fail(c, "integer overflow");
		y >>= 1;
		if (y && __builtin_mul_overflow(base, base, &base))
			return fail(c, "integer overflow");
	}
	set_int(out, r);
	return 0;
}

static int
int_op(struct exprval_ctx *c, int op, int64_t x, int64_t y, struct exprval *out)
{
	int64_t r = 0;
	int ovf = 0;

	switch (op) {
	case EXPRVAL_ADD: ovf = __builtin_add_overflow(x, y, &r); break;
	case EXPRVAL_SUB: ovf = __builtin_sub_overflow(x, y, &r); break;
	case EXPRVAL_MUL: ovf = __builtin_mul_overflow(x, y, &r); break;
	case EXPRVAL_POW: return int_pow(c, x, y, out);
	default:
		if (y == 0)
			return fail(c, "division by zero");
		if (op == EXPRVAL_DIV) {
			set_float(out, (double)x / (double)y);
			return 0;
		}
		if (y == -1) {
			ovf = op == EXPRVAL_FLOORDIV && x == INT64_MIN;
			r = op == EXPRVAL_FLOORDIV && !ovf ? -x : 0;
			break;
		}
		r = op == EXPRVAL_MOD ? x % y : x / y;
		if (x % y && (x < 0) != (y < 0))
			r = op == EXPRVAL_MOD ? r + y : r - 1;
	}
	if (ovf)
		return fail(c, "integer overflow");
	set_int(out, r);
	return 0;
}

/* Python's float // and % (floatobject.c float_divmod). */
static double
float_divmod(double vx, double wx, int want_mod)
{
	double mod = fmod(vx, wx), div = (vx - mod) / wx, fd;

	if (mod) {
		if ((wx < 0) != (mod < 0)) {
			mod += wx;
			div -= 1.0;
		}
	} else {
		mod = copysign(0.0, wx);
	}
	if (want_mod)
		return mod;
	if (div) {
		fd = floor(div);
		if (div - fd > 0.5)
			fd += 1.0;
	} else {
		fd = copysign(0.0, vx / wx);
	}
	return fd;
}

static int
float_pow(struct exprval_ctx *c, double x, double y, struct exprval *out)
{
	double r;

	if (x == 0 && y < 0)
		return fail(c, "0.0 cannot be raised to a negative power");
	if (x < 0 && isfinite(y) && y != floor(y))
		return fail(c, "negative number cannot be raised to a fractional power");
	r = pow(x, y);
	if (isinf(r) && isfinite(x) && isfinite(y))
		return fail(c, "numerical result out of range");
	set_float(out, r);
	return 0;
}

static int
float_op(struct exprval_ctx *c, int op, double x, double y, struct exprval *out)
{
	double r;

	switch (op) {
	case EXPRVAL_ADD: r = x + y; break;
	case EXPRVAL_SUB: r = x - y; break;
	case EXPRVAL_MUL: r = x * y; break;
	case EXPRVAL_POW: return float_pow(c, x, y, out);
	default:
		if (y == 0)
			return fail(c, "division by zero");
		r = op == EXPRVAL_DIV ? x / y : float_divmod(x, y, op == EXPRVAL_MOD);
	}
	set_float(out, r);
	return 0;
}

/* 'ab' * 3: the string s repeated k times into a (which may be s: its
 * bytes are read before they are released). */
static int
repeat(struct exprval_ctx *c, struct exprval *a, const struct exprval *s, int64_t k)
{
	size_t n = k > 0 ? (size_t)k : 0, total;
	char *p;

	if (n && s->n > EXPRVAL_MAX_STR / n)
		return fail(c, "string longer than 1 MiB");
	total = n * s->n;
	p = xmalloc(total + 1);
	for (size_t i = 0; i < n; i++)
		memcpy(p + i * s->n, s->s, s->n);
	p[total] = '\0';
	return take_str(c, a, p, total);
}

/* a ~ b, or a + b of two strings. */
static int
concat(struct exprval_ctx *c, struct exprval *a, const struct exprval *b)
{
	struct buf t = BUF_INIT(BUF_NOMAX);	/* take_str() bounds it */
	char *s;
	size_t n;

	if (exprval_text(c, a, &t) || exprval_text(c, b, &t)) {
		buf_release(&t);
		return -1;
	}
	s = buf_detach(&t, &n);
	return take_str(c, a, s ? s : xstrdup(""), n);
}

static int
binop(struct exprval_ctx *c, int op, struct exprval *a, struct exprval *b)
{
	if (op == EXPRVAL_CAT || (op == EXPRVAL_ADD && a->t == EV_STR && b->t == EV_STR))
		return concat(c, a, b);
	if (op == EXPRVAL_MUL && a->t == EV_STR && (b->t == EV_INT || b->t == EV_BOOL))
		return repeat(c, a, a, b->i);
	if (op == EXPRVAL_MUL && b->t == EV_STR && (a->t == EV_INT || a->t == EV_BOOL))
		return repeat(c, a, b, a->i);
	if (!is_num(a) || !is_num(b))
		return util_seterr(c->err, c->errlen,
				   "unsupported operand type(s) for %s: '%s' and '%s'",
				   op_name(op), exprval_type_name(a), exprval_type_name(b));
	if (a->t == EV_FLOAT || b->t == EV_FLOAT)
		return float_op(c, op, num_dbl(a), num_dbl(b), a);
	return int_op(c, op, a->i, b->i, a);
}

int
exprval_binop(struct exprval_ctx *c, int op, struct exprval *a, struct exprval *b)
{
	int rc;

	if (a->t == EV_UNDEF || b->t == EV_UNDEF)
		rc = exprval_undef_error(c, a->t == EV_UNDEF ? a : b);
	else if (strchr("ENLG<>", op)) {
		rc = exprval_compare(c, op, a, b);
		if (rc >= 0)
			set_bool(a, rc);
	} else {
		/* repeat() reads a's bytes while it makes the result */
		struct exprval keep = *a;

		a->s = NULL;
		rc = binop(c, op, &keep, b);
		*a = keep;
	}
	exprval_release(b);
	if (rc < 0)
		exprval_release(a);
	return rc < 0 ? -1 : 0;
}

int
exprval_unary(struct exprval_ctx *c, int op, struct exprval *v)
{
	int t;

	if (v->t == EV_UNDEF) {
		exprval_undef_error(c, v);
		exprval_release(v);
		return -1;
	}
	if (op == EXPRVAL_NOT) {
		set_bool(v, !exprval_truthy(c, v));
		return 0;
	}
	if (!is_num(v)) {
		t = util_seterr(c->err, c->errlen, "bad operand type for unary %c: '%s'",
				op, exprval_type_name(v));
		exprval_release(v);
		return t;
	}
	if (v->t == EV_FLOAT) {
		v->f = op == '-' ? -v->f : v->f;
		return 0;
	}
	if (op == '-' && v->i == INT64_MIN) {
		exprval_release(v);
		return fail(c, "integer overflow");
	}
	set_int(v, op == '-' ? -v->i : v->i);
	return 0;
}

int
exprval_copy(struct exprval_ctx *c, struct exprval *dst, const struct exprval *src)
{
	exprval_release(dst);
	if (src->t == EV_STR)
		return exprval_str(c, dst, src->s, src->n);
	*dst = *src;
	if (src->t == EV_UNDEF)
		dst->s = xstrndup(src->s, src->n);
	return 0;
}
