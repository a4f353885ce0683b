/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: lib/gpucsv: a hostile custom GPU metrics CSV never crashes, and what it takes is well-formed. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpucsv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
warnf(void *ctx, size_t lineno, const char *why)
{
	size_t *n = ctx;

	if (!lineno || !why || !*why)
		abort();
	(*n)++;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gpucsv c;
	size_t warned = 0;

	gpucsv_parse(&c, (const char *)data, size, warnf, &warned);
	if (c.n > GPUCSV_MAX)
		abort();
	for (size_t i = 0; i < c.n; i++) {
		const struct gpucsv_metric *m = &c.m[i];
		if (strncmp(m->dcgm, "DCGM_FI_", 8) || !*m->key || !m->display || !m->unit ||
		    strchr(m->dcgm, ',') || strlen(m->key) > strlen(m->dcgm))
			abort();
		for (size_t j = 0; j < i; j++)
			if (!strcmp(c.m[j].dcgm, m->dcgm))
				abort();
	}
	gpucsv_release(&c);
	return 0;
}
