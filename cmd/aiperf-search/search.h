/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-search's shared types: SLA filters, the iterations read back, the two 1D planners. */
#ifndef AIPERF_SEARCH_H
#define AIPERF_SEARCH_H

#include <stddef.h>

#include "json/json.h"

/*
 * The planners are the original's MonotonicSLASearchPlanner and
 * SmoothIsotonicSLAPlanner as state machines: ask() the value to run,
 * tell() its results. aiperf-search is stateless: every call replays the
 * iterations given, in order, through a fresh planner. Iterations own their
 * trials; a planner owns its arrays; *_free() releases them.
 */

enum sla_op { SLA_LT, SLA_LE, SLA_GT, SLA_GE };

#define MAX_FILTERS 16

struct sla_filter {
	const char *metric;	/* static or argv */
	const char *stat;
	enum sla_op op;
	double threshold;
	char key[160];		/* "0:time_to_first_token.p95.lt.200.0" */
};

/* One profile run of an iteration (the original's RunResult). */
struct trial {
	char *dir;
	int success;
	char *error;		/* why not, when !success */
	struct json_doc *doc;
	const struct json *root;	/* profile_export_aiperf.json */
};

struct iter {
	int idx;
	long long value;
	struct trial *trials;
	size_t ntrials;
	int feasible;
	int non_monotonic;
	int has_objective;
	double objective;	/* output_token_throughput avg, mean over trials */
};

/* sla.c: the original's _sla_helpers. 0 and the stat's value, or -1 when
 * the trial lacks it or it is not a finite number. */
int trial_value(const struct trial *t, const char *metric, const char *stat, double *out);
int sla_feasible(const struct iter *it, const struct sla_filter *f, size_t nf);
/* The mean of stat over successful trials: 0, or -1 when none has it. */
int sla_mean(const struct iter *it, const char *metric, const char *stat, double *out);
/* The first filter no trial satisfies, or -1. */
int sla_first_breach(const struct iter *it, const struct sla_filter *f, size_t nf);
void sla_key(struct sla_filter *f, int i);
const char *sla_op_name(enum sla_op op);

/* iterdir.c: an iteration directory read: 0, or -1 (message printed) when
 * it does not exist or a file in it is malformed. */
int iter_load(struct iter *it, const char *dir);
/* The concurrency the run recorded (input_config.loadgen.concurrency), or -1. */
long long trial_concurrency(const struct trial *t);
void iter_release(struct iter *it);

struct cfg {
	const struct sla_filter *filters;
	size_t nfilters;
	long long lo, hi;
	double precision;
	int max_iterations;
	int stability_trials;	/* monotonic only */
	int sla_replicates;	/* smooth_isotonic only; 0 auto */
};

enum bracket_phase { PH_PROBE, PH_BISECT, PH_FIT, PH_REPLICATE, PH_CLIFF };

struct point {
	long long x;
	int passes, fails;	/* monotonic: the stability window's tally */
};

/* One probe's signed margins (negative: feasible), per filter. */
struct probe {
	long long x;
	double m[MAX_FILTERS];
	unsigned char has[MAX_FILTERS];
};

struct planner {
	const struct cfg *cfg;
	int smooth;		/* smooth_isotonic, else monotonic */
	long long feasible_max, infeasible_min;	/* -1: none */
	enum bracket_phase phase;
	long long next;
	int iter;
	const char *reason;	/* NULL: not converged */
	int non_monotonic;
	int this_iter_non_mono;
	int quiet;		/* replaying what an earlier call already told */
	struct point *pts;
	size_t npts;
	struct probe *probes;
	size_t nprobes;
	long long *queue;
	size_t nqueue;
	long long candidate;	/* -1: none */
	int fit_count;
	const char *boundary_type;	/* NULL, "smooth", "cliff" */
	int binding;		/* filter index; -1 none */
	int has_ci;
	double ci_lo, ci_hi;
};

void planner_init(struct planner *p, const struct cfg *c, int smooth);
void planner_release(struct planner *p);
/* The next value to run, or -1 when the search is done. */
long long planner_ask(struct planner *p);
/* Absorb the asked iteration (it->value is the asked value); sets
 * it->feasible and it->non_monotonic. */
void planner_tell(struct planner *p, struct iter *it);

/* mono.c, iso.c: the two step functions planner_tell dispatches to. */
void mono_tell(struct planner *p, long long value, int feasible);
void iso_tell(struct planner *p, const struct iter *it, long long value, int feasible);
int iso_bracket_precise(const struct planner *p);

/* isofit.c: PAVA, PCHIP and its root. */
void isofit_pava(const double *y, double *out, size_t n);
/* PCHIP slopes d[n] for strictly increasing x (scipy's). */
void isofit_pchip_slopes(const double *x, const double *y, double *d, size_t n);
double isofit_pchip_eval(const double *x, const double *y, const double *d, size_t n, double t);
/* Fit PAVA-then-strictify-then-PCHIP and find the first root in [lo, hi]:
 * 0 and *root, or -1 when the curve does not cross zero there. */
int isofit_root(const double *x, const double *y, size_t n, double lo, double hi, double *root);
/* The fitted curve at t (PAVA, strictify, PCHIP). */
double isofit_curve_at(const double *x, const double *y, size_t n, double t);

/* history.c: search_history.json. 0 or -1 (message printed). */
int history_write(const char *path, const struct planner *p, const struct iter *its,
		  size_t n, const char *recipe);

#endif
