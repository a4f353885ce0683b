/* SPDX-License-Identifier: Apache-2.0 */
/* The parser of lib/cfg/expr: one {{ }} block's expression into a tree, with Jinja2's grammar. */
#ifndef AIPERF_EXPRPARSE_H
#define AIPERF_EXPRPARSE_H

#include <stddef.h>
#include "cfg/exprval.h"

enum exprnode_kind {
	EN_LIT,		/* lit */
	EN_NAME,	/* name: a dotted chain "a.b.c" */
	EN_ATTR,	/* a.name (a not a plain name) */
	EN_INDEX,	/* a[b] */
	EN_UNARY,	/* op a: '-', '+', EXPRVAL_NOT */
	EN_BIN,		/* a op b */
	EN_AND,		/* a and b */
	EN_OR,		/* a or b */
	EN_COND,	/* a if b else c (c -1: no else) */
	EN_CMP,		/* a, then the EN_CMPOP list from b */
	EN_CMPOP,	/* op a, then next */
	EN_FILTER,	/* a | filter op (exprfilt), the EN_ARG list from b */
	EN_ARG,		/* parameter op is a, then next */
	EN_TEST,	/* a is [not] test: op EXPRPARSE_DEFINED... | EXPRPARSE_NEGATE */
};

enum exprparse_test {
	EXPRPARSE_DEFINED = 1,
	EXPRPARSE_UNDEFINED = 2,
	EXPRPARSE_NONE = 3,
	EXPRPARSE_NEGATE = 8,
};

/* Children are indices into the tree's nodes, -1 for none. src is the
 * node's text in the template (for messages). */
struct exprnode {
	enum exprnode_kind kind;
	int op;
	int a, b, c;
	int next;
	int depth;
	char *name;
	const char *src;
	size_t srclen;
	struct exprval lit;
};

/* A parsed block; it owns its nodes and their names and literals. */
struct exprparse {
	struct exprnode *nodes;
	int nnodes;
	int cap;
	int root;
	const char *after;	/* the byte after the block's "}}" */
	int strip;		/* it ended "-}}" */
};

/*
 * Parse the expression that starts at s (just after "{{" or "{{-") and
 * ends with "}}" before end. Returns 0 with x's root, after and strip set,
 * or -1 with a message in err. exprparse_release() frees x either way.
 */
int exprparse_block(struct exprparse *x, const char *s, const char *end,
		    char *err, size_t errlen);
void exprparse_release(struct exprparse *x);

#endif
