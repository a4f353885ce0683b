/* SPDX-License-Identifier: Apache-2.0 */
/* The values of lib/cfg/expr expressions: Python operators, str() and the Jinja filters. */
#ifndef AIPERF_EXPRVAL_H
#define AIPERF_EXPRVAL_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"

struct json;

/* A string value is at most this long (the bound on 'x' * n and ~). */
#define EXPRVAL_MAX_STR (1 << 20)

enum exprval_type {
	EV_NONE,
	EV_UNDEF,	/* a name that was not found: s is the name */
	EV_BOOL,	/* i is 0 or 1 */
	EV_INT,
	EV_FLOAT,
	EV_STR,		/* s[0..n), NUL-terminated */
	EV_JSON,	/* j: an array or object from a lookup */
};

/*
 * A value owns s (EV_STR, EV_UNDEF) and borrows j from the json_doc of the
 * caller, which outlives it. exprval_release() frees s and leaves EV_NONE;
 * a zeroed struct is EV_NONE. The operators and filters consume their
 * operands (each is released or moved into the result) and, on error,
 * leave the result EV_NONE. Strings are made through the context: each is
 * at most EXPRVAL_MAX_STR bytes, and all of them together at most budget.
 */
struct exprval {
	enum exprval_type t;
	int64_t i;
	double f;
	char *s;
	size_t n;
	const struct json *j;
};

/* The state one rendering shares: its string budget and its message. */
struct exprval_ctx {
	size_t budget;
	char *err;
	size_t errlen;
};

/* Operators; the comparisons give EV_BOOL. */
enum exprval_op {
	EXPRVAL_ADD = '+',
	EXPRVAL_SUB = '-',
	EXPRVAL_MUL = '*',
	EXPRVAL_DIV = '/',
	EXPRVAL_FLOORDIV = 'F',	/* // */
	EXPRVAL_MOD = '%',
	EXPRVAL_POW = 'P',	/* ** */
	EXPRVAL_CAT = '~',
	EXPRVAL_EQ = 'E',
	EXPRVAL_NE = 'N',
	EXPRVAL_LT = '<',
	EXPRVAL_LE = 'L',
	EXPRVAL_GT = '>',
	EXPRVAL_GE = 'G',
	EXPRVAL_NOT = '!',	/* unary; - and + are unary too */
};

void exprval_release(struct exprval *v);
/* Python's type(v).__name__: "int", "str", "list", "NoneType", ... */
const char *exprval_type_name(const struct exprval *v);
/* Make v the string s[0..n). Returns 0, or -1 (a message) past the limits. */
int exprval_str(struct exprval_ctx *c, struct exprval *v, const char *s, size_t n);
/* Make dst a copy of src (a string's bytes are copied, and counted). */
int exprval_copy(struct exprval_ctx *c, struct exprval *dst, const struct exprval *src);
/* Make v the undefined name s[0..n) (no budget: names are short). */
void exprval_undef(struct exprval *v, const char *s, size_t n);
/* The error for using an undefined value: "undefined variable 'NAME'"; -1. */
int exprval_undef_error(struct exprval_ctx *c, const struct exprval *v);
/*
 * Make v the value of a parsed JSON value: null, booleans, numbers (an
 * integer out of int64 is an error), strings copied; arrays and objects
 * are EV_JSON, borrowing j.
 */
int exprval_from_json(struct exprval_ctx *c, const struct json *j, struct exprval *v);

/*
 * Append Python's str() of v to b: 160, 160.0, 1e+16, True, None, a
 * list or dict as Python prints it. An undefined value, inf and nan are
 * errors, as is b reaching its max. Returns 0 or -1.
 */
int exprval_text(struct exprval_ctx *c, const struct exprval *v, struct buf *b);
/* Python's bool(v): 0 or 1, or -1 for an undefined value. */
int exprval_truthy(struct exprval_ctx *c, const struct exprval *v);
/* *a = *a OP *b with Python's semantics (ints are int64: overflow is an
 * error). Consumes both. Returns 0 or -1. */
int exprval_binop(struct exprval_ctx *c, int op, struct exprval *a, struct exprval *b);
/* a OP b for the comparisons, borrowing both: 1 or 0, or -1 where the
 * types do not order ('<' of a str and an int) or one is undefined. */
int exprval_compare(struct exprval_ctx *c, int op, const struct exprval *a,
		    const struct exprval *b);
/* *v = OP *v for '-', '+' and EXPRVAL_NOT. Returns 0 or -1. */
int exprval_unary(struct exprval_ctx *c, int op, struct exprval *v);

#endif
