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
	/* from elsewhere than the status lines */
	double sender_cpu;	/* aiperf-send's CPU, % of one core; < 0: not known */
	int senders;		/* how many senders sender_cpu sums */
	char notice[256];	/* a line for people (the run was interrupted) */
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

/* cpu.c: the CPU share of one or more processes (the senders), summed,
 * between two samples of each one's /proc/PID/stat. */
struct ui_cpu_proc {
	const char *pidfile;	/* holds the PID, once the process started */
	long pid;		/* 0: not read yet */
	long long ticks;	/* utime + stime at the last sample; -1: none */
};
struct ui_cpu {
	struct ui_cpu_proc *p;
	size_t n;
	int alive;		/* how many were read at the last sample */
	int64_t t_ns;
	long tck;		/* clock ticks a second */
};
/* n PID files (n may be 0); ui_cpu_release frees what init took. */
void ui_cpu_init(struct ui_cpu *c, const char *const *pidfiles, size_t n);
void ui_cpu_release(struct ui_cpu *c);
/* The CPU percent, summed over the processes sampled now and last time,
 * since the last sample (now_ns: CLOCK_MONOTONIC), or -1 when not known
 * yet (the first sample, no PID, every process gone). */
double ui_cpu_sample(struct ui_cpu *c, int64_t now_ns);
/* utime + stime in ticks from the text of /proc/PID/stat; 0, or -1. */
int ui_cpu_ticks(const char *s, size_t n, long long *ticks);
/* A notice from file path (a line, control characters dropped) into
 * st->notice; 1 when one was read, else 0. */
int ui_notice_read(struct ui_state *st, const char *path);

/* dash.c: the ncurses dashboard on fd (a terminal). */
int ui_dash_start(int fd);
void ui_dash_draw(const struct ui_state *st);
void ui_dash_resize(void);
void ui_dash_end(void);		/* restores the terminal; safe to call twice */

#endif
