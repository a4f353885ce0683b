/* SPDX-License-Identifier: Apache-2.0 */
/* An output file that only ever holds whole lines, even when a write fails (disk full). */
#ifndef AIPERF_LINEFILE_H
#define AIPERF_LINEFILE_H

#include <stddef.h>
#include <sys/types.h>
#include "buf.h"

/*
 * linefile_open() creates or truncates path, opened as given (a link
 * followed, a device written), or with LINEFILE_FRESH, for a file in a
 * folder the tool fills, removes whatever is at path and creates it
 * afresh, never through a link (outfile_fresh(), lib/outfile.h);
 * linefile_put() appends one
 * line (s, n, without its '\n') and writes the buffer out every 64 KiB;
 * linefile_close() writes the rest and closes. When a write fails, the file
 * is cut back to the end of its last whole line, and that call and every
 * later one return -1 with errno set to the write's error; lines() tells
 * how many whole lines the file holds. All of them return 0 on success.
 * The struct borrows path (it must outlive lf, so that a caller can name
 * the file after a failed close) and owns its buffer, which
 * linefile_close() frees whatever it returns.
 */
struct linefile {
	int fd;
	const char *path;
	struct buf b;
	off_t good;		/* bytes of whole lines on disk */
	size_t lines;		/* whole lines on disk */
	size_t pending;		/* lines in b */
	int err;		/* errno of the first failure, or 0 */
};

enum linefile_flags {
	LINEFILE_FRESH = 1 << 0,
};

int linefile_open(struct linefile *lf, const char *path, unsigned flags);
int linefile_put(struct linefile *lf, const char *s, size_t n);
int linefile_close(struct linefile *lf);

#endif
