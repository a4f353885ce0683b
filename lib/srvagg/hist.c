/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Histogram statistics (the original's server_metrics/_histogram_stats.py).
 *
 * Reference: the last sample before start_ns, else the first sample of the
 * series. Final: the last sample at or before end_ns, else (none there)
 * the last sample of the series. Quirks kept: a series whose samples all
 * lie before the window still reports (count 0 and zero buckets) where a
 * gauge or counter would be left out; one whose samples all lie after the
 * window end measures from its first to its last sample.
 *
 * count = int(final count - reference count), sum = the sum delta; count
 * 0: only count and buckets are reported (no timeslices either). Else
 * avg = sum / count, and count_rate and sum_rate per second of the
 * reference-to-final span when positive. A negative count (reset) is
 * reported as is. buckets: per-le deltas, truncated to integers; any
 * negative one drops the buckets and the estimates. Non-finite deltas,
 * where the original raises, are treated the same way.
 *
 * Slices (from the reference; none when the final sample is not after
 * it): each boundary takes the last sample at or before it (clamped to
 * the series' first sample); a slice whose sum or count goes down or is
 * not finite is skipped, otherwise it reports count, sum, avg (0 when
 * empty) and its bucket deltas (none when one goes down).
 */
#include "srvagg/hist.h"

#include <math.h>
#include <stdlib.h>

#include "util.h"

static size_t
last_at_or_before(const struct srvagg_hist_in *h, int64_t t)
{
	size_t i = srvagg_search(h->ts, h->n, sizeof(*h->ts), t, 1);

	return i ? i - 1 : 0;
}

/* Bucket deltas between samples a and b, NULL when one is negative or not finite. */
static double *
bucket_deltas(const struct srvagg_hist_in *h, size_t a, size_t b)
{
	double *d;

	if (!h->nb)
		return NULL;
	d = xreallocarray(NULL, h->nb, sizeof(*d));
	for (size_t j = 0; j < h->nb; j++) {
		double x = h->cum[b * h->nb + j] - h->cum[a * h->nb + j];

		if (!isfinite(x) || x < 0) {
			free(d);
			return NULL;
		}
		d[j] = trunc(x);
	}
	return d;
}

static int
valid(const struct srvagg_hist_in *h)
{
	if (!srvagg_sorted(h->ts, h->n, sizeof(*h->ts)))
		return 0;
	for (size_t j = 0; j < h->nb; j++)
		if (isnan(h->le[j]) || (j && !(h->le[j] > h->le[j - 1])) ||
		    (isinf(h->le[j]) && (h->le[j] < 0 || j + 1 < h->nb)))
			return 0;
	return 1;
}

static void
hist_slices(const struct srvagg_hist_in *h, size_t from, size_t final,
	    const struct srvagg_window *w, struct srvagg_hist *out)
{
	struct srvagg_bound *b;
	long nb = final > from ? srvagg_slices(w, &b) : 0;

	if (nb <= 0)
		return;
	out->slices = xreallocarray(NULL, (size_t)nb, sizeof(*out->slices));
	for (long i = 0; i < nb; i++) {
		size_t s = last_at_or_before(h, b[i].start_ns);
		size_t e = last_at_or_before(h, b[i].end_ns);
		double sd = h->sum[e] - h->sum[s], cd = h->count[e] - h->count[s];
		struct srvagg_hist_slice *sl = &out->slices[out->nslices];

		if (!isfinite(sd) || !isfinite(cd) || sd < 0 || cd < 0)
			continue;
		sl->start_ns = b[i].start_ns;
		sl->end_ns = b[i].end_ns;
		sl->complete = b[i].complete;
		sl->count = trunc(cd);
		sl->sum = sd;
		sl->avg = cd > 0 ? sd / cd : 0.0;
		sl->buckets = bucket_deltas(h, s, e);
		out->nslices++;
	}
	free(b);
	if (!out->nslices) {
		free(out->slices);
		out->slices = NULL;
	}
}

static void
estimate(const struct srvagg_hist_in *h, size_t from, struct srvagg_hist *out)
{
	struct srvagg_bstat *learn = srvagg_learn(h, from);

	out->has_est = srvagg_histq_poly(h->le, h->nb, out->buckets, learn,
					 out->sum, out->count, out->est);
	out->has_prom = srvagg_histq_prom(h->le, h->nb, out->buckets,
					  out->count, out->prom);
	srvagg_learn_free(learn, h->nb);
}

int
srvagg_hist(const struct srvagg_hist_in *h, const struct srvagg_window *w,
	    struct srvagg_hist *out)
{
	size_t lo, hi, ref, final;
	double cd;

	*out = (struct srvagg_hist){ 0 };
	out->nb = h->nb;
	if (!valid(h) || srvagg_window_check(w) < 0)
		return -1;
	if (!h->n)
		return 0;
	lo = srvagg_search(h->ts, h->n, sizeof(*h->ts), w->start_ns, 0);
	hi = srvagg_search(h->ts, h->n, sizeof(*h->ts), w->end_ns, 1);
	ref = lo ? lo - 1 : 0;
	final = hi ? hi - 1 : h->n - 1;
	cd = h->count[final] - h->count[ref];
	if (!isfinite(cd))
		return 0;
	out->count = trunc(cd);
	out->sum = h->sum[final] - h->sum[ref];
	out->reset = out->sum < 0 || out->count < 0;
	out->buckets = bucket_deltas(h, ref, final);
	if (out->count == 0) {
		out->empty = 1;
		out->sum = 0;
		return 1;
	}
	out->avg = out->sum / out->count;
	if (h->ts[final] > h->ts[ref]) {
		double secs = srvagg_secs(h->ts[ref], h->ts[final]);

		out->has_rates = 1;
		out->count_rate = out->count / secs;
		out->sum_rate = out->sum / secs;
	}
	if (out->buckets)
		estimate(h, ref, out);
	if (w->slice_s > 0)
		hist_slices(h, ref, final, w, out);
	return 1;
}

void
srvagg_hist_release(struct srvagg_hist *out)
{
	for (size_t i = 0; i < out->nslices; i++)
		free(out->slices[i].buckets);
	free(out->slices);
	free(out->buckets);
	*out = (struct srvagg_hist){ 0 };
}
