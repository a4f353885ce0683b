/* SPDX-License-Identifier: Apache-2.0 */
/* The metric catalogue of the original (spec 1.4): tags, headers, units, display order, flags. */
#ifndef AIPERF_METRICDEF_H
#define AIPERF_METRICDEF_H

#include <stddef.h>

/* Static, read-only table; nothing to free. */
enum metricdef_kind {
	METRIC_RECORD,		/* one value per request: a distribution */
	METRIC_AGGREGATE,	/* accumulated over records: one value */
	METRIC_DERIVED,		/* formula over other results: one value */
};

enum metricdef_flags {
	MF_STREAMING_ONLY = 1 << 0,
	MF_TOKENS_ONLY = 1 << 1,	/* PRODUCES_TOKENS_ONLY */
	MF_INPUT_ONLY = 1 << 2,		/* TOKENIZES_INPUT_ONLY */
	MF_NO_CONSOLE = 1 << 3,
	MF_NO_INDIVIDUAL = 1 << 4,	/* absent from per-record jsonl */
	MF_ERROR_ONLY = 1 << 5,
	MF_INTERNAL = 1 << 6,
	MF_EXPERIMENTAL = 1 << 7,
	MF_LARGER_BETTER = 1 << 8,
	MF_REASONING = 1 << 9,
	MF_GOODPUT = 1 << 10,
	MF_HTTP_TRACE = 1 << 11,
	MF_USAGE_DIFF = 1 << 12,
	MF_LIST = 1 << 13,		/* per-record value is a list */
	MF_IMAGE = 1 << 14,		/* SUPPORTS_IMAGE_ONLY: endpoints taking images */
	MF_VIDEO = 1 << 15,		/* PRODUCES_VIDEO_ONLY */
};

struct metricdef {
	const char *tag;
	const char *header;
	const char *unit;	/* base unit */
	const char *display;	/* display unit */
	double factor;		/* base value * factor = display value */
	enum metricdef_kind kind;
	int order;		/* console order; 0 = none (shown last) */
	unsigned flags;
	/* Space-separated tags this metric is computed from (the original's
	 * required_metrics), or NULL. */
	const char *deps;
};

/*
 * All metrics in registration order. The original computes a record's
 * metrics in graphlib.TopologicalSorter.static_order() over the applicable
 * tags added in registration order (see aiperf-metrics(1)); since its own
 * registration order follows the file system, this table fixes one.
 */
extern const struct metricdef metricdefs[];
extern const size_t metricdefs_len;

/* The entry for tag, or NULL. */
const struct metricdef *metricdef_find(const char *tag);
/* The same for the n bytes at tag (no NUL needed; one inside never matches). */
const struct metricdef *metricdef_findn(const char *tag, size_t n);

#endif
