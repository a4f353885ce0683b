/* SPDX-License-Identifier: Apache-2.0 */
/* Space-filling designs for the sobol and latin_hypercube sweeps: scipy.stats.qmc's points and their mapping to values. */
#include "stats/spacefill.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_qrng.h>

#include "rand/nprand.h"
#include "util.h"

/*
 * The draws and the arithmetic below follow scipy's stats/_qmc.py,
 * _sobol.pyx and _qmc_cy.pyx (main, 2.0.0.dev0) operation for operation,
 * so that a seed gives scipy's Latin hypercubes and, in the coordinates
 * where GSL's direction numbers are scipy's, its scrambled Sobol' points.
 * That is read from scipy's source, not run (no scipy here). Operand
 * order matters for random-cd's comparisons; a fused multiply-add would
 * change roundings. Older scipy differs: the 1.10-era random-cd drew the
 * column and rows without endpoint=True (never the last ones).
 */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

/* scipy's Sobol(bits=None) is 30 bits, as GSL's generator is. */
#define SOBOL_BITS 30
#define CD_TRIES 10000
#define CD_NOCHANGE 100

/*
 * Generator.integers(0, rng, endpoint=True) for rng < 2^32 - 1: numpy's
 * buffered_bounded_lemire_uint32 (Lemire's rejection over next_uint32,
 * which shares PCG64's buffered half word with shuffle's draws).
 */
static uint32_t
bounded32(struct nprand *r, uint32_t rng)
{
	const uint32_t excl = rng + 1;
	uint64_t m = (uint64_t)nprand_next32(r) * excl;

	if ((uint32_t)m < excl) {
		const uint32_t threshold = (UINT32_MAX - rng) % excl;

		while ((uint32_t)m < threshold)
			m = (uint64_t)nprand_next32(r) * excl;
	}
	return (uint32_t)(m >> 32);
}

/*
 * Sobol._scramble(): the shift is rng.integers(2, size=(d, bits)) read
 * least significant bit first; then rng.integers(2, size=(d, bits, bits))
 * made lower triangular with a unit diagonal. Row p of L makes bit p
 * counted from the most significant: out_p = XOR_{q<=p} L[p][q] in_q.
 * Kept as columns: cols[j][q] is the output bits input bit q flips.
 */
static void
lms_draw(struct nprand *r, size_t d, uint32_t *shift,
	 uint32_t cols[][SOBOL_BITS])
{
	for (size_t j = 0; j < d; j++) {
		shift[j] = 0;
		for (int k = 0; k < SOBOL_BITS; k++)
			shift[j] |= bounded32(r, 1) << k;
	}
	for (size_t j = 0; j < d; j++) {
		for (int q = 0; q < SOBOL_BITS; q++)
			cols[j][q] = 0;
		for (int p = 0; p < SOBOL_BITS; p++) {
			uint32_t out = 1U << (SOBOL_BITS - 1 - p);

			for (int q = 0; q < SOBOL_BITS; q++) {
				uint32_t bit = bounded32(r, 1);

				if (q == p || (q < p && bit))
					cols[j][q] |= out;
			}
		}
	}
}

/*
 * L x over GF(2). scipy scrambles the direction numbers instead
 * (_cscramble); by linearity L (v1 ^ v2 ^ ...) = L v1 ^ L v2 ^ ..., so
 * each point comes out the same.
 */
static uint32_t
lms_apply(const uint32_t *cols, uint32_t x)
{
	uint32_t y = 0;

	for (int q = 0; q < SOBOL_BITS; q++)
		if (x >> (SOBOL_BITS - 1 - q) & 1)
			y ^= cols[q];
	return y;
}

/*
 * GSL's first point is (0.5, ...): its sobol_get() flips the direction
 * number of the lowest zero bit of the count before it returns, so count
 * 0 is already past the origin. Checked on GSL 2.7: 0.5, 0.75, 0.25,
 * 0.375, ... in both of the first two coordinates (0.5, 0.25, 0.75 in the
 * second), which is scipy's unscrambled sequence from its second point.
 * Checked against scipy's _sobol_direction_numbers.npz (1023 points,
 * rebuilt by a one-off script): GSL's coordinates 1 and 2 are scipy's
 * bit for bit, coordinates 3 to 40 are not (Bratley-Fox's initial
 * direction numbers there, Joe-Kuo's in scipy). So point 0 is the origin
 * and point i is GSL's i-th; each is a multiple of 2^-30, exactly.
 */
static int
sobol_fill(gsl_qrng *q, size_t n, size_t d, const uint32_t *shift,
	   uint32_t (*cols)[SOBOL_BITS], double *u)
{
	const double scale = 1.0 / (double)(1UL << SOBOL_BITS);
	double raw[SPACEFILL_MAX_DIM] = { 0 };

	for (size_t i = 0; i < n; i++) {
		if (i > 0 && gsl_qrng_get(q, raw) != GSL_SUCCESS)
			return -1;
		for (size_t j = 0; j < d; j++) {
			uint32_t x = (uint32_t)(raw[j] / scale);

			if (cols)
				x = lms_apply(cols[j], x) ^ shift[j];
			u[i * d + j] = (double)x * scale;
		}
	}
	return 0;
}

int
spacefill_sobol(size_t n, size_t d, int scramble, uint64_t seed, double *u)
{
	uint32_t shift[SPACEFILL_MAX_DIM], cols[SPACEFILL_MAX_DIM][SOBOL_BITS];
	gsl_error_handler_t *old;
	gsl_qrng *q;
	int rc = -1;

	if (d < 1 || d > SPACEFILL_MAX_DIM || n < 1 || n > SPACEFILL_MAX_N ||
	    (scramble != 0 && scramble != 1) || !u)
		return -1;
	if (scramble) {
		struct nprand r;

		nprand_seed(&r, seed);
		lms_draw(&r, d, shift, cols);
	}
	old = gsl_set_error_handler_off();
	q = gsl_qrng_alloc(gsl_qrng_sobol, (unsigned int)d);
	if (q)
		rc = sobol_fill(q, n, d, shift, scramble ? cols : NULL, u);
	gsl_qrng_free(q);
	gsl_set_error_handler(old);
	return rc;
}

/*
 * Hickernell's centered L2 discrepancy, squared, as _qmc_cy.pyx's
 * centered_discrepancy() sums it (workers=1).
 */
double
spacefill_cd2(const double *u, size_t n, size_t d)
{
	double disc1 = 0, disc2 = 0;

	if (n == 0 || d == 0)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		double prod = 1;

		for (size_t k = 0; k < d; k++) {
			double a = fabs(u[i * d + k] - 0.5);

			prod *= 1 + 0.5 * a - 0.5 * (a * a);
		}
		disc1 += prod;
	}
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < n; j++) {
			const double *x = u + i * d, *y = u + j * d;
			double prod = 1;

			for (size_t k = 0; k < d; k++)
				prod *= 1 + 0.5 * fabs(x[k] - 0.5) +
					0.5 * fabs(y[k] - 0.5) -
					0.5 * fabs(x[k] - y[k]);
			disc2 += prod;
		}
	}
	return pow(13.0 / 12.0, (double)d) - 2.0 / (double)n * disc1 +
	       1.0 / (double)(n * n) * disc2;
}

/* prod_k 0.5 (2 + |a_k| + |b_k| - |a_k - b_k|) over centred rows (Eq 19). */
static double
cross(const double *x, const double *y, size_t d)
{
	double prod = 1;

	for (size_t k = 0; k < d; k++) {
		double a = x[k] - 0.5, b = y[k] - 0.5;

		prod *= 0.5 * (2. + fabs(a) + fabs(b) - fabs(a - b));
	}
	return prod;
}

/* g = prod (1 + |z|) and h = prod (1 + |z|/2 - z^2/2) of one centred row. */
static void
gh(const double *x, size_t d, double *g, double *h)
{
	*g = *h = 1;
	for (size_t k = 0; k < d; k++) {
		double z = x[k] - 0.5;

		*g *= 1. + fabs(z);
		*h *= 1. + 0.5 * fabs(z) - 0.5 * (z * z);
	}
}

/*
 * _qmc.py's _perturb_discrepancy(): the discrepancy after swapping
 * coordinate k of rows i1 and i2, from disc, the one before (Jin et al.
 * 2005, with scipy's corrections). i1 == i2 is possible, as in scipy.
 */
static double
perturb(const double *s, size_t n, size_t d, size_t i1, size_t i2, size_t k,
	double disc)
{
	const double *a = s + i1 * d, *b = s + i2 * d, dn = (double)n;
	const double nn = dn * dn, za = fabs(a[k] - 0.5), zb = fabs(b[k] - 0.5);
	double alpha = (1 + zb) / (1 + za), beta = (2 - zb) / (2 - za);
	double g1, h1, g2, h2, c11, c22, cp11, cp22, sum = 0;

	gh(a, d, &g1, &h1);
	gh(b, d, &g2, &h2);
	c11 = 1. / nn * g1 - 2. / dn * h1;
	c22 = 1. / nn * g2 - 2. / dn * h2;
	cp11 = (g1 * alpha) / nn - 2. * alpha * beta * h1 / dn;
	cp22 = g2 / (nn * alpha) - 2. * h2 / (dn * alpha * beta);
	for (size_t j = 0; j < n; j++) {
		const double *x = s + j * d, zj = x[k] - 0.5;
		double c1, c2, num, den, gamma;

		if (j == i1 || j == i2)
			continue;
		c1 = 1. / nn * cross(a, x, d);
		c2 = 1. / nn * cross(b, x, d);
		num = 2 + zb + fabs(zj) - fabs((b[k] - 0.5) - zj);
		den = 2 + za + fabs(zj) - fabs((a[k] - 0.5) - zj);
		gamma = num / den;
		sum += gamma * c1 - c1 + c2 / gamma - c2;
	}
	return disc + cp11 - c11 + cp22 - c22 + 2 * sum;
}

/* _qmc.py's _random_cd(), drawing on after the Latin hypercube's draws. */
static void
random_cd(struct nprand *r, double *s, size_t n, size_t d)
{
	double best;
	int nochange = 0, tries = 0;

	if (d == 1 || n == 1)
		return;	/* the discrepancy is invariant under the swaps */
	best = spacefill_cd2(s, n, d);
	for (; nochange < CD_NOCHANGE && tries < CD_TRIES; tries++) {
		size_t k = bounded32(r, (uint32_t)(d - 1));
		size_t i1 = bounded32(r, (uint32_t)(n - 1));
		size_t i2 = bounded32(r, (uint32_t)(n - 1));
		double disc = perturb(s, n, d, i1, i2, k, best);

		if (disc < best) {
			double t = s[i1 * d + k];

			s[i1 * d + k] = s[i2 * d + k];
			s[i2 * d + k] = t;
			best = disc;
			nochange = 0;
		} else {
			nochange++;
		}
	}
}

/*
 * LatinHypercube._random_lhs() with scramble=True, exactly: first
 * rng.uniform(size=(n, d)) row-major, then for each coordinate a fresh
 * 1..n shuffled (Generator.shuffle), and u = (perm - uniform) / n.
 */
int
spacefill_lhs(size_t n, size_t d, int optimize, uint64_t seed, double *u)
{
	struct nprand r;
	size_t *perm;

	if (d < 1 || d > SPACEFILL_MAX_DIM || n < 1 || n > SPACEFILL_MAX_N ||
	    (optimize != 0 && optimize != 1) || !u)
		return -1;
	nprand_seed(&r, seed);
	for (size_t i = 0; i < n * d; i++)
		u[i] = nprand_random(&r);
	perm = xreallocarray(NULL, n, sizeof(*perm));
	for (size_t k = 0; k < d; k++) {
		for (size_t i = 0; i < n; i++)
			perm[i] = i + 1;
		nprand_shuffle(&r, perm, n);
		for (size_t i = 0; i < n; i++) {
			double *x = &u[i * d + k];

			*x = ((double)perm[i] - *x) / (double)n;
		}
	}
	free(perm);
	if (optimize)
		random_cd(&r, u, n, d);
	return 0;
}

int
spacefill_map(const struct spacefill_dim *dim, double u, double *value,
	      size_t *choice)
{
	double lo, hi, v;

	if (!dim || !(u >= 0 && u <= 1))
		return -1;
	if (dim->nchoices > 0) {
		size_t k = (size_t)floor(u * (double)dim->nchoices);

		if (k > dim->nchoices - 1)
			k = dim->nchoices - 1;
		if (choice)
			*choice = k;
		if (value)
			*value = (double)k;
		return 0;
	}
	lo = dim->lo;
	hi = dim->hi;
	if (!isfinite(lo) || !isfinite(hi) || lo > hi || (dim->log && lo <= 0))
		return -1;
	if (dim->log)
		v = exp(log(lo) + u * (log(hi) - log(lo)));
	else
		v = lo + u * (hi - lo);
	/* nearbyint: round half to even, as Python's round(); + 0.0: no -0 */
	if (dim->integer)
		v = fmax(ceil(lo), fmin(nearbyint(v), floor(hi))) + 0.0;
	if (value)
		*value = v;
	return 0;
}
