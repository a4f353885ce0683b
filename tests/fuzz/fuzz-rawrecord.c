/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: one raw record line through aiperf-metrics' parser and metric writer. */
#include <stddef.h>
#include <stdint.h>

#include "../../cmd/aiperf-metrics/metrics.h"
#include "../../cmd/aiperf-metrics/compute.c"
#include "../../cmd/aiperf-metrics/parse.c"
#include "../../cmd/aiperf-metrics/tokens.c"

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
		o[0].tok = tokenizer_open("test:words", NULL, NULL, 1);
		o[1].server_tokens = 1;
		o[1].export_trace = 1;
		init = 1;
	}
	for (int i = 0; i < 2; i++)
		if (rec_parse(&r, &o[i], (const char *)data, size, why, sizeof(why)) == 0)
			rec_emit(&r, &o[i], &out);
	return 0;
}
