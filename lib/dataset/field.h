/* SPDX-License-Identifier: Apache-2.0 */
/* A dataset field's value: the bounds every reader checks, and CSV text read as Python's int() and float(). */
#ifndef AIPERF_FIELD_H
#define AIPERF_FIELD_H

#include <stdint.h>

/*
 * Every dataset reader of aiperf-gen and aiperf-trace (mooncake_trace,
 * single_turn, multi_turn, bailian_trace, burst_gpt_trace lines; convert
 * --from burstgpt, azure, bailian; analyze and synthesize) checks each
 * value with field_check(), so that a value one reader refuses no other
 * takes:
 *
 *   FIELD_TOKENS   a token count (input_length, output_length, Request
 *                  tokens...): 0 to FIELD_MAX_TOKENS (--isl's maximum);
 *   FIELD_MS       a timestamp or delay in milliseconds: finite, 0 to
 *                  FIELD_MAX_MS, so that its nanoseconds fit an int64
 *                  (9e12 ms is 9e18 ns, about 285 years);
 *   FIELD_SECONDS  a timestamp in seconds: the same, 0 to 9e9 s.
 *
 * Whether a value must be an integer is the reader's test (JSON's or
 * field_int()'s); field_check() tests the range. Hash ids are labels,
 * not quantities: any integer that fits an int64, as the original takes
 * them (negative ones included).
 */
enum field_kind {
	FIELD_TOKENS,
	FIELD_MS,
	FIELD_SECONDS,
};

#define FIELD_MAX_TOKENS 100000000
#define FIELD_MAX_MS 9e12

/* NULL when v is within kind's bounds, else why ("must not be negative",
 * "must be finite", "must be at most 100000000"), a static string. */
const char *field_check(enum field_kind kind, double v);

/* Python int() of NUL-terminated text s: white space (str.strip()) around
 * an optional sign and decimal digits. 0, or -1 when that is not all of
 * s. A value past an int64 reads as INT64_MAX or INT64_MIN, out of every
 * count's bounds. */
int field_int(const char *s, int64_t *out);

/* Python float() of text s: white space around a decimal number, or inf,
 * infinity or nan in any case (field_check() refuses those). 0 or -1. */
int field_float(const char *s, double *out);

#endif
