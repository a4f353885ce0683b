/* SPDX-License-Identifier: Apache-2.0 */
/* One line of a Prometheus text exposition, split into its parts. */
#include "prom/promline.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "util.h"

struct lex {
	size_t max_labels, max_value;
	char *err;
	size_t errlen;
};

FMT(2, 3) static int
lex_fail(struct lex *c, const char *fmt, ...)
{
	va_list ap;

	if (c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err, c->errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

void
promline_labels_free(struct prom_label *l, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(l[i].name);
		free(l[i].value);
	}
	free(l);
}

void
promline_sample_release(struct prom_sample *sm)
{
	promline_labels_free(sm->labels, sm->nlabels);
	memset(sm, 0, sizeof(*sm));
}

static int
name_start(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static int
name_char(int ch)
{
	return name_start(ch) || (ch >= '0' && ch <= '9');
}

/* Length of the metric name at s (colons allowed), 0 when none. */
size_t
promline_name(const char *s, const char *end)
{
	const char *q = s;

	if (q < end && (name_start(*q) || *q == ':'))
		for (q++; q < end && (name_char(*q) || *q == ':'); q++)
			;
	return (size_t)(q - s);
}

const char *
promline_blank(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

/* Whether s[0..n) is valid UTF-8 (no overlongs, no surrogates). */
int
promline_utf8(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	for (size_t i = 0; i < n;) {
		unsigned c0 = u[i], len, cp;
		if (c0 < 0x80) {
			i++;
			continue;
		}
		len = c0 >= 0xf0 ? 4 : c0 >= 0xe0 ? 3 : c0 >= 0xc2 ? 2 : 0;
		if (!len || c0 > 0xf4 || i + len > n)
			return 0;
		cp = c0 & (0x7f >> len);
		for (unsigned k = 1; k < len; k++) {
			if ((u[i + k] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (u[i + k] & 0x3f);
		}
		if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
		    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
			return 0;
		i += len;
	}
	return 1;
}

/*
 * A number token (value or timestamp) at *sp: Go's ParseFloat spellings
 * that strtod shares (NaN, +Inf, -Inf, decimals, exponents).
 */
int
promline_number(const char **sp, const char *end, double *out)
{
	const char *s = *sp, *q = s;
	char tmp[64], *e;

	while (q < end && *q != ' ' && *q != '\t')
		q++;
	if (q == s || (size_t)(q - s) >= sizeof(tmp))
		return -1;
	memcpy(tmp, s, (size_t)(q - s));
	tmp[q - s] = '\0';
	/* strtod's extras that Prometheus does not write */
	if (strpbrk(tmp, "xX(") )
		return -1;
	*out = strtod(tmp, &e);
	if (*e)
		return -1;
	*sp = q;
	return 0;
}

/* A quoted label value at *sp (past the opening quote), unescaped into v. */
static int
label_value(struct lex *c, const char **sp, const char *end, struct buf *v)
{
	const char *s = *sp;

	buf_reset(v);
	for (; s < end && *s != '"'; s++) {
		int ch = *s;
		if (ch == '\\') {
			if (++s == end)
				break;
			ch = *s == 'n' ? '\n' : *s;
			if (*s != 'n' && *s != '\\' && *s != '"')
				return lex_fail(c, "bad escape '\\%c' in a label value",
					    *s >= ' ' && *s < 0x7f ? *s : '?');
		}
		if (buf_addch(v, ch) < 0)
			return lex_fail(c, "label value too long");
	}
	if (s == end)
		return lex_fail(c, "unterminated label value");
	if (!promline_utf8(v->s ? v->s : "", v->len))
		return lex_fail(c, "label value is not UTF-8");
	*sp = s + 1;
	return 0;
}

static int
add_label(struct lex *c, struct prom_sample *sm, const char *name, size_t n,
	  const struct buf *v)
{
	if (sm->nlabels == c->max_labels)
		return lex_fail(c, "more than %zu labels", c->max_labels);
	for (size_t i = 0; i < sm->nlabels; i++)
		if (strlen(sm->labels[i].name) == n &&
		    !memcmp(sm->labels[i].name, name, n))
			return lex_fail(c, "label '%.*s' repeated", (int)n, name);
	if (sm->nlabels == sm->cap) {
		sm->cap = sm->cap ? 2 * sm->cap : 8;
		sm->labels = xreallocarray(sm->labels, sm->cap, sizeof(*sm->labels));
	}
	sm->labels[sm->nlabels].name = xstrndup(name, n);
	sm->labels[sm->nlabels].value = xstrndup(v->s ? v->s : "", v->len);
	sm->nlabels++;
	return 0;
}

/* {name="value",...} at *sp (on the brace). */
static int
parse_labels(struct lex *c, const char **sp, const char *end,
	     struct prom_sample *sm)
{
	const char *s = *sp + 1;
	struct buf v = BUF_INIT(c->max_value);
	int rc = -1;

	for (;;) {
		s = promline_blank(s, end);
		if (s < end && *s == '}')
			break;
		const char *name = s;
		while (s < end && name_char(*s))
			s++;
		size_t n = (size_t)(s - name);
		if (!n || !name_start(*name)) {
			lex_fail(c, "bad label name");
			goto out;
		}
		s = promline_blank(s, end);
		int eq = s < end && *s == '=';
		if (eq)
			s = promline_blank(s + 1, end);
		if (!eq || s == end || *s != '"') {
			lex_fail(c, "expected =\"value\" after label '%.*s'", (int)n, name);
			goto out;
		}
		s++;
		if (label_value(c, &s, end, &v) < 0 || add_label(c, sm, name, n, &v) < 0)
			goto out;
		s = promline_blank(s, end);
		if (s < end && *s == ',')
			s++;
		else if (s >= end || *s != '}') {
			lex_fail(c, "expected ',' or '}' in labels");
			goto out;
		}
	}
	*sp = s + 1;
	rc = 0;
out:
	buf_release(&v);
	return rc;
}

/* Split a sample line: name{labels} value [timestamp] [# exemplar]. */
static int
split_sample(struct lex *c, const char *s, const char *end, struct prom_sample *sm)
{
	sm->name = s;
	sm->nlen = promline_name(s, end);
	if (!sm->nlen)
		return lex_fail(c, "bad metric name");
	s += sm->nlen;
	const char *v = promline_blank(s, end);
	if (v < end && *v == '{') {
		s = v;
		if (parse_labels(c, &s, end, sm) < 0)
			return -1;
		v = promline_blank(s, end);
	}
	if (v == s || v == end)
		return lex_fail(c, "no value for '%.*s'", (int)sm->nlen, sm->name);
	if (promline_number(&v, end, &sm->value) < 0)
		return lex_fail(c, "bad value for '%.*s'", (int)sm->nlen, sm->name);
	s = promline_blank(v, end);
	if (s < end && *s != '#') {
		if (s == v || promline_number(&s, end, &sm->ts) < 0 || !isfinite(sm->ts))
			return lex_fail(c, "bad timestamp for '%.*s'", (int)sm->nlen, sm->name);
		sm->has_ts = 1;
		v = s;
		s = promline_blank(s, end);
	}
	/* an exemplar is tolerated and dropped; anything else is an error */
	if (s < end && (*s != '#' || s == v))
		return lex_fail(c, "unexpected text after the value of '%.*s'",
			    (int)sm->nlen, sm->name);
	return 0;
}

int
promline_sample(const char *s, const char *end, struct prom_sample *sm,
		size_t max_labels, size_t max_value, char *err, size_t errlen)
{
	struct lex c = { max_labels, max_value, err, errlen };

	memset(sm, 0, sizeof(*sm));
	return split_sample(&c, s, end, sm);
}
