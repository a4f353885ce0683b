/* SPDX-License-Identifier: Apache-2.0 */
/* CSV records (RFC 4180) fed a line at a time, bounded: the one reader of BurstGPT and Azure traces. */
#ifndef AIPERF_CSV_H
#define AIPERF_CSV_H

#include <stddef.h>

#include "buf.h"

/*
 * struct csv owns the bytes of the record being read; csv_init() does not
 * allocate, csv_release() frees. The caller feeds it the lines of one
 * input in order (as lines_next() gives them: no '\n', a '\r' before it
 * kept); csv_feed() returns 1 when a line ends a record, whose fields
 * c->f[0..c->nf) (NUL-terminated, unquoted) stay valid until the next
 * csv_feed(), c->lineno being the line it started on.
 *
 * The grammar is RFC 4180's: fields split at commas; a field that starts
 * with '"' is quoted, "" in it stands for one quote, and its commas and
 * line breaks are text (a line break in it is kept as "\n", "\r\n" when
 * the line ended so). Outside quotes a line's final '\r' ends it. Text
 * that breaks the grammar is read as Python's csv module reads it (the
 * original's loaders use it): a quote inside an unquoted field is text,
 * and so is what follows a closing quote up to the next comma. A UTF-8
 * byte order mark before the first line is dropped. A line of white
 * space (pystr_isblank()) between records is no record.
 *
 * Bounds: a record's fields take at most max bytes (a NUL after each
 * counted) and are at most max_fields; the defaults below are what the
 * dataset readers use.
 */
#define CSV_RECORD_MAX ((size_t)16 << 20)
#define CSV_FIELDS_MAX ((size_t)1 << 20)

struct csv {
	char **f;		/* the fields of the record csv_feed() returned */
	size_t nf;
	size_t lineno;		/* the line that record started on */
	/* private */
	struct buf rec;		/* the fields so far, each NUL-terminated */
	size_t *off;		/* where each field starts in rec */
	size_t cap, max_fields, lines, start;
	int state;
	int drop;		/* errno of a record being skipped, or 0 */
};

void csv_init(struct csv *c, size_t max, size_t max_fields);
void csv_release(struct csv *c);

/*
 * Feed line s[0..n), the input's line number lineno. Returns 1 when it
 * ends a record, 0 when it is blank or a quoted field goes on into the
 * next line, or -1 with errno ENOBUFS (the record passes max bytes),
 * E2BIG (more than max_fields fields) or EINVAL (a NUL byte, which no
 * text field holds); the rest of that record is then
 * skipped up to its end, so the caller may report it (csv_why()) at
 * c->lineno and go on.
 */
int csv_feed(struct csv *c, const char *s, size_t n, size_t lineno);

/*
 * The end of the input: 0, or -1 with errno EILSEQ when it ends inside
 * a quoted field (the record is lost; c->lineno is where it started).
 */
int csv_end(struct csv *c);

/* What the last -1 of csv_feed() or csv_end() means, as a message
 * ("record longer than 16777216 bytes"), in err; returns err. */
const char *csv_why(const struct csv *c, int err_no, char *err, size_t errlen);

/* The index of the last field of the record named name (a header), or -1. */
long csv_column(const struct csv *c, const char *name);

#endif
