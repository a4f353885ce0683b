/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/numfmt: Python, orjson and pydantic number text. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "stats/numfmt.h"
#include "test.h"

static const char *
r(double v, enum numfmt_style st)
{
	static char out[8][64];
	static int i;

	i = (i + 1) % 8;
	numfmt_repr(out[i], v, st);
	return out[i];
}

static const char *
c2(double v)
{
	static char out[420];

	numfmt_commas2(out, v);
	return out;
}

/* Independent reference: shortest %.*e that reads back, as Python's repr. */
static void
ref_repr(char *out, double v)
{
	char tmp[40], digits[24];
	int p, n = 0, e;

	for (p = 1; p < 17; p++) {
		snprintf(tmp, sizeof(tmp), "%.*e", p - 1, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	snprintf(tmp, sizeof(tmp), "%.*e", p - 1, v);
	for (char *c = tmp; *c != 'e'; c++)
		if (*c >= '0' && *c <= '9')
			digits[n++] = *c;
	while (n > 1 && digits[n - 1] == '0')
		n--;
	digits[n] = '\0';
	e = (int)strtol(strchr(tmp, 'e') + 1, NULL, 10);
	/* decimal notation only: the callers below stay in [1e-5, 1e15) */
	int k = 0;
	if (e < 0) {
		out[k++] = '0';
		out[k++] = '.';
		for (int i = -1; i > e; i--)
			out[k++] = '0';
		for (int i = 0; i < n; i++)
			out[k++] = digits[i];
	} else {
		for (int i = 0; i <= e; i++)
			out[k++] = i < n ? digits[i] : '0';
		out[k++] = '.';
		if (n > e + 1)
			for (int i = e + 1; i < n; i++)
				out[k++] = digits[i];
		else
			out[k++] = '0';
	}
	out[k] = '\0';
}

/* The fast path against the reference on values of every common shape. */
static int
random_agreement(void)
{
	uint64_t x = 88172645463325252ULL;
	char a[64], b[64];

	for (int i = 0; i < 450000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		double v;
		switch (i % 9) {
		case 0: v = (double)(x % 100000000000ULL) * (1e3 / 1e9); break;
		case 1: v = (double)(x % 1000000) / 7.0; break;
		case 2: v = (double)(x % 1000000000) * 1e-9; break;
		case 3: v = (double)(x >> 11) / 9007199254740992.0 * 1e6; break;
		/* 17-digit values (the exact integer search): any bits in
		 * range, ratios as throughputs are, powers of two and the
		 * neighbours of powers of ten */
		case 4: {
			uint64_t bits = (x >> 12) | ((uint64_t)(1006 + (x >> 2) % 68) << 52);

			memcpy(&v, &bits, sizeof(v));
			break;
		}
		case 5: v = (double)(x % 100000 + 1) / ((double)(x >> 40) * 1e-9 + 1e-6); break;
		case 6: v = ldexp(1.0, (int)(x % 66) - 16); break;
		case 7: v = nextafter(pow(10, (double)((int)(x % 20) - 5)), (x & 1) ? 0 : 1e300); break;
		default: v = (double)(x % 100000) / 100.0; break;
		}
		if (v < 1e-5 || v >= 1e15)
			continue;
		numfmt_repr(a, v, NUMFMT_ORJSON);
		ref_repr(b, v);
		if (strcmp(a, b)) {
			printf("# %.17g: got %s want %s\n", v, a, b);
			return 0;
		}
	}
	return 1;
}

/* numfmt_scaled() against numfmt_repr() of the same product, on integers
 * of every size (both signs, the ends of its range and past them) and
 * every power of ten it knows, and a factor it does not; in each style.
 * The reference path itself is checked above. */
static int
scaled_agreement(void)
{
	static const double f[] = { 1e0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7,
				    1e-8, 1e-9, 1e-10, 0.001024, 1e3 };
	static const long long edge[] = { 0, 1, -1, 9, 10, 999999999999999LL,
					  -999999999999999LL, 1000000000000000LL,
					  9007199254740993LL, -9223372036854775807LL - 1 };
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	char a[64], b[64];
	long long ok = 0;

	for (int i = 0; i < 600000; i++) {
		long long n;
		int fi = i % 13, st = (i / 13) % 3;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		if (i < 13 * 3 * 10)
			n = edge[(i / 39) % 10];
		else
			n = (long long)(x % (uint64_t)(10ULL << (x >> 59)) * 1000
					+ (x >> 20) % 1000);	/* 1 to 19 digits */
		if (n && n != -9223372036854775807LL - 1 && (x & 0x100))
			n = -n;
		numfmt_scaled(a, n, f[fi], (enum numfmt_style)st);
		numfmt_repr(b, (double)n * f[fi], (enum numfmt_style)st);
		if (strcmp(a, b)) {
			printf("# %lld * %g: got %s want %s\n", n, f[fi], a, b);
			return 0;
		}
		ok++;
	}
	return ok == 600000;
}

/* numfmt_int() against printf's %lld on integers of every length. */
static int
int_agreement(void)
{
	uint64_t x = 0x2545f4914f6cdd1dULL;
	char a[32], b[32];

	for (int i = 0; i < 200000; i++) {
		long long v;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		v = (long long)(x >> (x % 64));
		if ((x & 1) && v != LLONG_MIN)
			v = -v;
		if (i < 3)
			v = i == 0 ? LLONG_MIN : i == 1 ? LLONG_MAX : 0;
		a[numfmt_int(a, v)] = '\0';
		snprintf(b, sizeof(b), "%lld", v);
		if (strcmp(a, b)) {
			printf("# %s: got %s\n", b, a);
			return 0;
		}
	}
	return 1;
}

int
main(void)
{
	char b[32];

	TEST_STR("integral float", r(10, NUMFMT_ORJSON), "10.0");
	TEST_STR("zero", r(0, NUMFMT_ORJSON), "0.0");
	TEST_STR("negative zero", r(-0.0, NUMFMT_ORJSON), "-0.0");
	TEST_STR("shortest 0.1", r(0.1, NUMFMT_ORJSON), "0.1");
	TEST_STR("shortest 1/3", r(1.0 / 3, NUMFMT_ORJSON), "0.3333333333333333");
	TEST_STR("std example", r(409.59999999999997, NUMFMT_ORJSON), "409.59999999999997");
	TEST_STR("1e-5 stays decimal", r(1e-5, NUMFMT_ORJSON), "0.00001");
	TEST_STR("below 1e-5 is scientific", r(1e-6, NUMFMT_ORJSON), "1e-6");
	TEST_STR("2.5e-6 orjson", r(2.5e-6, NUMFMT_ORJSON), "2.5e-6");
	TEST_STR("1e16 orjson", r(1e16, NUMFMT_ORJSON), "1e16");
	TEST_STR("1e16 pydantic", r(1e16, NUMFMT_PYDANTIC), "1e+16");
	TEST_STR("1e-7 pydantic", r(1e-7, NUMFMT_PYDANTIC), "1e-7");
	TEST_STR("big pydantic", r(1.2345678901234568e+16, NUMFMT_PYDANTIC), "1.2345678901234568e+16");
	TEST_STR("just below 1e16", r(9999999999999998.0, NUMFMT_ORJSON), "9999999999999998.0");
	TEST_STR("python repr 1e-05", r(1e-5, NUMFMT_PYREPR), "1e-05");
	TEST_STR("python repr 0.0001", r(1e-4, NUMFMT_PYREPR), "0.0001");
	TEST_STR("python repr inf", r(1.0 / 0.0, NUMFMT_PYREPR), "inf");
	TEST_STR("orjson nan", r(0.0 / 0.0, NUMFMT_ORJSON), "null");
	TEST_STR("ms value", r(255.886568, NUMFMT_ORJSON), "255.886568");
	TEST_STR("16 digits (fast path)", r(1600.0 / 27.0, NUMFMT_ORJSON), "59.25925925925926");
	TEST_STR("16 digits, below 1", r(0.1 + 0.2, NUMFMT_ORJSON), "0.30000000000000004");
	TEST_STR("17 digits", r(2.0 / 3.0 * 1000, NUMFMT_ORJSON), "666.6666666666666");
	TEST("fast path equals the reference on 450,000 values", random_agreement());
	TEST("scaled integers: the same text as the product's, 600,000 values", scaled_agreement());
	TEST("integers: the same text as printf's, 200,000 values", int_agreement());
	TEST_STR("scaled: ns to ms", (b[numfmt_scaled(b, 4961414, 1e-6, NUMFMT_ORJSON)] = '\0', b),
		 "4.9614139999999995");
	TEST_STR("scaled: 1 ns in ms", (b[numfmt_scaled(b, 1, 1e-6, NUMFMT_PYREPR)] = '\0', b), "1e-06");
	TEST_STR("commas", c2(1234567.891), "1,234,567.89");
	TEST_STR("commas small", c2(7.5), "7.50");
	TEST_STR("commas negative", c2(-1234.5), "-1,234.50");
	TEST_STR("commas three digits", c2(999.999), "1,000.00");
	b[numfmt_int(b, -9223372036854775807LL - 1)] = '\0';
	TEST_STR("int min", b, "-9223372036854775808");
	b[numfmt_int(b, 0)] = '\0';
	TEST_STR("int zero", b, "0");
	b[numfmt_int(b, 1759813207532900363LL)] = '\0';
	TEST_STR("int ns", b, "1759813207532900363");
	numfmt_commas_int(b, 1234567);
	TEST_STR("commas int", b, "1,234,567");
	numfmt_commas_int(b, -12);
	TEST_STR("commas int negative", b, "-12");
	return TEST_DONE();
}
