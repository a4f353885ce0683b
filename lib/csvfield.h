/* SPDX-License-Identifier: Apache-2.0 */
/* One CSV field as Python's csv writer (QUOTE_MINIMAL) writes it. */
#ifndef AIPERF_CSVFIELD_H
#define AIPERF_CSVFIELD_H

#include <stdio.h>

/* s to f, after a ',' unless first; quoted (quotes doubled) when it holds
 * the delimiter, a quote or a line break. */
void csv_field(FILE *f, const char *s, int first);

#endif
