/* SPDX-License-Identifier: Apache-2.0 */
/* --raw-file: raw records written to a file by a thread of their own, from a bounded queue. */
#ifndef AIPERF_RAWOUT_H
#define AIPERF_RAWOUT_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"

/*
 * The sender's loop hands blocks of whole records to rawout_put(), which
 * queues them without a system call (a futex wake at most) and returns; a
 * writer thread writes them to the file in order. Only when the queue
 * holds cap bytes (the disk is slower than the run) does rawout_put() wait
 * for room, and that wait is counted. When a write fails (a full disk) the
 * file is cut back to its last whole record and later blocks are dropped.
 * A struct rawout owns the file, the thread and every queued block; the
 * caller keeps its own buffer, whose bytes rawout_put() takes.
 */
struct rawout;

struct rawout_stats {
	uint64_t waits;		/* hand-overs that found the queue full */
	int64_t wait_ns;	/* time spent waiting for room, in all */
	int64_t max_wait_ns;	/* the longest such wait */
	uint64_t bytes;		/* whole records written to the file */
	size_t peak;		/* most bytes queued at once */
};

/*
 * Create or truncate path (mode 0666 less the umask) and start its writer;
 * cap bounds the bytes queued. NULL with errno set when the file cannot be
 * opened or the thread cannot start.
 */
struct rawout *rawout_open(const char *path, size_t cap);

/*
 * Queue b's bytes (whole records) and leave b empty, with an allocation
 * of its own to reuse. Waits while the queue is full. Returns -1 with
 * errno set to the writer's error once a write failed (the bytes are
 * dropped), else 0.
 */
int rawout_put(struct rawout *r, struct buf *b);

/*
 * Write everything queued, close the file, end the thread and free r.
 * Returns 0, or -1 with errno set to the first write or close error; st
 * (if not NULL) gets the counts either way.
 */
int rawout_close(struct rawout *r, struct rawout_stats *st);

#endif
