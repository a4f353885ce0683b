/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for the mooncake trace line parser (lib/trace). */
#include <stddef.h>
#include <stdint.h>

#include "dataset/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct trace_parser p;
	static int ready;
	char err[256];

	if (!ready) {
		trace_parser_init(&p, 1 << 16);
		ready = 1;
	}
	if (trace_parse(&p, (const char *)data, size, err, sizeof(err)) == 1) {
		volatile int64_t sink = p.line.input_length + p.line.output_length;

		for (size_t i = 0; i < p.line.n_hash; i++)
			sink += p.line.hash_ids[i];
		(void)sink;
	}
	return 0;
}
