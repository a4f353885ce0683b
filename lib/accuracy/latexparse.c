/* SPDX-License-Identifier: Apache-2.0 */
/* LaTeX answers parsed to values (the lexer and the recursive-descent parser behind latexparse). */
#include "accuracy/latexparse.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define MAX_DEPTH LATEXVAL_MAX_DEPTH
#define MAX_NODES 512
#define MAX_ITEMS 64
#define MAX_DIGITS 18

enum tok {
	T_END, T_NUM, T_LETTER, T_CMD, T_CH, T_SETL, T_SETR, T_PCT, T_DEG,
	T_COMMA, T_TEXT, T_BAD,
};

struct token {
	enum tok t;
	size_t b, e;		/* the token's bytes */
	size_t cb, ce;		/* T_CMD: its name; T_TEXT: its braced content */
	char ch;
};

struct parser {
	const char *s;
	size_t n, i;
	struct latexparse_ctx *c;
	int depth;
	bool fail;
};

static struct latexparse_val *parse_list(struct parser *p, int *count,
				      struct latexparse_val ***items);
static struct latexparse_val *parse_sum(struct parser *p);
static struct latexparse_val *parse_power(struct parser *p);

static bool
is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool
name_is(const struct parser *p, const struct token *t, const char *name)
{
	size_t l = strlen(name);

	return t->ce - t->cb == l && !memcmp(p->s + t->cb, name, l);
}

static bool
name_in(const struct parser *p, const struct token *t, const char *const *names)
{
	for (; *names; names++)
		if (name_is(p, t, *names))
			return true;
	return false;
}

static const char *const noise_cmds[] = {
	"left", "right", "!", ",", ";", ":", " ", "quad", "qquad", "displaystyle",
	"textstyle", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr",
	"biggl", "biggr", "$", "\\", NULL,
};

static const char *const text_cmds[] = {
	"text", "textbf", "textit", "textrm", "textnormal", "mbox", "mathrm",
	"mathbf", "mathit", "mathsf", "boldsymbol", NULL,
};

/* the word w at i, bounded by non-letters */
static bool
word_at(const char *s, size_t n, size_t i, const char *w)
{
	size_t l = strlen(w);

	return l <= n - i && !memcmp(s + i, w, l) && (i == 0 || !is_alpha(s[i - 1])) &&
	       (i + l == n || !is_alpha(s[i + l]));
}

/* a brace group at i: its content [*cb, *ce) and its end */
static size_t
group_at(const char *s, size_t n, size_t i, size_t *cb, size_t *ce)
{
	int depth = 0;

	while (i < n && s[i] == ' ')
		i++;
	if (i >= n || s[i] != '{')
		return 0;
	*cb = i + 1;
	for (size_t j = i; j < n; j++) {
		if (s[j] == '{')
			depth++;
		else if (s[j] == '}' && --depth == 0) {
			*ce = j;
			return j + 1;
		}
	}
	return 0;
}

static void
trim(const char *s, size_t *b, size_t *e)
{
	while (*b < *e && s[*b] == ' ')
		(*b)++;
	while (*e > *b && s[*e - 1] == ' ')
		(*e)--;
}

/* a command at i (the backslash): its token, or T_BAD */
static void
lex_cmd(struct parser *p, size_t i, struct token *t)
{
	size_t j = i + 1;

	t->t = T_CMD;
	if (j < p->n && is_alpha(p->s[j]))
		while (j < p->n && is_alpha(p->s[j]))
			j++;
	else if (j < p->n)
		j++;
	else
		t->t = T_BAD;
	t->cb = i + 1;
	t->ce = j;
	t->e = j;
	if (name_is(p, t, "{") || name_is(p, t, "lbrace"))
		t->t = T_SETL;
	else if (name_is(p, t, "}") || name_is(p, t, "rbrace"))
		t->t = T_SETR;
	else if (name_is(p, t, "%"))
		t->t = T_PCT;
	else if (name_is(p, t, "circ") || name_is(p, t, "degree"))
		t->t = T_DEG;
	else if (name_in(p, t, text_cmds)) {
		size_t cb, ce, e = group_at(p->s, p->n, j, &cb, &ce);

		if (!e) {
			t->t = T_BAD;
			return;
		}
		trim(p->s, &cb, &ce);
		t->t = T_TEXT;
		t->cb = cb;
		t->ce = ce;
		t->e = e;
		if (word_at(p->s, ce, cb, "and") || word_at(p->s, ce, cb, "or"))
			t->t = ce - cb <= 3 ? T_COMMA : T_TEXT;
	}
}

/* ",ddd" at j, no digit after */
static bool
thousands_at(const char *s, size_t n, size_t j)
{
	return j + 3 < n && s[j] == ',' && is_digit(s[j + 1]) && is_digit(s[j + 2]) &&
	       is_digit(s[j + 3]) && (j + 4 >= n || !is_digit(s[j + 4]));
}

static void
lex_num(struct parser *p, size_t i, struct token *t)
{
	size_t j = i;

	while (j < p->n && is_digit(p->s[j]))
		j++;
	/* thousands groups: 1,000 and 12,345,678 */
	while (p->s[i] != '.' && j - i <= 3 && thousands_at(p->s, p->n, j))
		while (thousands_at(p->s, p->n, j))
			j += 4;
	if (j + 1 < p->n && p->s[j] == '.' && is_digit(p->s[j + 1]))
		for (j++; j < p->n && is_digit(p->s[j]);)
			j++;
	t->t = T_NUM;
	t->e = j;
}

/* the token at p->i, past spaces and noise; p->i is left before it */
static void
peek(struct parser *p, struct token *t)
{
	for (;;) {
		size_t i = p->i;
		unsigned char c;

		while (i < p->n && (p->s[i] == ' ' || p->s[i] == '\t' || p->s[i] == '\n' ||
				    p->s[i] == '\r' || p->s[i] == '$' || p->s[i] == '~'))
			i++;
		p->i = i;
		memset(t, 0, sizeof(*t));
		t->b = i;
		t->e = i + 1;
		if (i >= p->n) {
			t->t = T_END;
			return;
		}
		c = (unsigned char)p->s[i];
		t->ch = (char)c;
		if (c == '\\') {
			lex_cmd(p, i, t);
			if (t->t == T_CMD && name_in(p, t, noise_cmds)) {
				p->i = t->e;
				if ((name_is(p, t, "left") || name_is(p, t, "right")) &&
				    p->i < p->n && p->s[p->i] == '.')
					p->i++;
				continue;
			}
			if (t->t == T_TEXT && t->cb == t->ce) {
				p->i = t->e;
				continue;
			}
			return;
		}
		if (is_digit((char)c) || (c == '.' && i + 1 < p->n && is_digit(p->s[i + 1]))) {
			lex_num(p, i, t);
		} else if (is_alpha((char)c)) {
			t->t = T_LETTER;
			if (word_at(p->s, p->n, i, "and") || word_at(p->s, p->n, i, "or")) {
				t->t = T_COMMA;
				t->e = i + (p->s[i] == 'a' ? 3 : 2);
			} else if (word_at(p->s, p->n, i, "percent")) {
				t->t = T_PCT;
				t->e = i + 7;
			}
		} else if (c == '%') {
			t->t = T_PCT;
		} else if (c == ',') {
			t->t = T_COMMA;
		} else if (c == 0xC2 && i + 1 < p->n && (unsigned char)p->s[i + 1] == 0xB0) {
			t->t = T_DEG;	/* U+00B0 */
			t->e = i + 2;
		} else if (strchr("+-*/^_()[]{}=!|'<>", (char)c) && c) {
			t->t = T_CH;
		} else {
			t->t = T_BAD;
		}
		return;
	}
}

static void
next(struct parser *p, struct token *t)
{
	peek(p, t);
	p->i = t->e;
}

static bool
accept_ch(struct parser *p, char ch)
{
	struct token t;

	peek(p, &t);
	if (t.t != T_CH || t.ch != ch)
		return false;
	p->i = t.e;
	return true;
}

static bool
accept_cmd(struct parser *p, const char *name)
{
	struct token t;

	peek(p, &t);
	if (t.t != T_CMD || !name_is(p, &t, name))
		return false;
	p->i = t.e;
	return true;
}

static struct latexparse_val *
fail(struct parser *p)
{
	p->fail = true;
	return NULL;
}

static struct latexparse_val *
new_val(struct parser *p, enum latexval_kind k)
{
	struct latexparse_val *v;

	if (++p->c->nodes > MAX_NODES)
		return fail(p);
	v = xcalloc(1, sizeof(*v));
	v->k = k;
	v->x = NAN;
	return v;
}

void
latexparse_free(struct latexparse_val *v)
{
	if (!v)
		return;
	for (int i = 0; i < v->n; i++)
		latexparse_free(v->it[i]);
	free(v->it);
	free(v);
}

bool
latexparse_is_number(const struct latexparse_val *v)
{
	return v && v->k == LV_NUM;
}

static struct latexparse_val *
num_rat(struct parser *p, int64_t n, int64_t d)
{
	struct latexparse_val *v = new_val(p, LV_NUM);

	if (!v)
		return NULL;
	v->exact = algnum_rat(&v->a, n, d) == 0;
	v->x = (double)n / (double)d;
	return v;
}

/* symbol k's fixed numeric stand-in: irrational-looking, distinct */
static double
sym_point(int k)
{
	return 1.0 + 0.3719 * (k + 1) + 0.0123457 * (k + 1) * (k + 1);
}

static struct latexparse_val *
num_sym(struct parser *p, const char *name, size_t len)
{
	struct latexparse_ctx *c = p->c;
	struct latexparse_val *v;
	int k;

	if (len == 0 || len >= LATEXPARSE_SYM_LEN)
		return fail(p);
	for (k = 0; k < c->nsym; k++)
		if (strlen(c->sym[k]) == len && !memcmp(c->sym[k], name, len))
			break;
	if (k == c->nsym) {
		if (k == LATEXPARSE_MAX_SYMS)
			return fail(p);
		memcpy(c->sym[k], name, len);
		c->sym[k][len] = '\0';
		c->nsym++;
	}
	if (!(v = new_val(p, LV_NUM)))
		return NULL;
	algnum_atom(&v->a, ALGNUM_SYM(k));
	v->exact = true;
	v->x = sym_point(k);
	return v;
}

static struct latexparse_val *
num_lit(struct parser *p, const struct token *t)
{
	int64_t n = 0, d = 1;
	int digits = 0;
	bool frac = false, exact = true;
	char tmp[64];
	size_t k = 0;
	struct latexparse_val *v;

	for (size_t i = t->b; i < t->e; i++) {
		char c = p->s[i];

		if (c == ',')
			continue;
		if (k + 1 < sizeof(tmp))
			tmp[k++] = c;
		if (c == '.') {
			frac = true;
			continue;
		}
		if (digits || c != '0')
			digits++;
		if (digits > MAX_DIGITS) {
			exact = false;
			continue;
		}
		n = n * 10 + (c - '0');
		if (frac)
			d *= 10;
	}
	tmp[k] = '\0';
	if (!(v = num_rat(p, exact ? n : 0, exact ? d : 1)))
		return NULL;
	v->exact = exact && v->exact;
	v->x = strtod(tmp, NULL);
	v->float_lit = frac;
	return v;
}

/* a and b are numbers; op one of + - * / ^: a op b into a, b freed */
static struct latexparse_val *
arith(struct parser *p, struct latexparse_val *a, char op, struct latexparse_val *b)
{
	int r = -1;

	if (!a || !b || a->k != LV_NUM || b->k != LV_NUM) {
		latexparse_free(a);
		latexparse_free(b);
		return fail(p);
	}
	switch (op) {
	case '+': r = algnum_add(&a->a, &a->a, &b->a); a->x += b->x; break;
	case '-': r = algnum_sub(&a->a, &a->a, &b->a); a->x -= b->x; break;
	case '*': r = algnum_mul(&a->a, &a->a, &b->a); a->x *= b->x; break;
	case '/':
		r = algnum_div(&a->a, &a->a, &b->a);
		a->x = b->x == 0 ? NAN : a->x / b->x;
		break;
	default:
		r = algnum_pow(&a->a, &a->a, &b->a);
		a->x = pow(a->x, b->x);
		break;
	}
	a->exact = a->exact && b->exact && r == 0;
	a->float_lit = false;
	latexparse_free(b);
	return a;
}

static struct latexparse_val *
negate(struct parser *p, struct latexparse_val *v)
{
	if (!v)
		return NULL;
	if (v->k == LV_INF) {
		v->sign = -v->sign;
		return v;
	}
	if (v->k != LV_NUM) {
		latexparse_free(v);
		return fail(p);
	}
	algnum_neg(&v->a);
	v->x = -v->x;
	return v;
}

/* a braced argument, or a single digit or letter (\frac12, \sqrt2), or
 * with whole a whole number (2^10 is 1024, as latex2sympy's supexpr) */
static struct latexparse_val *
parse_arg(struct parser *p, bool whole)
{
	struct token t;
	struct latexparse_val *v;

	peek(p, &t);
	if (t.t == T_CH && t.ch == '{') {
		p->i = t.e;
		v = parse_sum(p);
		return accept_ch(p, '}') ? v : (latexparse_free(v), fail(p));
	}
	if (t.t == T_NUM) {
		if (!whole)
			t.e = t.b + 1;
		p->i = t.e;
		return num_lit(p, &t);
	}
	if (t.t == T_LETTER) {
		p->i = t.e;
		return num_sym(p, p->s + t.b, 1);
	}
	if (t.t == T_CMD || (t.t == T_CH && t.ch == '('))
		return parse_power(p);
	return fail(p);
}

static struct latexparse_val *
parse_frac(struct parser *p)
{
	struct latexparse_val *a = parse_arg(p, false), *b;

	if (!a)
		return NULL;
	b = parse_arg(p, false);
	return arith(p, a, '/', b);
}

static struct latexparse_val *
parse_sqrt(struct parser *p)
{
	struct latexparse_val *idx = NULL, *v, *e;

	if (accept_ch(p, '[')) {
		idx = parse_sum(p);
		if (!idx || !accept_ch(p, ']')) {
			latexparse_free(idx);
			return fail(p);
		}
	}
	if (!(v = parse_arg(p, false))) {
		latexparse_free(idx);
		return NULL;
	}
	if (!(e = num_rat(p, 1, 1))) {
		latexparse_free(idx);
		latexparse_free(v);
		return NULL;
	}
	e = arith(p, e, '/', idx ? idx : num_rat(p, 2, 1));
	if (v && v->k == LV_NUM && v->x < 0)
		v->exact = false;	/* complex in sympy: not ours to call */
	return arith(p, v, '^', e);
}

static struct latexparse_val *
from_text(struct parser *p, const struct token *t)
{
	char name[LATEXPARSE_SYM_LEN];
	size_t k = 0;
	bool word = t->ce - t->cb >= 2;
	struct parser sub;
	struct latexparse_val *v;

	for (size_t i = t->cb; i < t->ce && word; i++) {
		char c = p->s[i];

		if (!is_alpha(c) && c != ' ')
			word = false;
		else if (k + 1 >= sizeof(name))
			return fail(p);
		else if (c != ' ' || (k && name[k - 1] != ' '))
			name[k++] = c;
	}
	if (word)
		return num_sym(p, name, k);
	sub = *p;
	sub.i = t->cb;
	sub.n = t->ce;
	v = parse_sum(&sub);
	p->fail = sub.fail;
	if (v) {
		struct token end;

		peek(&sub, &end);
		if (end.t != T_END) {
			latexparse_free(v);
			return fail(p);
		}
	}
	return v;
}

/* "(...)", "[...]": a group, a pair, an interval or a tuple */
static struct latexparse_val *
parse_bracket(struct parser *p, char open)
{
	struct latexparse_val **items = NULL, *v;
	int n = 0;
	char close;

	v = parse_list(p, &n, &items);
	if (!v && p->fail)
		return NULL;
	if (accept_ch(p, ')'))
		close = ')';
	else if (accept_ch(p, ']'))
		close = ']';
	else
		close = 0;
	if (n == 1 && close == (open == '(' ? ')' : ']')) {
		v = items[0];
		free(items);
		return v;
	}
	if (!(v = new_val(p, n == 2 && (open == '[' || close == ']') ? LV_IVAL : LV_TUPLE)))
		close = 0;
	if (!close || n < 2 || (v->k == LV_TUPLE && (open != '(' || close != ')'))) {
		for (int i = 0; i < n; i++)
			latexparse_free(items[i]);
		free(items);
		latexparse_free(v);
		return fail(p);
	}
	v->n = n;
	v->it = items;
	v->paren = n == 2 && v->k == LV_TUPLE;
	v->lopen = open == '(' || items[0]->k == LV_INF;
	v->ropen = close == ')' || items[n - 1]->k == LV_INF;
	return v;
}

static bool
is_closer(const struct token *t, enum tok closer)
{
	return t->t == closer && (closer != T_CH || t->ch == '}');
}

static struct latexparse_val *
parse_set(struct parser *p, enum tok closer)
{
	struct latexparse_val **items = NULL, *v;
	struct token t;
	int n = 0;

	peek(p, &t);
	if (!is_closer(&t, closer))
		parse_list(p, &n, &items);
	peek(p, &t);
	if (p->fail || !is_closer(&t, closer) || !(v = new_val(p, LV_SET))) {
		for (int i = 0; i < n; i++)
			latexparse_free(items[i]);
		free(items);
		return fail(p);
	}
	p->i = t.e;
	v->n = n;
	v->it = items;
	return v;
}

static const char *const greek[] = {
	"alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta",
	"theta", "vartheta", "iota", "kappa", "lambda", "mu", "nu", "xi", "rho",
	"sigma", "tau", "upsilon", "phi", "varphi", "chi", "psi", "omega", "Gamma",
	"Delta", "Theta", "Lambda", "Xi", "Sigma", "Phi", "Psi", "Omega", NULL,
};

static struct latexparse_val *
parse_command(struct parser *p, const struct token *t)
{
	struct latexparse_val *v;

	if (name_is(p, t, "frac") || name_is(p, t, "dfrac") || name_is(p, t, "tfrac") ||
	    name_is(p, t, "cfrac"))
		return parse_frac(p);
	if (name_is(p, t, "sqrt"))
		return parse_sqrt(p);
	if (name_is(p, t, "pi")) {
		if (!(v = new_val(p, LV_NUM)))
			return NULL;
		algnum_atom(&v->a, ALGNUM_PI);
		v->exact = true;
		v->x = 3.14159265358979323846;
		return v;
	}
	if (name_is(p, t, "infty") || name_is(p, t, "infin")) {
		if ((v = new_val(p, LV_INF)))
			v->sign = 1;
		return v;
	}
	if (name_is(p, t, "emptyset") || name_is(p, t, "varnothing"))
		return new_val(p, LV_SET);
	if (name_is(p, t, "boxed") || name_is(p, t, "fbox")) {
		if (!accept_ch(p, '{'))
			return fail(p);
		v = parse_list(p, NULL, NULL);
		return accept_ch(p, '}') ? v : (latexparse_free(v), fail(p));
	}
	if (name_in(p, t, greek))
		return num_sym(p, p->s + t->cb, t->ce - t->cb);
	return fail(p);
}

static struct latexparse_val *
parse_abs(struct parser *p)
{
	struct latexparse_val *v = parse_sum(p);
	struct algnum_q q;

	if (!v || v->k != LV_NUM || !accept_ch(p, '|')) {
		latexparse_free(v);
		return fail(p);
	}
	if (v->exact && algnum_is_rat(&v->a, &q))
		v->a.num.t[0].c.n = llabs(q.n);
	else
		v->exact = false;
	v->x = fabs(v->x);
	return v;
}

static struct latexparse_val *
parse_atom(struct parser *p)
{
	struct token t;

	next(p, &t);
	switch (t.t) {
	case T_NUM:
		return num_lit(p, &t);
	case T_LETTER:
		return num_sym(p, p->s + t.b, 1);
	case T_TEXT:
		return from_text(p, &t);
	case T_SETL:
		return parse_set(p, T_SETR);
	case T_CMD:
		return parse_command(p, &t);
	case T_CH:
		if (t.ch == '(' || t.ch == '[')
			return parse_bracket(p, t.ch);
		if (t.ch == '{') {
			struct latexparse_val *v = parse_set(p, T_CH);

			/* a braced group of one is that one */
			if (v && v->n == 1) {
				struct latexparse_val *one = v->it[0];

				v->n = 0;
				latexparse_free(v);
				return one;
			}
			return v;
		}
		if (t.ch == '|')
			return parse_abs(p);
		return fail(p);
	default:
		return fail(p);
	}
}

/* ^\circ or ^{\circ} at p->i (past the '^'): consumed */
static bool
degree_script(struct parser *p)
{
	size_t i = p->i;
	struct token t;

	peek(p, &t);
	if (t.t == T_DEG) {
		p->i = t.e;
		return true;
	}
	if (t.t == T_CH && t.ch == '{') {
		p->i = t.e;
		peek(p, &t);
		if (t.t == T_DEG) {
			p->i = t.e;
			if (accept_ch(p, '}'))
				return true;
		}
	}
	p->i = i;
	return false;
}

static struct latexparse_val *
factorial(struct parser *p, struct latexparse_val *v)
{
	struct algnum_q q;
	int64_t f = 1;

	if (v->k != LV_NUM || !v->exact || !algnum_is_rat(&v->a, &q) || q.d != 1 ||
	    q.n < 0 || q.n > 20) {
		latexparse_free(v);
		return fail(p);
	}
	for (int64_t k = 2; k <= q.n; k++)
		f *= k;
	algnum_rat(&v->a, f, 1);
	v->x = (double)f;
	v->float_lit = false;
	return v;
}

/* postfix: !, percent, degrees */
static struct latexparse_val *
postfix(struct parser *p, struct latexparse_val *v)
{
	struct token t;

	while (v) {
		peek(p, &t);
		if (t.t == T_DEG) {
			p->i = t.e;
		} else if (t.t == T_PCT) {
			bool fl = v->float_lit;

			p->i = t.e;
			v = arith(p, v, '/', num_rat(p, 100, 1));
			if (v)
				v->float_lit = fl;
		} else if (t.t == T_CH && t.ch == '!') {
			p->i = t.e;
			v = factorial(p, v);
		} else {
			return v;
		}
	}
	return v;
}

static struct latexparse_val *
parse_power(struct parser *p)
{
	struct latexparse_val *v, *e;

	if (++p->depth > MAX_DEPTH)
		return fail(p);
	v = parse_atom(p);
	while (v && accept_ch(p, '^')) {
		if (degree_script(p))
			continue;
		e = parse_arg(p, true);
		v = arith(p, v, '^', e);
	}
	v = postfix(p, v);
	p->depth--;
	return v;
}

static struct latexparse_val *
parse_factor(struct parser *p)
{
	struct latexparse_val *v;

	if (++p->depth > MAX_DEPTH)
		return fail(p);
	if (accept_ch(p, '-'))
		v = negate(p, parse_factor(p));
	else if (accept_ch(p, '+'))
		v = parse_factor(p);
	else
		v = parse_power(p);
	p->depth--;
	return v;
}

static bool
starts_atom(const struct parser *p, const struct token *t)
{
	static const char *const not_atoms[] = {
		"cdot", "times", "div", "cup", "pm", "mp", "le", "leq", "ge", "geq",
		"neq", "ne", "approx", "in", NULL,
	};

	switch (t->t) {
	case T_NUM: case T_LETTER: case T_SETL:
		return true;
	case T_CMD:
		return !name_in(p, t, not_atoms);
	case T_CH:
		return t->ch == '(' || t->ch == '[' || t->ch == '{';
	default:
		return false;
	}
}

/* a \text{} unit after a value, with its ^2 or ^3: skipped */
static bool
skip_unit(struct parser *p)
{
	struct token t;

	peek(p, &t);
	if (t.t != T_TEXT)
		return false;
	p->i = t.e;
	if (accept_ch(p, '^')) {
		peek(p, &t);
		if (t.t == T_NUM || (t.t == T_CH && t.ch == '{'))
			latexparse_free(parse_arg(p, true));
	}
	return true;
}

static struct latexparse_val *
parse_term(struct parser *p)
{
	struct latexparse_val *v = parse_factor(p);
	struct token t;

	while (v && !p->fail) {
		char op = '*';

		if (skip_unit(p))
			continue;
		peek(p, &t);
		if (t.t == T_CH && (t.ch == '*' || t.ch == '/'))
			op = t.ch;
		else if (t.t == T_CMD && (name_is(p, &t, "cdot") || name_is(p, &t, "times")))
			op = '*';
		else if (t.t == T_CMD && name_is(p, &t, "div"))
			op = '/';
		else if (!starts_atom(p, &t))
			return v;
		else
			t.e = t.b;	/* implicit product: nothing to consume */
		p->i = t.e;
		v = arith(p, v, op, op == '*' && t.e == t.b ? parse_power(p) : parse_factor(p));
	}
	return v;
}

static struct latexparse_val *
parse_sum(struct parser *p)
{
	struct latexparse_val *v;
	struct token t;

	if (++p->depth > MAX_DEPTH)
		return fail(p);
	v = parse_term(p);
	while (v && !p->fail) {
		peek(p, &t);
		if (t.t != T_CH || (t.ch != '+' && t.ch != '-'))
			break;
		p->i = t.e;
		v = arith(p, v, t.ch, parse_term(p));
	}
	p->depth--;
	return v;
}

static struct latexparse_val *
parse_union(struct parser *p)
{
	struct latexparse_val *v = parse_sum(p), *u;

	if (!v || !accept_cmd(p, "cup"))
		return v;
	if (!(u = new_val(p, LV_UNION))) {
		latexparse_free(v);
		return NULL;
	}
	u->it = xreallocarray(NULL, MAX_ITEMS, sizeof(*u->it));
	u->it[u->n++] = v;
	do {
		if (u->n == MAX_ITEMS || !(v = parse_sum(p))) {
			latexparse_free(u);
			return fail(p);
		}
		u->it[u->n++] = v;
	} while (accept_cmd(p, "cup"));
	return u;
}

static struct latexparse_val *
parse_rel(struct parser *p)
{
	struct latexparse_val *a = parse_union(p), *e;
	struct token t;

	if (!a || !accept_ch(p, '='))
		return a;
	if (!(e = new_val(p, LV_EQ))) {
		latexparse_free(a);
		return NULL;
	}
	e->it = xreallocarray(NULL, 2, sizeof(*e->it));
	e->it[0] = a;
	e->n = 1;
	if (!(e->it[1] = parse_union(p))) {
		latexparse_free(e);
		return fail(p);
	}
	e->n = 2;
	peek(p, &t);
	if (t.t == T_CH && t.ch == '=') {	/* chains: not ours */
		latexparse_free(e);
		return fail(p);
	}
	return e;
}

/*
 * Comma-separated items: the one item when there is one, else a set of
 * them; with count, the items go to *items (and NULL is returned).
 */
static struct latexparse_val *
parse_list(struct parser *p, int *count, struct latexparse_val ***items)
{
	struct latexparse_val **v = xreallocarray(NULL, MAX_ITEMS, sizeof(*v)), *s;
	struct token t;
	int n = 0;

	for (;;) {
		struct latexparse_val *x = parse_rel(p);

		if (!x || n == MAX_ITEMS) {
			latexparse_free(x);
			fail(p);
			break;
		}
		v[n++] = x;
		peek(p, &t);
		if (t.t != T_COMMA)
			break;
		p->i = t.e;
	}
	if (!p->fail && count) {
		*count = n;
		*items = v;
		return NULL;
	}
	if (!p->fail && n == 1) {
		s = v[0];
		free(v);
		return s;
	}
	if (!p->fail && (s = new_val(p, LV_SET))) {
		s->n = n;
		s->it = v;
		return s;
	}
	while (n > 0)
		latexparse_free(v[--n]);
	free(v);
	if (count)
		*count = 0;
	return fail(p);
}

/* lighteval's unit words (math_normalization.py units), the ones of two
 * letters or more: one-letter ones would eat variables */
static const char *const unit_words[] = {
	"feet", "foot", "digit", "pound", "edge", "student", "degree", "mph", "kmph",
	"ft", "sq", "deg", "mile", "prime", "gm", "lb", "tile", "dm", "men",
	"soldier", "inches", "inch", "noon", "cent", "gal", "kmh", "acre", "mark",
	"toy", "coin", "gallon", "yr", "women", "hr", "square", "rupee", "cubic",
	"cc", "mtr", "ohm", "day", "hour", "minute", "min", "second", "sec", "cube",
	"mt", "hectare", "unit", "kg", "month", "km", "cm", "mm", "liter", "litre",
	"yard", "year", "meter", "metre", "dollar", "cents", NULL,
};

/* drop a trailing unit word after a digit, '}' or space, twice */
static void
strip_units(const char *s, size_t *n)
{
	for (int pass = 0; pass < 2; pass++) {
		size_t e = *n, b;

		while (e > 0 && s[e - 1] == ' ')
			e--;
		b = e;
		while (b > 0 && is_alpha(s[b - 1]))
			b--;
		if (b == 0 || b == e || !(is_digit(s[b - 1]) || s[b - 1] == '}' || s[b - 1] == ' '))
			return;
		for (const char *const *w = unit_words; *w; w++) {
			size_t l = strlen(*w), k = e - b;

			if (k >= l && !memcmp(s + b, *w, l) &&
			    (k == l || (k == l + 1 && s[b + l] == 's') ||
			     (k == l + 2 && !memcmp(s + b + l, "es", 2)))) {
				*n = b;
				break;
			}
		}
		if (*n != b)
			return;
	}
}

struct latexparse_val *
latexparse(struct latexparse_ctx *c, const char *s, size_t n)
{
	struct parser p = { s, n, 0, c, 0, false };
	struct latexparse_val *v;
	struct token t;

	if (n > LATEXPARSE_MAX_INPUT || memchr(s, '\0', n))
		return NULL;
	strip_units(s, &p.n);
	c->nodes = 0;
	v = parse_list(&p, NULL, NULL);
	peek(&p, &t);
	if (p.fail || !v || t.t != T_END) {
		latexparse_free(v);
		return NULL;
	}
	return v;
}
