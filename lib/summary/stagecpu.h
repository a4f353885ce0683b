/* SPDX-License-Identifier: Apache-2.0 */
/* --stage-cpu: the other stages' CPU during the measured window, from the wrapper's samples. */
#ifndef AIPERF_SUMMARY_STAGECPU_H
#define AIPERF_SUMMARY_STAGECPU_H

#include <stddef.h>
#include <stdint.h>

#define STAGECPU_MAX 8

/*
 * The file aiperf profile's sampler writes while the sender runs:
 *
 *	names aiperf-gen aiperf-metrics aiperf-export
 *	WALL_NS CPU_NS CPU_NS CPU_NS	(one line a sample, times rising)
 *	end				(the sender ended: no more samples)
 *
 * with each stage's CPU time (user + system) so far. A line starting with
 * '#' is a comment.
 */
struct stagecpu {
	size_t n;			/* stages; 0: nothing known */
	char names[STAGECPU_MAX][32];
	double seconds[STAGECPU_MAX];	/* CPU in the window, each stage */
	double total;			/* their sum */
	double window;			/* the window's length, s */
};

/*
 * The CPU each stage used between start_ns and end_ns (wall clock), from
 * text[0..len): the samples at or before each end, a stage's CPU taken
 * as 0 before its first sample. Returns 0, or -1 with why set (a
 * malformed file, no samples, a window not inside the samples' span).
 */
int stagecpu_parse(struct stagecpu *sc, const char *text, size_t len,
		   int64_t start_ns, int64_t end_ns, char *why, size_t whylen);
/* Whether text holds the "end" line yet (the sampler is done). */
int stagecpu_complete(const char *text, size_t len);

#endif
