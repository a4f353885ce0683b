/* SPDX-License-Identifier: Apache-2.0 */
/* --seq-dist: the original's DistributionParser (three syntaxes, its messages) and sampler. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>

#include "gen.h"
#include "json/json.h"
#include "rand/pystr.h"
#include "stats/numfmt.h"
#include "util.h"

#define LEN_MAX 100000000LL	/* ours: the --isl/--osl range */
#define SD_MAX 1e9		/* ours: the --isl-stddev range */

struct pair {
	long long isl, osl;
	double prob, isl_sd, osl_sd;
};

struct seqdist {
	struct pair *v;
	size_t n;
	double *cum;		/* np.cumsum of prob / 100 */
};

struct parse {
	struct seqdist *d;
	char *err;
	size_t errlen;
};

static int FMT(2, 3)
fail(struct parse *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->err, p->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *
repr(char out[48], double v)
{
	out[numfmt_repr(out, v, NUMFMT_PYREPR)] = 0;
	return out;
}

/* SequenceLengthPair(...): __post_init__'s checks, in its order. */
static int
add_pair(struct parse *p, const struct pair *x)
{
	char a[48];

	if (x->isl <= 0)
		return fail(p, "Input sequence length must be positive, got %lld", x->isl);
	if (x->osl <= 0)
		return fail(p, "Output sequence length must be positive, got %lld", x->osl);
	if (!(x->prob >= 0.0 && x->prob <= 100.0))
		return fail(p, "Probability must be in [0,100], got %s", repr(a, x->prob));
	if (x->isl_sd < 0.0)
		return fail(p, "Input sequence length stddev must be non-negative, got %s",
			    repr(a, x->isl_sd));
	if (x->osl_sd < 0.0)
		return fail(p, "Output sequence length stddev must be non-negative, got %s",
			    repr(a, x->osl_sd));
	if (x->isl > LEN_MAX || x->osl > LEN_MAX)
		return fail(p, "sequence lengths above %lld are not supported", LEN_MAX);
	if (x->isl_sd > SD_MAX || x->osl_sd > SD_MAX)
		return fail(p, "stddevs above 1e9 are not supported");
	p->d->v = xreallocarray(p->d->v, p->d->n + 1, sizeof(*p->d->v));
	p->d->v[p->d->n++] = *x;
	return 0;
}

/* --- the two regex syntaxes ------------------------------------------ */

static int
sp(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static const char *
skip_sp(const char *s, const char *e)
{
	while (s < e && sp((unsigned char)*s))
		s++;
	return s;
}

static const char *
digits(const char *s, const char *e)
{
	while (s < e && isdigit((unsigned char)*s))
		s++;
	return s;
}

/* _NUM: \d+(?:\.\d+)?|\.\d+ at s; returns its end, or NULL. */
static const char *
num(const char *s, const char *e)
{
	const char *t = digits(s, e);

	if (t == s) {
		if (s < e && *s == '.' && digits(s + 1, e) > s + 1)
			return digits(s + 1, e);
		return NULL;
	}
	if (t < e && *t == '.' && digits(t + 1, e) > t + 1)
		return digits(t + 1, e);
	return t;
}

static long long
int_of(const char *s, const char *e)
{
	long long v = 0;

	for (; s < e; s++)
		v = v > LEN_MAX ? v : v * 10 + (*s - '0');
	return v;
}

static double
float_of(const char *s, const char *e)
{
	char b[512];
	size_t n = (size_t)(e - s) < sizeof(b) - 1 ? (size_t)(e - s) : sizeof(b) - 1;

	memcpy(b, s, n);
	b[n] = 0;
	return strtod(b, NULL);
}

/* One length with its optional |stddev: (\d+)(?:\|(NUM))? */
static const char *
length(const char *s, const char *e, long long *v, double *sd)
{
	const char *t = digits(s, e), *u;

	if (t == s)
		return NULL;
	*v = int_of(s, t);
	*sd = 0;
	if (t < e && *t == '|' && (u = num(t + 1, e))) {
		*sd = float_of(t + 1, u);
		return u;
	}
	return t;
}

/*
 * ISL[|SD]\s*,\s*OSL[|SD]\s*:\s*PROB, bracketed when paren: \(\s* before
 * and \s*\)\s* before the colon. Returns the match's end, or NULL. The
 * pattern is unambiguous (greedy matching never has to back off).
 */
static const char *
match_pair(const char *s, const char *e, int paren, struct pair *x)
{
	const char *t;

	if (paren) {
		if (s >= e || *s != '(')
			return NULL;
		s = skip_sp(s + 1, e);
	}
	if (!(s = length(s, e, &x->isl, &x->isl_sd)))
		return NULL;
	s = skip_sp(s, e);
	if (s >= e || *s != ',')
		return NULL;
	s = skip_sp(s + 1, e);
	if (!(s = length(s, e, &x->osl, &x->osl_sd)))
		return NULL;
	s = skip_sp(s, e);
	if (paren) {
		if (s >= e || *s != ')')
			return NULL;
		s = skip_sp(s + 1, e);
	}
	if (s >= e || *s != ':')
		return NULL;
	s = skip_sp(s + 1, e);
	if (!(t = num(s, e)))
		return NULL;
	x->prob = float_of(s, t);
	return t;
}

static int
semicolon(struct parse *p, const char *s, size_t n)
{
	const char *e = s + n;

	while (s <= e) {
		size_t len = (size_t)((memchr(s, ';', (size_t)(e - s)) ?
				       (const char *)memchr(s, ';', (size_t)(e - s)) : e) - s);
		const char *next = s + len + 1, *t = pystr_strip(s, &len);
		struct pair x;

		s = next;
		if (!len)
			continue;
		if (match_pair(t, t + len, 0, &x) != t + len)
			return fail(p, "Invalid pair format: '%.*s'. Expected "
				    "'ISL[|ISL_STDDEV],OSL[|OSL_STDDEV]:PROB'", (int)len, t);
		if (add_pair(p, &x))
			return -1;
	}
	if (!p->d->n)
		return fail(p, "No valid pairs found in semicolon format");
	return 0;
}

/* re.finditer: the leftmost match, then on from its end. */
static int
bracket(struct parse *p, const char *s, size_t n)
{
	const char *e = s + n, *t;
	struct pair x;

	while (s < e) {
		if (!(t = match_pair(s, e, 1, &x))) {
			s++;
			continue;
		}
		if (add_pair(p, &x))
			return -1;
		s = t;
	}
	if (!p->d->n)
		return fail(p, "No valid pairs found in bracket format");
	return 0;
}

/* --- JSON --------------------------------------------------------------- */

static const char *
pytype(const struct json *v)
{
	static const char *const names[] = {
		[JSON_NULL] = "NoneType", [JSON_FALSE] = "bool", [JSON_TRUE] = "bool",
		[JSON_NUMBER] = "int", [JSON_STRING] = "str", [JSON_ARRAY] = "list",
		[JSON_OBJECT] = "dict",
	};

	if (v->type == JSON_NUMBER && strpbrk(v->str, ".eE") &&
	    (size_t)(strpbrk(v->str, ".eE") - v->str) < v->len)
		return "float";
	return names[v->type];
}

/* Python's float(v) of a JSON value. */
static int
py_float(struct parse *p, const struct json *v, double *out)
{
	char b[512], *end;
	size_t n;
	const char *s;

	switch (v->type) {
	case JSON_TRUE: *out = 1; return 0;
	case JSON_FALSE: *out = 0; return 0;
	case JSON_NUMBER: return json_double(v, out) ? fail(p, "float out of range") : 0;
	case JSON_STRING:
		n = v->len;
		s = pystr_strip(v->str, &n);
		if (n && n < sizeof(b) && !memchr(s, 'x', n) && !memchr(s, 'X', n)) {
			memcpy(b, s, n);
			b[n] = 0;
			errno = 0;
			*out = strtod(b, &end);
			if (end == b + n)
				return 0;
		}
		return fail(p, "could not convert string to float: '%.*s'",
			    (int)v->len, v->str);
	default:
		return fail(p, "float() argument must be a string or a real number, "
			    "not '%s'", pytype(v));
	}
}

/* Python's int(v): truncation for floats, base 10 for strings. */
static int
py_int(struct parse *p, const struct json *v, long long *out)
{
	double d;
	size_t n, i = 0;
	const char *s;
	long long x = 0;
	int neg = 0;

	switch (v->type) {
	case JSON_TRUE: *out = 1; return 0;
	case JSON_FALSE: *out = 0; return 0;
	case JSON_NUMBER:
		if (json_double(v, &d) || !isfinite(d))
			return fail(p, "cannot convert float infinity to integer");
		d = trunc(d);
		*out = d > (double)LEN_MAX * 10 ? LEN_MAX * 10 :
		       d < -(double)LEN_MAX ? -LEN_MAX : (long long)d;
		return 0;
	case JSON_STRING:
		n = v->len;
		s = pystr_strip(v->str, &n);
		if (n && (s[0] == '+' || s[0] == '-'))
			neg = s[i++] == '-';
		if (i == n)
			goto bad;
		for (; i < n; i++) {
			if (s[i] == '_' && i + 1 < n && isdigit((unsigned char)s[i + 1]) &&
			    isdigit((unsigned char)s[i - 1]))
				continue;
			if (!isdigit((unsigned char)s[i]))
				goto bad;
			x = x > LEN_MAX ? x : x * 10 + (s[i] - '0');
		}
		*out = neg ? -x : x;
		return 0;
	default:
		return fail(p, "int() argument must be a string, a bytes-like object "
			    "or a real number, not '%s'", pytype(v));
	}
bad:
	return fail(p, "invalid literal for int() with base 10: '%.*s'",
		    (int)v->len, v->str);
}

static int
json_pair(struct parse *p, const struct json *e, size_t i)
{
	static const char *const keys[] = { "isl", "osl", "prob" };
	struct buf m = BUF_INIT(BUF_NOMAX);
	const struct json *sd;
	struct pair x = { 0 };
	int rc = 0;

	if (e->type != JSON_OBJECT)
		return fail(p, "'%s' object has no attribute 'keys'", pytype(e));
	for (size_t k = 0; k < 3; k++)
		if (!json_get(e, keys[k]))
			buf_addf(&m, "%s'%s'", m.len ? ", " : "", keys[k]);
	if (m.len)
		rc = fail(p, "Pair %zu missing required keys: {%s}", i, buf_str(&m));
	buf_release(&m);
	if (rc || py_int(p, json_get(e, "isl"), &x.isl) ||
	    py_int(p, json_get(e, "osl"), &x.osl) ||
	    py_float(p, json_get(e, "prob"), &x.prob))
		return -1;
	if ((sd = json_get(e, "isl_stddev")) && py_float(p, sd, &x.isl_sd))
		return -1;
	if ((sd = json_get(e, "osl_stddev")) && py_float(p, sd, &x.osl_sd))
		return -1;
	return add_pair(p, &x);
}

static int
json_format(struct parse *p, const char *s, size_t n)
{
	struct json_doc *doc = json_doc_new();
	char jerr[256];
	const struct json *v = json_parse(doc, s, n, jerr, sizeof(jerr)), *pairs;
	size_t i = 0;
	int rc = 0;

	if (!v)
		rc = fail(p, "Invalid JSON format: %s", jerr);
	else if (!(pairs = json_get(v, "pairs")))
		rc = fail(p, "JSON format must contain 'pairs' key");
	else if (pairs->type == JSON_ARRAY)
		for (const struct json *e = pairs->child; e && !rc; e = e->next)
			rc = json_pair(p, e, i++);
	else if (pairs->type == JSON_STRING || pairs->type == JSON_OBJECT)
		rc = pairs->len ? fail(p, "'str' object has no attribute 'keys'") : 0;
	else
		rc = fail(p, "'%s' object is not iterable", pytype(pairs));
	json_doc_free(doc);
	return rc;
}

/* --- the distribution --------------------------------------------------- */

static void
pair_str(struct buf *b, const struct pair *x)
{
	char a[48], c[48], d[48];

	if (x->isl_sd > 0 || x->osl_sd > 0)
		buf_addf(b, "'(%lld|%s,%lld|%s):%s%%'", x->isl, repr(a, x->isl_sd),
			 x->osl, repr(c, x->osl_sd), repr(d, x->prob));
	else
		buf_addf(b, "'(%lld,%lld):%s%%'", x->isl, x->osl, repr(d, x->prob));
}

/* _validate_probability_sum: np.isclose(total, 100, rtol=1e-6, atol=1e-6). */
static int
check_sum(struct parse *p)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	double total = 0;
	int rc;

	for (size_t i = 0; i < p->d->n; i++)
		total += p->d->v[i].prob;
	if (fabs(total - 100.0) <= 1e-6 + 1e-6 * 100.0)
		return 0;
	for (size_t i = 0; i < p->d->n; i++) {
		buf_addstr(&b, i ? ", " : "");
		pair_str(&b, &p->d->v[i]);
	}
	rc = fail(p, "Probabilities must sum to 100.0, got %.6f. Pairs: [%s]", total,
		  buf_str(&b));
	buf_release(&b);
	return rc;
}

void
seqdist_free(struct seqdist *d)
{
	if (!d)
		return;
	free(d->v);
	free(d->cum);
	free(d);
}

struct seqdist *
seqdist_parse(const char *str, char *err, size_t errlen)
{
	struct seqdist *d = xcalloc(1, sizeof(*d));
	struct parse p = { d, err, errlen };
	size_t n = strlen(str);
	const char *s = pystr_strip(str, &n);
	char inner[1024];
	int rc;
	double c = 0;

	if (!n) {
		snprintf(err, errlen, "Invalid sequence distribution format: "
			 "Distribution string cannot be empty");
		seqdist_free(d);
		return NULL;
	}
	p.err = inner;
	p.errlen = sizeof(inner);
	if (s[0] == '{')
		rc = json_format(&p, s, n);
	else if (s[0] == '[' && s[n - 1] == ']' && n >= 2)
		rc = bracket(&p, s + 1, n - 2);
	else
		rc = semicolon(&p, s, n);
	if (rc || check_sum(&p)) {
		snprintf(err, errlen, "Invalid sequence distribution format: Failed to "
			 "parse distribution string '%.*s': %s", (int)n, s, inner);
		seqdist_free(d);
		return NULL;
	}
	d->cum = xcalloc(d->n, sizeof(*d->cum));
	for (size_t i = 0; i < d->n; i++)
		d->cum[i] = c += d->v[i].prob / 100.0;
	return d;
}

/* SequenceLengthDistribution.sample(): searchsorted(side="right") of one
 * random(), then the pair's lengths, each drawn only with a stddev. */
void
seqdist_sample(const struct seqdist *d, struct rng *r, long long *isl,
	       long long *osl)
{
	double u = rng_random(r);
	size_t i = 0;
	const struct pair *x;

	while (i < d->n && d->cum[i] <= u)
		i++;
	x = &d->v[i < d->n ? i : d->n - 1];
	*isl = x->isl_sd > 0 ? gen_pni(r, (double)x->isl, x->isl_sd) : x->isl;
	*osl = x->osl_sd > 0 ? gen_pni(r, (double)x->osl, x->osl_sd) : x->osl;
}
