/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: one raw record line through aiperf-metrics' parser and metric writer. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../cmd/aiperf-metrics/metrics.h"
#include "../../cmd/aiperf-metrics/accuracy.c"
#include "../../cmd/aiperf-metrics/compute.c"
#include "../../cmd/aiperf-metrics/fastresp.c"
#include "../../cmd/aiperf-metrics/fastpacket.c"
#include "../../cmd/aiperf-metrics/health.c"
#include "../../cmd/aiperf-metrics/parse.c"
#include "../../cmd/aiperf-metrics/parse_endpoints.c"
#include "../../cmd/aiperf-metrics/parse_images.c"
#include "../../cmd/aiperf-metrics/parse_template.c"
#include "../../cmd/aiperf-metrics/tokens.c"
#include "../../cmd/aiperf-metrics/usage.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rec r;
	static struct buf out;
	static struct opts o[2];
	static int init;
	char why[256];

	if (!init) {
		rec_init(&r);
		buf_init(&out, BUF_NOMAX);
		o[0].tok = tokenizer_open("test:words", NULL);
		o[1].server_tokens = 1;
		o[1].export_trace = 1;
		init = 1;
	}
	for (int i = 0; i < 2; i++) {
		if (rec_parse(&r, &o[i], (const char *)data, size, why, sizeof(why)) < 0)
			continue;
		if (r.meta_raw) {
			/* The copied metadata text must be what jw_value() writes. */
			struct jw w;

			buf_reset(&out);
			jw_init(&w, &out, 0);
			jw_value(&w, r.metadata);
			if (out.len != r.meta_len || memcmp(out.s, r.meta_raw, out.len))
				abort();
		}
		rec_emit(&r, &o[i], &out);
	}
	return 0;
}
