/* SPDX-License-Identifier: Apache-2.0 */
/* A benchmark's rows: one split loaded, its columns read the way the original's Python reads them. */
#ifndef AIPERF_EVALSET_ROW_H
#define AIPERF_EVALSET_ROW_H

#include <stddef.h>

#include "buf.h"
#include "evalset.h"
#include "json/json.h"

/*
 * A struct split owns its rows and the parse of the current row (one at a
 * time: split_row() forgets the one before, so copy out what outlives it).
 * Every error names the split ("openai/gsm8k/main/test") and, for a row,
 * its 0-based number as the original's dataset indexes it.
 */
struct split {
	const char *id, *config, *name;
	struct rows rows;
	struct json_doc *doc;
	const struct json *row;	/* the current row (split_row) */
	size_t at;		/* its number */
};

/* Load id/config/name through o->src. Returns 0, or -1 with a message. */
int split_load(struct split *s, const struct bench_opts *o, const char *id,
	       const char *config, const char *name, char *err, size_t errlen);
void split_release(struct split *s);
/* The same over rows already read (several files of one release, say):
 * s takes them, *rows is left empty. */
void split_own(struct split *s, const char *id, const char *config,
	       const char *name, struct rows *rows);

/* Parse row i as the current row. Returns 0, or -1 with a message. */
int split_row(struct split *s, size_t i, char *err, size_t errlen);

/* A message about the current row: "ID/CONFIG/SPLIT: row I: ..."; -1. */
int split_err(const struct split *s, char *err, size_t errlen,
	      const char *fmt, ...) FMT(4, 5);

/*
 * row[col] of the current row, which the original uses as a str (joins it
 * to text): the string, NUL-terminated, or NULL with a message when the
 * column is missing, not a string, or holds a NUL character.
 */
const char *split_str(const struct split *s, const char *col, char *err,
		      size_t errlen);

/*
 * Append Python's str(v) to out for a scalar JSON value: a string as it is,
 * an integer's digits, a float as repr() writes it, True, False, None.
 * Returns 0, or -1 for an array or an object (or a string with a NUL
 * character), appending nothing.
 */
int py_str(const struct json *v, struct buf *out);

/*
 * Append str(row[col]) (dflt NULL: the column is required) or, when it is
 * missing, str(dflt) (row.get(col, dflt)). Returns 0, or -1 with a message.
 */
int split_pystr(const struct split *s, const char *col, const char *dflt,
		struct buf *out, char *err, size_t errlen);

/*
 * The benchmarks whose problem is one text column, sent as it is, and
 * whose gold is str() of another (aime24, aime25): every row of
 * id/config/split in order, as task, with max_tokens.
 */
int load_plain(const struct bench_opts *o, const char *id, const char *config,
	       const char *split, const char *problem_col,
	       const char *answer_col, const char *task, long long max_tokens,
	       struct problem_set *out, char *err, size_t errlen);

#endif
