/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-plot's shared types: runs read from artifact directories, figures made from them. */
#ifndef AIPERF_PLOT_H
#define AIPERF_PLOT_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "cfg.h"
#include "json/json.h"

/*
 * A run is one artifact directory, read whole into memory (run_load);
 * a figure is one plot: its data blocks, as gnuplot reads them, and how to
 * draw each block (figs_*). gp_render() turns a figure into PNG and SVG,
 * report_write() every figure into one report.html. Everything a struct
 * points to is owned by it and freed by its *_free().
 */

/* A growable array of doubles. */
struct vec {
	double *v;
	size_t n, cap;
};
void vec_push(struct vec *a, double x);
void vec_release(struct vec *a);

/* One GPU's samples from gpu_telemetry_export.jsonl. */
struct gpu {
	char *id;		/* "0 (GPU-uuid...)" */
	struct vec t_s, util, power, mem;	/* t_s: from the run's t0_ns */	/* NaN where a sample lacks it */
};

/* One metric's values over the records (the summary made from stdin). */
struct mvals {
	char *name, *unit;
	struct vec v;
};

struct run {
	char *dir;		/* as found */
	char *name;		/* its last path component */
	long long concurrency;	/* -1 when not known */
	double request_rate;	/* 0 when not known */
	struct json_doc *adoc, *tdoc, *sdoc;
	const struct json *agg;	/* profile_export_aiperf.json, or NULL */
	const struct json *slices;	/* timeslices array, or NULL */
	double slice_duration;	/* seconds, 0 when not known */
	const struct json *srv;	/* server_metrics_export.json "metrics", or NULL */
	/* per-request records (profile_export.jsonl), valid ones only */
	int64_t t0_ns;		/* the first request's start; 0 without records */
	struct vec start_s, end_s, ttft, latency, osl;	/* latency pairs with start_s */
	struct vec ttft_start_s;	/* the start time of each ttft value */
	struct vec rttft, ritl;	/* per record, pair with start_s; NaN where absent */
	struct vec icl_sum, icl_n;	/* by chunk position 1, 2, ... (index 0 = position 1) */
	size_t nrecords, nerrors;
	struct gpu *gpus;
	size_t ngpus;
	int from_stdin;		/* records read from stdin; agg made from them */
	struct mvals *mvals;
	size_t nmvals;
};

/* Read dir's artifacts. Returns NULL with a message printed when dir holds
 * neither profile_export_aiperf.json nor profile_export.jsonl or a file is
 * malformed. */
struct run *run_load(const char *dir);
void run_free(struct run *r);
/* Read metric records (profile_export.jsonl lines) from stdin; the summary
 * (r->agg) is computed from them. NULL with a message naming the line. */
struct run *run_load_stdin(void);
/* Whether dir looks like a run (holds one of the files run_load reads). */
int run_is_dir(const char *dir);
/* A summary statistic ("time_to_first_token", "p50") of the run, NAN if absent. */
double run_stat(const struct run *r, const char *metric, const char *stat);

/* The aggregate/ folders of multi-run profiles (--num-profile-runs). */
struct agg {
	char *dir;
	struct json_doc *doc;
	const struct json *root;	/* profile_export_aiperf_aggregate.json */
};
struct aggs {
	struct agg *v;
	size_t n;
};
/* Read dir/profile_export_aiperf_aggregate.json into a. 0, or -1 (message printed). */
int aggs_load(struct aggs *a, const char *dir);
void aggs_release(struct aggs *a);

enum fig_style {
	STYLE_BOXES, STYLE_LINES, STYLE_POINTS, STYLE_LINESPOINTS, STYLE_STEPS,
	STYLE_LABELS,
};

/* One thing drawn: a data block (gnuplot's "index") in a style. */
struct block {
	char *title;		/* the key entry; NULL: none */
	int index;		/* the data block it draws */
	const char *using;	/* gnuplot "using" ("1:2", "1:2:3") */
	enum fig_style style;
	int y2;			/* plotted against the right axis */
	const char *color;	/* "#rrggbb", static; NULL: the palette's next */
};

#define FIG_MAXBLOCKS 64

struct fig {
	char *name;		/* file name base: "ttft_histogram" */
	char *title, *xlabel, *ylabel, *y2label;
	char *columns;		/* the data file's header: what each column is */
	struct buf data;	/* index blocks, each ended by two blank lines */
	int ndata;		/* data blocks ended so far */
	struct block blocks[FIG_MAXBLOCKS];
	int nblocks;
	int xtics;		/* column 3 of each block holds x tic labels */
};

struct figs {
	struct fig **v;
	size_t n;
};

/* Figure building blocks (figs.c): a new figure appended to out; a series
 * drawing the data block being written; a row of it; the block's end; the
 * last figure dropped when rows is 0. */
struct fig *fig_new(struct figs *out, const char *name, const char *title,
		    const char *xlabel, const char *ylabel, const char *columns);
void fig_series(struct fig *f, const char *title, const char *using, enum fig_style style,
		int y2);
void fig_row(struct fig *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void fig_end_block(struct fig *f);
void fig_drop_empty(struct figs *out, size_t rows);
/* One whole data block drawn as a series: the rows "x y" of the n pairs
 * with neither NaN (x NULL: the pair's index). Returns the rows written. */
size_t fig_block_xy(struct fig *f, const char *title, enum fig_style style, int y2,
		    const double *x, const double *y, size_t n);

/* Add the figures for one run (single-run plots) or for several
 * (comparisons and the Pareto plots) to out: every figure without a
 * configuration (cfg NULL), else those its *_defaults list, in order. */
void figs_single(struct figs *out, const struct run *r, const struct plotcfg *cfg);
void figs_multi(struct figs *out, struct run *const *runs, size_t n,
		const struct plotcfg *cfg);
void figs_release(struct figs *f);
/* Move the figure named name from all to out (titled title when given),
 * 1; 0 when all has none. figs_drop_rest releases the figures left in all. */
int figs_pick(struct figs *out, struct figs *all, const char *name, const char *title);
void figs_drop_rest(struct figs *all);
/* figs_single() of every figure, for figs_single to pick from. */
void figs_single_all(struct figs *out, const struct run *r);
/* A configured single-run plot made from its preset (source: timeslices);
 * 0 when the preset names no such plot. */
int figs_preset_single(struct figs *out, const struct run *r, const struct preset *p);

/* A sweep's aggregate folder under path (sweep_aggregate/ or
 * aggregate/sweep_aggregate/ holding profile_export_aiperf_sweep.json),
 * malloc'd, or NULL. figs_sweep() adds its Pareto and knee plots (the
 * knee marked from degradation_knee.json there): 0, or -1 (message printed). */
char *sweep_dir(const char *path);
int figs_sweep(struct figs *out, const char *dir);

/* One run's own plots when several are shown: rendered in dir/sub. */
struct section {
	const struct run *run;
	char *sub;		/* "runs/NAME"; NULL: no plots */
	struct figs figs;
};

enum theme { THEME_LIGHT, THEME_DARK };

/*
 * The output folder (outdir.c). No file in it is opened by a name that
 * exists: each is written under a new hidden name, created exclusively,
 * and renamed over its own, which replaces a symbolic link planted there
 * instead of writing through it; and a folder in it is entered only when
 * it is a real one (O_NOFOLLOW). at is an open folder, atpath its name in
 * messages; descriptors returned are the caller's to close. Every function
 * prints its message (error()) when it fails.
 */
/* The folder name in at, made when missing: its descriptor, or -1. */
int outdir_sub(int at, const char *atpath, const char *name);
/* Write n bytes at s as at/name, whole or not at all: 0 or -1. */
int outdir_write(int at, const char *atpath, const char *name, const void *s, size_t n);
/* Rename from/name over to/name (topath: to's name): 0 or -1. */
int outdir_move(int from, const char *name, int to, const char *topath);
/* A new private folder (mode 0700) in at, named after name: its
 * descriptor, and its name in *tmp (malloc'd), or -1 and NULL. */
int outdir_mktemp(int at, const char *atpath, const char *name, char **tmp);
/* Remove the private folder tmp (fd: it, open) and what it holds; frees
 * tmp and closes fd. */
void outdir_rmtemp(int at, char *tmp, int fd);
struct stat;
/* Open the regular file rel ("a/b/c") below folder at for reading, no
 * component of it a symbolic link: its descriptor (st: its status), or -1
 * with errno (ELOOP or ENOTDIR for a link, EFTYPE for no regular file). */
int outdir_openfile(int at, const char *rel, struct stat *st);

/* Write data/NAME.dat and NAME.gp in the folder at (named dir in
 * messages) and run gnuplot on them, making NAME.png and NAME.svg there,
 * and gnuplot's messages in data/NAME.log: gnuplot writes in a private
 * folder, and each file is renamed into place. 0 or -1 (message printed). */
int gp_render(const struct fig *f, int at, const char *dir, enum theme theme);
/* Whether a gnuplot program is on PATH. */
int gp_available(void);

/* Write report.html in the folder at (named dir) from the runs and the
 * figures already rendered there, a section per run with its own plots
 * (secs: n of them, or NULL) and the confidence tables of aggs; refresh > 0
 * adds a meta refresh of that many seconds. 0 or -1. */
int report_write(int at, const char *dir, struct run *const *runs, size_t n,
		 const struct figs *figs, const struct section *secs,
		 const struct aggs *aggs, enum theme theme, int refresh);

/* A dashboard request (dashreq.c): what its head asks for. */
#define DASHREQ_MAX_HEAD 8192
struct dashreq {
	int status;		/* 200: path names a file to serve; else an error */
	int head;		/* HEAD: the answer has no body */
	char path[1024];	/* below the report folder: "report.html", "data/N.dat" */
};
/*
 * Read the request head at s[0..n): 0 while it is incomplete, else 1 with d
 * filled: status 200 and a path of one to four components (NAME, data/NAME,
 * runs/RUN/NAME, runs/RUN/data/NAME; letters, digits, '-', '_' and '.', none
 * starting with a dot), or the status to answer with: 400, 404 (any other
 * target), 405 (not GET or HEAD), 417, 431 (a head over DASHREQ_MAX_HEAD
 * bytes), 501 or 505, as httpreq_parse_head() finds them.
 */
int dashreq_parse(struct dashreq *d, const char *s, size_t n);

/* Serve dir's report.html and plots over HTTP on host:port until SIGINT or
 * SIGTERM; every poll_s seconds calls rescan(arg), which re-renders when
 * runs appear. Returns 0, or -1 when the socket cannot be set up. */
int serve_run(const char *host, int port, const char *dir,
	      void (*rescan)(void *), void *arg, int poll_s);

#endif
