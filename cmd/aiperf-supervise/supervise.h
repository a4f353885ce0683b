/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-supervise's shared state: the plan, its children, the signals received, the run's end. */
#ifndef AIPERF_SUPERVISE_H
#define AIPERF_SUPERVISE_H

#include <stddef.h>
#include <sys/types.h>

#include "evloop.h"
#include "plan.h"
#include "runlog.h"
#include "util.h"

/*
 * One struct sv lives for the whole run: main.c loads the plan into it,
 * run.c starts what the plan names and runs the one event loop until
 * every child has been reaped, report.c says how the run ended. The
 * struct owns its children's table, its descriptors and the plan;
 * sv_release() frees them all.
 */

/* What a child is, upstream first (stages_report's order). */
enum kid_kind {
	KID_GEN,
	KID_SEND,
	KID_SPOOL,
	KID_METRICS,
	KID_EXPORT,
	KID_UI,
	KID_SCRAPER,
};

struct kid {
	pid_t pid;
	int status;		/* as a shell's $? (128 + N: signal N); -1 while running */
	enum kid_kind kind;
	size_t index;		/* the sender's or the scraper's */
};

/* Where a child runs: any CPU, the senders' CPU, the others' (plan). */
enum spawn_cpu { CPU_ANY, CPU_SOLO, CPU_REST };

/* A child to start: argv, its standard descriptors (-1: the supervisor's own). */
struct spawn {
	char *const *argv;
	int fd[3];
	const char *file[3];	/* else a file opened there, in the child (0: read, 1, 2: made anew) */
	int fd3;		/* a fourth descriptor (metrics' live view), or -1 */
	int hold;		/* keeper: a descriptor it holds until its child ended, or -1 */
	enum spawn_cpu cpu;
	int idle;		/* SCHED_IDLE */
	int blocked;		/* SIGINT, SIGTERM, SIGHUP blocked at its start (a sender) */
	pid_t pgid;		/* 0: a group of its own; else that group */
	const char *rename_from, *rename_to;	/* keeper: what it renames at the end */
};

struct phase;
struct cpu_sampler;

struct sv {
	struct plan p;
	const char *plan_file;
	struct evloop *l;
	struct kid *kids;
	size_t nkids, kids_alloc;
	pid_t pgid;		/* the stages' process group, 0 before they start */
	int ctl_fd;		/* the control FIFO, -1 when none or at its end */
	char ctl_line[64];
	size_t ctl_len;
	int scrape_ctl_fd;	/* the scrapers' control FIFO's writer, or -1 */
	int gate_fd;		/* metrics_gate's writer while the senders run, or -1 */
	int export_in;		/* aiperf-export's standard input, the write end, or -1 */
	int export_out;		/* ... and its read end, until export has it */
	int nsig, first_sig;	/* signals received, the first one */
	int caught;		/* the first signal stopped the run (cancelled) */
	int pending;		/* signals received before the senders started */
	int killed;		/* the third signal killed the stages */
	int start_now;		/* the baseline is in (or a signal came): start the senders */
	int started;		/* the senders run (or have run) */
	int senders_ended;
	int script_gone;	/* the control FIFO's end: nobody removes run_dir but us */
	int baseline_left;	/* scrapers whose baseline the run waits for */
	int inotify_fd;
	off_t *seen;		/* bytes of each scraper's out counted */
	size_t *lines;		/* lines counted there */
	struct evloop_timer baseline_timer, gpu_timer;
	struct phase *phase;
	struct cpu_sampler *cpu;
};

/* main.c: the message of the run, "aiperf profile: ..." on stderr, not logged. */
void sv_say(const char *fmt, ...) FMT(1, 2);
/* A line of the run log as aiperf profile itself writes it ("aiperf.profile"). */
void sv_log(enum runlog_level level, const char *fmt, ...) FMT(2, 3);

/* spawn.c: the signal dispositions the supervisor was started with, noted first. */
void spawn_init(void);
/* spawn.c: a child started as s says (fork, exec): its pid; dies when it cannot. */
pid_t spawn_exec(struct sv *sv, const struct spawn *s);
/*
 * A keeper: a forked child (no exec) that starts argv as s says, holds
 * s->hold until it ends, forwards SIGINT, SIGTERM and SIGHUP to it,
 * renames s->rename_from to s->rename_to once it has ended (its last
 * partial line trimmed first), and exits with its status.
 */
pid_t spawn_keeper(struct sv *sv, const struct spawn *s);
/* The table of children: a new entry. */
struct kid *kid_add(struct sv *sv, pid_t pid, enum kid_kind kind, size_t index);
/* Reaps every child that has ended; calls run_reaped for each. */
void kids_reap(struct sv *sv);
/* Whether a child of that kind still runs. */
int kids_running(const struct sv *sv, enum kid_kind kind);
/* The file path created anew (truncated), O_CLOEXEC; dies when it cannot. */
int open_out(const char *path);
/* fds[0], fds[1] of a new pipe, both O_CLOEXEC; dies when it cannot. */
void pipe_cloexec(int fds[2]);
void xclose(int *fd);

/* run.c */
int run_supervise(struct sv *sv);
void run_reaped(struct sv *sv, struct kid *k);
/* The senders and the stages after them, started now (the baseline is in). */
void run_start(struct sv *sv);

/* sig.c: the signals and the control FIFO watched on sv->l. */
void sig_setup(struct sv *sv);
/* Signal sig received (or its name read from the control FIFO). */
void sig_received(struct sv *sv, int sig);
/* The senders have just started: the signals received before, acted on. */
void sig_deliver_pending(struct sv *sv);
/* "INT", "TERM", "HUP": its number; else 0. */
int sig_from_name(const char *s, size_t n);

/* scrape.c: the scrapers, their baseline and their end. */
void scrape_start(struct sv *sv);
/* Watches the scrapers' baseline; calls run_start once it is in. */
void scrape_baseline(struct sv *sv);
/* A scraper has ended: its warnings (gpu), the baseline no longer waited for. */
void scrape_ended(struct sv *sv, struct kid *k);
/* Every sender has ended: the scrapers' control FIFO closed (their final scrape). */
void scrape_release(struct sv *sv);
/* aiperf-metrics has ended: a scraper export waits for gets 30 s more. */
void scrape_metrics_ended(struct sv *sv);
void scrape_kill(struct sv *sv);
void scrape_free(struct sv *sv);

/* report.c: the run's end reported once; the status the supervisor exits with. */
int report_end(struct sv *sv);
/* path without a last line cut short, truncated in place. */
void trim_partial(const char *path);
/* The stages still running, named for the third signal's message. */
void report_killed(struct sv *sv);

#endif
