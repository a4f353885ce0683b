/* SPDX-License-Identifier: Apache-2.0 */
/* For aiperf-validate: a reader of the CSV files we write, and comparisons of two CSV or JSON texts. */
#include "validate.h"

#include <math.h>
#include <stdlib.h>

#include "util.h"

#define MAX_ROWS 1000000

static void
add_field(struct csvrow *r, const char *s, size_t n)
{
	r->f = xreallocarray(r->f, r->n + 1, sizeof(*r->f));
	r->f[r->n++] = xstrndup(s, n);
}

/* One quoted field at s[0] == '"': its bytes into b, the end in *end. */
static int
quoted(const char *s, const char *e, struct buf *b, const char **end)
{
	for (s++; s < e; s++) {
		if (*s == '"' && s + 1 < e && s[1] == '"') {
			buf_addch(b, '"');
			s++;
		} else if (*s == '"') {
			*end = s + 1;
			return 0;
		} else {
			buf_addch(b, *s);
		}
	}
	return -1;
}

/* One field at s: its bytes into b, its end in *end. */
static int
field(const char *s, const char *e, struct buf *b, const char **end, char *why,
      size_t whylen)
{
	buf_reset(b);
	if (*s != '"') {
		*end = s + strcspn(s, ",\r\n");
		return buf_add(b, s, (size_t)(*end - s));
	}
	if (quoted(s, e, b, end) < 0)
		return util_seterr(why, whylen, "a quoted field does not end");
	if (*end < e && **end != ',' && **end != '\r' && **end != '\n')
		return util_seterr(why, whylen, "text after a quoted field");
	return 0;
}

/* One row from s up to its CRLF (none for an empty line); *next after it. */
static int
row(const char *s, const char *e, struct csvrow *r, const char **next, char *why,
    size_t whylen)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	const char *end = s;
	int rc = 0;

	while (!rc && s < e && *s != '\r' && *s != '\n') {
		rc = field(s, e, &b, &end, why, whylen);
		if (!rc)
			add_field(r, buf_str(&b), b.len);
		if (rc || end >= e || *end != ',')
			break;
		s = end + 1;
		if (s == e || *s == '\r' || *s == '\n') {
			add_field(r, "", 0);	/* "a," ends in an empty field */
			end = s;
		}
	}
	buf_release(&b);
	s = end;
	if (!rc && (e - s < 2 || s[0] != '\r' || s[1] != '\n'))
		rc = util_seterr(why, whylen, "no CRLF at the end of the line");
	*next = s + 2;
	return rc;
}

int
csv_read(const char *s, size_t n, struct csv *c, char *why, size_t whylen)
{
	const char *e = s + n;
	char sub[128];

	memset(c, 0, sizeof(*c));
	if (memchr(s, '\0', n))
		return util_seterr(why, whylen, "holds a NUL byte");
	while (s < e) {
		if (c->n == MAX_ROWS)
			return util_seterr(why, whylen, "more than %d lines", MAX_ROWS);
		c->rows = xreallocarray(c->rows, c->n + 1, sizeof(*c->rows));
		memset(&c->rows[c->n], 0, sizeof(c->rows[0]));
		if (row(s, e, &c->rows[c->n++], &s, sub, sizeof(sub)) < 0)
			return util_seterr(why, whylen, "line %zu: %s", c->n, sub);
	}
	return 0;
}

void
csv_release(struct csv *c)
{
	for (size_t i = 0; i < c->n; i++) {
		for (size_t j = 0; j < c->rows[i].n; j++)
			free(c->rows[i].f[j]);
		free(c->rows[i].f);
	}
	free(c->rows);
}

/* The rounding of two %.2f texts of nearly equal numbers may differ by one unit. */
static int
cell_close(const char *a, const char *b)
{
	double x, y;

	if (!strcmp(a, b))
		return 1;
	if (util_strtod(a, &x) < 0 || util_strtod(b, &y) < 0)
		return 0;
	return fabs(x - y) <= 0.0100001 + 1e-9 * fmax(fabs(x), fabs(y));
}

/* A row's name: its first field and the text fields after it, up to the
 * first number or column skip ("0, Request Latency, ms, p99"). */
static void
row_label(const struct csvrow *r, size_t skip, char *out, size_t n)
{
	size_t k = (size_t)snprintf(out, n, "%s", r->f[0]);
	double x;

	for (size_t j = 1; j < r->n && j != skip && k < n; j++) {
		if (util_strtod(r->f[j], &x) == 0)
			break;
		k += (size_t)snprintf(out + k, n - k, ", %s", r->f[j]);
	}
}

int
csv_compare(const struct csv *got, const struct csv *want, int skipcol, const char *src,
	    char *why, size_t whylen)
{
	size_t n = got->n < want->n ? got->n : want->n;

	for (size_t i = 0; i < n; i++) {
		const struct csvrow *g = &got->rows[i], *w = &want->rows[i];
		const char *name = w->n ? w->f[0] : "";	/* an empty line */
		if (g->n != w->n || (g->n && strcmp(g->f[0], w->f[0])))
			return util_seterr(why, whylen, "line %zu is '%s', '%s' from %s",
					   i + 1, g->n ? g->f[0] : "", name, src);
		for (size_t j = 1; j < g->n; j++) {
			if ((int)j == skipcol || cell_close(g->f[j], w->f[j]))
				continue;
			const char *col = want->rows[0].n > j ? want->rows[0].f[j] : "?";
			char label[256];
			row_label(w, j, label, sizeof(label));
			return util_seterr(why, whylen, "line %zu (%s): %s is %s, %s from %s",
					   i + 1, label, col, g->f[j], w->f[j], src);
		}
	}
	if (got->n != want->n)
		return util_seterr(why, whylen, "%zu lines, %zu from %s", got->n, want->n, src);
	return 0;
}

static int
num_close(const struct json *a, const struct json *b)
{
	double x, y;

	if (json_double(a, &x) < 0 || json_double(b, &y) < 0)
		return 0;
	return x == y || fabs(x - y) <= 1e-9 * fmax(fabs(x), fabs(y));
}

static const char *
text(const struct json *v, char *out, size_t n)
{
	static const char *const names[] = { "null", "false", "true", "a number",
		"a string", "an array", "an object" };

	if (v->type == JSON_NUMBER || v->type == JSON_STRING)
		snprintf(out, n, "%.*s", (int)(v->len < 64 ? v->len : 64), v->str);
	else
		snprintf(out, n, "%s", names[v->type]);
	return out;
}

static int
skipped(const struct json *m, const char *const *skip)
{
	for (; m && skip && *skip; skip++)
		if (!strcmp(m->key, *skip))
			return 1;
	return 0;
}

static const struct json *
next_member(const struct json *m, const char *const *skip)
{
	while (m && skipped(m, skip))
		m = m->next;
	return m;
}

struct jctx {
	struct buf path;
	const char *src;
	char *why;
	size_t whylen;
};

static int jcmp(const struct json *a, const struct json *b, struct jctx *c,
		const char *const *skip);

static int
jcmp_children(const struct json *a, const struct json *b, struct jctx *c,
	      const char *const *skip)
{
	const struct json *x = next_member(a->child, skip), *y = next_member(b->child, skip);
	struct buf *path = &c->path;
	size_t len = path->len, i = 0;

	for (; x && y; x = next_member(x->next, skip), y = next_member(y->next, skip), i++) {
		if (a->type == JSON_OBJECT && strcmp(x->key, y->key))
			return util_seterr(c->why, c->whylen, "%s%s%s where %s has %s",
					   buf_str(path), len ? "." : "", x->key, c->src, y->key);
		if (a->type == JSON_OBJECT)
			buf_addf(path, "%s%s", len ? "." : "", x->key);
		else
			buf_addf(path, "[%zu]", i);
		if (jcmp(x, y, c, NULL) < 0)
			return -1;
		path->len = len;
		if (path->s)
			path->s[len] = '\0';
	}
	if (x)
		return util_seterr(c->why, c->whylen, "%s%s%s: not in %s", buf_str(path),
				   len ? "." : "", x->key ? x->key : "an element", c->src);
	if (y)
		return util_seterr(c->why, c->whylen, "%s%s%s: missing (in %s)", buf_str(path),
				   len ? "." : "", y->key ? y->key : "an element", c->src);
	return 0;
}

static int
jcmp(const struct json *a, const struct json *b, struct jctx *c, const char *const *skip)
{
	char ta[80], tb[80];
	int same = a->type == b->type;

	if (same && a->type == JSON_NUMBER)
		same = num_close(a, b);
	else if (same && a->type == JSON_STRING)
		same = a->len == b->len && !memcmp(a->str, b->str, a->len);
	else if (same && (a->type == JSON_OBJECT || a->type == JSON_ARRAY))
		return jcmp_children(a, b, c, skip);
	if (same)
		return 0;
	return util_seterr(c->why, c->whylen, "%s is %s, %s from %s",
			   c->path.len ? buf_str(&c->path) : "the value", text(a, ta, sizeof(ta)),
			   text(b, tb, sizeof(tb)), c->src);
}

int
json_compare(const struct json *got, const struct json *want, const char *const *skip,
	     const char *src, char *why, size_t whylen)
{
	struct jctx c = { BUF_INIT(BUF_NOMAX), src, why, whylen };
	int rc = jcmp(got, want, &c, skip);

	buf_release(&c.path);
	return rc;
}
