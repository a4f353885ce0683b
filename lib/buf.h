/* SPDX-License-Identifier: Apache-2.0 */
/* A growable byte buffer with a hard cap (curl dynbuf, git strbuf). */
#ifndef AIPERF_BUF_H
#define AIPERF_BUF_H

#include <stddef.h>
#include <string.h>
#include "util.h"

/*
 * A struct buf owns its bytes; they are always NUL-terminated, so b.s can
 * be used as a C string when the contents hold no NUL. buf_init() does not
 * allocate. Appends past `max` bytes fail with -1 (errno ENOBUFS) and leave
 * the buffer as it was (the caller turns that into an error record); every
 * other failure aborts through xrealloc, but for buf_trygrow() and
 * buf_tryadd(). buf_release() frees the contents and re-inits;
 * buf_detach() hands the bytes to the caller, who frees them.
 */
struct buf {
	char *s;
	size_t len;
	size_t cap;
	size_t max;
};

#define BUF_NOMAX ((size_t)-1 / 2)
#define BUF_INIT(max) { NULL, 0, 0, (max) }

void buf_init(struct buf *b, size_t max);
void buf_release(struct buf *b);
char *buf_detach(struct buf *b, size_t *len);
void buf_reset(struct buf *b);
int buf_grow(struct buf *b, size_t extra);
int buf_add(struct buf *b, const void *p, size_t n);
/*
 * buf_grow() and buf_add() for a buffer that one response fills, whose
 * failure is that response's error and not the process's end: when the
 * memory cannot be had they return -1 with errno ENOMEM (the buffer as it
 * was) instead of aborting. A doubled allocation that fails is asked again
 * at exactly the size needed, b->len + extra + 1 bytes: the size that
 * failed when ENOMEM comes back.
 */
int buf_trygrow(struct buf *b, size_t extra);
int buf_tryadd(struct buf *b, const void *p, size_t n);
int buf_addstr(struct buf *b, const char *s);
int buf_addch(struct buf *b, int c);
int buf_addf(struct buf *b, const char *fmt, ...) FMT(2, 3);
/* buf_add() with the common case (room left, under the cap) inline, for
 * hot paths that append many short pieces. */
static inline int
buf_put(struct buf *b, const void *p, size_t n)
{
	if (n < b->cap - b->len && n <= b->max - b->len) {
		memcpy(b->s + b->len, p, n);
		b->len += n;
		b->s[b->len] = '\0';
		return 0;
	}
	return buf_add(b, p, n);
}
/* Drop the first n bytes, keeping the rest. */
void buf_consume(struct buf *b, size_t n);
/* Return b->s, never NULL (an empty buffer gives ""). */
const char *buf_str(const struct buf *b);

#endif
