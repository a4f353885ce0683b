/* SPDX-License-Identifier: Apache-2.0 */
/* Incremental Server-Sent Events parser with the original aiperf's message and line rules. */
#include "http/sse.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NOVAL ((size_t)-1)
#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/* Eight bytes at p as one word (any alignment). */
static uint64_t
word(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Whether a byte of v is below 0x20, as every line break is (Hacker's
 * Delight's haslessthan; a false alarm only next to a true one). */
static int
has_ctl(uint64_t v)
{
	return ((v - 0x20 * ONES) & ~v & HIGHS) != 0;
}

void
sse_init(struct sse *s, size_t max, sse_fn fn, void *ctx)
{
	memset(s, 0, sizeof(*s));
	buf_init(&s->in, max);
	/* U+FFFD can triple an invalid byte; the delimiters add little. */
	buf_init(&s->text, max > BUF_NOMAX / 4 ? max : max * 3 + 16);
	buf_init(&s->strs, max > BUF_NOMAX / 4 ? max : max * 3 + 16);
	s->fn = fn;
	s->ctx = ctx;
}

void
sse_release(struct sse *s)
{
	buf_release(&s->in);
	buf_release(&s->text);
	buf_release(&s->strs);
	free(s->offs);
	s->offs = NULL;
	s->nf = s->capf = 0;
}

void
sse_reset(struct sse *s)
{
	buf_reset(&s->in);
	s->scanned = 0;
}

/* Length of the valid UTF-8 sequence at p, or 0 with *bad = bytes to replace. */
static size_t
utf8_seq(const unsigned char *p, size_t n, size_t *bad)
{
	unsigned char c = p[0], lo = 0x80, hi = 0xBF;
	size_t need;

	if (c >= 0xC2 && c <= 0xDF)
		need = 1;
	else if (c >= 0xE0 && c <= 0xEF)
		need = 2, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
	else if (c >= 0xF0 && c <= 0xF4)
		need = 3, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
	else
		return *bad = 1, 0;
	for (size_t i = 1; i <= need; i++) {
		if (i >= n || p[i] < lo || p[i] > hi)
			return *bad = i, 0;
		lo = 0x80, hi = 0xBF;
	}
	return need + 1;
}

/* buf_tryadd(), with the size of an allocation that failed in *nomem. */
static int
add(struct buf *b, const char *p, size_t n, size_t *nomem)
{
	size_t len = b->len;

	if (buf_tryadd(b, p, n) == 0)
		return 0;
	if (errno == ENOMEM && nomem)
		*nomem = len + n + 1;
	return -1;
}

int
sse_utf8_append(struct buf *b, const char *p, size_t n, size_t *nomem)
{
	const unsigned char *u = (const unsigned char *)p;
	size_t i = 0, run = 0;

	while (i < n) {
		size_t k, bad = 0;
		/* ASCII eight bytes at a time */
		while (i + 8 <= n && !(word(u + i) & HIGHS))
			i += 8;
		if (i == n)
			break;
		if (u[i] < 0x80) {
			i++;
			continue;
		}
		k = utf8_seq(u + i, n - i, &bad);
		if (k) {
			i += k;
			continue;
		}
		if (add(b, p + run, i - run, nomem) < 0 ||
		    add(b, "\xEF\xBF\xBD", 3, nomem) < 0)
			return -1;
		i += bad;
		run = i;
	}
	return add(b, p + run, n - run, nomem);
}

static int
is_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

static int
is_linebreak(unsigned char c)
{
	return c == '\n' || c == '\r' || c == '\v' || c == '\f' ||
	       (c >= 0x1c && c <= 0x1e);
}

static void
trim(const char **p, size_t *n)
{
	while (*n && is_space((unsigned char)**p))
		(*p)++, (*n)--;
	while (*n && is_space((unsigned char)(*p)[*n - 1]))
		(*n)--;
}

/* Copy s[0..n) NUL-terminated to strs; returns its offset or NOVAL past the cap. */
static size_t
put_str(struct sse *s, const char *p, size_t n)
{
	size_t off = s->strs.len;
	if (add(&s->strs, p, n, &s->nomem) < 0 || add(&s->strs, "", 1, &s->nomem) < 0)
		return NOVAL;
	return off;
}

static int
add_field(struct sse *s, const char *name, size_t nlen, const char *val,
	  size_t vlen, int has_val)
{
	if (s->nf == s->capf) {
		size_t cap = s->capf ? 2 * s->capf : 8, *o;
		if (cap > SIZE_MAX / (4 * sizeof(size_t)) ||
		    !(o = realloc(s->offs, cap * 4 * sizeof(size_t)))) {
			s->nomem = cap * 4 * sizeof(size_t);
			return errno = ENOMEM, -1;
		}
		s->offs = o;
		s->capf = cap;
	}
	size_t *o = s->offs + 4 * s->nf;
	o[0] = put_str(s, name, nlen);
	o[1] = nlen;
	o[2] = has_val ? put_str(s, val, vlen) : NOVAL;
	o[3] = vlen;
	if (o[0] == NOVAL || (has_val && o[2] == NOVAL))
		return -1;
	s->nf++;
	return 0;
}

/* The quirk: a JSON value split over lines is glued back with "\\n". */
static int
continues(struct sse *s, const char *line, size_t n)
{
	if (!s->nf)
		return 0;
	size_t *o = s->offs + 4 * (s->nf - 1);
	if (o[2] == NOVAL || !o[3])
		return 0;
	const char *v = s->strs.s + o[2];
	if (v[0] != '{' || v[o[3] - 1] == '}')
		return 0;
	return !(n >= 5 && !memcmp(line, "data:", 5));
}

static int
append_continuation(struct sse *s, const char *line, size_t n)
{
	size_t *o = s->offs + 4 * (s->nf - 1);
	/* The last value is the last string in strs: extend it in place. */
	s->strs.len--;
	if (add(&s->strs, "\\n", 2, &s->nomem) < 0 || add(&s->strs, line, n, &s->nomem) < 0 ||
	    add(&s->strs, "", 1, &s->nomem) < 0)
		return -1;
	o[3] += 2 + n;
	return 0;
}

static int
parse_line(struct sse *s, const char *line, size_t n)
{
	if (continues(s, line, n))
		return append_continuation(s, line, n);
	const char *colon = memchr(line, ':', n);
	if (!colon)
		return add_field(s, line, n, NULL, 0, 0);
	const char *name = line, *val = colon + 1;
	size_t nlen = (size_t)(colon - line), vlen = n - nlen - 1;
	trim(&name, &nlen);
	trim(&val, &vlen);
	if (!nlen)
		name = "comment", nlen = 7;
	return add_field(s, name, nlen, val, vlen, 1);
}

static int
emit(struct sse *s)
{
	struct sse_field fields[16], *f = fields;
	int rc;

	if (s->nf > 16 && (s->nf > SIZE_MAX / sizeof(*f) ||
			   !(f = malloc(s->nf * sizeof(*f))))) {
		s->nomem = s->nf * sizeof(*f);
		return errno = ENOMEM, -1;
	}
	for (size_t i = 0; i < s->nf; i++) {
		size_t *o = s->offs + 4 * i;
		f[i].name = s->strs.s + o[0];
		f[i].nlen = o[1];
		f[i].value = o[2] == NOVAL ? NULL : s->strs.s + o[2];
		f[i].vlen = o[3];
	}
	struct sse_msg m = { s->text.s, s->text.len, f, s->nf };
	rc = s->fn ? s->fn(s->ctx, &m) : 0;
	if (f != fields)
		free(f);
	return rc < 0 ? -1 : 0;
}

int
sse_parse_message(struct sse *s, const char *p, size_t n)
{
	buf_reset(&s->text);
	buf_reset(&s->strs);
	s->nf = 0;
	if (sse_utf8_append(&s->text, p, n, &s->nomem) < 0)
		return -1;
	const char *t = buf_str(&s->text);
	size_t tn = s->text.len;
	trim(&t, &tn);
	if (!tn)
		return 0;
	memmove(s->text.s, t, tn);
	s->text.len = tn;
	s->text.s[tn] = '\0';
	const unsigned char *u = (const unsigned char *)s->text.s;
	for (size_t i = 0; i < tn;) {
		size_t j = i;
		while (j < tn) {
			/* eight bytes at a time while none is a control byte */
			while (j + 8 <= tn && !has_ctl(word(u + j)))
				j += 8;
			if (j == tn || is_linebreak(u[j]))
				break;
			j++;
		}
		const char *line = s->text.s + i;
		size_t ln = j - i;
		trim(&line, &ln);
		if (ln && parse_line(s, line, ln) < 0)
			return -1;
		i = j + 1;
	}
	return emit(s);
}

/* Index of the earliest "\n\n" or "\r\n\r\n" at or after from, or NOVAL. */
static size_t
find_delim(const char *p, size_t n, size_t from, size_t *dlen)
{
	for (size_t i = from; i + 1 < n; i++) {
		const char *nl = memchr(p + i, '\n', n - i);
		if (!nl)
			return NOVAL;
		i = (size_t)(nl - p);
		if (i + 1 < n && p[i + 1] == '\n')
			return *dlen = 2, i;
		if (i >= 1 && p[i - 1] == '\r' && i + 2 < n && p[i + 1] == '\r' &&
		    p[i + 2] == '\n' && i - 1 >= from)
			return *dlen = 4, i - 1;
	}
	return NOVAL;
}

/*
 * Messages are parsed where they are: in p itself when nothing was left
 * over from the last feed (the common case: a read ends at a message's
 * end), so only an unfinished message's bytes are copied to s->in.
 */
int
sse_feed(struct sse *s, const char *p, size_t n)
{
	size_t start = 0, dlen = 0, at, from = 0;
	int rc = 0;

	if (s->in.len || n > s->in.max) {
		if (add(&s->in, p, n, &s->nomem) < 0) {
			sse_reset(s);
			return -1;
		}
		p = s->in.s;
		n = s->in.len;
		from = s->scanned;
	}
	while ((at = find_delim(p, n, from, &dlen)) != NOVAL) {
		rc = sse_parse_message(s, p + start, at - start);
		start = from = at + dlen;
		if (rc < 0)
			break;
	}
	int err = errno;	/* the message's failure, if any, is what to report */
	if (p == s->in.s) {
		buf_consume(&s->in, start);
	} else if (add(&s->in, p + start, n - start, &s->nomem) < 0) {
		sse_reset(s);	/* within max (n is), but no memory for it */
		return -1;
	}
	/* A delimiter may straddle this feed and the next: back up 3 bytes. */
	s->scanned = rc < 0 ? 0 : s->in.len > 3 ? s->in.len - 3 : 0;
	errno = err;
	return rc < 0 ? -1 : 0;
}

int
sse_finish(struct sse *s)
{
	int rc = 0;
	if (s->in.len)
		rc = sse_parse_message(s, s->in.s, s->in.len);
	sse_reset(s);
	return rc;
}

int
sse_msg_data(const struct sse_msg *m, struct buf *out)
{
	int count = 0;
	for (size_t i = 0; i < m->n; i++) {
		const struct sse_field *f = &m->f[i];
		if (f->nlen != 4 || memcmp(f->name, "data", 4))
			continue;
		if ((count && buf_addch(out, '\n') < 0) ||
		    (f->value && buf_add(out, f->value, f->vlen) < 0))
			return -1;
		count++;
	}
	return count;
}

static int
eq_ci(const char *a, size_t n, const char *lit)
{
	size_t i = 0;
	for (; i < n && lit[i]; i++) {
		char c = a[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != lit[i])
			return 0;
	}
	return i == n && !lit[i];
}

int
sse_msg_is_error(const struct sse_msg *m)
{
	for (size_t i = 0; i < m->n; i++)
		if (eq_ci(m->f[i].name, m->f[i].nlen, "event") && m->f[i].value &&
		    eq_ci(m->f[i].value, m->f[i].vlen, "error"))
			return 1;
	return 0;
}

const struct sse_field *
sse_msg_comment(const struct sse_msg *m)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->f[i].nlen == 7 && !memcmp(m->f[i].name, "comment", 7))
			return &m->f[i];
	return NULL;
}
