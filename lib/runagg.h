/* SPDX-License-Identifier: Apache-2.0 */
/* Confidence statistics across runs: the original's aggregate/ (spec 8). */
#ifndef AIPERF_RUNAGG_H
#define AIPERF_RUNAGG_H

#include <stddef.h>
#include <stdio.h>
#include "buf.h"

/*
 * A struct runagg collects, run by run, every (metric, stat) value of each
 * run's profile_export_aiperf.json (the top-level objects with a "unit"
 * key; stats avg, min, max, sum, p1 ... p99, std), and the runs that
 * failed with their error. runagg_finish() brings each metric's values to
 * one unit (the one most runs give it; the first met among equals), then
 * computes, for each pair, over the n runs that have it: mean, sample std
 * (n - 1), min, max, cv = std/mean (inf when the mean is 0), se =
 * std/sqrt(n), the Student-t critical value t(1 - (1 - level)/2, n - 1)
 * from GSL and mean -/+ t*se. Pairs come out in the order first met (run,
 * then metric, then stat).
 *
 * A successful run that gives a pair no value is left out of it, and
 * named with why (runagg_left_out()): no such metric or stat, a metric
 * that is no object with a unit (a number, a string), a stat that is no
 * finite number (a string, null), a unit that is no string or cannot be
 * converted (unitconv_factor()).
 *
 * The JSON of a run is outside input: it is parsed strictly (lib/json);
 * of a repeated member the last counts, as in Python's json; at most
 * RUNAGG_MAX_PAIRS pairs and RUNAGG_MAX_CELLS (metric, run) values are
 * kept. runagg owns copies of every string it keeps; runagg_free() frees
 * all of it.
 */
#define RUNAGG_MAX_PAIRS 8192
#define RUNAGG_MAX_RUNS 4096
#define RUNAGG_MAX_CELLS (1u << 20)
#define RUNAGG_MAX_LEFT_OUT (1u << 20)
#define RUNAGG_NSTATS 14

struct runagg;

/* A new, empty aggregate at confidence level (0 < level < 1). */
struct runagg *runagg_new(double level);
/*
 * Let runagg_finish() take a single successful run, as the original's
 * per-variation aggregate of a sweep does: each value is its own mean,
 * min and max, std, cv and se are 0, the interval collapses to it,
 * t_critical is NaN (null), and metadata says "single_run": true.
 */
void runagg_allow_single(struct runagg *a);
void runagg_free(struct runagg *a);

/*
 * Add the run LABEL from the text of its profile_export_aiperf.json.
 * Returns 0, or -1 with the reason in err (invalid JSON, not an object,
 * no metric with a number, too many pairs, metrics or runs); then the run
 * is recorded as failed with that reason, and no value of it is kept.
 */
int runagg_add_json(struct runagg *a, const char *label, const char *text,
		    size_t n, char *err, size_t errlen);
/* Record the run LABEL as failed with ERROR. -1 past RUNAGG_MAX_RUNS. */
int runagg_add_failed(struct runagg *a, const char *label, const char *error);

size_t runagg_runs(const struct runagg *a);
size_t runagg_successful(const struct runagg *a);
/* Run i's label, in the order added, and its error (NULL: successful);
 * NULL past the last run. Both stay owned by a. */
const char *runagg_label(const struct runagg *a, size_t i, const char **error);

/*
 * Bring the values to their units, name the runs left out, then compute
 * the statistics. Returns 0, or -1 with a message in err: the original's
 * when fewer than 2 runs succeeded ("All runs failed - ..." or
 * "Insufficient successful runs for confidence intervals. ..."), or more
 * than RUNAGG_MAX_LEFT_OUT values left out. runagg_values() and
 * runagg_left_out() answer after it, whatever it returned.
 */
int runagg_finish(struct runagg *a, char *err, size_t errlen);

/*
 * The values of METRIC's STAT across the successful runs that have it, in
 * run order and the metric's unit, into out (at most max); returns how
 * many the runs have.
 */
size_t runagg_values(const struct runagg *a, const char *metric,
		     const char *stat, double *out, size_t max);

/*
 * The i-th note of a run left out of statistics, ordered by run then
 * metric: its label, the metric, its stats (nstats of them, in the
 * original's order) and why. 1, or 0 past the last. Strings stay owned
 * by a.
 */
struct runagg_note {
	size_t run;		/* its index, in the order added */
	const char *label, *metric, *why;
	const char *stats[RUNAGG_NSTATS];
	size_t nstats;
};
int runagg_left_out(const struct runagg *a, size_t i, struct runagg_note *note);

/*
 * The i-th (metric, stat) pair that has values, after a successful
 * runagg_finish(), in the JSON's order: its names, unit (owned by a) and
 * statistics. 1, or 0 past the last.
 */
struct runagg_stat {
	const char *metric, *stat, *unit;
	double mean, std, min, max, cv, lo, hi;
};
int runagg_stat(const struct runagg *a, size_t i, struct runagg_stat *st);

/* The Student-t critical value for LEVEL and n values (NaN when n < 2). */
double runagg_t_critical(double level, size_t n);

/*
 * Append profile_export_aiperf_aggregate.json (pydantic, indent 2) or
 * profile_export_aiperf_aggregate.csv (CRLF, to f) after runagg_finish().
 * Runs left out of a pair are listed in its "runs_left_out" [{label,
 * error}], and all of them in metadata's "runs_left_out" [{label, metric,
 * stats, error}] (the CSV's "Runs Left Out" row), each only when there are
 * any. runagg_json returns 0, or -1 when out's cap is reached.
 */
int runagg_json(const struct runagg *a, const char *version, struct buf *out);
/* runagg_json(), with more members of metadata written by extra(w, ctx)
 * after its run_labels (a sweep's variation: its label, values ...). */
struct jw;
int runagg_json_with(const struct runagg *a, const char *version, struct buf *out,
		     void (*extra)(struct jw *w, void *ctx), void *ctx);
void runagg_csv(const struct runagg *a, FILE *f);

#endif
