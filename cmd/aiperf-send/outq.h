/* SPDX-License-Identifier: Apache-2.0 */
/* Standard output that never blocks the loop: what a slow reader leaves waits in memory. */
#ifndef AIPERF_OUTQ_H
#define AIPERF_OUTQ_H

#include <stddef.h>
#include <stdint.h>

/*
 * On a pipe or a socket the descriptor is made non-blocking (its flags
 * are given back by outq_close) and the pipe grown to 1 MiB where the
 * kernel lets us; outq_put writes what the reader has room for and
 * keeps the rest, in order, for outq_pump (the loop calls it when the
 * descriptor is writable). Only when cap bytes wait does outq_put block
 * until the reader took half of them, and that wait is counted. A
 * regular file or a terminal is written as before, blocking.
 */
struct outq_chunk;

struct outq {
	int fd;
	int flags;		/* the descriptor's status flags, to give back */
	int nonblock;		/* we made it non-blocking */
	/* bytes waiting for the reader, in chunks of a fixed size: appending
	 * copies the new bytes only, never what waits already */
	struct outq_chunk *head, *tail, *spare;
	size_t pending;
	size_t cap;
	size_t peak;		/* most bytes waiting at once */
	uint64_t waits;		/* puts that found cap bytes waiting */
	int64_t wait_ns, max_wait_ns;
};

/* Take over fd; -1 with errno when its flags cannot be read. */
int outq_open(struct outq *q, int fd, size_t cap);

/* Bytes waiting for the reader. */
size_t outq_pending(const struct outq *q);

/*
 * Write p[0..n) after what waits, without blocking unless cap bytes
 * wait. 0, or -1 with errno from write(2) (EPIPE: the reader is gone).
 */
int outq_put(struct outq *q, const char *p, size_t n);

/* Write what waits until the reader is full; 0 or -1 with errno. */
int outq_pump(struct outq *q);

/* Write everything that waits, blocking; 0 or -1 with errno. */
int outq_drain(struct outq *q);

/* Give the descriptor its flags back and free what waits. */
void outq_close(struct outq *q);

#endif
