/* SPDX-License-Identifier: Apache-2.0 */
/* One line of a Prometheus text exposition, split into its parts. */
#ifndef AIPERF_PROMLINE_H
#define AIPERF_PROMLINE_H

#include <stddef.h>

#include "prom/prom.h"

/*
 * The lexical layer under prom_parse(): a sample line split into name,
 * labels, value and timestamp, and the token readers the comment lines
 * share. Nothing here keeps state between lines. A struct prom_sample
 * owns its labels (their names and unescaped values, malloc'd); its name
 * points into the line. promline_sample_release() frees the labels.
 */
struct prom_sample {
	const char *name;
	size_t nlen;
	struct prom_label *labels;
	size_t nlabels, cap;
	double value, ts;
	int has_ts;
};

/*
 * Split s[0..end) (one line, no newline, leading blanks skipped):
 * name{labels} value [timestamp] [# exemplar]. At most max_labels labels,
 * each value at most max_value bytes unescaped. Returns 0, or -1 with the
 * reason in err (no line number); sm then holds what was read, to release.
 */
int promline_sample(const char *s, const char *end, struct prom_sample *sm,
		    size_t max_labels, size_t max_value, char *err, size_t errlen);
void promline_sample_release(struct prom_sample *sm);
/* Free an array of n labels and their strings (NULL is fine). */
void promline_labels_free(struct prom_label *l, size_t n);

/* Length of the metric name at s (letters, digits, '_', ':'), 0 if none. */
size_t promline_name(const char *s, const char *end);
/* s past any spaces and tabs. */
const char *promline_blank(const char *s, const char *end);
/*
 * The number token at *sp (up to a blank): decimals, exponents, NaN, +Inf,
 * -Inf; no hex. Returns 0 and moves *sp past it, or -1.
 */
int promline_number(const char **sp, const char *end, double *out);
/* Whether s[0..n) is valid UTF-8 (no overlongs, surrogates or > U+10FFFF). */
int promline_utf8(const char *s, size_t n);

#endif
