/* SPDX-License-Identifier: Apache-2.0 */
/* Standard output that never blocks the loop: what a slow reader leaves waits in memory. */
#define _GNU_SOURCE		/* F_SETPIPE_SZ */
#include "outq.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "clock.h"
#include "util.h"

#define PIPE_BYTES (1 << 20)	/* what an unprivileged process may ask */
#define CHUNK_BYTES ((size_t)1 << 20)

struct outq_chunk {
	struct outq_chunk *next;
	size_t off, len;	/* written, filled */
	char data[];
};

/* Give the descriptor's flags back even on the way out through die(). */
static int exit_fd = -1, exit_flags;

static void
give_back(void)
{
	if (exit_fd >= 0)
		fcntl(exit_fd, F_SETFL, exit_flags);
	exit_fd = -1;
}

int
outq_open(struct outq *q, int fd, size_t cap)
{
	struct stat st;
	static int registered;

	q->fd = fd;
	q->head = q->tail = q->spare = NULL;
	q->pending = q->peak = 0;
	q->cap = cap;
	q->waits = 0;
	q->wait_ns = q->max_wait_ns = 0;
	q->nonblock = 0;
	if ((q->flags = fcntl(fd, F_GETFL)) < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		return 0;
	if (S_ISFIFO(st.st_mode) && fcntl(fd, F_GETPIPE_SZ) < PIPE_BYTES)
		fcntl(fd, F_SETPIPE_SZ, PIPE_BYTES);	/* best effort */
	if (q->flags & O_NONBLOCK)
		return 0;	/* someone else's choice: kept, and handled */
	if (fcntl(fd, F_SETFL, q->flags | O_NONBLOCK) < 0)
		return 0;
	q->nonblock = 1;
	exit_fd = fd;
	exit_flags = q->flags;
	if (!registered++)
		atexit(give_back);
	return 0;
}

size_t
outq_pending(const struct outq *q)
{
	return q->pending;
}

/* Keep p[0..n) after what waits; the bytes kept, fewer when no memory is
 * left for a chunk (a huge record behind a slow reader). */
static size_t
append(struct outq *q, const char *p, size_t n)
{
	size_t kept = 0;

	while (n) {
		struct outq_chunk *c = q->tail;
		size_t k;

		if (!c || c->len == CHUNK_BYTES) {
			if ((c = q->spare))
				q->spare = NULL;
			else if (!(c = malloc(sizeof(*c) + CHUNK_BYTES)))
				return kept;
			c->next = NULL;
			c->off = c->len = 0;
			if (q->tail)
				q->tail->next = c;
			else
				q->head = c;
			q->tail = c;
		}
		k = CHUNK_BYTES - c->len < n ? CHUNK_BYTES - c->len : n;
		memcpy(c->data + c->len, p, k);
		c->len += k;
		q->pending += k;
		kept += k;
		p += k;
		n -= k;
	}
	return kept;
}

/* Write p[0..n) until the reader is full; bytes written, or -1. */
static ssize_t
write_some(int fd, const char *p, size_t n)
{
	size_t off = 0;

	while (off < n) {
		ssize_t w = write(fd, p + off, n - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (w < 0)
			return -1;
		off += (size_t)w;
	}
	return (ssize_t)off;
}

int
outq_pump(struct outq *q)
{
	struct outq_chunk *c;

	while ((c = q->head)) {
		ssize_t w = write_some(q->fd, c->data + c->off, c->len - c->off);

		if (w < 0)
			return -1;
		c->off += (size_t)w;
		q->pending -= (size_t)w;
		if (c->off < c->len)
			return 0;	/* the reader is full */
		if (!(q->head = c->next))
			q->tail = NULL;
		if (!q->spare)
			q->spare = c;	/* one kept: no allocation per chunk */
		else
			free(c);
	}
	return 0;
}

/* Block until the reader has room (or is gone). */
static void
wait_writable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };

	while (poll(&p, 1, -1) < 0 && errno == EINTR)
		;
}

/* A wait for the reader that began at t0 (clock_mono_ns). */
static void
counted(struct outq *q, int64_t t0)
{
	int64_t dt = clock_mono_ns() - t0;

	q->waits++;
	q->wait_ns += dt;
	if (dt > q->max_wait_ns)
		q->max_wait_ns = dt;
}

/* Bytes there was no memory to keep go out now, after what waits: 0 or -1. */
static int
write_through(struct outq *q, const char *p, size_t n)
{
	if (outq_drain(q) < 0)
		return -1;
	while (n) {
		ssize_t w = write_some(q->fd, p, n);
		if (w < 0)
			return -1;
		p += w;
		n -= (size_t)w;
		if (n)
			wait_writable(q->fd);
	}
	return 0;
}

int
outq_put(struct outq *q, const char *p, size_t n)
{
	if (!n)
		return 0;
	if (!outq_pending(q)) {
		ssize_t w = write_some(q->fd, p, n);
		if (w < 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	if (!n)
		return 0;
	size_t kept = append(q, p, n);
	int64_t t0 = clock_mono_ns();
	int rc = 0;
	if (kept < n) {
		rc = write_through(q, p + kept, n - kept);
		counted(q, t0);
		return rc;
	}
	if (outq_pending(q) > q->peak)
		q->peak = outq_pending(q);
	if (outq_pending(q) <= q->cap)
		return 0;
	/* The reader is cap bytes behind: wait until it took half. */
	while (rc == 0 && outq_pending(q) > q->cap / 2) {
		wait_writable(q->fd);
		rc = outq_pump(q);
	}
	counted(q, t0);
	return rc;
}

int
outq_drain(struct outq *q)
{
	while (outq_pending(q)) {
		if (outq_pump(q) < 0)
			return -1;
		if (outq_pending(q))
			wait_writable(q->fd);
	}
	return 0;
}

void
outq_close(struct outq *q)
{
	if (q->nonblock)
		give_back();
	q->nonblock = 0;
	while (q->head) {
		struct outq_chunk *c = q->head;

		q->head = c->next;
		free(c);
	}
	free(q->spare);
	q->tail = q->spare = NULL;
	q->pending = 0;
}
