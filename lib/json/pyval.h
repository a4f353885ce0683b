/* SPDX-License-Identifier: Apache-2.0 */
/* Python's str() and repr() of JSON values, as the original's loaders turn dataset cells into text. */
#ifndef AIPERF_JSON_PYVAL_H
#define AIPERF_JSON_PYVAL_H

#include "buf.h"
#include "json/json.h"

/*
 * The original reads dataset rows as Python values (json.loads, the
 * datasets library) and joins them into prompts and messages with str()
 * and repr(). These give the same text from a parsed JSON value:
 * a number without '.', 'e' or 'E' is a Python int (its digits; "-0" is
 * 0), any other number a float (repr: the shortest digits that read back,
 * fixed notation for exponents -5 < e < 16, else d.ddde+XX; 1e5 is
 * "100000.0").
 */

/* Append str(v) for a scalar: a string as it is (NUL characters too),
 * an int's digits, a float's repr, True, False, None. Returns 0, or -1
 * for an array or an object, appending nothing. */
int pyval_str(const struct json *v, struct buf *out);

/* Append repr(d) of a float: "0.1", "1e-05", "100000.0", "inf", "nan". */
void pyval_float(double d, struct buf *out);

/* Append repr(s) of a str s[0..n): single quotes unless s holds a single
 * quote and no double quote; backslash, the quote, \n \r \t and the other
 * ASCII control characters escaped as Python escapes them. */
void pyval_repr(struct buf *out, const char *s, size_t n);

#endif
