/* SPDX-License-Identifier: Apache-2.0 */
/* Numbers with unit suffixes: counts ("10k"), byte sizes ("2MiB"), durations ("500ms"). */
#ifndef AIPERF_UNITS_H
#define AIPERF_UNITS_H

#include <stdint.h>

/*
 * Each parser reads the whole string: a decimal number (digits, optionally
 * one '.' and more digits; no sign, no exponent) followed by an optional
 * suffix. The result must be a whole number in the target unit and at most
 * max; fractions are exact ("1.5k" is 1500, "0.5" bytes is an error).
 * They return 0 and store the value, or -1 with *why set to a static
 * string ("invalid number", "unknown unit", "not a whole number",
 * "too large"). Nothing is allocated.
 *
 * Counts: no suffix, k/K (1e3), m/M (1e6), g/G (1e9).
 * Bytes: B or none, k/K/kB/KB (1e3), M/MB (1e6), G/GB (1e9), T/TB (1e12),
 *   KiB, MiB, GiB, TiB (powers of 1024).
 * Durations: ns, us, ms, s, m (minutes), h; a bare number is in dflt_ns
 *   units (1000000000 for seconds).
 */
int units_count(const char *s, uint64_t max, uint64_t *out, const char **why);
int units_bytes(const char *s, uint64_t max, uint64_t *out, const char **why);
int units_duration_ns(const char *s, uint64_t dflt_ns, uint64_t max,
		      uint64_t *out, const char **why);

#endif
