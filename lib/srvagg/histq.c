/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Histogram percentile estimation (the original's
 * server_metrics/histogram_percentiles/: _bucket_utils.py, _estimate.py,
 * _sum_constraint.py, _observation_generators.py, _prometheus.py).
 *
 * Learning: for each scrape interval from the reference sample on (to the
 * end of the series, past the window end too) whose count grew by at
 * least 1, the per-bucket growth is taken from the cumulative bucket
 * growth (each clamped at 0, then differenced and clamped at 0 again);
 * when exactly one bucket (+Inf included) grew, that interval's exact
 * mean sum_delta / count_delta is recorded for it, weighted by the count.
 * A bucket's learned mean is the weighted average; its variance the
 * sample variance (ddof=1) of the interval means once there are three.
 *
 * Estimate (count > 0, sum finite and >= 0; sum 0 gives all zeros):
 *  1. per-bucket counts from the cumulative deltas; when they add up to
 *     more than 100000 they and the sum are scaled down to 100000;
 *  2. each finite bucket's sum is count * (learned mean when strictly
 *     inside the bucket, else its midpoint); a bucket's lower bound is the
 *     previous bound, 0 for the first;
 *  3. the +Inf bucket gets ceil(count) observations averaging
 *     (sum - finite sums) / count, or 1.5 * the largest finite bound when
 *     that is not above it; one observation is that average, more are
 *     numpy.linspace(largest bound, 2 * avg - largest bound (at least twice
 *     the largest bound));
 *  4. the finite buckets get int(count) observations each, placed by the
 *     learned variance: a two-point mass (4 std < 1% of the width), a blend
 *     of variance-aware and shifted-uniform points (4 std < 20% of the
 *     width and mean within 30% of the centre), variance-aware points, or
 *     else evenly spaced points shifted to the overall average (the bucket
 *     holding >= 95% of the finite observations), the learned mean or the
 *     midpoint; then, unless within 0.1% of the remaining sum, every
 *     bucket's points shift by its share of the difference, at most 40% of
 *     its width, clipped to the bucket;
 *  5. numpy-linear p1..p99 of all those points.
 * Quirk kept: a bucket's learned variance is used only with a learned mean
 * inside the bucket, but the variance itself comes from all interval
 * means, including ones outside the bucket.
 *
 * Prometheus interpolation: rank = q * count; the first finite bucket whose
 * cumulative count reaches it is interpolated linearly from the previous
 * bound (0 below the first bucket); an empty bucket gives the previous
 * bound, and reaching +Inf gives the largest finite bound.
 */
#include "srvagg/histq.h"

#include <math.h>
#include <stdlib.h>

#include "stats/stats.h"
#include "util.h"

#define MAX_OBS 100000
#define MAX_INF 1e6

static double
clip(double x, double lo, double hi)
{
	x = x < lo ? lo : x;	/* numpy.minimum(numpy.maximum(x, lo), hi) */
	return x > hi ? hi : x;
}

static double
maximum0(double x)		/* numpy.maximum(x, 0): NaN kept */
{
	return x >= 0 || isnan(x) ? x : 0;
}

static void
bstat_record(struct srvagg_bstat *b, double mean, double count)
{
	b->obs += count;
	b->wsum += mean * count;
	b->means = xreallocarray(b->means, b->nmeans + 1, sizeof(*b->means));
	b->means[b->nmeans++] = mean;
}

/* The single bucket that grew between samples i and i + 1, or -1. */
static long
single_bucket(const struct srvagg_hist_in *h, size_t i)
{
	const double *a = h->cum + i * h->nb, *b = a + h->nb;
	double prev = 0;
	long found = -1;

	for (size_t j = 0; j < h->nb; j++) {
		double d = maximum0(b[j] - a[j]);
		double per = maximum0(j ? d - prev : d);

		prev = d;
		if (per > 0) {
			if (found >= 0)
				return -1;
			found = (long)j;
		}
	}
	return found;
}

struct srvagg_bstat *
srvagg_learn(const struct srvagg_hist_in *h, size_t from)
{
	struct srvagg_bstat *b = xcalloc(h->nb ? h->nb : 1, sizeof(*b));

	for (size_t i = from; i + 1 < h->n; i++) {
		double dc = h->count[i + 1] - h->count[i];
		long j;

		/* numpy .astype(int64): <= 0, NaN and >= 2^63 are all skipped */
		if (!(dc >= 1 && dc < 9223372036854775808.0))
			continue;
		dc = trunc(dc);
		j = single_bucket(h, i);
		if (j >= 0)
			bstat_record(&b[j], (h->sum[i + 1] - h->sum[i]) / dc, dc);
	}
	return b;
}

void
srvagg_learn_free(struct srvagg_bstat *b, size_t nb)
{
	if (!b)
		return;
	for (size_t j = 0; j < nb; j++)
		free(b[j].means);
	free(b);
}

/* Learned mean if any (1), and variance if three means (2 set *var). */
static int
learned(const struct srvagg_bstat *b, double *mean, double *var)
{
	double *d, m;
	size_t n;

	if (!b || b->obs == 0)
		return 0;
	*mean = b->wsum / b->obs;
	n = b->nmeans;
	if (n < 3)
		return 1;
	m = stats_sum(b->means, n) / (double)n;
	d = xreallocarray(NULL, n, sizeof(*d));
	for (size_t i = 0; i < n; i++)
		d[i] = (b->means[i] - m) * (b->means[i] - m);
	*var = stats_sum(d, n) / (double)(n - 1);
	free(d);
	return 2;
}

struct bucket {
	double lo, hi, width, mid;
	int has_mean, has_var;
	double mean, var;
};

static void
bucket_init(struct bucket *k, const double *le, size_t j,
	    const struct srvagg_bstat *learn)
{
	double mean = 0, var = 0;
	int got = learned(learn ? &learn[j] : NULL, &mean, &var);

	k->lo = j ? le[j - 1] : 0.0;
	k->hi = le[j];
	k->width = k->hi - k->lo;
	k->mid = (k->lo + k->hi) / 2;
	k->has_mean = got > 0 && k->lo < mean && mean < k->hi;
	k->mean = mean;
	k->has_var = got == 2;
	k->var = var;
}

static double
frac(size_t i, size_t n)
{
	return ((double)i + 0.5) / (double)n;
}

static void
gen_f3(double *o, size_t n, const struct bucket *k)
{
	double x = k->lo, d = k->mean - x, a, den, px;
	size_t nx;

	a = clip(d > 0 ? k->mean + k->var / d : k->hi, k->lo, k->hi);
	den = k->var + d * d;
	px = clip(den > 0 ? k->var / den : 0.5, 0.0, 1.0);
	nx = (size_t)((double)n * px);
	for (size_t i = 0; i < n; i++)
		o[i] = i < nx ? x : a;
}

static void
gen_varaware(double *o, size_t n, const struct bucket *k, double std)
{
	double tl = std > 0 ? (k->mean - k->lo) / std : 3.0;
	double tu = std > 0 ? (k->hi - k->mean) / std : 3.0;

	tl = 3.0 < tl ? 3.0 : tl;	/* Python min(x, 3.0) */
	tu = 3.0 < tu ? 3.0 : tu;
	for (size_t i = 0; i < n; i++) {
		double f = frac(i, n);

		o[i] = clip(f < 0.5 ? k->mean - tl * std * (1 - 2 * f)
				    : k->mean + tu * std * (2 * f - 1),
			    k->lo, k->hi);
	}
}

static void
gen_uniform(double *o, size_t n, const struct bucket *k, double center)
{
	double shift = center - k->mid;

	for (size_t i = 0; i < n; i++)
		o[i] = clip(k->lo + k->width * frac(i, n) + shift, k->lo, k->hi);
}

static void
gen_blend(double *o, size_t n, const struct bucket *k, double std)
{
	double *v = xreallocarray(NULL, n, sizeof(*v));

	gen_uniform(o, n, k, k->mean);
	gen_varaware(v, n, k, std);
	for (size_t i = 0; i < n; i++)
		o[i] = clip((1 - 0.5) * o[i] + 0.5 * v[i], k->lo, k->hi);
	free(v);
}

static void
gen_bucket(double *o, size_t n, const struct bucket *k, int dominant,
	   double avg)
{
	if (k->has_mean && k->has_var && k->var > 0) {
		double std = sqrt(k->var);
		double spread = 4 * std / k->width;
		double off = fabs(k->mean - k->mid) / k->width;

		if (spread < 0.01)
			gen_f3(o, n, k);
		else if (spread < 0.2 && off < 0.3)
			gen_blend(o, n, k, std);
		else
			gen_varaware(o, n, k, std);
	} else if (dominant && k->lo < avg && avg < k->hi) {
		gen_uniform(o, n, k, avg);
	} else {
		gen_uniform(o, n, k, k->has_mean ? k->mean : k->mid);
	}
}

/* Python's sum() over the finite buckets' counts, left to right. */
static double
finite_total(const double *per, size_t nfin)
{
	double t = 0;

	for (size_t j = 0; j < nfin; j++)
		t += per[j];
	return t;
}

struct range {
	size_t at, n;
	double lo, hi;
};

static void
adjust_sum(double *o, size_t total, const struct range *r, size_t nr,
	   double target)
{
	double gen = stats_sum(o, total), disc;

	if (gen <= 0 || target <= 0)
		return;
	disc = target - gen;
	if (fabs(disc) / target < 0.001)
		return;
	for (size_t i = 0; i < nr; i++) {
		double *s = o + r[i].at, w = r[i].hi - r[i].lo;
		double share = disc * (stats_sum(s, r[i].n) / gen);
		double shift = clip(share / (double)r[i].n, -(w * 0.4), w * 0.4);

		for (size_t j = 0; j < r[i].n; j++)
			s[j] = clip(s[j] + shift, r[i].lo, r[i].hi);
	}
}

/*
 * Phase 4: observations for the finite buckets, per[0..nfin) their counts.
 * Returns the number of observations written to a new *out.
 */
static size_t
gen_finite(const double *le, size_t nfin, double *per, double target,
	   const struct srvagg_bstat *learn, double **out)
{
	double total = finite_total(per, nfin), avg, maxc = 0, cnt;
	size_t nobs = 0, at = 0, nr = 0;
	long dom = -1;
	struct range *r;
	double *o;

	if (total > MAX_OBS) {
		double ratio = MAX_OBS / total;

		for (size_t j = 0; j < nfin; j++)
			per[j] *= ratio;
		target *= ratio;
		total = finite_total(per, nfin);
	}
	avg = total > 0 ? target / total : 0.0;
	for (size_t j = 0; j < nfin; j++)
		if (j == 0 || per[j] > maxc)
			maxc = per[j];
	if (total > 0 && !(maxc / total < 0.95))
		for (size_t j = 0; j < nfin && dom < 0; j++)
			if (per[j] == maxc)
				dom = (long)j;
	cnt = 0;
	for (size_t j = 0; j < nfin; j++)
		cnt += trunc(per[j]);
	*out = NULL;
	if (!(cnt > 0))
		return 0;
	nobs = (size_t)cnt;
	o = xreallocarray(NULL, nobs, sizeof(*o));
	r = xreallocarray(NULL, nfin, sizeof(*r));
	for (size_t j = 0; j < nfin && at < nobs; j++) {
		double c = trunc(per[j]);
		struct bucket k;
		size_t n;

		if (!(c > 0))
			continue;
		n = c < (double)(nobs - at) ? (size_t)c : nobs - at;
		bucket_init(&k, le, j, learn);
		gen_bucket(o + at, n, &k, (long)j == dom, avg);
		r[nr++] = (struct range){ at, n, k.lo, k.hi };
		at += n;
	}
	adjust_sum(o, nobs, r, nr, target);
	free(r);
	*out = o;
	return nobs;
}

/* Phase 3: the +Inf bucket's observations appended to o[0..*n). */
static double *
gen_inf(double *o, size_t *n, double inf_count, double inf_avg_sum,
	double maxb)
{
	size_t k = (size_t)inf_count, base = *n;
	double avg, up;

	avg = inf_avg_sum <= 0 ? maxb * 1.5 : inf_avg_sum / inf_count;
	if (inf_avg_sum > 0 && avg <= maxb)
		avg = maxb * 1.5;
	up = 2 * avg - maxb;
	if (up <= maxb)
		up = maxb * 2;
	o = xreallocarray(o, base + k, sizeof(*o));
	if (k == 1) {
		o[base] = avg;
	} else {
		double delta = up - maxb, step = delta / (double)(k - 1);

		for (size_t i = 0; i < k; i++)
			o[base + i] = step == 0 ?
				(double)i / (double)(k - 1) * delta + maxb :
				(double)i * step + maxb;
		o[base + k - 1] = up;
	}
	*n = base + k;
	return o;
}

/* One quantile at rank target (the original's _prometheus_quantile). */
static double
prom_quantile(const double *le, size_t nb, const double *cum, double target)
{
	double prev_bound = 0.0, prev_count = 0.0;

	for (size_t j = 0; j < nb; j++) {
		if (isinf(le[j]) && le[j] > 0)
			return prev_bound;
		if (cum[j] >= target) {
			double bc = cum[j] - prev_count;

			if (bc == 0)
				return prev_bound;
			return prev_bound +
			       (le[j] - prev_bound) * ((target - prev_count) / bc);
		}
		prev_bound = le[j];
		prev_count = cum[j];
	}
	return prev_bound;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void
percentiles(double *o, size_t n, double pct[SRVAGG_NPCT])
{
	for (size_t i = 0; i < n; i++) {
		if (isnan(o[i])) {
			for (size_t j = 0; j < SRVAGG_NPCT; j++)
				pct[j] = NAN;
			return;
		}
	}
	qsort(o, n, sizeof(*o), cmp_double);
	for (size_t j = 0; j < SRVAGG_NPCT; j++)
		pct[j] = stats_percentile(o, n, srvagg_pct[j]);
}

/* Finite bucket sums from learned means or midpoints (phase 2), summed left to right. */
static double
finite_sums(const double *le, size_t nfin, const double *per,
	    const struct srvagg_bstat *learn)
{
	double s = 0;

	for (size_t j = 0; j < nfin; j++) {
		struct bucket k;

		if (!(per[j] > 0))
			continue;
		bucket_init(&k, le, j, learn);
		s += per[j] * (k.has_mean ? k.mean : k.mid);
	}
	return s;
}

int
srvagg_histq_poly(const double *le, size_t nb, const double *delta,
		  const struct srvagg_bstat *learn, double sum, double count,
		  double pct[SRVAGG_NPCT])
{
	size_t nfin = nb && isinf(le[nb - 1]) ? nb - 1 : nb, nobs, ninf = 0;
	double *per, total = 0, inf_per = 0, inf_count = 0, *o, *inf = NULL;
	double fin, inf_sum = 0;

	if (!(count > 0) || !nb || !isfinite(sum) || sum < 0)
		return 0;
	if (sum == 0) {
		for (size_t j = 0; j < SRVAGG_NPCT; j++)
			pct[j] = 0.0;
		return 1;
	}
	if (!nfin)
		return 0;
	per = xreallocarray(NULL, nfin, sizeof(*per));
	for (size_t j = 0; j < nfin; j++)
		total += per[j] = delta[j] - (j ? delta[j - 1] : 0.0);
	if (nfin < nb)
		total += inf_per = delta[nfin] - delta[nfin - 1];
	if (total > MAX_OBS) {
		double ratio = MAX_OBS / total;

		for (size_t j = 0; j < nfin; j++)
			per[j] *= ratio;
		inf_per *= ratio;
		sum *= ratio;
	}
	if (inf_per > 0)
		inf_count = ceil(inf_per);
	if (inf_count > MAX_INF) {	/* the original would run out of memory */
		free(per);
		return 0;
	}
	fin = finite_sums(le, nfin, per, learn);
	if (inf_count > 0) {
		inf = gen_inf(NULL, &ninf, inf_count, sum - fin, le[nfin - 1]);
		inf_sum = stats_sum(inf, ninf);
	}
	nobs = gen_finite(le, nfin, per, sum - inf_sum, learn, &o);
	free(per);
	if (ninf) {
		o = xreallocarray(o, nobs + ninf, sizeof(*o));
		for (size_t i = 0; i < ninf; i++)
			o[nobs + i] = inf[i];
		nobs += ninf;
	}
	free(inf);
	if (nobs)
		percentiles(o, nobs, pct);
	free(o);
	return nobs > 0;
}

int
srvagg_histq_prom(const double *le, size_t nb, const double *delta,
		  double count, double pct[SRVAGG_NPCT])
{
	static const double q[SRVAGG_NPCT] = {
		0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99,
	};

	if (!nb || count == 0)
		return 0;
	for (size_t i = 0; i < SRVAGG_NPCT; i++)
		pct[i] = prom_quantile(le, nb, delta, q[i] * count);
	return 1;
}
