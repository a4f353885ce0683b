/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-aggregate --sweep: the original's sweep aggregate over a sweep's runs. */
#ifndef AIPERF_AGG_SWEEP_H
#define AIPERF_AGG_SWEEP_H

#include <stddef.h>
#include <stdio.h>

#include "buf.h"
#include "sweepplan.h"

/* A number as the original writes it: an int when its text is one. */
struct sweep_num {
	double d;
	char *raw;		/* integer text, or NULL: a float */
};

/* One metric of a combination: the original's per-cell stats dict. */
struct sweep_metric {
	char *name, *unit;
	struct sweep_num mean, std, min, max, cv, lo, hi;
	int single;		/* the single-trial projection: avg, pcts, count, sum */
	double pct[9];
	unsigned have_pct;
	struct sweep_num count, sum;
	int have_count, have_sum;
};

struct sweep_combo {
	size_t var;		/* its variation in the plan */
	struct sweep_metric *m;
	size_t nm;
};

/* An SLA filter: the metric TAG's STAT op threshold must hold. */
struct sweep_sla {
	const char *tag, *stat, *op;
	double threshold;
};

struct sweep_failed {
	char *label, *error;
};

/*
 * Everything the sweep aggregate says, owned by it (sweep_free()): the
 * plan (borrowed), the combinations with usable metrics, in the runs'
 * first-seen order of variations, the failed runs in run order.
 */
struct sweep {
	const struct sweepplan *p;
	size_t *groups;		/* variations with runs, first-seen order */
	size_t ngroups, max_trials;
	struct sweep_combo *c;
	size_t nc;
	struct sweep_failed *f;
	size_t nf, nruns, nok;
	char **names;		/* display name of each plan parameter path */
	struct sweep_sla sla[4];	/* max-concurrency-under-sla, grid style */
	size_t nsla;
};

/* The value of metric TAG's STAT in combination c, as the original's
 * read_metric_value() finds it; 0, or -1 when there is none. */
int sweep_metric_value(const struct sweep_combo *c, const char *tag,
		       const char *stat, double *v);
/* Mark in ok[] the combinations that pass every SLA filter; their count. */
size_t sweep_feasible(const struct sweep *s, unsigned char *ok);
struct jw;
/* Filter f as the original's sla_filter_to_dict() writes it. */
void sweep_sla_json(struct jw *w, const struct sweep_sla *f);
/* Whether combination c passes SLA filter f. */
int sweep_sla_pass(const struct sweep_combo *c, const struct sweep_sla *f);

extern const char *const sweep_pct_names[9];

/*
 * Read each run of plan p (its dirs under base; the summary file named
 * export), write the per-variation confidence aggregates (trials > 1) at
 * the original's place under base, and fill s. Never fails for a run:
 * a failed run goes to s->f with why, and is named on stderr.
 */
void sweep_collect(struct sweep *s, const struct sweepplan *p, const char *base,
		   const char *export, const char *version);
void sweep_free(struct sweep *s);

/* The metric NAME of combination c, or NULL. */
const struct sweep_metric *sweep_find(const struct sweep_combo *c, const char *name);

/* The parameter display name of a variation's value path. */
const char *sweep_name_of(const struct sweep *s, const char *path);

/* profile_export_aiperf_sweep.json (orjson, indent 2), appended to out. */
void sweep_json(const struct sweep *s, struct buf *out);
/* profile_export_aiperf_sweep.csv (CRLF), to f. */
void sweep_csv(const struct sweep *s, FILE *f);

/*
 * The best configurations: bt, bl (indexes into s->c, SIZE_MAX: none)
 * and the latency metric's name; the Pareto frontier in on[] (s->nc).
 * Returns the frontier's size.
 */
size_t sweep_analyze(const struct sweep *s, size_t *bt, size_t *bl,
		     const char **lat, unsigned char *on);

#endif
