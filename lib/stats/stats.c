/* SPDX-License-Identifier: Apache-2.0 */
/* Exact summary statistics as numpy computes them. */
#include "stats/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void
stats_vec_init(struct stats_vec *s)
{
	s->v = NULL;
	s->n = s->cap = 0;
}

void
stats_vec_release(struct stats_vec *s)
{
	free(s->v);
	stats_vec_init(s);
}

void
stats_vec_push(struct stats_vec *s, double v)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->v = xreallocarray(s->v, s->cap, sizeof(double));
	}
	s->v[s->n++] = v;
}

/* numpy's pairwise_sum (numpy/core/src/umath/loops_utils.h.src). */
double
stats_sum(const double *a, size_t n)
{
	if (n < 8) {
		double res = 0.;
		for (size_t i = 0; i < n; i++)
			res += a[i];
		return res;
	}
	if (n <= 128) {
		double r[8], res;
		size_t i;
		for (i = 0; i < 8; i++)
			r[i] = a[i];
		for (i = 8; i < n - (n % 8); i += 8)
			for (size_t j = 0; j < 8; j++)
				r[j] += a[i + j];
		res = ((r[0] + r[1]) + (r[2] + r[3])) +
		      ((r[4] + r[5]) + (r[6] + r[7]));
		for (; i < n; i++)
			res += a[i];
		return res;
	}
	size_t n2 = n / 2;
	n2 -= n2 % 8;
	return stats_sum(a, n2) + stats_sum(a + n2, n - n2);
}

double
stats_std(const double *v, size_t n, int ddof)
{
	double mean, *d;

	if (n == 0 || (size_t)ddof >= n)
		return ddof ? 0.0 : NAN;
	mean = stats_sum(v, n) / (double)n;
	d = xmalloc(n * sizeof(double));
	for (size_t i = 0; i < n; i++)
		d[i] = (v[i] - mean) * (v[i] - mean);
	double var = stats_sum(d, n) / (double)(n - (size_t)ddof);
	free(d);
	return sqrt(var);
}

/* numpy _lerp: a + (b-a)*t, computed from b's side when t >= 0.5. */
static double
lerp(double a, double b, double t)
{
	double diff = b - a;

	if (t >= 0.5)
		return b - diff * (1 - t);
	return a + diff * t;
}

double
stats_percentile(const double *sorted, size_t n, double p)
{
	double q = p / 100.0, idx = (double)(n - 1) * q;
	double lo = floor(idx);
	size_t i = (size_t)lo, j = i + 1 < n ? i + 1 : n - 1;

	return lerp(sorted[i], sorted[j], idx - lo);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sort key of a non-NaN double: unsigned order is numeric order; -0.0
 * keys as +0.0, so the two keep their input order as qsort's (stable)
 * merge sort leaves them. */
static uint64_t
radix_key(double d)
{
	uint64_t u;

	if (d == 0)
		d = 0;
	memcpy(&u, &d, sizeof(u));
	return u >> 63 ? ~u : u | (uint64_t)1 << 63;
}

/*
 * Stable LSD radix sort, one byte a pass (passes where every key shares
 * the byte are skipped). -1 when the values hold a NaN, which qsort's
 * comparator orders its own way (the caller then uses it).
 */
static int
radix_sort(double *v, size_t n)
{
	size_t (*cnt)[256] = xcalloc(8, sizeof(*cnt));
	double *tmp = xreallocarray(NULL, n, sizeof(*tmp)), *src = v, *dst = tmp;

	for (size_t i = 0; i < n; i++) {
		if (isnan(v[i])) {
			free(cnt);
			free(tmp);
			return -1;
		}
		uint64_t k = radix_key(v[i]);

		for (int b = 0; b < 8; b++)
			cnt[b][(k >> (8 * b)) & 0xff]++;
	}
	for (int b = 0; b < 8; b++) {
		size_t sum = 0, *c = cnt[b];
		int shift = 8 * b;

		if (c[(radix_key(v[0]) >> shift) & 0xff] == n)
			continue;
		for (int j = 0; j < 256; j++) {
			size_t t = c[j];

			c[j] = sum;
			sum += t;
		}
		for (size_t i = 0; i < n; i++)
			dst[c[(radix_key(src[i]) >> shift) & 0xff]++] = src[i];
		double *t = src;

		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(cnt);
	free(tmp);
	return 0;
}

static void
sort_doubles(double *v, size_t n)
{
	if (n > 64 && util_fastpath() && radix_sort(v, n) == 0)
		return;
	qsort(v, n, sizeof(double), cmp_double);
}

int
stats_summarize(struct stats_vec *s, struct stats *st)
{
	const double *v = s->v;
	size_t n = s->n;

	if (!n)
		return -1;
	st->count = n;
	st->sum = stats_sum(v, n);
	st->avg = st->sum / (double)n;
	st->std = stats_std(v, n, 0);
	sort_doubles(s->v, n);
	st->min = s->v[0];
	st->max = s->v[n - 1];
	st->p1 = stats_percentile(s->v, n, 1);
	st->p5 = stats_percentile(s->v, n, 5);
	st->p10 = stats_percentile(s->v, n, 10);
	st->p25 = stats_percentile(s->v, n, 25);
	st->p50 = stats_percentile(s->v, n, 50);
	st->p75 = stats_percentile(s->v, n, 75);
	st->p90 = stats_percentile(s->v, n, 90);
	st->p95 = stats_percentile(s->v, n, 95);
	st->p99 = stats_percentile(s->v, n, 99);
	return 0;
}
