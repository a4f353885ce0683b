/* SPDX-License-Identifier: Apache-2.0 */
/* The Jinja filters of lib/cfg/expr, and Python's int() and float() of text. */
#include "cfg/exprfilt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "json/json.h"
#include "pytext.h"
#include "rand/pystr.h"

#define TWO63 9223372036854775808.0

typedef int filter_fn(struct exprval_ctx *c, struct exprval *v,
		      struct exprval *const *args);

static int
fail(struct exprval_ctx *c, const char *msg)
{
	return util_seterr(c->err, c->errlen, "%s", msg);
}

/* int(f): an error for inf and nan, and past int64 */
static int
float_to_int(struct exprval_ctx *c, double f, struct exprval *v)
{
	exprval_release(v);
	if (isnan(f))
		return fail(c, "cannot convert float NaN to integer");
	if (isinf(f))
		return fail(c, "cannot convert float infinity to integer");
	if (f >= TWO63 || f < -TWO63)
		return fail(c, "integer overflow");
	v->t = EV_INT;
	v->i = (int64_t)f;
	return 0;
}

static int
set_default(struct exprval_ctx *c, struct exprval *v, const struct exprval *dflt,
	    const struct exprval *zero)
{
	return exprval_copy(c, v, dflt ? dflt : zero);
}

/* Jinja's do_int: int(v), else int(float(v)), else the default. */
static int
f_int(struct exprval_ctx *c, struct exprval *v, struct exprval *const *args)
{
	const struct exprval zero = { .t = EV_INT };
	struct buf t = BUF_INIT(BUF_NOMAX);
	double f;
	int rc;

	if (args[1] && !(args[1]->t == EV_INT && args[1]->i == 10))
		return fail(c, "int base other than 10 is not supported");
	if (v->t == EV_BOOL || v->t == EV_INT) {
		v->t = EV_INT;
		return 0;
	}
	if (v->t == EV_FLOAT)
		return isnan(v->f) ? set_default(c, v, args[0], &zero) : float_to_int(c, v->f, v);
	if (v->t != EV_STR)
		return set_default(c, v, args[0], &zero);
	if (pytext_int(v->s, v->n, &t)) {
		char *end;

		errno = 0;
		long long i = strtoll(t.s, &end, 10);
		buf_release(&t);
		exprval_release(v);
		if (errno)
			return fail(c, "integer overflow");
		v->t = EV_INT;
		v->i = i;
		return 0;
	}
	buf_release(&t);
	if (pytext_float(v->s, v->n, &f) && !isnan(f))
		return float_to_int(c, f, v);
	rc = set_default(c, v, args[0], &zero);
	return rc;
}

static int
f_float(struct exprval_ctx *c, struct exprval *v, struct exprval *const *args)
{
	const struct exprval zero = { .t = EV_FLOAT };
	double f = 0;

	if (v->t == EV_BOOL || v->t == EV_INT)
		f = (double)v->i;
	else if (v->t == EV_FLOAT)
		f = v->f;
	else if (v->t != EV_STR || !pytext_float(v->s, v->n, &f))
		return set_default(c, v, args[0], &zero);
	exprval_release(v);
	v->t = EV_FLOAT;
	v->f = f;
	return 0;
}

/* round(int, -k): half to even, as Python's int.__round__ */
static int
int_round(struct exprval_ctx *c, struct exprval *v, int64_t nd)
{
	uint64_t a = v->i < 0 ? 0 - (uint64_t)v->i : (uint64_t)v->i, p = 1, r, q;

	v->t = EV_INT;
	if (nd >= 0)
		return 0;
	if (nd < -19) {
		v->i = 0;
		return 0;
	}
	for (int64_t k = 0; k < -nd; k++)
		p *= 10;
	r = a % p;
	q = a - r;
	if ((r > p - r || (r == p - r && (q / p) & 1)) && __builtin_add_overflow(q, p, &q))
		return fail(c, "integer overflow");
	if (q > (v->i < 0 ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX))
		return fail(c, "integer overflow");
	v->i = v->i < 0 ? (int64_t)(0 - q) : (int64_t)q;
	return 0;
}

/* round(x, -k) for 1 <= k <= 308: the exact decimal digits of x rounded
 * half to even at 10^k. */
static double
float_round_neg(double x, int k)
{
	double ip = trunc(x), frac = x - ip;
	char d[340], b[700];
	int len = snprintf(d, sizeof(d), "%.0f", fabs(ip)), L, up, i;

	L = len > k + 1 ? len : k + 1;
	b[0] = '0';
	memset(b + 1, '0', (size_t)(L - len));
	memcpy(b + 1 + L - len, d, (size_t)len);
	b[L + 1] = '\0';
	i = L + 1 - k;
	up = b[i] > '5';
	if (b[i] == '5') {
		up = frac != 0 || (b[i - 1] - '0') & 1;
		for (int j = i + 1; j <= L; j++)
			up |= b[j] != '0';
	}
	memset(b + i, '0', (size_t)k);
	for (int j = i - 1; up && j >= 0; j--) {
		up = b[j] == '9';
		b[j] = up ? '0' : (char)(b[j] + 1);
	}
	return copysign(strtod(b, NULL), x);
}

/* Python's round(x, nd) of a float (floatobject.c double_round). */
static int
float_round(struct exprval_ctx *c, struct exprval *v, int64_t nd)
{
	char b[700];
	double x = v->f;

	if (!isfinite(x) || x == 0 || nd > 323)
		return 0;
	if (nd < -308) {
		v->f = 0.0 * x;
		return 0;
	}
	if (nd >= 0) {
		snprintf(b, sizeof(b), "%.*f", (int)nd, x);
		v->f = strtod(b, NULL);
		return 0;
	}
	v->f = float_round_neg(x, (int)-nd);
	if (isinf(v->f))
		return fail(c, "rounded value too large to represent");
	return 0;
}

/* method ceil/floor: math.floor(v * 10**p) / 10**p (a float) */
static int
round_dir(struct exprval_ctx *c, struct exprval *v, int64_t p, int up)
{
	struct exprval m = { .t = EV_INT, .i = 10 }, e = { .t = EV_INT, .i = p }, m2;
	double f;

	if (exprval_binop(c, EXPRVAL_POW, &m, &e)) {
		exprval_release(v);
		return -1;
	}
	m2 = m;
	if (exprval_binop(c, EXPRVAL_MUL, v, &m))
		return -1;
	if (v->t == EV_FLOAT) {
		f = up ? ceil(v->f) : floor(v->f);
		if (float_to_int(c, f, v))
			return -1;
	}
	return exprval_binop(c, EXPRVAL_DIV, v, &m2);
}

static int
f_round(struct exprval_ctx *c, struct exprval *v, struct exprval *const *args)
{
	const struct exprval *p = args[0], *m = args[1];
	int64_t nd = p ? p->i : 0;

	if (p && p->t != EV_INT && p->t != EV_BOOL)
		return fail(c, "round precision must be an integer");
	if (m && (m->t != EV_STR || (strcmp(m->s, "common") && strcmp(m->s, "ceil") &&
				    strcmp(m->s, "floor"))))
		return fail(c, "method must be common, ceil or floor");
	if (v->t != EV_INT && v->t != EV_BOOL && v->t != EV_FLOAT)
		return util_seterr(c->err, c->errlen, "type %s doesn't define __round__ method",
				   exprval_type_name(v));
	if (m && strcmp(m->s, "common"))
		return round_dir(c, v, nd, m->s[0] == 'c');
	return v->t == EV_FLOAT ? float_round(c, v, nd) : int_round(c, v, nd);
}

static int
f_abs(struct exprval_ctx *c, struct exprval *v, struct exprval *const *args)
{
	(void)args;
	if (v->t == EV_FLOAT) {
		v->f = fabs(v->f);
		return 0;
	}
	if (v->t != EV_INT && v->t != EV_BOOL) {
		util_seterr(c->err, c->errlen, "bad operand type for abs(): '%s'",
			    exprval_type_name(v));
		exprval_release(v);
		return -1;
	}
	if (v->i == INT64_MIN)
		return fail(c, "integer overflow");
	v->t = EV_INT;
	v->i = v->i < 0 ? -v->i : v->i;
	return 0;
}

static int
f_string(struct exprval_ctx *c, struct exprval *v, struct exprval *const *args)
{
	struct buf t = BUF_INIT(EXPRVAL_MAX_STR);
	int rc;

	(void)args;
	if (v->t == EV_STR)
		return 0;
	rc = exprval_text(c, v, &t);
	rc = rc ? rc : exprval_str(c, v, t.s, t.len);
	if (rc)
		exprval_release(v);
	buf_release(&t);
	return rc;
}

static int
f_default(struct exprval_ctx *c, struct exprval *v, struct exprval *const *args)
{
	const struct exprval empty = { .t = EV_STR, .s = (char *)"" };
	int b = args[1] ? exprval_truthy(c, args[1]) : 0;

	if (b < 0)
		return -1;
	if (v->t != EV_UNDEF && !(b && !exprval_truthy(c, v)))
		return 0;
	return set_default(c, v, args[0], &empty);
}

static int
f_length(struct exprval_ctx *c, struct exprval *v, struct exprval *const *args)
{
	int64_t n;

	(void)args;
	if (v->t == EV_STR)
		n = (int64_t)pystr_len(v->s, v->n);
	else if (v->t == EV_JSON)
		n = (int64_t)v->j->len;
	else
		return util_seterr(c->err, c->errlen, "object of type '%s' has no len()",
				   exprval_type_name(v));
	exprval_release(v);
	v->t = EV_INT;
	v->i = n;
	return 0;
}

/* min/max of a list of numbers: its first least (greatest) element */
static int
minmax(struct exprval_ctx *c, struct exprval *v, int want_max)
{
	struct exprval best = { 0 }, e = { 0 };
	const struct json *j;
	int rc = 0;

	if (v->t != EV_JSON || v->j->type != JSON_ARRAY || !v->j->child) {
		rc = util_seterr(c->err, c->errlen, "%s of %s (a list of numbers only)",
				 want_max ? "max" : "min",
				 v->t == EV_JSON && v->j->type == JSON_ARRAY ? "an empty list" :
				 exprval_type_name(v));
		exprval_release(v);
		return rc;
	}
	for (j = v->j->child; j && rc >= 0; j = j->next) {
		if (j->type != JSON_NUMBER && j->type != JSON_TRUE && j->type != JSON_FALSE)
			rc = fail(c, "min/max of a list of non-numbers is not supported");
		else if ((rc = exprval_from_json(c, j, &e)) == 0 && (j == v->j->child ||
			 exprval_compare(c, want_max ? EXPRVAL_GT : EXPRVAL_LT, &e, &best) == 1))
			best = e;
	}
	exprval_release(v);
	*v = best;
	return rc < 0 ? -1 : 0;
}

static int
f_min(struct exprval_ctx *c, struct exprval *v, struct exprval *const *args)
{
	(void)args;
	return minmax(c, v, 0);
}

static int
f_max(struct exprval_ctx *c, struct exprval *v, struct exprval *const *args)
{
	(void)args;
	return minmax(c, v, 1);
}

static const struct filter {
	const char *name;
	filter_fn *fn;
	const char *params[2];
} filters[] = {
	{ "abs", f_abs, { NULL } },
	{ "count", f_length, { NULL } },
	{ "d", f_default, { "default_value", "boolean" } },
	{ "default", f_default, { "default_value", "boolean" } },
	{ "float", f_float, { "default", NULL } },
	{ "int", f_int, { "default", "base" } },
	{ "length", f_length, { NULL } },
	{ "max", f_max, { NULL } },
	{ "min", f_min, { NULL } },
	{ "round", f_round, { "precision", "method" } },
	{ "string", f_string, { NULL } },
};

#define NFILTERS (sizeof(filters) / sizeof(filters[0]))

int
exprfilt_find(const char *s, size_t n)
{
	for (size_t i = 0; i < NFILTERS; i++)
		if (strlen(filters[i].name) == n && !memcmp(filters[i].name, s, n))
			return (int)i;
	return -1;
}

int
exprfilt_nparams(int f)
{
	return !filters[f].params[0] ? 0 : !filters[f].params[1] ? 1 : 2;
}

int
exprfilt_param(int f, const char *s, size_t n)
{
	for (int k = 0; k < exprfilt_nparams(f); k++)
		if (strlen(filters[f].params[k]) == n && !memcmp(filters[f].params[k], s, n))
			return k;
	return -1;
}

int
exprfilt_apply(struct exprval_ctx *c, int f, struct exprval *v,
	       struct exprval *const *args)
{
	int lazy = filters[f].fn == f_default;
	const struct exprval *u = v->t == EV_UNDEF && !lazy ? v : NULL;

	/* default(y) hands y on: it is an error where it is used */
	for (int k = 0; !u && !lazy && k < exprfilt_nparams(f); k++)
		if (args[k] && args[k]->t == EV_UNDEF)
			u = args[k];
	if (u) {
		exprval_undef_error(c, u);
		exprval_release(v);
		return -1;
	}
	if (filters[f].fn(c, v, args) == 0)
		return 0;
	exprval_release(v);
	return -1;
}
