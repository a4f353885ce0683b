/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for lib/srvagg: the input's first bytes pick the window
 * and shape, the rest become timestamps and values (NaN, infinities and
 * huge counts included) of a gauge/counter series and a histogram, and a
 * NUL-terminated tail is a metric name and HELP text for unit inference.
 * Every call must return without a sanitizer report; the estimates must be
 * in ascending order whenever they are all finite.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "srvagg/counter.h"
#include "srvagg/gauge.h"
#include "srvagg/gpu.h"
#include "srvagg/hist.h"
#include "srvagg/unit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct in {
	const uint8_t *p;
	size_t n;
};

static uint64_t
take(struct in *in, size_t k)
{
	uint64_t v = 0;

	for (size_t i = 0; i < k && in->n; i++, in->p++, in->n--)
		v = v << 8 | *in->p;
	return v;
}

static double
take_double(struct in *in)
{
	uint64_t b = take(in, 8);
	double d;

	memcpy(&d, &b, sizeof(d));
	return d;
}

static void
check_sorted(const double *p)
{
	for (int i = 1; i < SRVAGG_NPCT; i++)
		if (isfinite(p[i]) && isfinite(p[i - 1]) && p[i] < p[i - 1])
			abort();
}

static void
scalar(struct in *in, const struct srvagg_window *w)
{
	size_t n = (size_t)take(in, 1) % 40;
	struct srvagg_point p[40];
	struct srvagg_gauge g;
	struct srvagg_counter c;
	struct srvagg_dist d;
	int64_t t = (int64_t)take(in, 2);
	double delta;

	for (size_t i = 0; i < n; i++) {
		t += (int64_t)take(in, 1) * 100000000;
		p[i] = (struct srvagg_point){ t, take_double(in) };
	}
	if (srvagg_gauge(p, n, w, &g) == 1)
		srvagg_gauge_release(&g);
	if (srvagg_counter(p, n, w, &c) == 1)
		srvagg_counter_release(&c);
	srvagg_gpu_gauge(p, n, w, &d);
	srvagg_gpu_counter(p, n, w, &delta);
}

static void
histogram(struct in *in, const struct srvagg_window *w)
{
	size_t n = (size_t)take(in, 1) % 12, nb = 1 + (size_t)take(in, 1) % 6;
	int64_t ts[12];
	double le[7], sum[12], count[12], cum[12 * 7];
	struct srvagg_hist_in h = { n, nb, ts, sum, count, cum, le };
	struct srvagg_hist out;
	int small = take(in, 1) & 1;

	for (size_t j = 0; j < nb; j++)
		le[j] = j + 1 == nb && small ? INFINITY : (double)(j + 1) * 0.5;
	for (size_t i = 0; i < n; i++) {
		ts[i] = (int64_t)i * 1000000000;
		sum[i] = small ? (double)take(in, 1) : take_double(in);
		count[i] = small ? (double)take(in, 1) : take_double(in);
		for (size_t j = 0; j < nb; j++)
			cum[i * nb + j] = small ? (double)take(in, 1) : take_double(in);
	}
	if (srvagg_hist(&h, w, &out) == 1) {
		if (out.has_est)
			check_sorted(out.est);
		srvagg_hist_release(&out);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };
	struct srvagg_window w;
	const char *name, *help;
	char text[256];
	size_t k;

	w.start_ns = (int64_t)take(&in, 2) * 100000000;
	w.end_ns = w.start_ns + (int64_t)take(&in, 2) * 100000000;
	w.slice_s = (double)take(&in, 1) / 8;
	scalar(&in, &w);
	histogram(&in, &w);
	k = in.n < sizeof(text) - 1 ? in.n : sizeof(text) - 1;
	memcpy(text, in.p, k);
	text[k] = '\0';
	name = text;
	help = memchr(text, '\0', k) ? text + strlen(text) + 1 : NULL;
	srvagg_unit(name, help);
	srvagg_dcgm_lookup(name);
	return 0;
}
