/* SPDX-License-Identifier: Apache-2.0 */
/* Python str semantics on UTF-8 bytes (the graders, the config file's values): code points, \w, \s, \d, strip(), float(), int(). */
#ifndef AIPERF_PYTEXT_H
#define AIPERF_PYTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/*
 * The original grades Python str values; the graders here see the same
 * text as UTF-8 bytes. These helpers give the classes its re module and
 * str methods use, from utf8proc's Unicode tables. A byte that does not
 * start a valid UTF-8 sequence counts as one code point of its own (U+FFFD,
 * neither word, space nor digit): the original never sees such bytes, so
 * they only have to be handled without harm. Nothing here allocates but
 * pytext_int(), which appends to the caller's buffer.
 */

/* Decode the code point at s[i] (i < n) into *cp; returns its length, >= 1. */
size_t pytext_next(const char *s, size_t n, size_t i, int32_t *cp);
/* The start of the code point that ends at s[i - 1] (i > 0). */
size_t pytext_prev(const char *s, size_t i);

/* re's \w (str.isalnum() or '_'), \s (str.isspace()) and \d (category Nd). */
bool pytext_isword(int32_t cp);
bool pytext_isspace(int32_t cp);
bool pytext_isdigit(int32_t cp);
/* Whether the code point at s[i] (i < n), or the one ending at s[i]
 * (i > 0), is a word character; false off either end. */
bool pytext_word_at(const char *s, size_t n, size_t i);
bool pytext_word_before(const char *s, size_t i);
bool pytext_digit_at(const char *s, size_t n, size_t i);
bool pytext_digit_before(const char *s, size_t i);
/* The end of the run of \d code points at s[i], i where there is none. */
size_t pytext_digits_end(const char *s, size_t n, size_t i);

/* str.strip() with no argument: narrow [*s, *s + *n) to drop leading and
 * trailing whitespace. */
void pytext_strip(const char **s, size_t *n);

/* Whether a and b are equal after str.lower() (simple case mapping). */
bool pytext_ieq(const char *a, size_t an, const char *b, size_t bn);

/*
 * Python's float(s): surrounding whitespace, a sign, digits with single
 * '_' between them (Unicode decimal digits too), a point, an exponent,
 * "inf", "infinity", "nan" in any case. Returns true and sets *out, or
 * false where float() raises ValueError.
 */
bool pytext_float(const char *s, size_t n, double *out);

/*
 * Python's str(int(s)) appended to out: the same syntax rules for an
 * integer, and more than 4300 digits is ValueError as in Python 3.11+.
 * Returns false (out untouched) where int() raises ValueError.
 */
bool pytext_int(const char *s, size_t n, struct buf *out);

#endif
