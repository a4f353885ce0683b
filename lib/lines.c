/* SPDX-License-Identifier: Apache-2.0 */
/* A line reader for NDJSON/CSV input: bounded lines, line numbers, transparent zstd. */
#include "lines.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

#define CHUNK (1 << 20)

void
lines_fdopen(struct lines *l, int fd, const char *name, size_t max)
{
	memset(l, 0, sizeof(*l));
	l->fd = fd;
	l->name = name;
	l->max = max;
	l->zstd = -1;
	l->zrc = 1;
	buf_init(&l->in, BUF_NOMAX);
	buf_init(&l->dec, BUF_NOMAX);
}

int
lines_open(struct lines *l, const char *path, size_t max)
{
	int fd = 0;

	if (strcmp(path, "-") && (fd = util_openfile(path, 0)) < 0)
		return -1;
	lines_fdopen(l, fd, strcmp(path, "-") ? path : "<stdin>", max);
	l->own_fd = fd != 0;
	return 0;
}

/* A FIFO is opened blocking, to wait for its writer as cat(1) does (a
 * non-blocking open first would count as a reader the writer then loses);
 * what was opened must be the FIFO still. */
static int
open_stream(const char *path)
{
	struct stat st;
	int fd;

	if (stat(path, &st) < 0 || !S_ISFIFO(st.st_mode))
		return util_openfile(path, 0);
	if ((fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC)) < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISFIFO(st.st_mode)) {
		close(fd);
		return errno = EFTYPE, -1;
	}
	return fd;
}

int
lines_open_stream(struct lines *l, const char *path, size_t max)
{
	int fd = 0;

	if (strcmp(path, "-") && (fd = open_stream(path)) < 0)
		return -1;
	lines_fdopen(l, fd, strcmp(path, "-") ? path : "<stdin>", max);
	l->own_fd = fd != 0;
	return 0;
}

void
lines_close(struct lines *l)
{
	if (l->own_fd)
		close(l->fd);
	if (l->z)
		ZSTD_freeDStream(l->z);
	buf_release(&l->in);
	buf_release(&l->dec);
	l->z = NULL;
}

/* Append up to CHUNK raw bytes to l->in; returns bytes read, 0 at EOF, -1. */
static ssize_t
fill_raw(struct lines *l)
{
	ssize_t r;

	if (buf_grow(&l->in, CHUNK) < 0)
		return errno = ENOBUFS, -1;
	if (l->idle) {
		struct pollfd p = { l->fd, POLLIN, 0 };

		if (poll(&p, 1, 0) == 0)
			l->idle(l->idle_ctx);
	}
	do
		r = read(l->fd, l->in.s + l->in.len, CHUNK);
	while (r < 0 && errno == EINTR);
	if (r > 0) {
		l->in.len += (size_t)r;
		l->in.s[l->in.len] = '\0';
	}
	return r;
}

static int
detect(struct lines *l)
{
	static const unsigned char magic[4] = { 0x28, 0xB5, 0x2F, 0xFD };

	while (l->in.len < 4) {
		ssize_t r = fill_raw(l);
		if (r < 0)
			return -1;
		if (r == 0)
			break;
	}
	l->zstd = l->in.len >= 4 && !memcmp(l->in.s, magic, 4);
	if (l->zstd) {
		l->z = ZSTD_createDStream();
		ZSTD_initDStream(l->z);
	}
	return 0;
}

/*
 * Decompress into l->dec until some output appears, reading more input as
 * needed. Returns output bytes, 0 at a clean end, -1 (EILSEQ when the last
 * frame is truncated or corrupt).
 */
static ssize_t
fill_zstd(struct lines *l)
{
	for (;;) {
		if (buf_grow(&l->dec, CHUNK) < 0)
			return errno = ENOBUFS, -1;
		ZSTD_inBuffer in = { l->in.s, l->in.len, 0 };
		ZSTD_outBuffer out = { l->dec.s + l->dec.len, CHUNK, 0 };
		size_t rc = ZSTD_decompressStream(l->z, &out, &in);
		if (ZSTD_isError(rc))
			return errno = EILSEQ, -1;
		if (in.pos || out.pos)
			l->zrc = rc;
		buf_consume(&l->in, in.pos);
		l->dec.len += out.pos;
		l->dec.s[l->dec.len] = '\0';
		if (out.pos)
			return (ssize_t)out.pos;
		if (l->in.len)
			continue;
		ssize_t r = fill_raw(l);
		if (r < 0)
			return -1;
		if (r == 0)
			return l->zrc ? (errno = EILSEQ, -1) : 0;
	}
}

static struct buf *
active(struct lines *l)
{
	return l->zstd == 1 ? &l->dec : &l->in;
}

static ssize_t
fill(struct lines *l)
{
	struct buf *b = active(l);

	/* Compact: drop consumed bytes before reading more. */
	if (l->pos) {
		buf_consume(b, l->pos);
		l->pos = 0;
	}
	return l->zstd == 1 ? fill_zstd(l) : fill_raw(l);
}

static int
emit(struct lines *l, struct buf *b, size_t end, size_t next, const char **s,
     size_t *n)
{
	*s = b->s + l->pos;
	*n = end - l->pos;
	b->s[end] = '\0';
	l->pos = next;
	l->lineno++;
	return 1;
}

int
lines_next(struct lines *l, const char **s, size_t *n)
{
	size_t scanned = 0;	/* bytes after l->pos known to hold no '\n' */

	if (l->zstd < 0 && detect(l) < 0)
		return -1;
	for (;;) {
		struct buf *b = active(l);
		size_t avail = b->len - l->pos - scanned;
		char *nl = avail ? memchr(b->s + l->pos + scanned, '\n', avail)
				 : NULL;
		if (nl) {
			size_t end = (size_t)(nl - b->s);
			if (l->skipping || end - l->pos > l->max) {
				l->skipping = 0;
				l->pos = end + 1;
				l->lineno++;
				return errno = ENOBUFS, -1;
			}
			return emit(l, b, end, end + 1, s, n);
		}
		scanned = b->len - l->pos;
		if (scanned > l->max) {
			/* Over the cap: drop what we have, skip to the next '\n'. */
			l->skipping = 1;
			l->pos = b->len;
			scanned = 0;
		}
		if (l->eof) {
			if (l->skipping) {
				l->skipping = 0;
				l->lineno++;
				return errno = ENOBUFS, -1;
			}
			if (b->len > l->pos)
				return emit(l, b, b->len, b->len, s, n);
			return 0;
		}
		ssize_t r = fill(l);
		if (r < 0)
			return -1;
		if (r == 0)
			l->eof = 1;
	}
}
