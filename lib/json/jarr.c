/* SPDX-License-Identifier: Apache-2.0 */
/* A streaming splitter for a file that is one big JSON array: its elements, one at a time. */
#include "json/jarr.h"

#include <stdio.h>
#include <string.h>

#include "json/json.h"
#include "util.h"

enum { S_START, S_FIRST, S_VALUE, S_IN, S_AFTER, S_DONE };

static int
is_ws(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

void
jarr_init(struct jarr *a, size_t max)
{
	*a = (struct jarr){ .state = S_START, .max = max };
	buf_init(&a->el, BUF_NOMAX);
}

void
jarr_release(struct jarr *a)
{
	buf_release(&a->el);
}

/* A byte as a message shows it: 'c' when printable, else its code. */
static void
show(char *out, size_t n, unsigned char c)
{
	if (c > ' ' && c < 0x7f && c != '\'')
		snprintf(out, n, "'%c'", c);
	else
		snprintf(out, n, "byte 0x%02x", c);
}

static int
fail_at(struct jarr *a, uint64_t at, char *err, size_t errlen, const char *what)
{
	(void)a;
	return util_seterr(err, errlen, "at byte %llu: %s", (unsigned long long)at,
			   what);
}

static int
too_big(struct jarr *a, char *err, size_t errlen)
{
	return util_seterr(err, errlen, "at byte %llu: element %zu is larger than "
			   "%zu bytes", (unsigned long long)a->start, a->index,
			   a->max);
}

/*
 * Scan the current element from s[*i]: returns 1 with *i one past its
 * last byte when it ends in s, 0 when s ends first (*i = n), -1 when it
 * nests too deeply (*i at that bracket).
 */
static int
scan(struct jarr *a, const char *s, size_t n, size_t *i)
{
	const char *q = NULL;	/* the next '"' at or after k, once looked for */
	int looked = 0;		/* q NULL after looking: none before s + n */
	size_t k = *i;

	while (k < n) {
		unsigned char c = (unsigned char)s[k];

		if (a->in_str) {
			const char *end, *b;

			if (a->esc) {
				a->esc = 0;
				k++;
				continue;
			}
			/* string bytes run to the next quote or backslash:
			 * memchr for each, the quote's kept for the next
			 * escapes, so the scan stays linear */
			if (!looked || (q && q < s + k)) {
				q = memchr(s + k, '"', n - k);
				looked = 1;
			}
			end = q ? q : s + n;
			if ((b = memchr(s + k, '\\', (size_t)(end - (s + k))))) {
				a->esc = 1;
				k = (size_t)(b - s) + 1;
				continue;
			}
			if (!q) {
				k = n;
				break;
			}
			k = (size_t)(q - s) + 1;
			a->in_str = 0;
			if (a->depth == 0) {
				*i = k;
				return 1;
			}
			continue;
		}
		if (a->scalar) {
			if (is_ws(c) || c == ',' || c == ']') {
				*i = k;
				return 1;
			}
			k++;
			continue;
		}
		if (c == '"') {
			a->in_str = 1;
		} else if (c == '{' || c == '[') {
			if (++a->depth > JSON_MAX_DEPTH) {
				*i = k;
				return -1;
			}
		} else if ((c == '}' || c == ']') && --a->depth == 0) {
			*i = k + 1;
			return 1;
		}
		k++;
	}
	*i = n;
	return 0;
}

/* Hand over the element that ends at s[end]: s[from..end) after what is
 * buffered. */
static int
emit(struct jarr *a, const char *s, size_t from, size_t end, jarr_fn fn,
     void *ud, char *err, size_t errlen)
{
	size_t len = end - from;
	int rc;

	if (len > a->max || a->el.len > a->max - len)
		return too_big(a, err, errlen);
	if (a->el.len) {
		buf_add(&a->el, s + from, len);
		rc = fn(ud, a->el.s, a->el.len, a->index, a->start);
		buf_reset(&a->el);
	} else {
		rc = fn(ud, s + from, len, a->index, a->start);
	}
	a->index++;
	a->state = S_AFTER;
	return rc;
}

static void
start(struct jarr *a, unsigned char c, uint64_t at)
{
	a->state = S_IN;
	a->start = at;
	a->depth = c == '{' || c == '[';
	a->in_str = c == '"';
	a->esc = 0;
	a->scalar = !a->depth && !a->in_str;
}

int
jarr_feed(struct jarr *a, const char *s, size_t n, jarr_fn fn, void *ud,
	  char *err, size_t errlen)
{
	size_t i = 0, from = 0;
	char what[96], b[16];
	int rc;

	while (i < n) {
		unsigned char c = (unsigned char)s[i];

		switch (a->state) {
		case S_START:
			if (c == '[')
				a->state = S_FIRST;
			else if (!is_ws(c)) {
				show(b, sizeof(b), c);
				snprintf(what, sizeof(what), "not a JSON array "
					 "(it starts with %s)", b);
				return fail_at(a, a->off + i, err, errlen, what);
			}
			i++;
			break;
		case S_FIRST:
		case S_VALUE:
			if (is_ws(c)) {
				i++;
			} else if (c == ']' && a->state == S_FIRST) {
				a->state = S_DONE;
				i++;
			} else if (c == ']' || c == ',') {
				snprintf(what, sizeof(what), "expected element %zu, "
					 "not '%c'", a->index, c);
				return fail_at(a, a->off + i, err, errlen, what);
			} else {
				start(a, c, a->off + i);
				from = i++;
			}
			break;
		case S_IN:
			rc = scan(a, s, n, &i);
			if (rc < 0) {
				snprintf(what, sizeof(what), "element %zu is nested "
					 "deeper than %d levels", a->index,
					 JSON_MAX_DEPTH);
				return fail_at(a, a->off + i, err, errlen, what);
			}
			if (rc > 0 && (rc = emit(a, s, from, i, fn, ud, err, errlen)))
				return rc;
			break;
		case S_AFTER:
			if (c == ',')
				a->state = S_VALUE;
			else if (c == ']')
				a->state = S_DONE;
			else if (!is_ws(c)) {
				show(b, sizeof(b), c);
				snprintf(what, sizeof(what), "expected ',' or ']' after "
					 "element %zu, not %s", a->index - 1, b);
				return fail_at(a, a->off + i, err, errlen, what);
			}
			i++;
			break;
		default:	/* S_DONE */
			if (!is_ws(c)) {
				show(b, sizeof(b), c);
				snprintf(what, sizeof(what), "data after the array (%s)", b);
				return fail_at(a, a->off + i, err, errlen, what);
			}
			i++;
			break;
		}
	}
	if (a->state == S_IN) {
		if (n - from > a->max || a->el.len > a->max - (n - from))
			return too_big(a, err, errlen);
		buf_add(&a->el, s + from, n - from);
	}
	a->off += n;
	return 0;
}

int
jarr_finish(struct jarr *a, char *err, size_t errlen)
{
	switch (a->state) {
	case S_DONE:
		return 0;
	case S_START:
		return fail_at(a, a->off, err, errlen, "empty: not a JSON array");
	case S_IN:
		return util_seterr(err, errlen, "at byte %llu: truncated: element "
				   "%zu (from byte %llu) is cut short",
				   (unsigned long long)a->off, a->index,
				   (unsigned long long)a->start);
	default:
		return util_seterr(err, errlen, "at byte %llu: truncated: the array "
				   "is not closed after %zu elements",
				   (unsigned long long)a->off, a->index);
	}
}
