/* SPDX-License-Identifier: Apache-2.0 */
/* GenAI-Perf's YAML config file (genai-perf config -f) read into a struct gapmap. */
#ifndef AIPERF_GAPYAML_H
#define AIPERF_GAPYAML_H

#include <stddef.h>

#include "gapmap.h"

#define GAPYAML_MAX_FILE (1 << 20)
#define GAPYAML_MAX_DEPTH 16
#define GAPYAML_MAX_NODES 100000

/*
 * The YAML text s[0..n) (a mapping of GenAI-Perf's sections), each leaf
 * set through gapmap_yaml() by its dotted key: a scalar, a sequence of
 * scalars (its values), input.extra's mapping (NAME:VALUE values),
 * analyze's TYPE: {start, stop, step} or a sequence. A null or empty
 * scalar is left unset. 0, or -1 with the message in m->err.
 */
int gapyaml_load(struct gapmap *m, const char *s, size_t n);

#endif
