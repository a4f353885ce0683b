/* SPDX-License-Identifier: Apache-2.0 */
/* The original's unit conversions: times, sizes, powers and energies, alone or in rates. */
#ifndef AIPERF_UNITCONV_H
#define AIPERF_UNITCONV_H

/*
 * The factor that brings a value in unit FROM to unit TO: 1 when they are
 * the same string; else each '/'-separated part the same or both times
 * (ns, us, ms, s, sec), sizes (B, KB, MB, GB, TB: powers of 1024), powers
 * (mW, W) or energies (mJ, J, MJ), as the original converts them
 * (tokens/ms to tokens/sec: 1000). 0, or -1 when they cannot be converted.
 */
int unitconv_factor(const char *from, const char *to, double *factor);

#endif
