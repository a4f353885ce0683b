/* SPDX-License-Identifier: Apache-2.0 */
/* Python str semantics over UTF-8 bytes: strip() and len(). */
#ifndef AIPERF_PYSTR_H
#define AIPERF_PYSTR_H

#include <stddef.h>

/*
 * Functions take a byte range and never allocate; results point into it.
 * White space is what str.isspace() accepts: ASCII \t..\r, space,
 * \x1c..\x1f, and U+0085, U+00A0, U+1680, U+2000..U+200A, U+2028,
 * U+2029, U+202F, U+205F, U+3000 in UTF-8.
 */

/* str.strip(): the start of the stripped range; *n becomes its length. */
const char *pystr_strip(const char *s, size_t *n);
/*
 * 1 when s[0..n) is empty after str.strip(), else 0: the one rule for
 * input lines (aiperf-records(5)): every NDJSON/JSONL reader skips such a
 * line, as the original's loaders do with `if not line.strip(): continue`.
 */
int pystr_isblank(const char *s, size_t n);
/* len(): code points in valid UTF-8 (continuation bytes not counted). */
size_t pystr_len(const char *s, size_t n);

#endif
