/* SPDX-License-Identifier: Apache-2.0 */
/* Number text exactly as the Python original prints it. */
#include "stats/numfmt.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The 16-digit candidate when no shorter decimal reads back as v: the
 * integer nearest to the exact v * p (p = 10^k <= 1e20). For v * p below
 * 2^53 that product's fractional part needs at most 53 bits, so fma()
 * gives it exactly. When a 16-digit decimal reads back as v, the nearest
 * one does, and repr() prints the nearest. Returns 0 (no fast answer) at
 * and above 2^53 and on an exact tie.
 */
static double
nearest16(double v, double p, double s)
{
	double m, d;

	if (s >= 9007199254740992.0)
		return 0;
	m = nearbyint(s);
	d = fma(v, p, -m);
	if (d > 0.5)
		m += 1;
	else if (d < -0.5)
		m -= 1;
	else if (d == 0.5 || d == -0.5)
		return 0;
	return m < 9007199254740992.0 ? m : 0;
}

/* 10^k as a double, exact, for k <= 17 */
static const double pow10d[18] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
};

/* 10^k for k <= 19 */
static const uint64_t pow10u[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
	100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL,
	1000000000000ULL, 10000000000000ULL, 100000000000000ULL,
	1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
	1000000000000000000ULL, 10000000000000000000ULL,
};

/* The decimal digits of u > 0 into digits; their count. The count from
 * the bit length (log10 2 ~ 1233 / 4096), then two digits a step from
 * the end. */
static int
int_digits(uint64_t u, char *digits)
{
	static const char pairs[201] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	int t = ((64 - __builtin_clzll(u)) * 1233) >> 12, n = t + 1 - (u < pow10u[t]);
	char *p = digits + n;

	while (u >= 100) {
		unsigned d = (unsigned)(u % 100);

		u /= 100;
		p -= 2;
		memcpy(p, pairs + 2 * d, 2);
	}
	if (u >= 10)
		memcpy(p - 2, pairs + 2 * u, 2);
	else
		p[-1] = (char)('0' + u);
	return n;
}

/* n digits less their trailing zeros (one kept), terminated; the count. */
static int
strip_zeros(char *digits, int n)
{
	while (n > 1 && digits[n - 1] == '0')
		n--;
	digits[n] = '\0';
	return n;
}

/*
 * Fast path for the common case, a value with a short exact decimal
 * (latencies are integer ns times 1e-6): the smallest k for which
 * m = round(v * 10^k) gives m / 10^k == v. With m < 2^53 and 10^k exact, that
 * division is correctly rounded exactly as strtod of the decimal would be,
 * so the text reads back as v; with at most 15 digits no other decimal that
 * short maps to v, so it is the shortest. Returns the digit count, -1
 * when 17 digits are needed (the nearest 16-digit decimal does not read
 * back, so none does), or 0 to leave the value to the search.
 */
static int
shortest_fast(double v, char *digits, int *exp10)
{
	const double *p10 = pow10d;
	int n, k;
	double m = 0;

	if (!(v >= 1e-5 && v < 1e15))
		return 0;
	for (k = 0; k < 18; k++) {
		double s = v * p10[k];
		if (s >= 1e15) {
			m = nearest16(v, p10[k], s);
			if (m == 0)
				return 0;
			if (m / p10[k] != v)	/* no 16 digits read back */
				return -1;
			break;
		}
		/* nearbyint(s) for s < 2^52 (rounding to nearest, the only
		 * mode here), without its library call */
		m = (s + 4503599627370496.0) - 4503599627370496.0;
		/* m / 10^k reads back only within half an ulp of v, which
		 * here is under 1.2e-16 s; s is within 1.2e-16 s of v 10^k:
		 * farther than 1e-15 s, no division needed to say no */
		if (fabs(s - m) > s * 1e-15)
			continue;
		if (m != 0 && m / p10[k] == v)
			break;
	}
	if (k == 18)
		return 0;
	n = int_digits((uint64_t)m, digits);
	*exp10 = n - 1 - k;
	return strip_zeros(digits, n);
}

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128;

/* 10^k, k <= 38 */
static u128
pow10_128(int k)
{
	return k < 20 ? pow10u[k] : (u128)pow10u[19] * pow10u[k - 19];
}

/*
 * The p-digit decimals of v = m * 2^-s in exact integer arithmetic: what
 * snprintf("%.*e", p - 1) prints (v * 10^k rounded half to even, with
 * 10^(p-1) <= v * 10^k < 10^p) and whether strtod reads it back as v (it
 * lies inside v's rounding interval, half even at its ends; the interval
 * below a power of two is half as wide). For v in [1e-5, 1e15), with
 * m < 2^53 and k <= 21, m * 10^k stays below 2^123.
 */
static uint64_t
digits_exact(uint64_t m, int s, int k, int *back)
{
	u128 t = pow10_128(k), big = (u128)m * t, q = big >> s, r = big - (q << s);
	u128 half = (u128)1 << (s - 1), qs, diff, gap;

	if (r > half || (r == half && (q & 1)))
		q++;
	qs = q << s;
	/* 4 (q 2^s - m 10^k) against the half gaps 2 10^k (10^k below a
	 * power of two), in units of 2^-s / 10^k */
	if (qs >= big) {
		diff = (qs - big) * 4;
		gap = 2 * t;
	} else {
		diff = (big - qs) * 4;
		gap = m == (uint64_t)1 << 52 ? t : 2 * t;
	}
	*back = diff < gap || (diff == gap && !(m & 1));
	return (uint64_t)q;
}

/*
 * The slow search below without snprintf and strtod: the smallest
 * precision of pmin (15 or 17), 16 and 17 whose decimals read back (17 at
 * last), as exact integer arithmetic gives them. Returns 0 outside
 * [1e-5, 1e15).
 */
static int
shortest_exact(double v, int pmin, char *digits, int *exp10)
{
	static const double p10[] = { 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3, 1e4,
				      1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14 };
	int e2, s, e10 = -5, p, back = 0, n;
	uint64_t m, d = 0, lo, hi;

	if (!(v >= 1e-5 && v < 1e15) || pmin < 15 || pmin > 17)
		return 0;
	m = (uint64_t)ldexp(frexp(v, &e2), 53);
	s = 53 - e2;
	/* the decimal exponent: p10[] is exact from 1e0 up; below, a miss by
	 * one is caught by the digit count */
	while (e10 < 14 && v >= p10[e10 + 6])
		e10++;
	for (p = pmin; p <= 17; p++) {
		for (int tries = 0; tries < 3; tries++) {
			int k = p - 1 - e10;

			d = digits_exact(m, s, k, &back);
			lo = (uint64_t)pow10_128(p - 1);
			hi = lo * 10;
			if (d < lo)
				e10--;
			else if (d > hi || (d == hi && (u128)m * pow10_128(k) >> s >= hi))
				e10++;	/* (d == hi: a carry, as printf's) */
			else
				break;
		}
		if (d < lo || d > hi)
			return 0;
		if (back)
			break;
	}
	if (p > 17)
		p = 17;
	/* d / 10^(p - 1 - e10), or 10^p after a carry: one digit more */
	n = int_digits(d, digits);
	*exp10 = e10 + (n - p);
	return strip_zeros(digits, n);
}
#endif

/*
 * Shortest round-trip digits: the smallest precision whose %.*e text reads
 * back as v. When some precision p <= 15 round-trips, the 15-digit text is
 * that p-digit text padded with zeros (v lies within half an ulp of it,
 * far less than half a unit in the 15th digit), so stripping zeros gives
 * it; otherwise 16 or 17 digits. At most two snprintf/strtod pairs, the
 * same result as a search over 1..17; the exact integer search
 * (shortest_exact()) gives it without them where it can. Returns the
 * digit count; *exp10 is the decimal exponent of the first digit.
 */
static int
shortest(double v, char *digits, int *exp10)
{
	char tmp[40];
	int n, lo = 1, hi = 17, fast = shortest_fast(v, digits, exp10);

	if (fast > 0)
		return fast;
#ifdef __SIZEOF_INT128__
	if ((n = shortest_exact(v, fast < 0 ? 17 : 15, digits, exp10)) > 0)
		return n;
#endif

	if (fabs(v) >= DBL_MIN) {
		for (int prec = 15; prec <= 17; prec++) {
			snprintf(tmp, sizeof(tmp), "%.*e", prec - 1, v);
			if (prec == 17 || strtod(tmp, NULL) == v)
				break;
		}
	} else {
		/* Subnormals have fewer bits: binary search every precision. */
		while (lo < hi) {
			int mid = (lo + hi) / 2;
			snprintf(tmp, sizeof(tmp), "%.*e", mid - 1, v);
			if (strtod(tmp, NULL) == v)
				hi = mid;
			else
				lo = mid + 1;
		}
		snprintf(tmp, sizeof(tmp), "%.*e", lo - 1, v);
	}
	char *p = tmp, *e = strchr(tmp, 'e');
	if (*p == '-')
		p++;
	for (n = 0; p < e; p++)
		if (*p != '.')
			digits[n++] = *p;
	*exp10 = (int)strtol(e + 1, NULL, 10);
	return strip_zeros(digits, n);
}

static size_t
nonfinite(char *out, double v, enum numfmt_style style)
{
	const char *s = "null";

	if (style == NUMFMT_PYREPR)
		s = isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
	memcpy(out, s, strlen(s) + 1);
	return strlen(s);
}

static size_t
scientific(char *o, const char *digits, int n, int exp10,
	   enum numfmt_style style)
{
	size_t k = 0;

	o[k++] = digits[0];
	if (n > 1) {
		o[k++] = '.';
		memcpy(o + k, digits + 1, (size_t)n - 1);
		k += (size_t)n - 1;
	}
	if (style == NUMFMT_ORJSON)
		k += (size_t)snprintf(o + k, 12, "e%d", exp10);
	else if (style == NUMFMT_PYDANTIC)
		k += (size_t)snprintf(o + k, 12, "e%s%d", exp10 < 0 ? "" : "+", exp10);
	else
		k += (size_t)snprintf(o + k, 12, "e%c%02d", exp10 < 0 ? '-' : '+',
				      exp10 < 0 ? -exp10 : exp10);
	o[k] = '\0';
	return k;
}

static size_t
decimal(char *o, const char *digits, int n, int exp10)
{
	size_t k = 0;

	if (exp10 < 0) {
		o[k++] = '0';
		o[k++] = '.';
		for (int i = -1; i > exp10; i--)
			o[k++] = '0';
		memcpy(o + k, digits, (size_t)n);
		k += (size_t)n;
	} else {
		for (int i = 0; i <= exp10; i++)
			o[k++] = i < n ? digits[i] : '0';
		o[k++] = '.';
		if (n > exp10 + 1) {
			memcpy(o + k, digits + exp10 + 1, (size_t)(n - exp10 - 1));
			k += (size_t)(n - exp10 - 1);
		} else {
			o[k++] = '0';
		}
	}
	o[k] = '\0';
	return k;
}

/* The text of digits[0..n) times 10^exp10 in the style, after k bytes
 * of out (a sign). */
static inline size_t
layout(char *out, size_t k, const char *digits, int n, int exp10, enum numfmt_style style)
{
	int lowest = style == NUMFMT_PYREPR ? -4 : -5;

	if (exp10 < lowest || exp10 >= 16)
		return k + scientific(out + k, digits, n, exp10, style);
	return k + decimal(out + k, digits, n, exp10);
}

size_t
numfmt_repr(char *out, double v, enum numfmt_style style)
{
	char digits[24];
	int exp10, n;
	size_t k = 0;

	if (!isfinite(v))
		return nonfinite(out, v, style);
	if (signbit(v)) {
		out[k++] = '-';
		v = -v;
	}
	if (v == 0) {
		memcpy(out + k, "0.0", 4);
		return k + 3;
	}
	n = shortest(v, digits, &exp10);
	return layout(out, k, digits, n, exp10, style);
}

/*
 * i * f with f = 10^-d (a unit change, ns to ms): when that product is
 * the double nearest to the decimal i 10^-d, as i / 10^d is, that decimal
 * is its shortest text. No shorter decimal reads back: one is at least
 * 10^-d away, and half an ulp of i 10^-d is below 10^-d for i < 2^53.
 * Otherwise the product is an ulp or so off it, where decimals of 15
 * digits and fewer lie too far apart for one to read back but that
 * decimal: the search starts at 16 digits. The same text as
 * numfmt_repr(i * f), without its search in the common case.
 */
size_t
numfmt_scaled(char *out, long long i, double f, enum numfmt_style style)
{
	static const double m10[] = { 1e0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9 };
	double v = (double)i * f;
	unsigned long long u;
	char digits[24];
	int d, n, exp10;
	size_t k = 0;

	for (d = f == m10[6] ? 6 : 0; d < 10 && f != m10[d]; d++)	/* ns to ms first */
		;
	if (d == 10 || i == 0 || i <= -1000000000000000LL || i >= 1000000000000000LL)
		return numfmt_repr(out, v, style);
	if (i < 0)
		out[k++] = '-';
	u = i < 0 ? 0ULL - (unsigned long long)i : (unsigned long long)i;
	if (v == (double)i / pow10d[d]) {
		int z = 0;	/* trailing zeros, off before the digits are written */

		while (u % 10 == 0)
			u /= 10, z++;
		n = int_digits(u, digits);
		digits[n] = '\0';
		return layout(out, k, digits, n, n + z - 1 - d, style);
	}
#ifdef __SIZEOF_INT128__
	if ((n = shortest_exact(fabs(v), 16, digits, &exp10)) > 0)
		return layout(out, k, digits, n, exp10, style);
#endif
	return numfmt_repr(out, v, style);
}

size_t
numfmt_int(char *out, long long v)
{
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v
				     : (unsigned long long)v;
	size_t k = 0;

	if (v < 0)
		out[k++] = '-';
	if (!u) {
		out[k] = '0';
		return k + 1;
	}
	return k + (size_t)int_digits(u, out + k);
}

static size_t
group(char *out, const char *intpart, const char *rest)
{
	size_t k = 0, n = strlen(intpart);

	for (size_t i = 0; i < n; i++) {
		out[k++] = intpart[i];
		if ((n - i - 1) % 3 == 0 && i + 1 < n)
			out[k++] = ',';
	}
	size_t r = strlen(rest);
	memcpy(out + k, rest, r + 1);
	return k + r;
}

size_t
numfmt_commas2(char *out, double v)
{
	char tmp[400], *dot;
	size_t k = 0;

	if (!isfinite(v))
		return nonfinite(out, v, NUMFMT_PYREPR);
	snprintf(tmp, sizeof(tmp), "%.2f", v);
	char *p = tmp;
	if (*p == '-') {
		out[k++] = '-';
		p++;
	}
	dot = strchr(p, '.');
	char rest[8];
	snprintf(rest, sizeof(rest), "%s", dot);
	*dot = '\0';
	return k + group(out + k, p, rest);
}

size_t
numfmt_commas_int(char *out, long long v)
{
	char tmp[32];
	size_t k = 0;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v
				     : (unsigned long long)v;

	if (v < 0)
		out[k++] = '-';
	snprintf(tmp, sizeof(tmp), "%llu", u);
	return k + group(out + k, tmp, "");
}

size_t
numfmt_fixed2(char *out, size_t size, double v)
{
	int n;

	if (!isfinite(v))
		return nonfinite(out, v, NUMFMT_PYREPR);
	n = snprintf(out, size, "%.2f", v);
	return n < 0 ? 0 : (size_t)n;
}
