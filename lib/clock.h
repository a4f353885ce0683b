/* SPDX-License-Identifier: Apache-2.0 */
/* Monotonic and wall-clock time in nanoseconds, with a fake clock for tests. */
#ifndef AIPERF_CLOCK_H
#define AIPERF_CLOCK_H

#include <stdint.h>
#include <time.h>

/*
 * clock_now_ns() is CLOCK_MONOTONIC (latencies are differences of it);
 * clock_wall_ns() is CLOCK_REALTIME (epoch anchors in records). When the
 * environment has AIPERF_FAKE_CLOCK=START[:STEP] (ns), both return START,
 * START+STEP, ... from one shared counter, so tool output is reproducible.
 */
int64_t clock_now_ns(void);
int64_t clock_wall_ns(void);
/*
 * The kernel's CLOCK_MONOTONIC, never faked: for deadlines the kernel
 * keeps (timerfd, epoll timeouts) and for aiperf-mock's latency model.
 */
static inline int64_t
clock_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * The kernel's CLOCK_REALTIME, never faked: for moments other processes
 * compare with their own clocks (a phase's start, the stage CPU samples).
 */
static inline int64_t
clock_real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Format epoch ns as naive local ISO-8601 "YYYY-MM-DDTHH:MM:SS.ffffff". */
void clock_iso_local(int64_t epoch_ns, char out[64]);

#endif
