/* SPDX-License-Identifier: Apache-2.0 */
/* --sweep PLAN --cell J: one line on run J of a sweep as it ends. */
#ifndef AIPERF_AGGREGATE_CELL_H
#define AIPERF_AGGREGATE_CELL_H

#include <stdio.h>

#include "sweepplan.h"

/* "cell J/N DIR_NAME [trial T]: ok, X requests/sec, ... | failed (why)"
 * on out; 0, or 2 when there is no run j (from 0). */
int sweep_cell_line(const struct sweepplan *p, const char *base, long j, const char *export,
		    FILE *out);

#endif
