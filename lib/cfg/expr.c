/* SPDX-License-Identifier: Apache-2.0 */
/* The {{ expr }} templates of the YAML config files: a Jinja2 subset, rendered and coerced as the original does. */
#include "cfg/expr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cfg/exprfilt.h"
#include "cfg/exprparse.h"
#include "cfg/exprval.h"
#include "json/json.h"
#include "pytext.h"
#include "stats/numfmt.h"

#define STR_BUDGET ((size_t)16 << 20)
#define LOOKUP_MAX ((size_t)16 << 20)

/* One rendering: the block being evaluated and the lookups' values. */
struct render {
	cfgexpr_lookup_fn lookup;
	void *ctx;
	struct exprval_ctx c;
	struct exprparse tree;
	struct json_doc *doc;
	struct buf lbuf;
};

static int eval(struct render *r, int i, struct exprval *v);

static const char *
find2(const char *p, const char *end, char a, const char *second)
{
	for (; p + 1 < end; p++)
		if (p[0] == a && strchr(second, p[1]) && p[1])
			return p;
	return NULL;
}

int
cfgexpr_has(const char *s, size_t n)
{
	const char *b = find2(s, s + n, '{', "{");

	return b && find2(b + 2, s + n, '}', "}") != NULL;
}

/* Ask the lookup for name: 0 with its parsed value, 1 undefined, -1. */
static int
ask(struct render *r, const char *name, const struct json **j)
{
	char jerr[96];
	int rc;

	if (!r->lookup)
		return 1;
	buf_reset(&r->lbuf);
	rc = r->lookup(r->ctx, name, &r->lbuf, r->c.err, r->c.errlen);
	if (rc)
		return rc < 0 ? -1 : 1;
	*j = json_parse(r->doc, buf_str(&r->lbuf), r->lbuf.len, jerr, sizeof(jerr));
	if (!*j)
		return util_seterr(r->c.err, r->c.errlen, "the value of '%.80s' is not JSON: %s",
				   name, jerr);
	return 0;
}

/* The member or element that the ".k.0" components of rest name. */
static const struct json *
walk(const struct json *j, const char *rest)
{
	while (j && *rest == '.') {
		const char *k = rest + 1, *e = strchr(k, '.');
		size_t n = e ? (size_t)(e - k) : strlen(k), idx = 0, i;

		rest = k + n;
		if (j->type == JSON_OBJECT) {
			j = json_getn(j, k, n);
			continue;
		}
		for (i = 0; i < n && k[i] >= '0' && k[i] <= '9' && idx < (size_t)1 << 40; i++)
			idx = idx * 10 + (size_t)(k[i] - '0');
		j = j->type == JSON_ARRAY && n && i == n ? json_at(j, idx) : NULL;
	}
	return j;
}

/* a.b.c: asked whole, then as a.b and a whose value is walked. */
static int
resolve(struct render *r, const char *name, struct exprval *v)
{
	char *q = xstrdup(name), *dot;
	const struct json *j = NULL;
	int rc;

	for (;;) {
		if ((rc = ask(r, q, &j)) < 0)
			break;
		if (rc == 0 && (j = walk(j, name + strlen(q)))) {
			rc = exprval_from_json(&r->c, j, v);
			break;
		}
		if (rc == 0 || !(dot = strrchr(q, '.'))) {
			exprval_undef(v, name, strlen(name));
			rc = 0;
			break;
		}
		*dot = '\0';
	}
	free(q);
	return rc;
}

/* v[k] of a list or dict; what is not there is undefined. */
static int
subscript(struct render *r, const struct exprnode *nd, struct exprval *v,
	  const struct exprval *k)
{
	const struct json *j = NULL;

	if (v->t == EV_UNDEF || k->t == EV_UNDEF)
		return exprval_undef_error(&r->c, v->t == EV_UNDEF ? v : k);
	if (v->t == EV_STR)
		return util_seterr(r->c.err, r->c.errlen, "str subscripts are not supported");
	if (v->t == EV_JSON && v->j->type == JSON_ARRAY && (k->t == EV_INT || k->t == EV_BOOL)) {
		int64_t i = k->i < 0 ? k->i + (int64_t)v->j->len : k->i;

		if (i >= 0 && i < (int64_t)v->j->len)
			j = json_at(v->j, (size_t)i);
	} else if (v->t == EV_JSON && v->j->type == JSON_OBJECT && k->t == EV_STR) {
		j = json_getn(v->j, k->s, k->n);
	}
	if (j)
		return exprval_from_json(&r->c, j, v);
	exprval_undef(v, nd->src, nd->srclen);
	return 0;
}

static int
eval_index(struct render *r, const struct exprnode *nd, struct exprval *v)
{
	struct exprval k = { 0 };
	int rc = eval(r, nd->a, v);

	if (rc == 0 && (rc = eval(r, nd->b, &k)) == 0)
		rc = subscript(r, nd, v, &k);
	exprval_release(&k);
	return rc;
}

static int
eval_attr(struct render *r, const struct exprnode *nd, struct exprval *v)
{
	struct exprval k = { 0 };
	const char *s = nd->name;
	int rc, digits = *s != '\0';

	if (eval(r, nd->a, v))
		return -1;
	for (const char *q = s; *q; q++)
		digits &= *q >= '0' && *q <= '9';
	if (digits && v->t == EV_JSON && v->j->type == JSON_ARRAY && strlen(s) < 12) {
		k.t = EV_INT;
		k.i = strtoll(s, NULL, 10);
	} else if (exprval_str(&r->c, &k, s, strlen(s))) {
		return -1;
	}
	rc = subscript(r, nd, v, &k);
	exprval_release(&k);
	return rc;
}

static int
eval_logic(struct render *r, const struct exprnode *nd, struct exprval *v)
{
	int t;

	if (eval(r, nd->a, v) || (t = exprval_truthy(&r->c, v)) < 0)
		return -1;
	if (nd->kind == EN_AND ? !t : t)
		return 0;
	exprval_release(v);
	return eval(r, nd->b, v);
}

static int
eval_cond(struct render *r, const struct exprnode *nd, struct exprval *v)
{
	int t;

	if (eval(r, nd->b, v) || (t = exprval_truthy(&r->c, v)) < 0)
		return -1;
	exprval_release(v);
	if (t)
		return eval(r, nd->a, v);
	/* no else: Jinja's undefined, which renders as nothing */
	return nd->c >= 0 ? eval(r, nd->c, v) : exprval_str(&r->c, v, "", 0);
}

/* a < b < c is a < b and b < c, b evaluated once */
static int
eval_cmp(struct render *r, const struct exprnode *nd, struct exprval *v)
{
	const struct exprnode *nodes = r->tree.nodes;
	struct exprval left = { 0 }, right = { 0 };
	int res = 1;

	if (eval(r, nd->a, &left))
		return -1;
	for (int k = nd->b; k >= 0 && res == 1; k = nodes[k].next) {
		if (eval(r, nodes[k].a, &right)) {
			exprval_release(&left);
			return -1;
		}
		res = exprval_compare(&r->c, nodes[k].op, &left, &right);
		exprval_release(&left);
		left = right;
		memset(&right, 0, sizeof(right));
	}
	exprval_release(&left);
	if (res < 0)
		return -1;
	v->t = EV_BOOL;
	v->i = res;
	return 0;
}

static int
eval_filter(struct render *r, const struct exprnode *nd, struct exprval *v)
{
	const struct exprnode *nodes = r->tree.nodes;
	struct exprval vals[2] = { { 0 }, { 0 } }, *args[2] = { NULL, NULL };
	int rc = eval(r, nd->a, v);

	for (int k = nd->b; rc == 0 && k >= 0; k = nodes[k].next) {
		rc = eval(r, nodes[k].a, &vals[nodes[k].op]);
		args[nodes[k].op] = &vals[nodes[k].op];
	}
	if (rc == 0)
		rc = exprfilt_apply(&r->c, nd->op, v, args);
	exprval_release(&vals[0]);
	exprval_release(&vals[1]);
	return rc;
}

static int
eval_test(struct render *r, const struct exprnode *nd, struct exprval *v)
{
	int t, test = nd->op & ~EXPRPARSE_NEGATE;

	if (eval(r, nd->a, v))
		return -1;
	if (test == EXPRPARSE_NONE)
		t = v->t == EV_NONE;
	else
		t = (v->t == EV_UNDEF) == (test == EXPRPARSE_UNDEFINED);
	exprval_release(v);
	v->t = EV_BOOL;
	v->i = (nd->op & EXPRPARSE_NEGATE) ? !t : t;
	return 0;
}

/* Evaluate node i into v (EV_NONE on entry); 0, or -1 with v EV_NONE. */
static int
eval(struct render *r, int i, struct exprval *v)
{
	const struct exprnode *nd = &r->tree.nodes[i];
	struct exprval b = { 0 };
	int rc;

	switch (nd->kind) {
	case EN_LIT:
		return exprval_copy(&r->c, v, &nd->lit);
	case EN_NAME:
		return resolve(r, nd->name, v);
	case EN_ATTR:
		rc = eval_attr(r, nd, v);
		break;
	case EN_INDEX:
		rc = eval_index(r, nd, v);
		break;
	case EN_UNARY:
		return eval(r, nd->a, v) ? -1 : exprval_unary(&r->c, nd->op, v);
	case EN_BIN:
		if (eval(r, nd->a, v))
			return -1;
		if (eval(r, nd->b, &b)) {
			exprval_release(v);
			return -1;
		}
		return exprval_binop(&r->c, nd->op, v, &b);
	case EN_AND:
	case EN_OR:
		rc = eval_logic(r, nd, v);
		break;
	case EN_COND:
		rc = eval_cond(r, nd, v);
		break;
	case EN_CMP:
		rc = eval_cmp(r, nd, v);
		break;
	case EN_FILTER:
		rc = eval_filter(r, nd, v);
		break;
	case EN_TEST:
		rc = eval_test(r, nd, v);
		break;
	default:
		rc = util_seterr(r->c.err, r->c.errlen, "internal error: node %d", nd->kind);
	}
	if (rc)
		exprval_release(v);
	return rc;
}

/* One {{ }} block at e (after "{{" or "{{-"): its str() appended to text. */
static int
render_block(struct render *r, const char *e, const char *end, struct buf *text,
	     const char **after, int *strip)
{
	struct exprval v = { 0 };
	int rc = exprparse_block(&r->tree, e, end, r->c.err, r->c.errlen);

	if (rc == 0) {
		rc = eval(r, r->tree.root, &v);
		rc = rc ? rc : exprval_text(&r->c, &v, text);
		*after = r->tree.after;
		*strip = r->tree.strip;
	}
	exprval_release(&v);
	exprparse_release(&r->tree);
	return rc;
}

static int
isws(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v';
}

/* The text between blocks, stripped where a '-' asks. */
static int
put_data(struct render *r, const char *p, const char *b, const char *end, int strip,
	 struct buf *text)
{
	const char *q = b ? b : end;

	while (strip && p < q && isws(*p))
		p++;
	while (b && b + 2 < end && b[2] == '-' && q > p && isws(q[-1]))
		q--;
	if (buf_add(text, p, (size_t)(q - p)) < 0)
		return util_seterr(r->c.err, r->c.errlen, "rendered text too long");
	return 0;
}

static int
render_text(struct render *r, const char *s, size_t n, struct buf *text)
{
	const char *p = s, *end = s + n, *b, *q;
	int strip = 0;

	for (;;) {
		b = find2(p, end, '{', "{%#");
		if (put_data(r, p, b, end, strip, text))
			return -1;
		if (!b)
			return 0;
		if (b[1] == '%')
			return util_seterr(r->c.err, r->c.errlen,
					   "'{%%' blocks are not supported (only {{ expressions }})");
		if (b[1] == '#') {
			if (!(q = find2(b + 2, end, '#', "}")))
				return util_seterr(r->c.err, r->c.errlen, "unterminated '{#'");
			strip = q > b + 2 && q[-1] == '-';
			p = q + 2;
			continue;
		}
		b += 2 + (b + 2 < end && b[2] == '-');
		if (render_block(r, b, end, text, &p, &strip))
			return -1;
	}
}

/* The original's coercion of the rendered text, as JSON text onto out. */
static int
coerce(struct exprval_ctx *c, const char *s, size_t n, struct buf *out)
{
	struct buf d = BUF_INIT(BUF_NOMAX);
	char t[40];
	double f;
	int rc;

	if ((n == 4 && !strncasecmp(s, "true", 4)) || (n == 5 && !strncasecmp(s, "false", 5)))
		rc = buf_addstr(out, n == 4 ? "true" : "false");
	else if (pytext_int(s, n, &d))
		rc = buf_add(out, d.s, d.len);
	else if (pytext_float(s, n, &f) && !isfinite(f))
		rc = util_seterr(c->err, c->errlen, "'%.40s' is not a finite number", s);
	else if (pytext_float(s, n, &f))
		rc = buf_add(out, t, numfmt_repr(t, f, NUMFMT_PYREPR));
	else if ((rc = buf_grow(out, 6 * n + 2)) == 0)
		json_quote(out, s, n);
	buf_release(&d);
	return rc;
}

/* Jinja's newlines: \r\n and \r read as \n, and one trailing \n goes. */
static void
normalize(const char *s, size_t n, struct buf *b)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\r' && i + 1 < n && s[i + 1] == '\n')
			continue;
		buf_addch(b, s[i] == '\r' ? '\n' : s[i]);
	}
	if (b->len && b->s[b->len - 1] == '\n')
		b->s[--b->len] = '\0';
}

int
cfgexpr_render(const char *s, size_t n, cfgexpr_lookup_fn lookup, void *ctx,
	       struct buf *out, char *err, size_t errlen)
{
	struct render r = {
		.lookup = lookup, .ctx = ctx,
		.c = { .budget = STR_BUDGET, .err = err, .errlen = errlen },
		.doc = json_doc_new(), .lbuf = BUF_INIT(LOOKUP_MAX),
	};
	struct buf src = BUF_INIT(BUF_NOMAX), text = BUF_INIT(n + EXPRVAL_MAX_STR);
	size_t mark = out->len;
	int rc;

	normalize(s, n, &src);
	rc = render_text(&r, buf_str(&src), src.len, &text);
	if (rc == 0 && (rc = coerce(&r.c, buf_str(&text), text.len, out)) < 0 && out->len > mark)
		out->s[out->len = mark] = '\0';
	if (rc && !(err && errlen && *err))
		util_seterr(err, errlen, "rendered value too long");
	buf_release(&text);
	buf_release(&src);
	buf_release(&r.lbuf);
	json_doc_free(r.doc);
	return rc ? -1 : 0;
}
