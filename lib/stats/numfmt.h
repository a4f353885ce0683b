/* SPDX-License-Identifier: Apache-2.0 */
/* Number text exactly as the Python original prints it (repr, orjson, pydantic, {:,.2f}). */
#ifndef AIPERF_NUMFMT_H
#define AIPERF_NUMFMT_H

#include <stddef.h>

enum numfmt_style {
	NUMFMT_ORJSON,		/* 1e16, 1e-7 */
	NUMFMT_PYDANTIC,	/* 1e+16, 1e-7 */
	NUMFMT_PYREPR,		/* Python repr(): 1e+16, 1e-07, inf, nan */
};

/*
 * Write the shortest text that reads back as v, with ".0" on integral
 * values, in the chosen style; decimal notation for 1e-5 <= |v| < 1e16
 * (PYREPR: 1e-4 <= |v| < 1e16). out needs 40 bytes. Returns the length.
 * Non-finite values give "null" except in PYREPR.
 */
size_t numfmt_repr(char *out, double v, enum numfmt_style style);

/* numfmt_repr(out, (double)i * f, style), faster where f is 10^-d, d <= 9
 * (a unit change: ns to ms is f = 1e-6). */
size_t numfmt_scaled(char *out, long long i, double f, enum numfmt_style style);

/* Decimal text of an integer ("%lld"). out: 21 bytes, no NUL written.
 * Returns the length. */
size_t numfmt_int(char *out, long long v);

/* Python "{:,.2f}" (1,234.57; -0.00 kept as Python does). out: 420 bytes. */
size_t numfmt_commas2(char *out, double v);

/* Python "{:,}" of an integer. out: 32 bytes. */
size_t numfmt_commas_int(char *out, long long v);

/* Python "%.2f" % v. out: 340 bytes covers every double. */
size_t numfmt_fixed2(char *out, size_t size, double v);

#endif
