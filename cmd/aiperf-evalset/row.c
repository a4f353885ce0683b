/* SPDX-License-Identifier: Apache-2.0 */
/* A benchmark's rows: one split loaded, its columns read as the original's Python reads them. */
#include "row.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "util.h"

int
split_load(struct split *s, const struct bench_opts *o, const char *id,
	   const char *config, const char *name, char *err, size_t errlen)
{
	*s = (struct split){ .id = id, .config = config, .name = name };
	if (rows_get(o->src, id, config, name, &s->rows, err, errlen) < 0)
		return -1;
	s->doc = json_doc_new();
	return 0;
}

void
split_own(struct split *s, const char *id, const char *config,
	  const char *name, struct rows *rows)
{
	*s = (struct split){ .id = id, .config = config, .name = name,
			     .rows = *rows, .doc = json_doc_new() };
	*rows = (struct rows){ 0 };
}

void
split_release(struct split *s)
{
	rows_free(&s->rows);
	json_doc_free(s->doc);
	*s = (struct split){ 0 };
}

int
split_err(const struct split *s, char *err, size_t errlen, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return util_seterr(err, errlen, "%s/%s/%s: row %zu: %s", s->id,
			   s->config, s->name, s->at, msg);
}

int
split_row(struct split *s, size_t i, char *err, size_t errlen)
{
	char perr[256];

	s->at = i;
	json_doc_reset(s->doc);
	s->row = json_parse(s->doc, s->rows.v[i], s->rows.len[i], perr, sizeof(perr));
	if (!s->row || s->row->type != JSON_OBJECT)
		return split_err(s, err, errlen, "%s", s->row ? "not a JSON object" : perr);
	return 0;
}

const char *
split_str(const struct split *s, const char *col, char *err, size_t errlen)
{
	const struct json *v = json_get(s->row, col);

	if (!v) {
		split_err(s, err, errlen, "no column '%s'", col);
		return NULL;
	}
	if (v->type != JSON_STRING) {
		split_err(s, err, errlen, "column '%s' is not a string", col);
		return NULL;
	}
	if (memchr(v->str, '\0', v->len)) {
		split_err(s, err, errlen, "column '%s' holds a NUL character", col);
		return NULL;
	}
	return v->str;
}

/* The shortest digits that read back as d (d finite, > 0), and the
 * exponent of the first: d = D[0].D[1..] x 10^exp. */
static void
short_digits(double d, char digits[32], int *exp)
{
	char t[48], *e;
	size_t n = 0;

	for (int p = 1; p <= 17; p++) {
		snprintf(t, sizeof(t), "%.*e", p - 1, d);
		if (strtod(t, NULL) == d)
			break;
	}
	e = strchr(t, 'e');
	*exp = (int)strtol(e + 1, NULL, 10);
	for (const char *c = t; c < e; c++)
		if (*c != '.')
			digits[n++] = *c;
	while (n > 1 && digits[n - 1] == '0')
		n--;
	digits[n] = '\0';
}

static void
zeros(struct buf *out, int n)
{
	while (n-- > 0)
		buf_addch(out, '0');
}

/* repr(float): fixed notation for exponents -5 < exp < 16, else d.ddde+XX. */
static void
py_float(double d, struct buf *out)
{
	char dg[32];
	int exp, n;

	if (isnan(d) || isinf(d)) {
		buf_addstr(out, isnan(d) ? "nan" : d < 0 ? "-inf" : "inf");
		return;
	}
	if (signbit(d))
		buf_addch(out, '-');
	d = fabs(d);
	if (d == 0) {
		buf_addstr(out, "0.0");
		return;
	}
	short_digits(d, dg, &exp);
	n = (int)strlen(dg);
	if (exp < -4 || exp >= 16) {
		buf_addf(out, "%c%s%s", dg[0], n > 1 ? "." : "", dg + 1);
		buf_addf(out, "e%c%02d", exp < 0 ? '-' : '+', abs(exp));
	} else if (exp < 0) {
		buf_addstr(out, "0.");
		zeros(out, -exp - 1);
		buf_addstr(out, dg);
	} else if (exp + 1 < n) {
		buf_addf(out, "%.*s.%s", exp + 1, dg, dg + exp + 1);
	} else {
		buf_addstr(out, dg);
		zeros(out, exp + 1 - n);
		buf_addstr(out, ".0");
	}
}

int
py_str(const struct json *v, struct buf *out)
{
	double d;

	switch (v->type) {
	case JSON_STRING:
		if (memchr(v->str, '\0', v->len))
			return -1;
		buf_add(out, v->str, v->len);
		return 0;
	case JSON_NUMBER:
		if (!memchr(v->str, '.', v->len) && !memchr(v->str, 'e', v->len) &&
		    !memchr(v->str, 'E', v->len)) {
			/* a Python int: exact, "-0" is 0 */
			if (v->len == 2 && !memcmp(v->str, "-0", 2))
				buf_addch(out, '0');
			else
				buf_add(out, v->str, v->len);
			return 0;
		}
		json_double(v, &d);
		py_float(d, out);
		return 0;
	case JSON_TRUE: buf_addstr(out, "True"); return 0;
	case JSON_FALSE: buf_addstr(out, "False"); return 0;
	case JSON_NULL: buf_addstr(out, "None"); return 0;
	default: return -1;
	}
}

int
split_pystr(const struct split *s, const char *col, const char *dflt,
	    struct buf *out, char *err, size_t errlen)
{
	const struct json *v = json_get(s->row, col);

	if (!v && !dflt)
		return split_err(s, err, errlen, "no column '%s'", col);
	if (!v)
		return buf_addstr(out, dflt), 0;
	if (py_str(v, out) < 0)
		return split_err(s, err, errlen, "column '%s' is %s", col,
				 v->type == JSON_STRING ? "a string with a NUL character" :
				 "not a string, number, boolean or null");
	return 0;
}

int
load_plain(const struct bench_opts *o, const char *id, const char *config,
	   const char *split, const char *problem_col, const char *answer_col,
	   const char *task, long long max_tokens, struct problem_set *out,
	   char *err, size_t errlen)
{
	struct split s;
	struct buf gold = BUF_INIT(BUF_NOMAX);
	int rc = 0;

	if (split_load(&s, o, id, config, split, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < s.rows.n && !rc; i++) {
		const char *problem;

		buf_reset(&gold);
		if ((rc = split_row(&s, i, err, errlen)) < 0 ||
		    !(problem = split_str(&s, problem_col, err, errlen)) ||
		    (rc = split_pystr(&s, answer_col, NULL, &gold, err, errlen)) < 0) {
			rc = -1;
			break;
		}
		pset_add(out, task, buf_str(&gold), problem, NULL, max_tokens);
	}
	buf_release(&gold);
	split_release(&s);
	return rc;
}
