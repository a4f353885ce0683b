/* SPDX-License-Identifier: Apache-2.0 */
/* --progress-fd: the run's progress line, from the records as they are read. */
#ifndef AIPERF_PROGRESS_H
#define AIPERF_PROGRESS_H

#include <stdint.h>

/*
 * The line aiperf-send used to draw from its own loop, drawn here instead
 * from the records it writes anyway, so that the sender does no work for
 * it: requests done, errors, and the rate over the records' own end
 * stamps. Redrawn at most twice a second, only when fd is a terminal.
 */
struct progress {
	int fd;			/* -1: off */
	uint64_t done, errors;
	int64_t first_ns, last_ns;	/* earliest start, latest end seen */
	int64_t next;		/* when to redraw (monotonic ns) */
	int drawn;
};

/* Draw on fd if it is a terminal, else stay off. */
void progress_init(struct progress *p, int fd);

/* One record: its request's start and end (ns, -1 if unknown), error or not. */
void progress_record(struct progress *p, int64_t start_ns, int64_t end_ns, int error);

/* The last line, and a newline after it. */
void progress_end(struct progress *p);

#endif
