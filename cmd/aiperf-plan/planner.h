/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-plan's shared state: the options as set, the stages' command lines, the run's plan. */
#ifndef AIPERF_PLANNER_H
#define AIPERF_PLANNER_H

#include <stddef.h>
#include <sys/types.h>

#include "buf.h"
#include "plan.h"
#include "proftab.h"
#include "util.h"

/* The raw records' file below export level raw, while the run lasts (.K: sender K's). */
#define SPILL ".raw_records.spill.jsonl"

/*
 * One struct planner lives for the whole of a run of aiperf-plan; nothing
 * in it is freed before exit. set[i] is option i's value as the wrapper
 * kept it (bash's SET[canonical]): NULL when not given, "1" for a flag, a
 * list's values each followed by a newline.
 */
struct planner {
	struct proftab tab;
	const char *table_path;
	char **set;
	struct plan_argv gen, send, met, exp, syn;
	struct plan_argv acc;	/* aiperf-evalset's (accuracy.c) */
	struct buf cli;
	const char *loglevel;
	char *mode;		/* aiperf-gen --print-timing-mode */
	long workers, n_shards;
	const char *start_at;	/* --start-at, or NULL (the option's value) */
	long long start_ns;	/* several senders from --start-at, or 0 */
	int ncpus, cpus[1024];	/* the CPUs taskset lists (ncpus 0: none) */
	struct plan_argv srv_urls, gpu_urls;
	int gpu_nvml, gpu_console;
	char *gpu_csv;
	char *dir;		/* the artifact directory */
	char *raw;		/* the raw records' file, or "/dev/null" */
	const char *run;	/* --run-dir */
	struct plan_argv busy, read;
	struct plan_argv log;	/* "LEVEL message" lines for the run log */
	struct swcfg *cfgsw;	/* --config: the file's sweep, or NULL (cfgfile.c) */
};

/* cfgfile.c: --config FILE (-f FILE) in argv[0..*argc): the file's
 * options (lib/cfg) put before the command line's, which win over them,
 * and its sweep into p->cfgsw. Returns the new argument vector (argv
 * itself when no --config is given); dies on a bad file (exit 1). */
char **cfgfile_expand(struct planner *p, int *argc, char **argv);
void cfgfile_release(struct planner *p);

/* The command line's own errors: "aiperf profile: MSG" and the hint, exit 2. */
_Noreturn void usage_error(const char *fmt, ...) FMT(1, 2);

/* table.c: the options table found and loaded into p->tab; dies if not. */
void table_load(struct planner *p);
/* Frees all p holds (its table, options, lists and strings). */
void planner_release(struct planner *p);
const struct proftab_opt *opt_get(const struct planner *p, const char *canon);
/* The option an argument names ("--opt" or "--opt=value", aliases too;
 * a refused one: NULL), its "=value" in *value (else NULL). */
const struct proftab_opt *arg_option(const struct planner *p, const char *arg, const char **value);
/* bash's ${SET[canon]+x}: whether it was given. */
int is_set(const struct planner *p, const char *canon);
/* SET[canon], NULL when not given. */
const char *get(const struct planner *p, const char *canon);
/* ${SET[canon]:-def}. */
const char *val(const struct planner *p, const char *canon, const char *def);
char **slot(struct planner *p, const char *canon);
/* value as the choice of o it names (any case, '-' or '_'), else itself. */
const char *choice(const struct proftab_opt *o, const char *value);
/* s up to its first newline, a new string. */
char *first_line(const char *s);

/* parse.c */
void shell_quote(struct buf *b, const char *v);
void add_stage_arg(struct planner *p, const char *stages, const char *name, const char *value);
/* Returns 1 when --help was asked for. */
int parse_profile(struct planner *p, int argc, char **argv);

/* check.c */
void check_export_level(struct planner *p);
void check_load_options(struct planner *p);
void check_wrapper_options(struct planner *p);
void hosts_resolve(struct planner *p);
void ports_check(struct planner *p);
long long start_ns(const char *epoch_s);

/* workers.c */
void cpu_list(struct planner *p);
int ncpu(const struct planner *p);
void workers_resolve(struct planner *p);
long long share(const struct planner *p, long long total, long k);
/* Sender k's options from send (the shard's concurrency, the barrier's FIFOs in run). */
void shard_send(const struct planner *p, const struct plan_argv *send, long k, const char *run,
		struct plan_argv *out);
void busy_poll(struct planner *p);
/* The sender's CPU (-1: none) and the others' list, as cpu_split decides. */
int cpu_split(struct planner *p, char *rest, size_t restlen);

/* scrape.c */
char *metrics_url(const char *u);
void server_metrics_urls(struct planner *p);
void server_metrics_formats(struct planner *p);
void gpu_telemetry_setup(struct planner *p);

/* spawn.c: SIGINT, SIGTERM and SIGHUP held (blocked) from main's start:
 * planning goes on to its end (the GPU probes cut short), and the script,
 * which had the same signal, has the run written as cancelled. */
void signals_hold(void);
/* spawn.c: the first of them that came (pending or waited for), or 0. */
int signal_caught(void);
/* spawn.c: sleeps until a child changes state (0) or one of them comes
 * (its number); never misses either. */
int wait_or_signal(void);
/* spawn.c: file run with argv (PATH searched), fd[i] (when >= 0) as its
 * descriptor i, in a process group of its own, its signals unblocked and
 * at their defaults, none that reached it before it had its group; its
 * pid, or -1 with *err the errno that kept it from starting. */
pid_t spawn_tool(const char *file, char *const argv[], const int fd[3], int *err);
/* spawn.c: waits for pid: its exit status, 128+N for a signal. */
int tool_wait(pid_t pid);
/* spawn.c: whether name is an executable on PATH. */
int on_path(const char *name);
/* spawn.c: the name this binary was run as (main's argv[0]). */
extern const char *argv0_path;
/* spawn.c: a tool beside this binary (as it was run, links not resolved),
 * else its name, for PATH. */
const char *tool_path(const char *name, char *buf, size_t size);
/* Runs argv (stdin: in, NULL to inherit); its stdout into out (if not NULL),
 * its stderr into err (if not NULL, else inherited). The exit status, 128+N
 * for a signal, 127 when it could not start. */
int run_tool(char *const argv[], const char *in, struct buf *out, struct buf *err);
void check_stage(const char *tool, const struct plan_argv *args, const char *first);

/* artifact.c */
/* dir as `cd DIR && pwd` names it (logically, links kept), a new string. */
char *absolute(const char *dir);
char *py_float(const char *x);
char *artifact_subdir(const struct planner *p, const char *mode);
void artifact_dir(struct planner *p);
/* prepare.c: the artifact directory ready for the run: the files this run
 * writes (aiperf-export --list-files; p->raw) and the wrapper's own
 * removed when an earlier run left them (a line says which), the raw
 * file's folder made, logs/aiperf.log made anew, the synthesized input
 * written (aiperf-trace synthesize). */
void artifacts_prepare(struct planner *p);

/* runinfo.c: run_info.json's text (aiperf-export --run-info). */
void run_info(const struct planner *p, struct buf *out);

/* config.c */
void write_input_config(const struct planner *p, struct buf *out);

/* pipeline.c: the run's stages as run_pipeline runs them, into plan. */
void pipeline_plan(struct planner *p, struct plan *plan);

/* emit.c */
void emit_str(struct buf *b, const char *name, const char *v);
void emit_argv(struct buf *b, const char *name, const struct plan_argv *a, size_t from);
void emit_long(struct buf *b, const char *name, long long v);
void emit_set(const struct planner *p, struct buf *b);
void emit_flush(struct buf *b);

/* help.c: `aiperf profile --help`, from the table. */
void help_text(const struct proftab *t, struct buf *b);
/* help.c: the same list in mdoc, for aiperf(7) (make man-options). */
void help_mdoc(const struct proftab *t, struct buf *b);

/* accuracy.c: whether --accuracy-benchmark is given; its options checked
 * (the others without it refused; the default grader given to
 * aiperf-metrics); the problems written by aiperf-evalset into the
 * scratch folder and named to aiperf-gen and aiperf-metrics. */
int accuracy_on(const struct planner *p);
void accuracy_check(struct planner *p);
void accuracy_prepare(struct planner *p);
/* multirun.c: the multi-run section's planning; returns 0 when the
 * arguments ask for one run (the single run plans itself). */
int multi_run_plan(struct planner *p, int argc, char **argv, struct buf *out);

#endif
