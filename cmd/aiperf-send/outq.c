/* SPDX-License-Identifier: Apache-2.0 */
/* Standard output that never blocks the loop: what a slow reader leaves waits in memory. */
#define _GNU_SOURCE		/* F_SETPIPE_SZ */
#include "outq.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>
#include "clock.h"

#define PIPE_BYTES (1 << 20)	/* what an unprivileged process may ask */

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
	q->off = q->peak = 0;
	q->cap = cap;
	q->waits = 0;
	q->wait_ns = q->max_wait_ns = 0;
	q->nonblock = 0;
	buf_init(&q->q, BUF_NOMAX);
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
	return q->q.len - q->off;
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
	ssize_t w;

	if (!outq_pending(q))
		return 0;
	if ((w = write_some(q->fd, q->q.s + q->off, outq_pending(q))) < 0)
		return -1;
	q->off += (size_t)w;
	if (q->off == q->q.len) {
		buf_reset(&q->q);
		q->off = 0;
	} else if (q->off >= (1 << 20) && q->off >= q->q.len / 2) {
		buf_consume(&q->q, q->off);	/* keep the memory to what waits */
		q->off = 0;
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

int
outq_put(struct outq *q, const char *p, size_t n)
{
	if (!outq_pending(q)) {
		ssize_t w = write_some(q->fd, p, n);
		if (w < 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	if (!n)
		return 0;
	buf_add(&q->q, p, n);
	if (outq_pending(q) > q->peak)
		q->peak = outq_pending(q);
	if (outq_pending(q) <= q->cap)
		return 0;
	/* The reader is cap bytes behind: wait until it took half. */
	int64_t t0 = clock_mono_ns(), dt;
	while (outq_pending(q) > q->cap / 2) {
		wait_writable(q->fd);
		if (outq_pump(q) < 0)
			return -1;
	}
	dt = clock_mono_ns() - t0;
	q->waits++;
	q->wait_ns += dt;
	if (dt > q->max_wait_ns)
		q->max_wait_ns = dt;
	return 0;
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
	buf_release(&q->q);
	q->off = 0;
}
