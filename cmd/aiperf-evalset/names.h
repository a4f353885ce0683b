/* SPDX-License-Identifier: Apache-2.0 */
/* Benchmarks' task names: --accuracy-tasks over an enum of them, Python's repr of a list of them. */
#ifndef AIPERF_EVALSET_NAMES_H
#define AIPERF_EVALSET_NAMES_H

#include <stddef.h>

#include "buf.h"

/*
 * --accuracy-tasks as indexes into a benchmark's n tasks, for the
 * benchmarks whose tasks the recipe names by an enum (hellaswag,
 * bigbench): none, or 'all' alone, is every task in order; otherwise each
 * name given, in order, duplicates kept, found by find() (an index, or -1).
 * 'all' beside other names is the recipe's error, every_what naming what
 * 'all' selects ("every BBH subtask, or list specific subtasks"); names
 * find() does not know go to unknown(), which writes the message. *sel
 * (malloc'd, the caller frees it) and *nsel; 0, or -1 with the message.
 */
struct bench_opts;
int names_tasks(const struct bench_opts *o, size_t n, int (*find)(const char *),
		int (*unknown)(const char *const *, size_t, char *, size_t),
		const char *every_what, int **sel, size_t *nsel, char *err,
		size_t errlen);

/* Python's repr() of a list of str, appended to b: ['a', "b'c"]. */
void names_pylist(struct buf *b, const char *const *v, size_t n);

/* ASCII case-insensitive equality of two C strings. */
int names_ieq(const char *a, const char *b);

#endif
