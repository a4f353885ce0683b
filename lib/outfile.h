/* SPDX-License-Identifier: Apache-2.0 */
/* Output files that are never written through a symbolic link at their name. */
#ifndef AIPERF_OUTFILE_H
#define AIPERF_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

/*
 * A file written whole: outfile_open() creates a new hidden file beside
 * path (".NAME.XXXXXXXXXXXX" in path's folder), exclusively and never
 * through a link (O_CREAT|O_EXCL|O_NOFOLLOW, mode 0666 less the umask),
 * trying other names while one is taken; the caller writes of->fd, or the
 * stream outfile_fopen() gives. outfile_commit() closes it and renames it
 * over path: whatever was at path (a link included, not followed) is
 * replaced, and a reader sees the old file or the whole new one, never
 * part of it. A failed commit, and outfile_discard(), remove the new
 * file. Each path is relative to the folder at (AT_FDCWD: the working
 * directory), and may name a folder of its own ("dir/name"). The struct
 * owns its copies of the names and the descriptor or stream: commit and
 * discard release them whatever they return. All return 0 (or the
 * descriptor), or -1 with errno set and nothing left behind.
 * A character or block device, FIFO or socket at path (itself, not a link
 * to one) is never replaced: outfile_open() and outfile_fresh() open it
 * for writing where it is (/dev/null stays a device; a FIFO waits for its
 * reader), and commit only closes it.
 */
struct outfile {
	int fd;		/* the new file, open for writing, or -1 */
	FILE *f;	/* fd as a stream (outfile_fopen), or NULL */
	int at;
	char *tmp;	/* its name, relative to at */
	char *path;	/* the name it is renamed to */
};

int outfile_open(struct outfile *of, int at, const char *path);
/* outfile_open() with the new file as a stream ("w"); NULL on failure. */
FILE *outfile_fopen(struct outfile *of, int at, const char *path);
/* Fails (errno EIO when no write said why) if the stream had an error. */
int outfile_commit(struct outfile *of);
/* Keeps errno as it was, so that a caller can discard, then report. */
void outfile_discard(struct outfile *of);

/* The n bytes at s written whole to path, as above. */
int outfile_write(int at, const char *path, const void *s, size_t n);

/*
 * A name for a new file or folder beside path, hidden: path's folder,
 * '.', its last component (cut to fit NAME_MAX), '.', 12 random hex
 * digits. Malloc'd; guessable at worst, which costs a retry, never a
 * file: whoever uses it must create it exclusively.
 */
char *outfile_tmpname(const char *path);

/*
 * A file written as it goes, under its own name from the start (a
 * reader may follow it): whatever is at path (a file or a link, never a
 * folder) is removed, then path is created exclusively, never through a
 * link, mode 0666 less the umask. Returns the descriptor, open for
 * writing (O_CLOEXEC), or -1 with errno set (a folder there: EISDIR).
 */
int outfile_fresh(int at, const char *path);

/*
 * A file several writers append to (the run log): opened for appending,
 * created when absent, never through a link (ELOOP), and only when a
 * regular file (else EFTYPE, util.h). The open never waits (a FIFO) and
 * never takes a controlling terminal. Returns the descriptor (O_CLOEXEC),
 * or -1 with errno set.
 */
int outfile_append(int at, const char *path);

#endif
