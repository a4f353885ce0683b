/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: lib/summary/gpu (aiperf-export --gpu-samples, aiperf-validate): hostile sample records never crash, and what is taken is written consistently. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpucsv.h"
#include "summary/gpu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* aiperf-export's renderer is not linked here: every cell must be a string. */
static void
grid(FILE *f, const char *title, size_t ncols, const char *const *head,
	   char **cells, size_t nrows)
{
	if (!title || ncols != 8)
		abort();
	for (size_t c = 0; c < ncols; c++)
		if (!head[c])
			abort();
	for (size_t i = 0; i < nrows * ncols; i++)
		if (!cells[i] || fputs(cells[i], f) == EOF)
			abort();
}

static void
iso(int64_t ns, char *out)
{
	snprintf(out, 64, "%lld", (long long)ns);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *end = s + size;
	struct json_doc *doc = json_doc_new();
	struct gpus g;
	char why[128], err[128];
	size_t lines = 0;

	/* custom metrics too (--gpu-metrics): one the samples may carry, one
	 * key taken already, one a default field */
	static const char csv[] = "DCGM_FI_DEV_SM_CLOCK, gauge, SM clock (in MHz)\n"
		"DCGM_FI_DEV_FB_FREE, counter, x\nDCGM_FI_DEV_DCGM_FI_DEV_FB_FREE, gauge, y\n"
		"DCGM_FI_DEV_GPU_UTIL, gauge, z\n";
	struct gpucsv c;
	gpucsv_parse(&c, csv, sizeof(csv) - 1, NULL, NULL);
	/* bit 1 of the first byte: the lines are gpu_telemetry_export.jsonl's
	 * read back (aiperf-validate), with a metric and endpoints of a summary */
	int records = size && data[0] & 2;
	gpu_init(&g);
	for (size_t i = 0; size && data[0] & 1 && i < c.n; i++)
		if (gpu_custom_add(&g, &c.m[i]) > 1)
			abort();
	if (records) {
		gpu_metric_add(&g, "sm_clock", "MHz");
		gpu_endpoint(&g, "http://h:9400/metrics", 0);
	}
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		why[0] = '\0';
		if ((records ? gpu_record(&g, doc, s, n, why, sizeof(why))
			     : gpu_line(&g, doc, s, n, why, sizeof(why))) < 0 && !why[0])
			abort();	/* a rejection says why */
		s += n + 1;
	}
	gpu_window(&g, 1, 1000, 1, 5000);
	for (size_t i = 0; i < g.jsonl.len; i++)
		lines += g.jsonl.s[i] == '\n';
	if ((!records && lines != g.lines) || (records && g.jsonl.len) ||
	    (g.lines && !gpu_have(&g)))
		abort();
	/* every JSONL line and the summary are JSON */
	for (const char *p = g.jsonl.s, *q; p && p < g.jsonl.s + g.jsonl.len; p = q + 1) {
		q = memchr(p, '\n', (size_t)(g.jsonl.s + g.jsonl.len - p));
		if (!q || !json_parse(doc, p, (size_t)(q - p), err, sizeof(err)))
			abort();
	}
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;
	jw_init(&w, &b, 2);
	jw_obj(&w);
	gpu_json(&w, &g, iso);
	jw_obj_end(&w);
	if (!json_parse(doc, b.s, b.len, err, sizeof(err)))
		abort();
	buf_release(&b);
	FILE *f = fopen("/dev/null", "w");
	if (f) {
		if (gpu_csv(f, &g) < 0)
			abort();
		gpu_console(f, &g, grid);
		fclose(f);
	}
	gpu_release(&g);
	gpucsv_release(&c);
	json_doc_free(doc);
	return 0;
}
