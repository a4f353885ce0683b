/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for lib/runagg, the reader of each run's
 * profile_export_aiperf.json (outside input): the input, split at NUL
 * bytes, is the JSON of up to 4 runs; each is accepted or rejected with a
 * reason, the statistics are computed when 2 runs or more were accepted,
 * and the JSON and CSV written (the JSON must be whole). A tail of
 * doubles after a fifth NUL feeds lib/stats/ks (64 values a sample at
 * most); its p-value must be in [0, 1].
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runagg.h"
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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct runagg *a = runagg_new(0.9);
	const char *s = (const char *)data, *end = s + size;
	struct buf out = BUF_INIT(BUF_NOMAX);
	char err[600], label[16];
	int k = 0;

	while (s < end && k < 4) {
		const char *z = memchr(s, '\0', (size_t)(end - s));
		size_t n = z ? (size_t)(z - s) : (size_t)(end - s);

		snprintf(label, sizeof(label), "run_%04d", ++k);
		if (runagg_add_json(a, label, s, n, err, sizeof(err)) < 0 && !err[0])
			abort();
		s += n + (z != NULL);
	}
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
	buf_release(&out);
	runagg_free(a);
	if (s < end)
		ks_tail((const uint8_t *)s, (size_t)(end - s));
	return 0;
}
