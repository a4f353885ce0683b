/* SPDX-License-Identifier: Apache-2.0 */
/* The unit of a Prometheus metric from its HELP text and name (the original's server_metrics/units.py). */
#ifndef AIPERF_SRVAGG_UNIT_H
#define AIPERF_SRVAGG_UNIT_H

/*
 * The unit's display name as the original exports it ("seconds", "bytes",
 * "tokens/s", "percent", ...), or NULL when none can be told. help may be
 * NULL. The result is a static string.
 */
const char *srvagg_unit(const char *name, const char *help);

#endif
