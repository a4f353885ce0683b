/* SPDX-License-Identifier: Apache-2.0 */
/* What the hellaswag, bigbench and lcb benchmarks share: a row's columns read with clear messages, Python's repr of a list of names. */
#ifndef AIPERF_EVALROW_H
#define AIPERF_EVALROW_H

#include <stddef.h>

#include "buf.h"
#include "hub/rows.h"
#include "json/json.h"

/* The most bytes one prompt or gold answer may have (the rows themselves
 * are capped by lib/hub/rows: ROWS_MAX_LINE a row). */
#define EVALROW_TEXT_MAX ((size_t)512 << 20)

/*
 * One row being read: its split's name for messages ("Rowan/hellaswag/
 * default/train") and its index there (0-based, the hub's row_idx). The
 * row's values live in doc and are borrowed until the next erow_parse().
 */
struct erow {
	const char *split;
	size_t i;
	struct json_doc *doc;
	struct json *v;
};

/* Parse row i of r into e (e->doc reused). 0, or -1 with a message. */
int erow_parse(struct erow *e, const struct rows *r, size_t i, char *err,
	       size_t errlen);

/*
 * Column col of the row as a string without NUL bytes. Returns it, or NULL
 * with a message ("Rowan/hellaswag/default/train row 3: no column 'ctx'",
 * "...: column 'ctx' is not a string") in err.
 */
const char *erow_str(const struct erow *e, const char *col, char *err,
		     size_t errlen);

/* The same message for a column whose value cannot be used: "SPLIT row I:
 * column 'COL' WHY". Returns -1. */
int erow_bad(const struct erow *e, const char *col, const char *why,
	     char *err, size_t errlen);

/*
 * --accuracy-tasks as indexes into a benchmark's n tasks, for the
 * benchmarks whose tasks the recipe names by an enum (hellaswag,
 * bigbench): none, or 'all' alone, is every task in order; otherwise each
 * name given, in order, duplicates kept, found by find() (an index, or -1).
 * 'all' beside other names is the recipe's error, every_what naming what
 * 'all' selects ("every BBH subtask, or list specific subtasks"); names
 * find() does not know go to unknown(), which writes the message. *sel
 * (malloc'd, the caller frees it) and *nsel; 0, or -1 with the message.
 */
struct bench_opts;
int erow_tasks(const struct bench_opts *o, size_t n, int (*find)(const char *),
	       int (*unknown)(const char *const *, size_t, char *, size_t),
	       const char *every_what, int **sel, size_t *nsel, char *err,
	       size_t errlen);

/* Python's repr() of a list of str, appended to b: ['a', "b'c"]. */
void erow_pylist(struct buf *b, const char *const *v, size_t n);

/* ASCII case-insensitive equality of two C strings. */
int erow_ieq(const char *a, const char *b);

#endif
