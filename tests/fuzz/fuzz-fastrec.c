/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: lib/summary/fastrec.c, aiperf-export's compact-record reader, against its JSON path: the same results and aggregation, line by line. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../fastrec-same.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Goodput on request_latency (ms) when the first byte is odd. */
static void
slo(struct agg *a, double ms)
{
	const struct metricdef *d = metricdef_find("request_latency");

	a->slo = xreallocarray(NULL, 1, sizeof(*a->slo));
	a->slo[0] = (struct slo){ d, (size_t)(d - metricdefs), agg_to_base(ms, d->factor) };
	a->nslo = 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *end = s + size;
	struct frec fr;
	struct agg fast, slow;

	if (!size)
		return 0;
	frec_init(&fr);
	agg_init(&fast);
	agg_init(&slow);
	if (s[0] & 1) {
		slo(&fast, 150);
		slo(&slow, 150);
	}
	for (s++; s < end;) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);

		if (fastrec_same(&fr, &fast, &slow, s, n) == -2)
			abort();
		s += n + (nl != NULL);
	}
	agg_release(&fast);
	agg_release(&slow);
	frec_release(&fr);
	return 0;
}
