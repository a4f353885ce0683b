/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for lib/runagg, the reader of each run's
 * profile_export_aiperf.json (outside input): the input, split at NUL
 * bytes, is the JSON of up to 4 runs; each is accepted or rejected with a
 * reason, the statistics are computed when 2 runs or more were accepted,
 * and the JSON and CSV written (the JSON must be whole); every note of a
 * run left out must name a successful run and a stat. The first two runs'
 * texts (64 bytes at most) are also tried as units: a factor between them
 * is finite and positive, or there is none. A tail of
 * doubles after a fifth NUL feeds lib/stats/ks (64 values a sample at
 * most); its p-value must be in [0, 1].
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runagg.h"
#include "stats/unitconv.h"
#include "stats/ks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
ks_tail(const uint8_t *data, size_t size)
{
	double a[64], b[64], p;
	size_t n = 0, m = 0;

	for (size_t i = 0; i + 8 <= size && m < 64; i += 8) {
		double v;

		memcpy(&v, data + i, 8);
		if (isnan(v))
			continue;
		if (n < 64 && (i / 8) % 2 == 0)
			a[n++] = v;
		else
			b[m++] = v;
	}
	p = ks_2samp(a, n, b, m, NULL);
	if (!(p >= 0 && p <= 1))
		abort();
}

static void
check_notes(const struct runagg *a)
{
	struct runagg_note n;
	const char *err;

	for (size_t i = 0; runagg_left_out(a, i, &n); i++)
		if (!runagg_label(a, n.run, &err) || err || !n.nstats || !n.why[0] ||
		    !n.metric)
			abort();
}

static void
try_units(char unit[2][65])
{
	double f;

	if (unitconv_factor(unit[0], unit[1], &f) == 0 && !(isfinite(f) && f > 0))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct runagg *a = runagg_new(0.9);
	const char *s = (const char *)data, *end = s + size;
	struct buf out = BUF_INIT(BUF_NOMAX);
	char err[600], label[16], unit[2][65] = { "", "" };
	int k = 0;

	while (s < end && k < 4) {
		const char *z = memchr(s, '\0', (size_t)(end - s));
		size_t n = z ? (size_t)(z - s) : (size_t)(end - s);

		snprintf(label, sizeof(label), "run_%04d", ++k);
		if (runagg_add_json(a, label, s, n, err, sizeof(err)) < 0 && !err[0])
			abort();
		if (k <= 2)
			memcpy(unit[k - 1], s, n < 64 ? n : 64);
		s += n + (z != NULL);
	}
	try_units(unit);
	if (runagg_finish(a, err, sizeof(err)) == 0) {
		char *csv = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&csv, &len);

		if (runagg_json(a, "0", &out) < 0 || !f)
			abort();
		runagg_csv(a, f);
		fclose(f);
		free(csv);
	}
	check_notes(a);
	buf_release(&out);
	runagg_free(a);
	if (s < end)
		ks_tail((const uint8_t *)s, (size_t)(end - s));
	return 0;
}
