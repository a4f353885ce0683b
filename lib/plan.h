/* SPDX-License-Identifier: Apache-2.0 */
/* The plan of one run: what aiperf profile's planner decides, what its supervisor carries out. */
#ifndef AIPERF_PLAN_H
#define AIPERF_PLAN_H

#include <stddef.h>
#include "buf.h"

/*
 * One run of aiperf profile is planned (options parsed and checked, every
 * stage's command line, every file's name) and then supervised (the stages
 * started, wired, signalled, waited for, reported). The plan passes between
 * the two as one JSON file, whose form is defined here and nowhere else:
 * plan_write() renders a struct plan, plan_parse() reads it back; what one
 * writes the other reads, field for field (test-plan).
 *
 * Every path is written in full: the planner names the scratch folder's
 * files (the FIFOs among them), the supervisor makes the FIFOs it is given
 * and opens the files; it invents no name of its own. argv[0] of each
 * command line is a tool's name ("aiperf-send"), looked for beside the
 * supervisor, else on PATH.
 *
 * A struct plan owns every string and array in it: plan_release() frees
 * them all; plan_argv_add() and plan_set() copy what they are given.
 */

/* A command line; v[n] is NULL. */
struct plan_argv {
	char **v;
	size_t n, alloc;
};

/* One sender of the run: aiperf-gen | aiperf-send | the spool into a file. */
struct plan_sender {
	struct plan_argv gen, send;
	char *gen_err;		/* the generator's standard error, a file */
	char *send_err;		/* the sender's, or NULL: the supervisor's own */
	char *spool;		/* the sender's records are appended here */
	char *spool_err;
	char *phase_ack;	/* FIFO of the coordinator's "go" lines (several senders), or NULL */
	char *send_pid;		/* the sender's pid is written here (aiperf-ui --sender-pid-file) */
};

/* A scraper (aiperf-scrape) from before the first request to after the last. */
struct plan_scraper {
	char *name;		/* "server-metrics", "gpu": for messages */
	struct plan_argv argv;
	char *out, *err;	/* its standard output and error, files */
	char *done;		/* out is renamed to this once it has ended, or NULL */
	char *cue;		/* FIFO the profiling cue is written to, or NULL */
	int baseline;		/* the run waits for one line of out per endpoint (the baseline) */
	size_t endpoints;	/* how many endpoints it scrapes */
	int hold_export;	/* export reads out at its input's end: that input
				 * ends only once this scraper has ended */
};

struct plan {
	char *run_dir;		/* scratch; made and removed by the caller */
	char *artifact_dir;
	char *log_file;		/* logs/aiperf.log, or NULL */
	char *log_level;	/* TRACE ... CRITICAL */
	char *input;		/* the generators' standard input: a path, "/dev/null", "-" */
	struct plan_argv log;	/* the planner's notes for the run log, "LEVEL message" each */

	struct plan_sender *senders;
	size_t nsenders;
	struct plan_argv metrics, export;
	char *metrics_err, *export_err;
	char *metrics_gate;	/* FIFO aiperf-metrics waits on (--start-fifo): the
				 * supervisor holds its writer until the senders
				 * end, or NULL: metrics runs beside them */
	struct plan_argv ui;	/* aiperf-ui on metrics' fd 3, or n == 0: no live view */
	char *notice;		/* the dashboard's notice file, or NULL */

	struct plan_scraper *scrapers;
	size_t nscrapers;
	char *scrape_ctl;	/* FIFO whose writers' end ends every scraper, or NULL */
	char *scrape_ack;	/* FIFO the scrapers acknowledge the cue on, or NULL */
	long long scrape_timeout_s;	/* a scraper's final scrape at most (its --timeout) */

	char *phase_cue;	/* FIFO the senders cue their phases on (several), or NULL */
	long long margin_us;	/* a phase starts this long after its barrier */
	long long start_ns;	/* the first phase at this wall-clock time (epoch ns), or 0 */

	char *cancelled;	/* made when a signal stops the run (aiperf-export --was-cancelled-if) */
	char *stage_cpu;	/* the other stages' CPU samples (aiperf-export --stage-cpu) */
	char *raw;		/* the raw records' file the run keeps, or NULL: the
				 * spools are spills, removed at the end */

	int solo_cpu;		/* the CPU the senders have to themselves, or -1 */
	char *rest_cpus;	/* the other stages' CPUs ("0-2,4"), or NULL: any */
	int idle;		/* the other stages run on idle CPU (SCHED_IDLE) */
	int live;		/* metrics and export run while requests are in flight */
};

/* A plan with nothing in it (solo_cpu -1): no allocation. */
void plan_init(struct plan *p);
/* Frees everything p holds and leaves it as plan_init() does. */
void plan_release(struct plan *p);

/* Appends a copy of s to a. */
void plan_argv_add(struct plan_argv *a, const char *s);
/* Frees a's strings and array; a is left empty. */
void plan_argv_release(struct plan_argv *a);
/* *field = a copy of s (NULL: none), the old value freed. */
void plan_set(char **field, const char *s);
/* A new sender (or scraper), zeroed, at the end of p's list. */
struct plan_sender *plan_add_sender(struct plan *p);
struct plan_scraper *plan_add_scraper(struct plan *p);

/* p as JSON text (one object, a line of its own) appended to b. */
void plan_write(const struct plan *p, struct buf *b);
/*
 * Fills p (plan_init()ed) from the JSON text s[0..n): 0, or -1 with the
 * reason in err (the field, what was wrong), p then released. A field not
 * known is an error, as is one of the wrong type: the two ends are one
 * build.
 */
int plan_parse(struct plan *p, const char *s, size_t n, char *err, size_t errlen);
/* plan_parse() of the regular file at path (1 MiB at most). */
int plan_load(struct plan *p, const char *path, char *err, size_t errlen);

#endif
