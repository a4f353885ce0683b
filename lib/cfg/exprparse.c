/* SPDX-License-Identifier: Apache-2.0 */
/* The parser of lib/cfg/expr: one {{ }} block's expression into a tree, with Jinja2's grammar. */
#include "cfg/exprparse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cfg/expr.h"
#include "cfg/exprfilt.h"

/* Left-associative chains (1+1+...) deepen the tree without recursing in
 * the parser; evaluating recurses over the tree, so it too is bounded. */
#define MAX_TREE_DEPTH (4 * CFGEXPR_MAX_DEPTH)

enum tok_type { T_EOF, T_END, T_INT, T_FLOAT, T_STR, T_NAME, T_OP };

struct tok {
	enum tok_type t;
	int op;
	const char *s;
	size_t n;
	struct exprval v;	/* a literal's value, owned until taken */
};

struct parser {
	struct exprparse *x;
	const char *start, *pos, *end;
	const char *prev;	/* the end of the last token taken */
	struct tok tok;
	int depth;
	struct exprval_ctx c;
};

/* "at '<the expression up to here>': msg", or the block's end missing. */
static int
perr_at(struct parser *p, const char *upto, const char *msg)
{
	const char *s = p->start;
	size_t n;

	while (s < upto && strchr(" \t\n\r\f\v", *s))
		s++;
	while (upto > s && strchr(" \t\n\r\f\v", upto[-1]))
		upto--;
	n = upto > s ? (size_t)(upto - s) : 0;
	if (p->tok.t == T_EOF)
		return util_seterr(p->c.err, p->c.errlen, "unterminated '{{'");
	if (n > 40)
		return util_seterr(p->c.err, p->c.errlen, "at '...%.*s': %s", 37,
				   upto - 37, msg);
	if (n == 0)
		return util_seterr(p->c.err, p->c.errlen, "at '{{': %s", msg);
	return util_seterr(p->c.err, p->c.errlen, "at '%.*s': %s", (int)n, s, msg);
}

static int
perr(struct parser *p, const char *msg)
{
	return perr_at(p, p->prev, msg);
}

static int
dig(int ch)
{
	return ch >= '0' && ch <= '9';
}

static int
namech(int ch, int first)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' ||
	       (!first && dig(ch));
}

/* digit ('_' digit)*, the digits into t */
static const char *
digits(const char *q, const char *end, struct buf *t)
{
	while (q < end && dig(*q)) {
		buf_addch(t, *q++);
		if (q + 1 < end && *q == '_' && dig(q[1]))
			q++;
	}
	return q;
}

/* Jinja's integer and float literals (no 0x/0o/0b). After a '.' (l.0.5)
 * a number has no fraction, as Jinja's float pattern looks behind. */
static int
lex_number(struct parser *p)
{
	struct buf t = BUF_INIT(BUF_NOMAX);
	const char *q = digits(p->pos, p->end, &t);
	int isf = 0;

	if (q + 1 < p->end && *q == '.' && dig(q[1]) && p->prev[-1] != '.') {
		buf_addch(&t, *q++);
		q = digits(q, p->end, &t);
		isf = 1;
	}
	if (q < p->end && (*q == 'e' || *q == 'E')) {
		const char *e = q + 1 + (q + 1 < p->end && (q[1] == '+' || q[1] == '-'));

		if (e < p->end && dig(*e)) {
			buf_addch(&t, 'e');
			if (e > q + 1)
				buf_addch(&t, q[1]);
			q = digits(e, p->end, &t);
			isf = 1;
		}
	}
	p->tok.t = isf ? T_FLOAT : T_INT;
	p->tok.v.t = isf ? EV_FLOAT : EV_INT;
	errno = 0;
	if (isf)
		p->tok.v.f = strtod(t.s, NULL);
	else
		p->tok.v.i = strtoll(t.s, NULL, 10);
	p->pos = q;
	if (!isf && t.s[0] == '0' && strspn(t.s, "0") != t.len) {
		buf_release(&t);
		return perr_at(p, q, "leading zeros in an integer literal");
	}
	buf_release(&t);
	if (!isf && errno)
		return perr_at(p, q, "integer literal too large");
	return 0;
}

static int
hexval(const char *q, int n, long *cp)
{
	*cp = 0;
	for (int i = 0; i < n; i++) {
		int ch = q[i], d = dig(ch) ? ch - '0' : (ch | 0x20) >= 'a' && (ch | 0x20) <= 'f' ?
			(ch | 0x20) - 'a' + 10 : -1;

		if (d < 0)
			return -1;
		*cp = *cp * 16 + d;
	}
	return 0;
}

static void
put_utf8(struct buf *t, long cp)
{
	char u[4];
	int n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;

	if (n == 1)
		u[0] = (char)cp;
	else
		u[0] = (char)((0xf00 >> n & 0xf0) | cp >> (6 * (n - 1)));
	for (int i = 1; i < n; i++)
		u[i] = (char)(0x80 | (cp >> (6 * (n - 1 - i)) & 0x3f));
	buf_add(t, u, (size_t)n);
}

/* One escape after the backslash at *q (Python's unicode-escape); -1 with
 * the message. An unknown escape stays as written. */
static int
lex_escape(struct parser *p, const char **qq, struct buf *t)
{
	static const char from[] = "\\'\"abfnrtv\n", to[] = "\\'\"\a\b\f\n\r\t\v";
	const char *q = *qq + 1, *f = strchr(from, *q);
	int w = *q == 'x' ? 2 : *q == 'u' ? 4 : *q == 'U' ? 8 : 0;
	long cp = 0;

	if (f && *q) {
		if (*q != '\n')
			buf_addch(t, to[f - from]);
		*qq = q + 1;
		return 0;
	}
	if (*q >= '0' && *q <= '7') {
		for (int i = 0; i < 3 && q < p->end && *q >= '0' && *q <= '7'; i++)
			cp = cp * 8 + *q++ - '0';
	} else if (w) {
		if (p->end - q - 1 < w || hexval(q + 1, w, &cp))
			return perr_at(p, q, w == 2 ? "truncated \\xXX escape" : w == 4 ?
				       "truncated \\uXXXX escape" : "truncated \\UXXXXXXXX escape");
		if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return perr_at(p, q, "escape is not a Unicode scalar value");
		q += 1 + w;
	} else {
		buf_add(t, q - 1, 2);
		*qq = q + 1;
		return 0;
	}
	put_utf8(t, cp);
	*qq = q;
	return 0;
}

static int
lex_string(struct parser *p)
{
	struct buf t = BUF_INIT(BUF_NOMAX);
	const char *q = p->pos + 1;
	char quote = *p->pos;
	int rc = 0;

	while (rc == 0 && q < p->end && *q != quote) {
		if (*q == '\\' && q + 1 < p->end)
			rc = lex_escape(p, &q, &t);
		else
			buf_addch(&t, *q++);
	}
	if (rc == 0 && q >= p->end)
		rc = util_seterr(p->c.err, p->c.errlen, "unterminated string in '{{'");
	if (rc == 0) {
		p->tok.t = T_STR;
		rc = exprval_str(&p->c, &p->tok.v, t.s, t.len);
		p->pos = q + 1;
	}
	buf_release(&t);
	return rc;
}

static int
lex_op(struct parser *p)
{
	static const char two[] = "**//==!=<=>=", twoop[] = "PFENLG", one[] = "+-*/%~<>()[].,|=:";
	const char *q = p->pos;

	p->tok.t = T_OP;
	for (int i = 0; two[i]; i += 2) {
		if (p->end - q >= 2 && q[0] == two[i] && q[1] == two[i + 1]) {
			p->tok.op = twoop[i / 2];
			p->pos += 2;
			return 0;
		}
	}
	if (!strchr(one, *q) || !*q) {
		char m[40];

		snprintf(m, sizeof(m), (unsigned char)*q < 0x20 || (unsigned char)*q >= 0x7f ?
			 "unexpected byte 0x%02x" : "unexpected '%c'", (unsigned char)*q);
		return perr_at(p, q, m);
	}
	p->tok.op = *q;
	p->pos++;
	return 0;
}

/* The next token into p->tok. */
static int
lex(struct parser *p)
{
	const char *q;

	p->prev = p->tok.s + p->tok.n;
	exprval_release(&p->tok.v);
	while (p->pos < p->end && strchr(" \t\n\r\f\v", *p->pos) && *p->pos)
		p->pos++;
	q = p->tok.s = p->pos;
	p->tok.t = q == p->end ? T_EOF : T_OP;
	if (q == p->end) {
		p->tok.n = 0;
		return 0;
	}
	if (p->end - q >= 3 && !memcmp(q, "-}}", 3))
		p->pos += 3, p->tok.t = T_END;
	else if (p->end - q >= 2 && !memcmp(q, "}}", 2))
		p->pos += 2, p->tok.t = T_END;
	else if (dig(*q) && lex_number(p))
		return -1;
	else if ((*q == '\'' || *q == '"') && lex_string(p))
		return -1;
	else if (namech(*q, 1)) {
		while (p->pos < p->end && namech(*p->pos, 0))
			p->pos++;
		p->tok.t = T_NAME;
	} else if (!dig(*q) && *q != '\'' && *q != '"' && lex_op(p))
		return -1;
	p->tok.n = (size_t)(p->pos - q);
	return 0;
}

static int
is_op(const struct parser *p, int op)
{
	return p->tok.t == T_OP && p->tok.op == op;
}

static int
is_kw(const struct parser *p, const char *kw)
{
	return p->tok.t == T_NAME && p->tok.n == strlen(kw) && !memcmp(p->tok.s, kw, p->tok.n);
}

/* A new node over children a, b, c (-1: none), its text from src. */
static int
node(struct parser *p, enum exprnode_kind kind, int op, int a, int b, const char *src)
{
	struct exprparse *x = p->x;
	struct exprnode *nd;
	int d = 0;

	if (x->nnodes == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 16;
		x->nodes = xreallocarray(x->nodes, (size_t)x->cap, sizeof(*x->nodes));
	}
	nd = &x->nodes[x->nnodes];
	memset(nd, 0, sizeof(*nd));
	nd->kind = kind;
	nd->op = op;
	nd->a = a;
	nd->b = b;
	nd->c = nd->next = -1;
	nd->src = src;
	nd->srclen = p->prev > src ? (size_t)(p->prev - src) : 0;
	if (a >= 0)
		d = x->nodes[a].depth;
	if (b >= 0 && x->nodes[b].depth > d)
		d = x->nodes[b].depth;
	nd->depth = d + 1;
	if (nd->depth > MAX_TREE_DEPTH)
		return perr(p, "expression nested too deeply");
	return x->nnodes++;
}

/* Raise node i's depth above child j's. */
static int
deepen(struct parser *p, int i, int j)
{
	struct exprnode *nd = &p->x->nodes[i];

	if (j >= 0 && p->x->nodes[j].depth >= nd->depth)
		nd->depth = p->x->nodes[j].depth + 1;
	if (nd->depth > MAX_TREE_DEPTH)
		return perr(p, "expression nested too deeply");
	return 0;
}

static int
enter(struct parser *p)
{
	if (++p->depth > CFGEXPR_MAX_DEPTH)
		return perr(p, "expression nested too deeply");
	return 0;
}

static int parse_expr(struct parser *p);
static int parse_unary(struct parser *p, int with_filter);

static int
expect(struct parser *p, int op, const char *msg)
{
	if (!is_op(p, op))
		return perr_at(p, p->tok.s + p->tok.n, msg);
	return lex(p);
}

static int
literal(struct parser *p, const char *src)
{
	struct exprval v = p->tok.v;
	int i;

	memset(&p->tok.v, 0, sizeof(p->tok.v));
	if (lex(p) || (i = node(p, EN_LIT, 0, -1, -1, src)) < 0) {
		exprval_release(&v);
		return -1;
	}
	p->x->nodes[i].lit = v;
	return i;
}

/* 'a' 'b' is 'ab', as in Python */
static int
string_literal(struct parser *p, const char *src)
{
	int i = literal(p, src);
	struct exprval *v;

	while (i >= 0 && p->tok.t == T_STR) {
		v = &p->x->nodes[i].lit;
		if (exprval_binop(&p->c, EXPRVAL_ADD, v, &p->tok.v) || lex(p))
			return -1;
		p->x->nodes[i].srclen = (size_t)(p->prev - src);
	}
	return i;
}

static int
name_literal(struct parser *p, const char *src)
{
	static const char *const kws[] = { "true", "True", "false", "False", "none", "None" };

	for (int k = 0; k < 6; k++) {
		if (is_kw(p, kws[k])) {
			p->tok.v.t = k < 4 ? EV_BOOL : EV_NONE;
			p->tok.v.i = k < 2;
			return literal(p, src);
		}
	}
	return -2;
}

static int
parse_primary(struct parser *p)
{
	const char *src = p->tok.s;
	int i;

	switch (p->tok.t) {
	case T_INT:
	case T_FLOAT:
		return literal(p, src);
	case T_STR:
		return string_literal(p, src);
	case T_NAME:
		if ((i = name_literal(p, src)) != -2)
			return i;
		if (is_kw(p, "and") || is_kw(p, "or") || is_kw(p, "not") || is_kw(p, "if") ||
		    is_kw(p, "else") || is_kw(p, "is") || is_kw(p, "in"))
			break;
		{
			char *name = xstrndup(p->tok.s, p->tok.n);

			if (lex(p) || (i = node(p, EN_NAME, 0, -1, -1, src)) < 0) {
				free(name);
				return -1;
			}
			p->x->nodes[i].name = name;
		}
		return i;
	case T_OP:
		if (p->tok.op == '(') {
			if (lex(p) || (i = parse_expr(p)) < 0 || expect(p, ')', "expected ')'"))
				return -1;
			return i;
		}
		if (p->tok.op == '[' || p->tok.op == '{')
			return perr_at(p, src + 1, "list and dict literals are not supported");
		break;
	default:
		break;
	}
	return perr(p, "expected an operand");
}

/* .name and .0 after a node: a plain name grows its dotted chain. */
static int
parse_attr(struct parser *p, int i)
{
	struct exprnode *nd;
	char *name;
	int j;

	if (lex(p))
		return -1;
	if (p->tok.t != T_NAME && p->tok.t != T_INT)
		return perr_at(p, p->tok.s + p->tok.n, "expected a name after '.'");
	name = xstrndup(p->tok.s, p->tok.n);
	if (lex(p)) {
		free(name);
		return -1;
	}
	nd = &p->x->nodes[i];
	if (nd->kind == EN_NAME) {
		char *full = xstrfmt("%s.%s", nd->name, name);

		free(name);
		free(nd->name);
		nd->name = full;
		nd->srclen = (size_t)(p->prev - nd->src);
		return i;
	}
	if ((j = node(p, EN_ATTR, 0, i, -1, nd->src)) < 0) {
		free(name);
		return -1;
	}
	p->x->nodes[j].name = name;
	return j;
}

static int
parse_postfix(struct parser *p, int i)
{
	int k;

	while (i >= 0) {
		if (is_op(p, '.')) {
			i = parse_attr(p, i);
		} else if (is_op(p, '[')) {
			if (lex(p) || (k = parse_expr(p)) < 0 ||
			    expect(p, ']', "expected ']' (slices are not supported)"))
				return -1;
			i = node(p, EN_INDEX, 0, i, k, p->x->nodes[i].src);
		} else if (is_op(p, '(')) {
			return perr_at(p, p->tok.s + 1, "calls are not supported");
		} else {
			break;
		}
	}
	return i;
}

/* One filter argument, positional or name=value: its position, or -1. */
static int
parse_arg_pos(struct parser *p, int f, int *npos, unsigned *seen)
{
	const char *q = p->tok.s + p->tok.n;
	int k;

	while (q < p->end && strchr(" \t\n\r\f\v", *q) && *q)
		q++;
	if (p->tok.t == T_NAME && q < p->end && *q == '=' && (q + 1 == p->end || q[1] != '=')) {
		k = exprfilt_param(f, p->tok.s, p->tok.n);
		if (k < 0)
			return perr_at(p, p->tok.s + p->tok.n, "unknown filter argument");
		if (lex(p) || lex(p))
			return -1;
		*npos = 99;
	} else if (*npos == 99) {
		return perr(p, "positional argument follows keyword argument");
	} else if ((k = (*npos)++) >= exprfilt_nparams(f)) {
		return perr(p, "too many filter arguments");
	}
	if (*seen & (1u << k))
		return perr(p, "filter argument given twice");
	*seen |= 1u << k;
	return k;
}

static int
parse_args(struct parser *p, int fi, int f)
{
	int npos = 0, last = -1, k, e, a;
	unsigned seen = 0;

	if (lex(p))
		return -1;
	while (!is_op(p, ')')) {
		if ((k = parse_arg_pos(p, f, &npos, &seen)) < 0 || (e = parse_expr(p)) < 0 ||
		    (a = node(p, EN_ARG, k, e, -1, p->x->nodes[e].src)) < 0 || deepen(p, fi, a))
			return -1;
		if (last < 0)
			p->x->nodes[fi].b = a;
		else
			p->x->nodes[last].next = a;
		last = a;
		if (!is_op(p, ','))
			break;
		if (lex(p))
			return -1;
	}
	return expect(p, ')', "expected ')' after the filter's arguments");
}

static int
parse_test(struct parser *p, int i)
{
	static const char *const tests[] = { "defined", "undefined", "none" };
	int neg = 0;

	if (lex(p))
		return -1;
	if (is_kw(p, "not")) {
		neg = EXPRPARSE_NEGATE;
		if (lex(p))
			return -1;
	}
	for (int t = 0; t < 3; t++)
		if (is_kw(p, tests[t]))
			return lex(p) ? -1 : node(p, EN_TEST, (t + 1) | neg, i, -1,
						  p->x->nodes[i].src);
	return perr_at(p, p->tok.s + p->tok.n, "unknown test (defined, undefined, none)");
}

static int
parse_filters(struct parser *p, int i)
{
	int f;

	while (i >= 0) {
		if (is_kw(p, "is")) {
			i = parse_test(p, i);
			continue;
		}
		if (!is_op(p, '|'))
			break;
		if (lex(p))
			return -1;
		if (p->tok.t != T_NAME || (f = exprfilt_find(p->tok.s, p->tok.n)) < 0)
			return perr_at(p, p->tok.s + p->tok.n, "unknown filter");
		if (lex(p) || (i = node(p, EN_FILTER, f, i, -1, p->x->nodes[i].src)) < 0)
			return -1;
		if (is_op(p, '(') && parse_args(p, i, f))
			return -1;
		p->x->nodes[i].srclen = (size_t)(p->prev - p->x->nodes[i].src);
	}
	return i;
}

static int
parse_unary(struct parser *p, int with_filter)
{
	const char *src = p->tok.s;
	int i, op;

	if (is_op(p, '-') || is_op(p, '+')) {
		op = p->tok.op;
		if (enter(p) || lex(p) || (i = parse_unary(p, 0)) < 0)
			return -1;
		p->depth--;
		i = node(p, EN_UNARY, op, i, -1, src);
	} else {
		i = parse_primary(p);
	}
	i = parse_postfix(p, i);
	return with_filter ? parse_filters(p, i) : i;
}

/* left (op right)* for the operators in ops, each side from sub */
static int
binary(struct parser *p, const char *ops, int (*sub)(struct parser *))
{
	const char *src = p->tok.s;
	int i = sub(p), op, j;

	while (i >= 0 && p->tok.t == T_OP && strchr(ops, p->tok.op)) {
		op = p->tok.op;
		if (lex(p) || (j = sub(p)) < 0)
			return -1;
		i = node(p, EN_BIN, op, i, j, src);
	}
	return i;
}

static int
parse_pow1(struct parser *p)
{
	return parse_unary(p, 1);
}

static int
parse_pow(struct parser *p)
{
	return binary(p, "P", parse_pow1);
}

static int
parse_math2(struct parser *p)
{
	return binary(p, "*/F%", parse_pow);
}

static int
parse_concat(struct parser *p)
{
	return binary(p, "~", parse_math2);
}

static int
parse_math1(struct parser *p)
{
	return binary(p, "+-", parse_concat);
}

static int
parse_compare(struct parser *p)
{
	const char *src = p->tok.s;
	int i = parse_math1(p), cmp = -1, last = -1, j, k;

	while (i >= 0 && p->tok.t == T_OP && strchr("ENLG<>", p->tok.op)) {
		int op = p->tok.op;

		if (cmp < 0 && (cmp = node(p, EN_CMP, 0, i, -1, src)) < 0)
			return -1;
		if (lex(p) || (j = parse_math1(p)) < 0 ||
		    (k = node(p, EN_CMPOP, op, j, -1, src)) < 0 || deepen(p, cmp, k))
			return -1;
		if (last < 0)
			p->x->nodes[cmp].b = k;
		else
			p->x->nodes[last].next = k;
		last = k;
		p->x->nodes[cmp].srclen = (size_t)(p->prev - src);
	}
	return cmp >= 0 ? cmp : i;
}

static int
parse_not(struct parser *p)
{
	const char *src = p->tok.s;
	int i;

	if (!is_kw(p, "not"))
		return parse_compare(p);
	if (enter(p) || lex(p) || (i = parse_not(p)) < 0)
		return -1;
	p->depth--;
	return node(p, EN_UNARY, EXPRVAL_NOT, i, -1, src);
}

static int
logic(struct parser *p, const char *kw, enum exprnode_kind kind, int (*sub)(struct parser *))
{
	const char *src = p->tok.s;
	int i = sub(p), j;

	while (i >= 0 && is_kw(p, kw)) {
		if (lex(p) || (j = sub(p)) < 0)
			return -1;
		i = node(p, kind, 0, i, j, src);
	}
	return i;
}

static int
parse_and(struct parser *p)
{
	return logic(p, "and", EN_AND, parse_not);
}

static int
parse_or(struct parser *p)
{
	return logic(p, "or", EN_OR, parse_and);
}

/* A if C [else B], B itself a conditional (Jinja's parse_condexpr). */
static int
parse_expr(struct parser *p)
{
	const char *src = p->tok.s;
	int i, cond, e = -1;

	if (enter(p) || (i = parse_or(p)) < 0)
		return -1;
	while (is_kw(p, "if")) {
		if (lex(p) || (cond = parse_or(p)) < 0)
			return -1;
		if (is_kw(p, "else") && (lex(p) || (e = parse_expr(p)) < 0))
			return -1;
		if ((i = node(p, EN_COND, 0, i, cond, src)) < 0 || deepen(p, i, e))
			return -1;
		p->x->nodes[i].c = e;
		e = -1;
	}
	p->depth--;
	return i;
}

int
exprparse_block(struct exprparse *x, const char *s, const char *end,
		char *err, size_t errlen)
{
	struct parser p = {
		.x = x, .start = s, .pos = s, .end = end, .prev = s, .depth = -1,
		.c = { .budget = BUF_NOMAX, .err = err, .errlen = errlen },
	};
	int rc = -1;

	memset(x, 0, sizeof(*x));
	p.tok.s = s;
	if (lex(&p) || (x->root = parse_expr(&p)) < 0)
		goto out;
	if (p.tok.t != T_END) {
		perr_at(&p, p.tok.s + (p.tok.t == T_EOF ? 0 : 1),
			"expected the end of the expression ('}}')");
		goto out;
	}
	x->after = p.tok.s + p.tok.n;
	x->strip = p.tok.n == 3;
	rc = 0;
out:
	exprval_release(&p.tok.v);
	return rc;
}

void
exprparse_release(struct exprparse *x)
{
	for (int i = 0; i < x->nnodes; i++) {
		free(x->nodes[i].name);
		exprval_release(&x->nodes[i].lit);
	}
	free(x->nodes);
	memset(x, 0, sizeof(*x));
}
