/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Window search and time slices (the original's storage get_time_mask /
 * get_reference_idx and _timeslice_boundaries.py).
 *
 * The slice size is int(slice_duration * 1e9): the binary64 product is
 * truncated toward zero. numpy.arange(start, end, d) gives the starts; each end
 * is start + d clipped to end_ns, complete when not clipped. The original
 * then appends a final partial slice when the last complete one ends
 * before end_ns, which cannot happen (arange would have produced that
 * start), so it is not repeated here.
 */
#include "srvagg/window.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

const double srvagg_pct[SRVAGG_NPCT] = { 1, 5, 10, 25, 50, 75, 90, 95, 99 };

static int64_t
ts_at(const void *base, size_t i, size_t size)
{
	int64_t t;

	memcpy(&t, (const char *)base + i * size, sizeof(t));
	return t;
}

size_t
srvagg_search(const void *base, size_t n, size_t size, int64_t t, int right)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int64_t v = ts_at(base, mid, size);

		if (right ? v <= t : v < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int
srvagg_sorted(const void *base, size_t n, size_t size)
{
	for (size_t i = 1; i < n; i++)
		if (ts_at(base, i, size) < ts_at(base, i - 1, size))
			return 0;
	return 1;
}

/* The slice count, with the size and window span, or -1 (see window.h). */
static long
slice_count(const struct srvagg_window *w, uint64_t *d, uint64_t *span)
{
	double dns = w->slice_s * 1e9;
	uint64_t n;

	if (!(w->slice_s > 0) || !(dns < 9.2e18) || dns < 1)
		return -1;
	if (w->start_ns == INT64_MIN || w->end_ns == INT64_MAX)
		return -1;
	if (w->end_ns <= w->start_ns)
		return 0;
	*d = (uint64_t)dns;
	*span = (uint64_t)w->end_ns - (uint64_t)w->start_ns;
	n = *span / *d + (*span % *d != 0);
	return n > SRVAGG_MAX_SLICES ? -1 : (long)n;
}

long
srvagg_slices(const struct srvagg_window *w, struct srvagg_bound **out)
{
	uint64_t d = 0, span = 0;
	long n = slice_count(w, &d, &span);

	*out = NULL;
	if (n <= 0)
		return n;
	*out = xreallocarray(NULL, (size_t)n, sizeof(**out));
	for (uint64_t i = 0; i < (uint64_t)n; i++) {
		uint64_t off = i * d;
		struct srvagg_bound *b = &(*out)[i];

		b->start_ns = (int64_t)((uint64_t)w->start_ns + off);
		b->complete = span - off >= d;
		b->end_ns = b->complete ? (int64_t)((uint64_t)b->start_ns + d)
					: w->end_ns;
	}
	return n;
}

int
srvagg_window_check(const struct srvagg_window *w)
{
	uint64_t d, span;

	if (w->slice_s == 0)
		return 0;
	return slice_count(w, &d, &span) < 0 ? -1 : 0;
}
