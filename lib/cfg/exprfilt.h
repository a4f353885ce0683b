/* SPDX-License-Identifier: Apache-2.0 */
/* The Jinja filters of lib/cfg/expr, and Python's int() and float() of text. */
#ifndef AIPERF_EXPRFILT_H
#define AIPERF_EXPRFILT_H

#include <stddef.h>
#include "buf.h"
#include "cfg/exprval.h"

/*
 * The filters are int(default=0, base=10), float(default=0.0),
 * round(precision=0, method='common'), abs, string, default/d(value='',
 * boolean=false), length/count, min and max (of a list of numbers), as
 * Jinja 2.11-3.1 define them. They consume the value they filter and
 * borrow their arguments.
 */

/* The index of the filter named s[0..n), or -1. */
int exprfilt_find(const char *s, size_t n);
/* How many parameters filter f takes. */
int exprfilt_nparams(int f);
/* The position of filter f's keyword parameter s[0..n), or -1. */
int exprfilt_param(int f, const char *s, size_t n);
/* *v = v | f(args...): args[k] is parameter k, or NULL where not given
 * (args has exprfilt_nparams(f) entries). Returns 0, or -1 with v EV_NONE. */
int exprfilt_apply(struct exprval_ctx *c, int f, struct exprval *v,
		   struct exprval *const *args);

#endif
