/* SPDX-License-Identifier: Apache-2.0 */
/* The simple view's progress bars: one line per phase, redrawn in place. */
#ifndef AIPERF_PROGRESS_H
#define AIPERF_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

/* A phase's progress: done of total requests (total 0: by duration_s,
 * when that is > 0; else the count alone), over span_s seconds. */
struct progress {
	int64_t done, errors, total;
	double duration_s, span_s, request_rate;
	int ended;		/* the phase is over: 100% when measurable */
	double cpu;		/* the sender's CPU, % of one core; < 0: not shown */
	int senders;		/* how many senders cpu sums (> 1: named) */
};

/* The fraction done (-1: not known) and the ETA in seconds (-1: not known). */
double progress_fraction(const struct progress *p, double *eta);
/* "done/total", "12.0s/60s" or "done". */
void progress_count(const struct progress *p, char *b, size_t size);
/* "MM:SS", "H:MM:SS" or "--:--". */
void progress_eta(double eta, char *b, size_t size);
/* "Profiling [####------] 40.0% 40/100  0 errors  12.0 req/s  ETA 00:05". */
void progress_bar(const struct progress *p, const char *label, char *b, size_t size);

/* The lines last drawn on a terminal, for the next draw to go over. */
struct progress_screen {
	int drawn;
};

/* The n lines on fd, over those drawn before. */
void progress_draw(struct progress_screen *sc, const char *const lines[], int n, int fd);
/* The simple view: a "Warmup" bar (when warm is not NULL) and a
 * "Profiling" bar, drawn on fd over those drawn before. */
void progress_draw_phases(struct progress_screen *sc, const struct progress *warm,
			  const struct progress *prof, int fd);

#endif
