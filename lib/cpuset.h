/* SPDX-License-Identifier: Apache-2.0 */
/* A CPU list as taskset(1) and /sys write it ("0-2,4"), parsed into a bit set. */
#ifndef AIPERF_CPUSET_H
#define AIPERF_CPUSET_H

/* The CPUs a set holds, 0 to CPUSET_MAX - 1 (glibc's CPU_SETSIZE). */
#define CPUSET_MAX 1024

/*
 * Parses s, comma-separated CPU numbers and ranges "A-B" (A <= B), into
 * set (CPUSET_MAX bits, bit i of byte i / 8 for CPU i), which it clears
 * first. 0, or -1 when s is empty, malformed or names a CPU past the
 * largest: set is then empty. The caller owns set.
 */
int cpuset_parse(const char *s, unsigned char set[CPUSET_MAX / 8]);
/* Whether cpu is in set. */
int cpuset_has(const unsigned char set[CPUSET_MAX / 8], int cpu);

#endif
