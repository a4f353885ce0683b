/* SPDX-License-Identifier: Apache-2.0 */
/* A growable byte buffer with a hard cap. */
#include "buf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
buf_init(struct buf *b, size_t max)
{
	b->s = NULL;
	b->len = 0;
	b->cap = 0;
	b->max = max;
}

void
buf_release(struct buf *b)
{
	free(b->s);
	buf_init(b, b->max);
}

char *
buf_detach(struct buf *b, size_t *len)
{
	char *s = b->s ? b->s : xstrdup("");

	if (len)
		*len = b->len;
	buf_init(b, b->max);
	return s;
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = '\0';
}

/* The allocation for need bytes: cap doubled (from 64) until it holds them. */
static size_t
next_cap(size_t cap, size_t need)
{
	cap = cap ? cap : 64;
	while (cap < need)
		cap = cap < ((size_t)-1) / 2 ? cap * 2 : need;
	return cap;
}

/* Room for extra more bytes and the NUL: 0 (need set), 1 (room already), -1 past max. */
static int
room(const struct buf *b, size_t extra, size_t *need)
{
	if (extra > b->max || b->len > b->max - extra)
		return errno = ENOBUFS, -1;
	*need = b->len + extra + 1;
	return *need <= b->cap;
}

int
buf_grow(struct buf *b, size_t extra)
{
	size_t need;
	int r = room(b, extra, &need);

	if (r)
		return r < 0 ? -1 : 0;
	b->cap = next_cap(b->cap, need);
	b->s = xrealloc(b->s, b->cap);
	b->s[b->len] = '\0';
	return 0;
}

int
buf_trygrow(struct buf *b, size_t extra)
{
	size_t need, cap;
	int r = room(b, extra, &need);
	char *s;

	if (r)
		return r < 0 ? -1 : 0;
	cap = next_cap(b->cap, need);
	if (!(s = realloc(b->s, cap)) && cap > need)
		s = realloc(b->s, cap = need);
	if (!s)
		return errno = ENOMEM, -1;
	b->s = s;
	b->cap = cap;
	b->s[b->len] = '\0';
	return 0;
}

/* Append n bytes that have room. */
static inline void
put(struct buf *b, const void *p, size_t n)
{
	if (n)
		memcpy(b->s + b->len, p, n);
	b->len += n;
	b->s[b->len] = '\0';
}

int
buf_tryadd(struct buf *b, const void *p, size_t n)
{
	if (buf_trygrow(b, n) < 0)
		return -1;
	put(b, p, n);
	return 0;
}

int
buf_add(struct buf *b, const void *p, size_t n)
{
	if (buf_grow(b, n) < 0)
		return -1;
	put(b, p, n);
	return 0;
}

int
buf_addstr(struct buf *b, const char *s)
{
	return buf_add(b, s, strlen(s));
}

int
buf_addch(struct buf *b, int c)
{
	char ch = (char)c;

	if (b->len + 1 < b->cap && b->len < b->max) {	/* room, under the cap */
		b->s[b->len++] = ch;
		b->s[b->len] = '\0';
		return 0;
	}
	return buf_add(b, &ch, 1);
}

int
buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || buf_grow(b, (size_t)n) < 0)
		return -1;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

void
buf_consume(struct buf *b, size_t n)
{
	if (n >= b->len) {
		buf_reset(b);
		return;
	}
	memmove(b->s, b->s + n, b->len - n);
	b->len -= n;
	b->s[b->len] = '\0';
}

const char *
buf_str(const struct buf *b)
{
	return b->s ? b->s : "";
}
