/* SPDX-License-Identifier: Apache-2.0 */
/* profile_export_aiperf.csv as the original's csv.writer writes it: two sections, CRLF, %.2f. */
#ifndef AIPERF_SUMMARY_CSVFILE_H
#define AIPERF_SUMMARY_CSVFILE_H

#include <stdio.h>

#include "summary/accuracy.h"
#include "summary/gpu.h"
#include "summary/summary.h"

/* Write the CSV summary of sm (with acc's accuracy entries among its
 * Metric,Value rows, and g's GPU section; acc and g may be NULL) to f,
 * borrowing all three: 0, or -1 on a write error. */
int csv_export(FILE *f, const struct summary *sm, const struct gpus *g,
	       const struct accsum *acc);

#endif
