/* SPDX-License-Identifier: Apache-2.0 */
/* A process's /proc/PID/stat: its name, state, parents and CPU time. */
#ifndef AIPERF_PROCSTAT_H
#define AIPERF_PROCSTAT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The fields of proc(5)'s /proc/PID/stat that the tools use. Times are in
 * clock ticks (sysconf(_SC_CLK_TCK) a second) as the kernel writes them;
 * procstat_ns() turns them into nanoseconds. The struct holds no pointer:
 * nothing to free.
 */
struct procstat {
	long long pid;
	char comm[64];		/* cut to fit; the kernel's is 16 bytes at most */
	char state;		/* R, S, D, Z, T, ... */
	long long ppid, pgrp;
	long long utime, stime;	/* ticks in user and in kernel mode */
	long long starttime;	/* ticks after boot: with pid, one process */
};

/*
 * Parse one stat line of len bytes (no NUL needed). The name (field 2)
 * runs from the first '(' to the last ')', as a name may hold both
 * parentheses and spaces; the fields after it are counted from there.
 * Every field up to starttime (22) must be present; the numbers kept must
 * be decimal integers in [0, INT64_MAX] (ppid and pgrp too). Returns 0,
 * or -1 with errno EINVAL, ps then unspecified.
 */
int procstat_parse(struct procstat *ps, const char *text, size_t len);

/*
 * Read and parse /proc/PID/stat (one bounded read). Returns 0, or -1 with
 * errno: ESRCH when the process is gone (no such entry, or it ended while
 * being read), EINVAL when the file does not parse or names another pid,
 * else open(2)'s or read(2)'s.
 */
int procstat_read(struct procstat *ps, pid_t pid);

/* ticks clock ticks in nanoseconds (the clock rate read once), saturating
 * at INT64_MAX; a negative count is 0. */
int64_t procstat_ns(long long ticks);

/* The CPU time of ps (utime + stime) in nanoseconds. */
int64_t procstat_cpu_ns(const struct procstat *ps);

#endif
