/* SPDX-License-Identifier: Apache-2.0 */
/* A line reader for NDJSON/CSV input: bounded lines, line numbers, transparent zstd. */
#ifndef AIPERF_LINES_H
#define AIPERF_LINES_H

#include <stddef.h>
#include <zstd.h>
#include "buf.h"

/*
 * lines_open() reads a path ("-" is stdin) that must be a regular file
 * (util_openfile(): -1 with errno EFTYPE or EISDIR otherwise, at once);
 * lines_open_stream() also takes a FIFO, and waits for its writer, for the
 * readers of record streams. Input that starts with the
 * zstd magic is decompressed as it streams. lines_next() returns 1 with
 * s and n set to the next line (without its '\n'; a '\r' before it is kept;
 * the text is NUL-terminated and valid until the next call), 0 at end of
 * input, or -1 on error: errno ENOBUFS when a line is longer than max (the
 * rest of that line is skipped, so the caller may report it and go on),
 * EILSEQ for corrupt zstd, else the read error. A last line without '\n'
 * is returned as a line. lineno counts lines returned so far.
 */
struct lines {
	int fd;
	int own_fd;
	const char *name;
	size_t lineno;
	size_t max;
	int eof;
	int skipping;
	struct buf in;		/* raw bytes read */
	struct buf dec;		/* decompressed bytes (zstd) */
	size_t pos;		/* start of the next line in the active buffer */
	int zstd;		/* -1 unknown, 0 plain, 1 zstd */
	ZSTD_DStream *z;
	size_t zrc;		/* last decoder hint: 0 = frame complete */
	/* Called before a read that would wait (nothing to read yet), when
	 * set: a caller holding buffered output flushes it there. */
	void (*idle)(void *ctx);
	void *idle_ctx;
};

int lines_open(struct lines *l, const char *path, size_t max);
int lines_open_stream(struct lines *l, const char *path, size_t max);
/* Read from an already open descriptor (not closed by lines_close). */
void lines_fdopen(struct lines *l, int fd, const char *name, size_t max);
int lines_next(struct lines *l, const char **s, size_t *n);
void lines_close(struct lines *l);

#endif
