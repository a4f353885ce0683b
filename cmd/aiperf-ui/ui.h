/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-ui internals: the run's state from aiperf-metrics' status lines, and its three views. */
#ifndef AIPERF_UI_H
#define AIPERF_UI_H

#include <stddef.h>
#include <stdint.h>

#define UI_MAXTYPES 17

struct ui_phase {
	int64_t done, errors;
	double span_s, request_rate, token_rate;
};

struct ui_dist {
	int64_t n;		/* 0: none yet */
	double p50, p90, p99, max;
};

/* The latest status line, and what the command line says about the run. */
struct ui_state {
	/* the run as configured (0: not given) */
	int64_t request_count, warmup_count;
	double duration_s, warmup_duration_s;
	/* the latest status */
	int lines;		/* status lines read */
	int end;		/* the last line ("end":true) was read */
	char phase[16];
	struct ui_phase warm, prof;
	struct ui_dist ttft, itl, lat, late;
	int ntypes;
	struct {
		char name[48];
		int64_t n;
	} types[UI_MAXTYPES];
	double elapsed_s;	/* since aiperf-ui started */
};

/* state.c: one status line into st; returns 0, or -1 (not a status line). */
int ui_parse(struct ui_state *st, const char *s, size_t n);

/* text.c: the progress of phase p as "done/total" or "elapsed/duration",
 * its fraction (-1: unknown) and ETA in seconds (-1: unknown). */
double ui_fraction(const struct ui_state *st, int warmup, double *eta);
/* A plain line (no escapes) for st, into buf. */
void ui_plain_line(const struct ui_state *st, char *buf, size_t size);
/* simple: progress bars redrawn in place on fd; ui_simple_end leaves them. */
void ui_simple_draw(const struct ui_state *st, int fd);
void ui_simple_end(const struct ui_state *st, int fd);

/* dash.c: the ncurses dashboard on fd (a terminal). */
int ui_dash_start(int fd);
void ui_dash_draw(const struct ui_state *st);
void ui_dash_resize(void);
void ui_dash_end(void);		/* restores the terminal; safe to call twice */

#endif
