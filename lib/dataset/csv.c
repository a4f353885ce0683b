/* SPDX-License-Identifier: Apache-2.0 */
/* CSV records (RFC 4180) fed a line at a time, bounded: the one reader of BurstGPT and Azure traces. */
#include "dataset/csv.h"

#include "rand/pystr.h"
#include "util.h"

enum state {
	S_NONE,		/* between records */
	S_START,	/* at the start of a field */
	S_FIELD,	/* in an unquoted field */
	S_QUOTED,	/* in a quoted field */
	S_QUOTE,	/* a quote in a quoted field: its end, or "" */
};

void
csv_init(struct csv *c, size_t max, size_t max_fields)
{
	memset(c, 0, sizeof(*c));
	buf_init(&c->rec, max);
	c->max_fields = max_fields;
}

void
csv_release(struct csv *c)
{
	buf_release(&c->rec);
	free(c->off);
	free(c->f);
	memset(c, 0, sizeof(*c));
}

/* Text of the current field; past the cap the record is dropped. */
static void
add(struct csv *c, const char *s, size_t n)
{
	if (!c->drop && buf_add(&c->rec, s, n) < 0)
		c->drop = ENOBUFS;
}

static void
end_field(struct csv *c)
{
	if (c->drop)
		return;
	if (c->nf == c->max_fields) {
		c->drop = E2BIG;
		return;
	}
	if (c->nf == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 64;
		if (c->cap > c->max_fields)
			c->cap = c->max_fields;
		c->off = xreallocarray(c->off, c->cap, sizeof(*c->off));
		c->f = xreallocarray(c->f, c->cap, sizeof(*c->f));
	}
	c->off[c->nf++] = c->start;
	add(c, "", 1);
	c->start = c->rec.len;
}

/*
 * The part s[i..lim) of a line up to stop, a comma in an unquoted field
 * (which it ends) or a quote in a quoted one (its end, or half of ""),
 * as the field's text; returns where the scan goes on.
 */
static size_t
span(struct csv *c, const char *s, size_t i, size_t lim, int stop)
{
	const char *e = memchr(s + i, stop, lim - i);
	size_t k = e ? (size_t)(e - s) : lim;

	add(c, s + i, k - i);
	if (!e)
		return k;
	if (stop == ',')
		end_field(c);
	c->state = stop == ',' ? S_START : S_QUOTE;
	return k + 1;
}

/* After a quote in a quoted field: "" is a quote, a comma ends the
 * field, anything else is text of an unquoted field (Python's way). */
static size_t
after_quote(struct csv *c, const char *s, size_t i)
{
	if (s[i] == '"') {
		add(c, "\"", 1);
		c->state = S_QUOTED;
		return i + 1;
	}
	if (s[i] == ',') {
		end_field(c);
		c->state = S_START;
		return i + 1;
	}
	c->state = S_FIELD;
	return i;
}

static void
scan(struct csv *c, const char *s, size_t n)
{
	/* outside quotes a final '\r' is the line's end */
	size_t lim = n && s[n - 1] == '\r' ? n - 1 : n;

	for (size_t i = 0; i < n;) {
		if (i >= lim && c->state != S_QUOTED)
			break;
		switch (c->state) {
		case S_START:
			if (s[i] == '"') {
				c->state = S_QUOTED;
				i++;
				break;
			}
			c->state = S_FIELD;
			/* fall through */
		case S_FIELD:
			i = span(c, s, i, lim, ',');
			break;
		case S_QUOTED:
			i = span(c, s, i, n, '"');
			break;
		default:
			i = after_quote(c, s, i);
			break;
		}
	}
}

/* The record ended with this line (its last field too): 1, or 0 when it
 * was dropped. */
static int
end_record(struct csv *c)
{
	c->state = S_NONE;
	if (c->drop) {
		c->drop = 0;
		return 0;
	}
	for (size_t k = 0; k < c->nf; k++)
		c->f[k] = c->rec.s + c->off[k];
	return 1;
}

int
csv_feed(struct csv *c, const char *s, size_t n, size_t lineno)
{
	int was_dropping;

	if (!c->lines++ && n >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3)) {
		s += 3;
		n -= 3;
	}
	if (c->state == S_NONE) {
		if (pystr_isblank(s, n))
			return 0;
		buf_reset(&c->rec);
		c->nf = c->start = 0;
		c->lineno = lineno;
		c->state = S_START;
	} else {
		add(c, "\n", 1);	/* a line break in a quoted field */
	}
	was_dropping = c->drop != 0;
	if (!c->drop && memchr(s, '\0', n))
		c->drop = EINVAL;	/* its fields would read short */
	scan(c, s, n);
	if (c->state != S_QUOTED)
		end_field(c);
	if (c->drop && !was_dropping) {
		int e = c->drop;

		if (c->state != S_QUOTED)
			end_record(c);
		errno = e;
		return -1;
	}
	if (c->state == S_QUOTED)
		return 0;
	return end_record(c);
}

int
csv_end(struct csv *c)
{
	int open = c->state != S_NONE && !c->drop;

	c->state = S_NONE;
	c->drop = 0;
	if (!open)
		return 0;
	errno = EILSEQ;
	return -1;
}

const char *
csv_why(const struct csv *c, int err_no, char *err, size_t errlen)
{
	if (err_no == ENOBUFS)
		snprintf(err, errlen, "CSV record longer than %zu bytes", c->rec.max);
	else if (err_no == E2BIG)
		snprintf(err, errlen, "CSV record of more than %zu fields",
			 c->max_fields);
	else if (err_no == EINVAL)
		snprintf(err, errlen, "NUL byte in a CSV record");
	else if (err_no == EILSEQ)
		snprintf(err, errlen, "quoted CSV field not closed at the end "
			 "of the input");
	else
		snprintf(err, errlen, "%s", util_strerror(err_no));
	return err;
}

long
csv_column(const struct csv *c, const char *name)
{
	for (size_t k = c->nf; k-- > 0;)
		if (!strcmp(c->f[k], name))
			return (long)k;
	return -1;
}
