/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-trace convert helpers: exact number and time parsing, the bailian grouping. */
#ifndef AIPERF_TTCONV_H
#define AIPERF_TTCONV_H

#include <stdint.h>

#include "json/json.h"

/* Strip ASCII whitespace at both ends, in place. */
char *tt_trim(char *s);
/* Python int(): optional sign and surrounding whitespace. 0 or -1. */
int tt_parse_int(char *s, int64_t *out);
/* Seconds as decimal text (Python float()) to exact nanoseconds. 0 or -1. */
int tt_parse_seconds(char *s, int64_t *ns);
int tt_parse_seconds_n(const char *s, size_t n, int64_t *ns);
/* "YYYY-MM-DD HH:MM:SS[.fffffffff]" (UTC) to nanoseconds since the epoch.
 * 0, or -1: *why NULL when s is no such time, else why it is out of
 * bounds (field_check(FIELD_SECONDS): not before 1970, nor after 2255). */
int tt_parse_datetime(const char *s, int64_t *ns, const char **why);
/* Milliseconds from nanoseconds: an integer when whole, else the shortest float. */
void tt_write_ms(struct jw *w, int64_t ns);
/* Convert bailian JSONL from files[0..n) (stdin when n == 0) to stdout. */
void tt_bailian(char **files, int n, int rebase);

#endif
