/* SPDX-License-Identifier: Apache-2.0 */
/* Space-filling designs for the sobol and latin_hypercube sweeps: scipy.stats.qmc's points and their mapping to values. */
#ifndef AIPERF_SPACEFILL_H
#define AIPERF_SPACEFILL_H

#include <stddef.h>
#include <stdint.h>

/* GSL's Sobol' generator has direction numbers for 40 dimensions. */
#define SPACEFILL_MAX_DIM 40
#define SPACEFILL_MAX_N 100000

/*
 * The caller owns every buffer: u holds n*d doubles, row-major (point i,
 * coordinate j at u[i*d + j]). Nothing is allocated past the call, no
 * state is kept between calls, and the same arguments give the same
 * points on every run (all randomness comes from lib/rand/nprand, NumPy's
 * default_rng(seed)). Each function returns 0, or -1 for an argument out
 * of range (then u is left unspecified).
 */

/*
 * The first n points of qmc.Sobol(d, scramble=scramble, seed=seed), in
 * [0,1)^d (random_base2(m) when n = 2^m, random(n) otherwise: both are the
 * first n points). Unscrambled, the sequence starts at the origin, then
 * (0.5, ...), as scipy's does; scrambled, it is a linear matrix scramble
 * plus a digital shift (LMS+shift, scipy's), drawn from default_rng(seed),
 * so the first 2^m points of each coordinate still fall one in each
 * [k/2^m, (k+1)/2^m). scramble is 0 or 1; seed is ignored when 0.
 * Coordinates 1 and 2 use scipy's direction numbers; 3 to 40 use GSL's
 * (Bratley-Fox), which differ from scipy's (Joe-Kuo), so those
 * coordinates are a different Sobol' sequence with the same properties.
 * Returns -1 when d is 0 or above SPACEFILL_MAX_DIM, n is 0 or above
 * SPACEFILL_MAX_N, scramble is not 0 or 1, or u is NULL.
 */
int spacefill_sobol(size_t n, size_t d, int scramble, uint64_t seed,
		    double *u);

/*
 * n points of qmc.LatinHypercube(d, optimization=..., seed=seed).random(n)
 * (scramble=True, strength=1): in each coordinate one point in each
 * stratum [k/n, (k+1)/n), jittered uniformly inside it, so values lie in
 * (0, 1] (1 only for a jitter draw of exactly 0, as in scipy). optimize 1
 * is "random-cd": up to 10000 tries, stopping after 100 in a row that do
 * not help, each swapping one coordinate between two random points and
 * keeping the swap when the centered discrepancy falls; the result is
 * still a Latin hypercube. Its cost is O(n^2 d) once plus O(n d) a try:
 * meant for sweep sizes, not for 10^5 points. optimize is 0 or 1.
 * Returns -1 when d is 0 or above SPACEFILL_MAX_DIM, n is 0 or above
 * SPACEFILL_MAX_N, optimize is not 0 or 1, or u is NULL.
 */
int spacefill_lhs(size_t n, size_t d, int optimize, uint64_t seed, double *u);

/*
 * The squared centered L2 discrepancy (Hickernell) of n points in
 * [0,1]^d, as scipy.stats.qmc.discrepancy(u) (method "CD") computes it:
 * (13/12)^d - 2/n sum_i prod_k (1 + |z_ik|/2 - z_ik^2/2)
 * + 1/n^2 sum_ij prod_k (1 + |z_ik|/2 + |z_jk|/2 - |x_ik - x_jk|/2),
 * z = x - 1/2. O(n^2 d). NaN when n or d is 0.
 */
double spacefill_cd2(const double *u, size_t n, size_t d);

/*
 * One sweep dimension: either nchoices > 0 (a list of choices; lo, hi,
 * log and integer are unused) or a range [lo, hi], log-scaled when log is
 * non-zero (then lo, hi > 0), rounded to an integer when integer is
 * non-zero.
 */
struct spacefill_dim {
	double lo, hi;
	int log, integer;
	size_t nchoices;
};

/*
 * Map one unit coordinate u in [0,1] to the dimension's value, as the
 * original does: a choice index min(floor(u * nchoices), nchoices - 1)
 * into *choice (and, as a double, into *value); else v = lo + u (hi - lo)
 * or exp(log lo + u (log hi - log lo)), and for integer dimensions
 * max(ceil(lo), min(round(v), floor(hi))) with round half to even
 * (Python's round). value or choice may be NULL: then it is not written.
 * Returns 0, or -1 when u is outside [0,1] or NaN, lo or hi is not
 * finite, lo > hi, or log with lo <= 0.
 */
int spacefill_map(const struct spacefill_dim *dim, double u, double *value,
		  size_t *choice);

#endif
