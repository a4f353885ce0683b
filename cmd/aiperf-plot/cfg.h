/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-plot's plot configuration: the original's plot_config.yaml (which plots, baseline vs treatment). */
#ifndef AIPERF_PLOT_CFG_H
#define AIPERF_PLOT_CFG_H

#include <stddef.h>

/*
 * cfg_parse() reads the YAML into a struct plotcfg that owns every string
 * it points to; cfg_release() frees them. Nothing here prints: errors are
 * "NAME:LINE: what" in the caller's buffer.
 */

/* One plot preset of visualization.single_run_plots / multi_run_plots. */
struct preset {
	char *name;		/* the key: the figure's file name base */
	char *type;		/* scatter, scatter_line, pareto, area, histogram, ... */
	char *x, *y, *y2, *stat, *source, *title;	/* NULL when absent */
	char *labels, *groups;	/* the one column of "labels: [col]", or NULL */
	int line;		/* where the preset starts, 1-based */
};

enum cfg_class { CLASS_NONE, CLASS_BASELINE, CLASS_TREATMENT };

struct plotcfg {
	struct preset *single, *multi;	/* the *_defaults lists, in order, resolved */
	size_t nsingle, nmulti;
	int classify;		/* experiment_classification given */
	char **baselines, **treatments;	/* glob patterns */
	size_t nbaselines, ntreatments;
	enum cfg_class fallback;	/* its "default" (treatment unless given) */
	char **group_ids, **group_names;	/* group_display_names: id -> legend text */
	size_t ngroup_names;
};

#define CFG_MAX_BYTES ((size_t)1 << 20)

/* Parse text (n bytes; NUL bytes are an error) as a plot configuration;
 * name is the file name used in messages. 0, or -1 with c empty and the
 * message in err. */
int cfg_parse(struct plotcfg *c, const char *text, size_t n, const char *name, char *err,
	      size_t errlen);
/* cfg_parse() of a file of at most CFG_MAX_BYTES. */
int cfg_load(struct plotcfg *c, const char *path, char *err, size_t errlen);
void cfg_release(struct plotcfg *c);

/* A run's class by its name or path (globs, first the baselines), and its
 * experiment group: the parent folder's name when that matches a pattern,
 * else the run's name (a pointer into name or path). */
enum cfg_class cfg_classify(const struct plotcfg *c, const char *name, const char *path);
const char *cfg_group(const struct plotcfg *c, const char *name, const char *path,
		      size_t *len);
/* The legend text of experiment group id (group_display_names), or id. */
const char *cfg_group_title(const struct plotcfg *c, const char *id);

#endif
