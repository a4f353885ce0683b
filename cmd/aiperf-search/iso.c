/* SPDX-License-Identifier: Apache-2.0 */
/* The smooth-isotonic planner: bracket, PAVA+PCHIP fit on the SLA margins, cliff guard, replicates. */
#include "search.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

#include "rand/nprand.h"
#include "util.h"

#define FIT_INTERNAL_PROBES 3
#define FIT_MIN_DISTINCT 3
#define MAX_REFIT_CYCLES 3
#define MAX_X 256

static int
probed(const struct planner *p, long long x)
{
	for (size_t i = 0; i < p->nprobes; i++)
		if (p->probes[i].x == x)
			return 1;
	return 0;
}

static int
queued(const struct planner *p, long long x)
{
	for (size_t i = 0; i < p->nqueue; i++)
		if (p->queue[i] == x)
			return 1;
	return 0;
}

static void
enqueue(struct planner *p, long long x)
{
	p->queue = xreallocarray(p->queue, p->nqueue + 1, sizeof(*p->queue));
	p->queue[p->nqueue++] = x;
}

static int
cmpll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* The distinct probed values, ascending (at most MAX_X). */
static size_t
probed_xs(const struct planner *p, long long *xs)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nprobes && n < MAX_X; i++) {
		size_t j = 0;

		while (j < n && xs[j] != p->probes[i].x)
			j++;
		if (j == n)
			xs[n++] = p->probes[i].x;
	}
	if (n > 1)
		qsort(xs, n, sizeof(*xs), cmpll);
	return n;
}

/* Filter k's margins at x, into s (at most MAX_X): their count. */
static size_t
samples(const struct planner *p, long long x, int k, double *s)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nprobes && n < MAX_X; i++)
		if (p->probes[i].x == x && p->probes[i].has[k])
			s[n++] = p->probes[i].m[k];
	return n;
}

static double
mean(const double *v, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return s / (double)n;
}

static double
sample_sd(const double *v, size_t n)
{
	double m = mean(v, n), s = 0;

	for (size_t i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return sqrt(s / (double)(n - 1));
}

/* The (x, mean margin) series of filter k over the values that have it. */
static size_t
series(const struct planner *p, int k, double *x, double *y)
{
	long long xs[MAX_X];
	double s[MAX_X];
	size_t n = probed_xs(p, xs), m = 0, c;

	for (size_t i = 0; i < n; i++)
		if ((c = samples(p, xs[i], k, s))) {
			x[m] = (double)xs[i];
			y[m++] = mean(s, c);
		}
	return m;
}

static long long
clamp_in(const struct planner *p, long long x)
{
	if (x > p->infeasible_min - 1)
		x = p->infeasible_min - 1;
	if (x < p->feasible_max + 1)
		x = p->feasible_max + 1;
	return x;
}

static long long
step_at(const struct planner *p, double frac)
{
	long long gap = p->infeasible_min - p->feasible_max, s = (long long)rint((double)gap * frac);

	return clamp_in(p, p->feasible_max + (s > 1 ? s : 1));
}

static int
have_bracket(const struct planner *p)
{
	return p->feasible_max >= 0 && p->infeasible_min >= 0 &&
	       p->infeasible_min - p->feasible_max > 1;
}

static void
queue_internal(struct planner *p)
{
	if (!have_bracket(p))
		return;
	for (int k = 1; k <= FIT_INTERNAL_PROBES; k++) {
		long long x = step_at(p, (double)k / (FIT_INTERNAL_PROBES + 1));

		if (!probed(p, x) && !queued(p, x))
			enqueue(p, x);
	}
}

static void
queue_refit(struct planner *p)
{
	static const double fracs[] = { 0.125, 0.625 };

	if (!have_bracket(p))
		return;
	for (int i = 0; i < 2; i++) {
		long long x = step_at(p, fracs[i]);

		if (!probed(p, x) && !queued(p, x))
			enqueue(p, x);
	}
}

int
iso_bracket_precise(const struct planner *p)
{
	long long gap = p->infeasible_min - p->feasible_max;

	if (p->feasible_max < 0 || p->infeasible_min < 0)
		return 0;
	return gap <= 1 ||
	       (double)gap / (double)(p->infeasible_min > 1 ? p->infeasible_min : 1) <
		       p->cfg->precision;
}

static void
finalize(struct planner *p, const char *reason)
{
	if (!p->reason)
		p->reason = reason;
	if (!p->boundary_type)
		p->boundary_type = "smooth";
}

/* The binding filter: the largest margin at the top value, divided by its
 * noise (floored at 1% of the threshold) once any filter has a noise. */
static int
binding(const struct planner *p, const double *margin, const double *sigma)
{
	const struct cfg *c = p->cfg;
	int any = 0, best = 0;
	double bv = -INFINITY;

	for (size_t k = 0; k < c->nfilters; k++)
		any |= sigma[k] > 0;
	for (size_t k = 0; k < c->nfilters; k++) {
		double v = margin[k], f = fmax(sigma[k], 0.01 * fabs(c->filters[k].threshold));

		if (any && f != 0)
			v = margin[k] / f;
		if (v > bv) {
			bv = v;
			best = (int)k;
		}
	}
	return best;
}

/* Fit each filter's margins; the binding one's root is the candidate (-1: none). */
static long long
fit_and_solve(struct planner *p)
{
	long long xs[MAX_X];
	size_t n = probed_xs(p, xs), nf = p->cfg->nfilters;
	double margin[MAX_FILTERS] = { 0 }, sigma[MAX_FILTERS] = { 0 }, s[MAX_X];
	double x[MAX_X], y[MAX_X], root;
	int full[MAX_FILTERS] = { 0 };
	long long cand;

	if (n < 2)
		return -1;
	for (size_t k = 0; k < nf; k++) {
		size_t m = series(p, (int)k, x, y), c;

		if (m < n)
			continue;
		full[k] = 1;
		margin[k] = y[m - 1];
		if ((c = samples(p, xs[n - 1], (int)k, s)) >= 2)
			sigma[k] = sample_sd(s, c);
	}
	p->binding = binding(p, margin, sigma);
	if (!full[p->binding] || p->feasible_max < 0 || p->infeasible_min < 0)
		return -1;
	series(p, p->binding, x, y);
	if (isofit_root(x, y, n, (double)p->feasible_max, (double)p->infeasible_min, &root) < 0)
		return -1;
	cand = (long long)rint(root);
	if (cand <= p->feasible_max)
		cand = p->feasible_max + 1;
	if (cand >= p->infeasible_min)
		cand = p->infeasible_min - 1;
	return cand;
}

static int
needs_more_data(const struct planner *p)
{
	double x[MAX_X], y[MAX_X], yh[MAX_X];
	size_t n, distinct = 0;

	if (p->binding < 0)
		return 0;
	if ((n = series(p, p->binding, x, y)) < 4)
		return 1;
	isofit_pava(y, yh, n);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || rint(yh[i] * 1e9) != rint(yh[i - 1] * 1e9))
			distinct++;
	return distinct < FIT_MIN_DISTINCT;
}

static double
pstdev(const double *v, size_t n)
{
	double m = mean(v, n), s = 0;

	for (size_t i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return sqrt(s / (double)n);
}

/* The last (highest) probe far off the smooth fit while the bracket is still wide. */
static int
cliff(const struct planner *p)
{
	double x[MAX_X], y[MAX_X], sl;
	size_t n;

	if (p->binding < 0 || (n = series(p, p->binding, x, y)) < 3)
		return 0;
	if ((sl = pstdev(y + n - 3, 3)) == 0)
		return 0;
	if (fabs(y[n - 1] - isofit_curve_at(x, y, n, x[n - 1])) <= 3 * sl)
		return 0;
	if (p->feasible_max < 0 || p->infeasible_min < 0)
		return 0;
	return (double)(p->infeasible_min - p->feasible_max) > p->cfg->precision * (double)p->cfg->hi;
}

static int
replicate_budget(const struct planner *p)
{
	long long xs[MAX_X];
	double s[MAX_X], sd, thr, r;
	size_t n, c;

	if (p->cfg->sla_replicates > 0)
		return p->cfg->sla_replicates < 20 ? p->cfg->sla_replicates : 20;
	if (p->binding < 0 || !(n = probed_xs(p, xs)))
		return 0;
	if ((c = samples(p, xs[n - 1], p->binding, s)) < 2)
		return 0;
	sd = sample_sd(s, c);
	thr = fmax(fabs(p->cfg->filters[p->binding].threshold), 1e-9);
	r = ceil(4 * (sd / thr) * (sd / thr));
	return r > 20 ? 20 : r < 3 ? 3 : (int)r;
}

static long long
midpoint(const struct planner *p)
{
	long long mid;

	if (!have_bracket(p))
		return -1;
	mid = clamp_in(p, p->feasible_max + (p->infeasible_min - p->feasible_max) / 2);
	return mid > p->feasible_max && mid < p->infeasible_min ? mid : -1;
}

static void
enter_replicate_or_terminate(struct planner *p, long long cand)
{
	int budget;

	p->boundary_type = cliff(p) ? "cliff" : "smooth";
	if (p->boundary_type[0] == 'c') {
		long long mid = iso_bracket_precise(p) ? -1 : midpoint(p);

		if (mid < 0) {
			finalize(p, "smooth_isotonic_cliff_precision_reached");
			return;
		}
		enqueue(p, mid);
		p->phase = PH_CLIFF;
		return;
	}
	if (iso_bracket_precise(p)) {
		finalize(p, "smooth_isotonic_precision_reached");
		return;
	}
	if ((budget = replicate_budget(p)) <= 0) {
		if (probed(p, cand)) {
			finalize(p, "smooth_isotonic_precision_reached");
			return;
		}
		enqueue(p, cand);
		p->phase = PH_FIT;
		return;
	}
	while (budget-- > 0)
		enqueue(p, cand);
	p->phase = PH_REPLICATE;
}

static void
fit_step(struct planner *p)
{
	long long cand;

	if (p->nqueue)
		return;
	p->fit_count++;
	if ((cand = fit_and_solve(p)) < 0) {
		if (!have_bracket(p)) {
			finalize(p, "smooth_isotonic_pchip_fallback_bisection");
			return;
		}
		cand = p->feasible_max + (p->infeasible_min - p->feasible_max) / 2;
	}
	if (needs_more_data(p) && p->fit_count < MAX_REFIT_CYCLES) {
		queue_refit(p);
		return;
	}
	p->candidate = cand;
	enter_replicate_or_terminate(p, cand);
}

static void
cliff_step(struct planner *p)
{
	long long mid;

	if (p->nqueue)
		return;
	if (iso_bracket_precise(p) || (mid = midpoint(p)) < 0) {
		finalize(p, "smooth_isotonic_cliff_precision_reached");
		return;
	}
	enqueue(p, mid);
}

static int
cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* numpy's linear percentile of sorted t[n] at fraction q. */
static double
percentile(const double *t, size_t n, double q)
{
	double pos = q * (double)(n - 1), f = floor(pos);
	size_t i = (size_t)f;

	if (!isfinite(q))
		return NAN;
	if (i + 1 >= n)
		return t[n - 1];
	return t[i] + (pos - f) * (t[i + 1] - t[i]);
}

/* The accelerated, bias-corrected interval's two ends, as fractions. */
static void
bca_alphas(const double *v, size_t n, double th, double below, double *al)
{
	double jm = 0, num = 0, den = 0, z0, a, za = gsl_cdf_ugaussian_Pinv(0.025);

	for (size_t i = 0; i < n; i++)
		jm += (th * (double)n - v[i]) / (double)(n - 1) / (double)n;
	for (size_t i = 0; i < n; i++) {
		double d = jm - (th * (double)n - v[i]) / (double)(n - 1);

		num += d * d * d;
		den += d * d;
	}
	z0 = gsl_cdf_ugaussian_Pinv(below);
	a = num / (6 * pow(den, 1.5));
	for (int s = 0; s < 2; s++) {
		double z = s ? -za : za;

		al[s] = gsl_cdf_ugaussian_P(z0 + (z0 + z) / (1 - a * (z0 + z)));
	}
}

/* scipy.stats.bootstrap's BCa 95% interval on the mean (seeded: the original's is not). */
static void
bca(const double *v, size_t n, double *lo, double *hi)
{
	enum { B = 10000 };
	double *t = xcalloc(B, sizeof(*t)), th = mean(v, n), below = 0, al[2];
	struct nprand r;

	nprand_seed(&r, 0);
	for (size_t b = 0; b < B; b++) {
		double s = 0;

		for (size_t i = 0; i < n; i++)
			s += v[nprand_interval(&r, n - 1)];
		t[b] = s / (double)n;
		below += t[b] < th;
	}
	qsort(t, B, sizeof(*t), cmpd);
	bca_alphas(v, n, th, below / B, al);
	*lo = percentile(t, B, al[0]);
	*hi = percentile(t, B, al[1]);
	free(t);
}

static void
replicate_step(struct planner *p)
{
	double s[MAX_X];
	size_t c;

	if (p->nqueue)
		return;
	if (p->candidate < 0 || p->binding < 0 ||
	    (c = samples(p, p->candidate, p->binding, s)) < 2) {
		finalize(p, "smooth_isotonic_precision_reached");
		return;
	}
	bca(s, c, &p->ci_lo, &p->ci_hi);
	p->has_ci = 1;
	if (p->ci_lo <= 0 && 0 <= p->ci_hi) {
		queue_refit(p);
		p->phase = PH_FIT;
		return;
	}
	finalize(p, "smooth_isotonic_precision_reached");
}

static void
iso_flag(struct planner *p, long long v, const char *what, long long bound)
{
	p->non_monotonic = p->this_iter_non_mono = 1;
	if (!p->quiet)
		warn("smooth_isotonic: %s verdict at %lld %s=%lld; SLA boundary is non-monotonic in this run",
		     what, v, what[0] == 'f' ? "above existing infeasible_min" :
		     "at-or-below existing feasible_max", bound);
}

static void
iso_absorb(struct planner *p, long long v, int ok)
{
	if (ok) {
		if (p->infeasible_min >= 0 && v >= p->infeasible_min)
			iso_flag(p, v, "feasible", p->infeasible_min);
		else if (p->feasible_max < 0 || v > p->feasible_max)
			p->feasible_max = v;
		return;
	}
	if (p->feasible_max >= 0 && v <= p->feasible_max)
		iso_flag(p, v, "infeasible", p->feasible_max);
	else if (p->infeasible_min < 0 || v < p->infeasible_min)
		p->infeasible_min = v;
}

static void
bracket_step(struct planner *p, long long v, int ok)
{
	if (!ok) {
		if (p->feasible_max < 0) {
			p->reason = "smooth_isotonic_no_pass_in_range";
			return;
		}
		p->phase = PH_FIT;
		queue_internal(p);
		return;
	}
	if (v * 2 < p->cfg->hi) {
		p->next = v * 2;
		return;
	}
	if (v >= p->cfg->hi) {
		p->feasible_max = p->cfg->hi;
		p->reason = "smooth_isotonic_no_failure_in_range";
		return;
	}
	p->next = p->cfg->hi;
}

/* Signed margins: negative is feasible whatever the operator, so that every
 * filter's margin grows with the load. */
static void
record(struct planner *p, const struct iter *it, long long v)
{
	struct probe *pr;
	double m;

	p->probes = xreallocarray(p->probes, p->nprobes + 1, sizeof(*p->probes));
	pr = memset(&p->probes[p->nprobes++], 0, sizeof(*pr));
	pr->x = v;
	for (size_t k = 0; k < p->cfg->nfilters; k++) {
		const struct sla_filter *f = &p->cfg->filters[k];

		if (sla_mean(it, f->metric, f->stat, &m) < 0)
			continue;
		pr->m[k] = f->op == SLA_LT || f->op == SLA_LE ? m - f->threshold : f->threshold - m;
		pr->has[k] = 1;
	}
}

void
iso_tell(struct planner *p, const struct iter *it, long long v, int ok)
{
	if (p->nprobes >= MAX_X * 4) {
		finalize(p, "max_iterations");
		return;
	}
	record(p, it, v);
	iso_absorb(p, v, ok);
	switch (p->phase) {
	case PH_PROBE:
		bracket_step(p, v, ok);
		break;
	case PH_FIT:
		fit_step(p);
		break;
	case PH_CLIFF:
		cliff_step(p);
		break;
	default:
		replicate_step(p);
		break;
	}
}
