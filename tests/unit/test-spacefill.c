/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/stats/spacefill (the sobol and latin_hypercube sweeps' points). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "stats/spacefill.h"
#include "test.h"

static int
near(double a, double b, double tol)
{
	return fabs(a - b) <= tol * fmax(1.0, fabs(b));
}

/* Every coordinate in [lo, hi] (hi_open: below hi). */
static int
in_range(const double *u, size_t n, size_t d, double lo, double hi,
	 int hi_open)
{
	for (size_t i = 0; i < n * d; i++)
		if (!(u[i] >= lo && (hi_open ? u[i] < hi : u[i] <= hi)))
			return 0;
	return 1;
}

/*
 * Each coordinate's n values one in each [k/n, (k+1)/n) (lhs: in each
 * (k/n, (k+1)/n], the strata LatinHypercube's (perm - U) / n fills).
 */
static int
one_per_stratum(const double *u, size_t n, size_t d, int lhs)
{
	int ok = 1;

	for (size_t k = 0; k < d; k++) {
		unsigned char *seen = calloc(n, 1);

		for (size_t i = 0; i < n; i++) {
			double x = u[i * d + k] * (double)n;
			size_t s = lhs ? (size_t)ceil(x) - 1 : (size_t)floor(x);

			if (s >= n || seen[s]++)
				ok = 0;
		}
		free(seen);
	}
	return ok;
}

/* Coordinates a and b of 16 points: one in each cell of a 4x4 grid. */
static int
grid4x4(const double *u, size_t d, size_t a, size_t b)
{
	int seen[16] = { 0 };

	for (size_t i = 0; i < 16; i++) {
		int c = (int)(u[i * d + a] * 4) * 4 + (int)(u[i * d + b] * 4);

		if (seen[c]++)
			return 0;
	}
	return 1;
}

static int
same(const double *a, const double *b, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

static void
test_cd2(void)
{
	/* scipy's qmc.discrepancy docstring: 6 points of a 6x6 Latin square */
	const int sq[6][2] = { { 1, 3 }, { 2, 6 }, { 3, 2 }, { 4, 5 }, { 5, 1 },
			       { 6, 4 } };
	double x[12], one;

	for (int i = 0; i < 6; i++)
		for (int k = 0; k < 2; k++)
			x[i * 2 + k] = (sq[i][k] - 0.5) / 6;
	TEST("cd2: scipy's docstring example 0.008142039609053464",
	     near(spacefill_cd2(x, 6, 2), 0.008142039609053464, 1e-14));
	one = 0.5;
	TEST("cd2: one point at the centre: 13/12 - 2 + 1 = 1/12",
	     near(spacefill_cd2(&one, 1, 1), 1.0 / 12, 1e-15));
	one = 0;
	TEST("cd2: one point at a corner: 13/12 - 2.25 + 1.5 = 1/3",
	     near(spacefill_cd2(&one, 1, 1), 1.0 / 3, 1e-15));
	x[0] = 0.25;
	x[1] = 0.75;
	/* 13/12 - (2/2)(2 * 1.09375) + (1/4)(2 * 1.25 + 2 * 1) = 1/48 */
	TEST("cd2: {1/4, 3/4} by hand: 1/48",
	     near(spacefill_cd2(x, 2, 1), 1.0 / 48, 1e-15));
	TEST("cd2: no points: NaN", isnan(spacefill_cd2(x, 0, 1)));
}

static void
test_sobol_raw(void)
{
	/* qmc.Sobol(d=2, scramble=False).random_base2(m=3), scipy's docstring */
	const double want[16] = { 0, 0, 0.5, 0.5, 0.75, 0.25, 0.25, 0.75,
				  0.375, 0.375, 0.875, 0.875, 0.625, 0.125,
				  0.125, 0.625 };
	double u[16], v[16 * 40], w[16 * 40];

	TEST("sobol raw: 8 points in 2-D",
	     spacefill_sobol(8, 2, 0, 0, u) == 0);
	TEST("sobol raw: scipy's first 8 points, (0,0) (.5,.5) (.75,.25) ...",
	     same(u, want, 16));
	TEST("sobol raw: their discrepancy, scipy's 0.013882107204860938",
	     near(spacefill_cd2(u, 8, 2), 0.013882107204860938, 1e-14));
	TEST("sobol raw: 16 points in 40-D",
	     spacefill_sobol(16, 40, 0, 7, v) == 0);
	TEST("sobol raw: starts at the origin", in_range(v, 1, 40, 0, 0, 0));
	TEST("sobol raw: then 0.5 in every coordinate",
	     in_range(v + 40, 1, 40, 0.5, 0.5, 0));
	TEST("sobol raw: 40-D stratified at 16", one_per_stratum(v, 16, 40, 0));
	TEST("sobol raw: the seed is unused",
	     spacefill_sobol(16, 40, 0, 8, w) == 0 && same(v, w, 16 * 40));
}

static void
test_sobol_scrambled(void)
{
	double a[64 * 40], b[64 * 40], c[64 * 40], r[64 * 40];

	TEST("sobol: 16 points in 5-D", spacefill_sobol(16, 5, 1, 42, a) == 0);
	TEST("sobol: in [0,1)", in_range(a, 16, 5, 0, 1, 1));
	TEST("sobol: one point per 1/16 in each coordinate",
	     one_per_stratum(a, 16, 5, 0));
	TEST("sobol: the first two coordinates a (0,4,2)-net: 4x4 cells",
	     grid4x4(a, 5, 0, 1));
	TEST("sobol: the first 8 points one per 1/8",
	     one_per_stratum(a, 8, 5, 0));
	spacefill_sobol(16, 5, 0, 42, r);
	TEST("sobol: scrambled is not the raw sequence", !same(a, r, 16 * 5));
	TEST("sobol: nor starts at the origin", a[0] != 0 || a[1] != 0);
	spacefill_sobol(16, 5, 1, 42, b);
	TEST("sobol: same seed, same points", same(a, b, 16 * 5));
	spacefill_sobol(16, 5, 1, 43, c);
	TEST("sobol: another seed, other points", !same(a, c, 16 * 5));
	spacefill_sobol(10, 5, 1, 42, b);
	TEST("sobol: random(10) is random_base2(4)'s first 10",
	     same(a, b, 10 * 5));
	TEST("sobol: 64 points in 40-D", spacefill_sobol(64, 40, 1, 1, a) == 0);
	TEST("sobol: 40-D in [0,1)", in_range(a, 64, 40, 0, 1, 1));
	TEST("sobol: 40-D one point per 1/64 in each coordinate",
	     one_per_stratum(a, 64, 40, 0));
	TEST("sobol: 1 point", spacefill_sobol(1, 3, 1, 5, a) == 0 &&
	     in_range(a, 1, 3, 0, 1, 1));
}

static int
lhs_checks(size_t n, size_t d, int opt)
{
	double *a = malloc(n * d * sizeof(*a)), *b = malloc(n * d * sizeof(*b));
	int ok = spacefill_lhs(n, d, opt, 42, a) == 0 &&
		 in_range(a, n, d, 0, 1, 0) && one_per_stratum(a, n, d, 1) &&
		 spacefill_lhs(n, d, opt, 42, b) == 0 && same(a, b, n * d) &&
		 spacefill_lhs(n, d, opt, 7, b) == 0 && !same(a, b, n * d);

	free(a);
	free(b);
	return ok;
}

static void
test_lhs(void)
{
	double a[30 * 4], b[30 * 4], one[4];
	int fewer = 1;

	TEST("lhs: 30x4 in (0,1], one per stratum, seeded, seed-sensitive",
	     lhs_checks(30, 4, 0));
	TEST("lhs random-cd: the same", lhs_checks(30, 4, 1));
	TEST("lhs: 1000x3", lhs_checks(1000, 3, 0));
	TEST("lhs random-cd: 200x5", lhs_checks(200, 5, 1));
	/* default_rng(42).random() = 0.7739560485559633, the first jitter */
	spacefill_lhs(4, 1, 0, 42, a);
	TEST("lhs: the jitter is drawn first: ceil(4 u0) - 4 u0 = 0.77395...",
	     near(ceil(a[0] * 4) - a[0] * 4, 0.7739560485559633, 1e-12));
	for (uint64_t seed = 0; seed < 20; seed++) {
		double va, vb;

		spacefill_lhs(30, 4, 0, seed, a);
		spacefill_lhs(30, 4, 1, seed, b);
		va = spacefill_cd2(a, 30, 4);
		vb = spacefill_cd2(b, 30, 4);
		/* 1e-12: random-cd updates its discrepancy, never recomputes it */
		if (vb > va * (1 + 1e-12) || same(a, b, 30 * 4))
			fewer = 0;
	}
	TEST("lhs random-cd: lower discrepancy than the vanilla one (20 seeds)",
	     fewer);
	spacefill_lhs(30, 1, 0, 3, a);
	spacefill_lhs(30, 1, 1, 3, b);
	TEST("lhs random-cd: 1-D left as it is (scipy)", same(a, b, 30));
	TEST("lhs: 1 point", spacefill_lhs(1, 4, 1, 3, one) == 0 &&
	     in_range(one, 1, 4, 0, 1, 0));
}

/* dim maps u to want (and to choice index want, for a choice list). */
static int
maps(const struct spacefill_dim *dim, double u, double want)
{
	double v = NAN;
	size_t c = SIZE_MAX;

	if (spacefill_map(dim, u, &v, &c) < 0)
		return 0;
	return v == want && (!dim->nchoices || c == (size_t)want);
}

static void
test_map(void)
{
	struct spacefill_dim conc = { .lo = 1, .hi = 256, .log = 1,
				      .integer = 1 };
	struct spacefill_dim lin = { .lo = 0, .hi = 10, .integer = 1 };
	struct spacefill_dim narrow = { .lo = 1.5, .hi = 3.5, .integer = 1 };
	struct spacefill_dim real = { .lo = 128, .hi = 4096 };
	struct spacefill_dim sym = { .lo = -1, .hi = 1, .integer = 1 };
	struct spacefill_dim three = { .nchoices = 3 };
	double v = NAN;
	size_t c = SIZE_MAX;

	TEST("map log int: u 0 -> 1", maps(&conc, 0, 1));
	TEST("map log int: u 1 -> 256", maps(&conc, 1, 256));
	TEST("map log int: u 0.5 -> 16", maps(&conc, 0.5, 16));
	TEST("map log int: u 0.25 -> 4", maps(&conc, 0.25, 4));
	TEST("map real: u 0.5 -> 2112", maps(&real, 0.5, 2112));
	TEST("map real: u 0.1 -> 524.8",
	     spacefill_map(&real, 0.1, &v, NULL) == 0 && near(v, 524.8, 1e-15));
	TEST("map int: 2.5 rounds to 2 (half to even)", maps(&lin, 0.25, 2));
	TEST("map int: 3.5 rounds to 4", maps(&lin, 0.35, 4));
	TEST("map int: 1.5 clamped up to ceil(lo) 2", maps(&narrow, 0, 2));
	TEST("map int: 3.5 rounds to 4, clamped to floor(hi) 3",
	     maps(&narrow, 1, 3));
	TEST("map int: -0.4 rounds to +0",
	     spacefill_map(&sym, 0.3, &v, NULL) == 0 && v == 0 && !signbit(v));
	TEST("map choices: u 0 -> 0", maps(&three, 0, 0));
	TEST("map choices: u 0.5 -> 1", maps(&three, 0.5, 1));
	TEST("map choices: u just below 1 -> the last",
	     maps(&three, nextafter(1.0, 0.0), 2));
	TEST("map choices: u 1 -> the last, not past it", maps(&three, 1, 2));
	TEST("map choices: value may be NULL",
	     spacefill_map(&three, 0.9, NULL, &c) == 0 && c == 2);
	TEST("map: u below 0 refused", spacefill_map(&lin, -0.1, &v, NULL) < 0);
	TEST("map: u above 1 refused", spacefill_map(&three, 1.5, &v, &c) < 0);
	TEST("map: NaN refused", spacefill_map(&lin, NAN, &v, NULL) < 0);
	conc.lo = 0;
	TEST("map: log with lo 0 refused", spacefill_map(&conc, 0.5, &v, NULL) < 0);
	lin.lo = 11;
	TEST("map: lo above hi refused", spacefill_map(&lin, 0.5, &v, NULL) < 0);
	lin.lo = INFINITY;
	TEST("map: infinite lo refused", spacefill_map(&lin, 0.5, &v, NULL) < 0);
}

static void
test_invalid(void)
{
	const size_t big_d = SPACEFILL_MAX_DIM + 1, big_n = SPACEFILL_MAX_N + 1;
	double u[41 * 4];

	TEST("sobol: d 0 refused", spacefill_sobol(4, 0, 1, 1, u) < 0);
	TEST("sobol: d 41 refused", spacefill_sobol(4, big_d, 1, 1, u) < 0);
	TEST("sobol: n 0 refused", spacefill_sobol(0, 2, 1, 1, u) < 0);
	TEST("sobol: n 100001 refused", spacefill_sobol(big_n, 1, 1, 1, u) < 0);
	TEST("sobol: scramble 2 refused", spacefill_sobol(4, 2, 2, 1, u) < 0);
	TEST("sobol: no output refused", spacefill_sobol(4, 2, 1, 1, NULL) < 0);
	TEST("lhs: d 0 refused", spacefill_lhs(4, 0, 0, 1, u) < 0);
	TEST("lhs: d 41 refused", spacefill_lhs(4, big_d, 0, 1, u) < 0);
	TEST("lhs: n 0 refused", spacefill_lhs(0, 2, 1, 1, u) < 0);
	TEST("lhs: n 100001 refused", spacefill_lhs(big_n, 1, 0, 1, u) < 0);
	TEST("lhs: optimize -1 refused", spacefill_lhs(4, 2, -1, 1, u) < 0);
	TEST("lhs: no output refused", spacefill_lhs(4, 2, 0, 1, NULL) < 0);
	TEST("map: no dimension refused", spacefill_map(NULL, 0.5, u, NULL) < 0);
}

int
main(void)
{
	test_cd2();
	test_sobol_raw();
	test_sobol_scrambled();
	test_lhs();
	test_map();
	test_invalid();
	return TEST_DONE();
}
