/* SPDX-License-Identifier: Apache-2.0 */
/* The original's Jinja2 payload templates and JMESPath response fields, translated to jq. */
#include "json/j2jq.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "json/json.h"
#include "util.h"

/* A tag or path shown in a message is cut to this many bytes. */
#define SHOW 80

const char *const j2jq_vars[] = {
	"texts", "images", "audios", "videos", "text", "image", "audio",
	"video", "queries", "passages", "query", "passage", "texts_by_name",
	"images_by_name", "audios_by_name", "videos_by_name", "model",
	"max_tokens", "role", "turn", "turns", "request_info", "stream", NULL,
};

struct tr {
	const char *s;
	size_t n, i;
	struct buf *out;
	int in_str, esc;	/* the literal text is inside a JSON string */
	int trim_next;		/* a '-' closed the last tag */
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 3, 4))) static int
fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int
ident_start(int c)
{
	return isalpha(c) || c == '_';
}

static int
ident_char(int c)
{
	return isalnum(c) || c == '_';
}

static size_t
ident_len(const char *s, size_t n)
{
	size_t k = 0;

	if (!n || !ident_start((unsigned char)s[0]))
		return 0;
	while (k < n && ident_char((unsigned char)s[k]))
		k++;
	return k;
}

static int
is_var(const char *s, size_t n)
{
	for (size_t i = 0; j2jq_vars[i]; i++)
		if (strlen(j2jq_vars[i]) == n && !memcmp(j2jq_vars[i], s, n))
			return 1;
	return 0;
}

static const char *
skip_space(const char *s, const char *end)
{
	while (s < end && isspace((unsigned char)*s))
		s++;
	return s;
}

/* s[0..n) without its surrounding whitespace. */
static const char *
trimmed(const char *s, size_t *n)
{
	const char *e = s + *n;

	s = skip_space(s, e);
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	*n = (size_t)(e - s);
	return s;
}

/* A guess at an expression's jq form: variables get their '.', Python's
 * constants and quotes become jq's, '~' (concatenation) becomes '+'. */
static void
guess_jq(struct buf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t k = ident_len(s + i, n - i);

		if (s[i] == '\'' || s[i] == '"') {
			size_t j = i + 1;

			while (j < n && s[j] != s[i])
				j++;
			json_quote(b, s + i + 1, j - i - 1);
			i = j + (j < n);
		} else if (k && (i == 0 || !ident_char((unsigned char)s[i - 1]))) {
			int dot = i > 0 && s[i - 1] == '.';

			if (k == 4 && !memcmp(s + i, "None", 4))
				buf_addstr(b, "null");
			else if (k == 4 && !memcmp(s + i, "True", 4))
				buf_addstr(b, "true");
			else if (k == 5 && !memcmp(s + i, "False", 5))
				buf_addstr(b, "false");
			else {
				if (!dot && is_var(s + i, k))
					buf_addch(b, '.');
				buf_add(b, s + i, k);
			}
			i += k;
		} else {
			buf_addch(b, s[i] == '~' ? '+' : s[i]);
			i++;
		}
	}
}

/* The jq of a filter the translation refuses (ARGS: its arguments in jq,
 * ';' between them), or NULL. */
static const char *
filter_equiv(const char *f, size_t n)
{
	static const char *const t[][2] = {
		{ "join", "join(ARGS)" }, { "length", "length" },
		{ "count", "length" }, { "first", "first" }, { "last", "last" },
		{ "default", ". // ARGS" }, { "d", ". // ARGS" },
		{ "string", "tostring" }, { "int", "tonumber | floor" },
		{ "float", "tonumber" }, { "replace", "gsub(ARGS)" },
		{ "trim", "ltrimstr(\" \") | rtrimstr(\" \")" },
		{ "list", "[.[]]" }, { "sort", "sort" }, { "unique", "unique" },
		{ "reverse", "reverse" }, { "min", "min" }, { "max", "max" },
		{ "sum", "add" }, { "abs", "fabs" }, { "round", "round" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strlen(t[i][0]) == n && !memcmp(t[i][0], f, n))
			return t[i][1];
	return NULL;
}

/* The filter's equivalent with its arguments a[0..an) put in. */
static void
filter_jq(struct buf *b, const char *f, size_t fn, const char *a, size_t an)
{
	const char *eq = filter_equiv(f, fn), *at;
	struct buf g = BUF_INIT(4096);

	if (!eq) {
		buf_addstr(b, "FILTER (see jq(1))");
		return;
	}
	guess_jq(&g, a, an);
	/* jq separates arguments with ';' (guess_jq's strings are JSON) */
	for (size_t i = 0, in = 0; i < g.len; i++) {
		if (in && g.s[i] == '\\')
			i++;
		else if (g.s[i] == '"')
			in = !in;
		else if (!in && g.s[i] == ',')
			g.s[i] = ';';
	}
	at = strstr(eq, "ARGS");
	if (at) {
		buf_add(b, eq, (size_t)(at - eq));
		buf_addstr(b, an ? buf_str(&g) : "\"\"");
		buf_addstr(b, at + 4);
	} else {
		buf_addstr(b, eq);
	}
	buf_release(&g);
}

static int
refuse_expr(struct tr *t, const char *e, size_t n)
{
	struct buf g = BUF_INIT(4096);
	int rc;

	guess_jq(&g, e, n);
	rc = fail(t->err, t->errlen,
		  "Jinja2 expression '{{ %.*s }}' is not translated (only a variable "
		  "with .name, [N] and ['key'] steps and the filters tojson, lower, "
		  "upper, safe are); write the payload template in jq, where it reads "
		  "(%.*s)", (int)(n > SHOW ? SHOW : n), e, SHOW, buf_str(&g));
	buf_release(&g);
	return rc;
}

/* One [..] step at p (after '['): [N], [-N] or ['key'] / ["key"]. */
static const char *
index_step(const char *p, const char *end, struct buf *path)
{
	const char *q = p;

	if (q < end && (*q == '\'' || *q == '"')) {
		const char *c = memchr(q + 1, *q, (size_t)(end - q - 1));

		if (!c || c + 1 >= end || c[1] != ']' || memchr(q + 1, '\\', (size_t)(c - q - 1)))
			return NULL;
		buf_addch(path, '[');
		json_quote(path, q + 1, (size_t)(c - q - 1));
		buf_addch(path, ']');
		return c + 2;
	}
	if (q < end && *q == '-')
		q++;
	if (q >= end || !isdigit((unsigned char)*q))
		return NULL;
	while (q < end && isdigit((unsigned char)*q))
		q++;
	if (q >= end || *q != ']' || q - p > 12)
		return NULL;
	buf_addch(path, '[');
	buf_add(path, p, (size_t)(q - p));
	buf_addch(path, ']');
	return q + 1;
}

/* variable (.name | .N | [..])* into path; the end of the path, or NULL. */
static const char *
var_path(const char *p, const char *end, struct buf *path)
{
	size_t k = ident_len(p, (size_t)(end - p));

	if (!k || !is_var(p, k))
		return NULL;
	buf_addch(path, '.');
	buf_add(path, p, k);
	for (p += k; p < end;) {
		if (*p == '.' && (k = ident_len(p + 1, (size_t)(end - p - 1)))) {
			buf_add(path, p, k + 1);
			p += k + 1;
		} else if (*p == '.' && p + 1 < end && isdigit((unsigned char)p[1])) {
			const char *q = p + 1;

			while (q < end && isdigit((unsigned char)*q))
				q++;
			if (q - p > 12)
				return NULL;
			buf_addf(path, "[%.*s]", (int)(q - p - 1), p + 1);
			p = q;
		} else if (*p == '[') {
			if (!(p = index_step(p + 1, end, path)))
				return NULL;
		} else {
			break;
		}
	}
	return p;
}

static int
refuse_filter(struct tr *t, const char *e, size_t n, const char *f, size_t fn,
	      const struct buf *path)
{
	const char *a = f + fn, *end = e + n, *close = NULL;
	struct buf eq = BUF_INIT(4096);
	int rc;

	if (a < end && *a == '(') {
		for (const char *q = end; q > a && !close; q--)
			if (q[-1] == ')')
				close = q - 1;
		a++;
	}
	filter_jq(&eq, f, fn, a, close ? (size_t)(close - a) : 0);
	rc = fail(t->err, t->errlen,
		  "Jinja2 filter '%.*s' in '{{ %.*s }}' is not translated; write "
		  "the payload template in jq, where it reads (%s | %s)",
		  (int)fn, f, (int)(n > SHOW ? SHOW : n), e, buf_str(path), buf_str(&eq));
	buf_release(&eq);
	return rc;
}

/* The filters after the path: tojson, lower, upper, safe. */
static int
filters(struct tr *t, const char *p, const char *end, const char *e, size_t n,
	const struct buf *path, struct buf *f)
{
	for (p = skip_space(p, end); p < end && *p == '|'; p = skip_space(p, end)) {
		size_t k;

		p = skip_space(p + 1, end);
		k = ident_len(p, (size_t)(end - p));
		if (!k)
			return refuse_expr(t, e, n);
		if (p + k < end && p[k] == '(')
			return refuse_filter(t, e, n, p, k, path);
		if (k == 6 && !memcmp(p, "tojson", 6))
			buf_addstr(f, t->in_str ? " | tojson" : "");
		else if (k == 5 && (!memcmp(p, "lower", 5) || !memcmp(p, "upper", 5)))
			buf_addf(f, t->in_str ? " | tostring | ascii_%s" :
				 " | if type == \"string\" then ascii_%s else . end",
				 *p == 'l' ? "downcase" : "upcase");
		else if (!(k == 4 && !memcmp(p, "safe", 4)))
			return refuse_filter(t, e, n, p, k, path);
		p += k;
	}
	return p == end ? 0 : refuse_expr(t, e, n);
}

static void
rtrim_out(struct buf *b)
{
	while (b->len && isspace((unsigned char)b->s[b->len - 1]))
		b->s[--b->len] = '\0';
}

/* The tag's body between its delimiters, '-' markers applied. */
static const char *
tag_body(struct tr *t, size_t open, size_t close, size_t *n)
{
	const char *b = t->s + open;

	*n = close - open;
	if (*n && (*b == '-' || *b == '+')) {
		if (*b == '-')
			rtrim_out(t->out);
		b++, (*n)--;
	}
	if (*n && (b[*n - 1] == '-' || b[*n - 1] == '+')) {
		t->trim_next = b[*n - 1] == '-';
		(*n)--;
	}
	return trimmed(b, n);
}

static int
expression(struct tr *t, const char *e, size_t n)
{
	struct buf path = BUF_INIT(BUF_NOMAX), f = BUF_INIT(BUF_NOMAX);
	const char *end = e + n, *p = var_path(e, end, &path);
	size_t k = ident_len(e, n);
	int rc = -1;

	if (!p && k && !is_var(e, k) && (k == n || e[k] == '.' || e[k] == '[' ||
					 e[k] == '|' || isspace((unsigned char)e[k]))) {
		rc = fail(t->err, t->errlen,
			  "unknown template variable '%.*s' in '{{ %.*s }}' (the "
			  "variables: texts, text, images, image, audios, audio, "
			  "videos, video, queries, query, passages, passage, "
			  "texts_by_name, images_by_name, audios_by_name, "
			  "videos_by_name, model, max_tokens, role, stream, turn, "
			  "turns, request_info)", (int)(k > SHOW ? SHOW : k), e,
			  (int)(n > SHOW ? SHOW : n), e);
		goto out;
	}
	if (!p) {
		rc = refuse_expr(t, e, n);
		goto out;
	}
	if (filters(t, p, end, e, n, &path, &f) < 0)
		goto out;
	buf_addstr(t->out, t->in_str ? "\\(" : "(");
	buf_add(t->out, path.s, path.len);
	buf_add(t->out, f.s ? f.s : "", f.len);
	buf_addch(t->out, ')');
	rc = 0;
out:
	buf_release(&path);
	buf_release(&f);
	return rc;
}

static int
statement(struct tr *t, const char *e, size_t n)
{
	struct buf g = BUF_INIT(4096);
	const char *end = e + n, *p;
	size_t k = ident_len(e, n);
	int rc;

	p = skip_space(e + k, end);
	if (k == 2 && !memcmp(e, "if", 2)) {
		buf_addstr(&g, "if ");
		guess_jq(&g, p, (size_t)(end - p));
		buf_addstr(&g, " then A else B end");
	} else if (k == 3 && !memcmp(e, "for", 3)) {
		size_t v = ident_len(p, (size_t)(end - p));
		const char *in = skip_space(p + v, end);

		if (v && end - in > 3 && !memcmp(in, "in", 2) && isspace((unsigned char)in[2])) {
			in = skip_space(in + 2, end);
			buf_addstr(&g, "[");
			guess_jq(&g, in, (size_t)(end - in));
			buf_addf(&g, "[] as $%.*s | ...]", (int)v, p);
		} else {
			buf_addstr(&g, "[.LIST[] as $x | ...]");
		}
	} else if (k == 3 && !memcmp(e, "set", 3)) {
		const char *eq = memchr(p, '=', (size_t)(end - p));

		if (eq) {
			const char *r = skip_space(eq + 1, end);

			guess_jq(&g, r, (size_t)(end - r));
			buf_addf(&g, " as $%.*s | ...", (int)ident_len(p, (size_t)(end - p)), p);
		} else {
			buf_addstr(&g, "VALUE as $name | ...");
		}
	} else {
		buf_addstr(&g, "... (see jq(1))");
	}
	rc = fail(t->err, t->errlen,
		  "Jinja2 statement '{%% %.*s %%}' is not translated; write the payload "
		  "template in jq, where it reads %.*s", (int)(n > SHOW ? SHOW : n), e,
		  SHOW * 2, buf_str(&g));
	buf_release(&g);
	return rc;
}

static int
tag(struct tr *t)
{
	char kind = t->s[t->i + 1];
	const char *close = kind == '{' ? "}}" : kind == '%' ? "%}" : "#}";
	size_t open = t->i + 2, j = open, n;
	const char *body;

	while (j + 1 < t->n && memcmp(t->s + j, close, 2))
		j++;
	if (j + 1 >= t->n)
		return fail(t->err, t->errlen, "unterminated Jinja2 tag '%.*s'",
			    (int)(t->n - t->i > SHOW ? SHOW : t->n - t->i), t->s + t->i);
	t->i = j + 2;
	body = tag_body(t, open, j, &n);
	if (kind == '#')
		return 0;
	if (kind == '%')
		return statement(t, body, n);
	if (!n)
		return fail(t->err, t->errlen, "empty Jinja2 expression '{{ }}'");
	return expression(t, body, n);
}

/* Copy one byte of literal text, following JSON string state. */
static void
literal(struct tr *t, char c)
{
	if (t->in_str) {
		if (t->esc)
			t->esc = 0;
		else if (c == '\\')
			t->esc = 1;
		else if (c == '"')
			t->in_str = 0;
	} else if (c == '"') {
		t->in_str = 1;
	}
	buf_addch(t->out, c);
}

int
j2jq_is_jinja(const char *src, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++)
		if (src[i] == '{' && (src[i + 1] == '{' || src[i + 1] == '%'))
			return 1;
	return 0;
}

int
j2jq_template(const char *src, size_t n, struct buf *out, char *err,
	      size_t errlen)
{
	struct tr t = { src, n, 0, out, 0, 0, 0, err, errlen };

	while (t.i < n) {
		char c = src[t.i];

		if (c == '{' && t.i + 1 < n && strchr("{%#", src[t.i + 1]) && src[t.i + 1]) {
			if (tag(&t) < 0)
				return -1;
			continue;
		}
		t.i++;
		if (t.trim_next && isspace((unsigned char)c))
			continue;
		t.trim_next = 0;
		literal(&t, c);
	}
	return 0;
}

static int
refuse_path(const char *s, size_t n, char *err, size_t errlen)
{
	struct buf g = BUF_INIT(4096);
	int rc;

	buf_addch(&g, '.');
	for (size_t i = 0; i < n && g.len < SHOW; i++) {
		if (s[i] == '[' && i + 2 < n && s[i + 1] == '*' && s[i + 2] == ']')
			buf_addstr(&g, "[]"), i += 2;
		else
			buf_addch(&g, s[i]);
	}
	rc = fail(err, errlen,
		  "response_field '%.*s' is not a JMESPath path this translates (names, "
		  "[N], [*], one projection); give it as a jq program starting with "
		  "'.', such as '%s'", (int)(n > SHOW ? SHOW : n), s, buf_str(&g));
	buf_release(&g);
	return rc;
}

/* One name step at p ("name" or an identifier) as .["name"]? or .name?. */
static const char *
name_step(const char *p, const char *end, struct buf *b)
{
	size_t k = ident_len(p, (size_t)(end - p));

	if (k) {
		buf_addch(b, '.');
		buf_add(b, p, k);
		buf_addch(b, '?');
		return p + k;
	}
	if (p < end && *p == '"') {
		const char *q = p + 1;
		struct json_doc *d = json_doc_new();
		char e[64];

		while (q < end && *q != '"')
			q += *q == '\\' && q + 1 < end ? 2 : 1;
		if (q >= end || !json_parse(d, p, (size_t)(q + 1 - p), e, sizeof(e))) {
			json_doc_free(d);
			return NULL;
		}
		json_doc_free(d);
		buf_addstr(b, ".[");
		buf_add(b, p, (size_t)(q + 1 - p));
		buf_addstr(b, "]?");
		return q + 1;
	}
	return NULL;
}

int
j2jq_path(const char *src, size_t n, struct buf *out, char *err, size_t errlen)
{
	const char *s = trimmed(src, &n), *p = s, *end = s + n;
	struct buf pre = BUF_INIT(BUF_NOMAX), post = BUF_INIT(BUF_NOMAX);
	struct buf *b = &pre;
	int rc = -1;

	if (!n)
		return fail(err, errlen, "empty response_field");
	if (!ident_start((unsigned char)*s) && *s != '"') {
		buf_add(out, s, n);
		return 0;
	}
	if (!(p = name_step(p, end, b)))
		goto refuse;
	while (p && p < end) {
		if (*p == '.') {
			p = name_step(p + 1, end, b);
			continue;
		}
		if (*p != '[')
			goto refuse;
		if (end - p >= 3 && !memcmp(p, "[*]", 3)) {
			if (b == &post)
				goto refuse;
			b = &post;
			p += 3;
		} else if (end - p >= 2 && !memcmp(p, "[]", 2)) {
			if (b == &post)
				goto refuse;
			b = &post;
			p += 2;
		} else if (!(p = index_step(p + 1, end, b))) {
			goto refuse;
		} else {
			buf_addch(b, '?');
		}
	}
	if (!p)
		goto refuse;
	if (b == &post)
		buf_addf(out, "[%s[]?%s | select(. != null)]", buf_str(&pre), buf_str(&post));
	else
		buf_add(out, pre.s, pre.len);
	rc = 0;
	goto out;
refuse:
	rc = refuse_path(s, n, err, errlen);
out:
	buf_release(&pre);
	buf_release(&post);
	return rc;
}
