/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: metric record lines through aiperf-export's accumulator, summary and every writer. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../cmd/aiperf-export/export.h"
#include "../../cmd/aiperf-export/accuracy.c"
#include "../../cmd/aiperf-export/table.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
feed(struct agg *a, struct slices *sl, struct accsum *acc, const char *s, size_t n)
{
	const struct json *r;
	char why[256];

	if (agg_line(a, s, n, &r, why, sizeof(why)) == 1) {
		slices_add(sl, a, r, why, sizeof(why));
		acc_line(acc, s, n, why, sizeof(why));
	}
}

static void
write_all(struct agg *a, struct slices *sl, struct accsum *acc)
{
	struct exportopts eo = { .title = "NVIDIA AIPerf | LLM Metrics",
		.benchmark_id = "id", .version = "0.7.0", .input_config = "{\"a\":[1,{}]}",
		.acc = acc };
	struct summary sm;
	FILE *f = fopen("/dev/null", "w");

	if (!f)
		return;
	agg_summary(a, &sm);
	acc_finish(acc);
	client_summary(&a->cl, &sm, &eo.cs, 1.5, 10);
	json_export(f, &sm, &eo);
	csv_export(f, &sm, NULL, acc);
	table_print(f, &sm, &eo, NULL);
	slices_finish(sl);
	slices_json(f, sl, &eo);
	slices_csv(f, sl);
	fclose(f);
	summary_release(&sm);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *end = s + size;
	struct agg a;
	struct slices sl;
	struct accsum acc;
	char why[256];

	/* streaming chat: both SLOs apply, as in a real run */
	const struct runcfg rc = { endpoint_find("chat"), 1, 0 };

	agg_init(&a);
	if (agg_goodput(&a, "request_latency:250 output_token_throughput_per_user:10",
			&rc, why, sizeof(why)) < 0)
		abort();
	slices_init(&sl, 0.5);
	acc_init(&acc);
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		feed(&a, &sl, &acc, s, n);
		s += n + 1;
	}
	write_all(&a, &sl, &acc);
	acc_release(&acc);
	slices_release(&sl);
	agg_release(&a);
	return 0;
}
