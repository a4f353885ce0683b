/* SPDX-License-Identifier: Apache-2.0 */
/* --gpu-samples and --gpu-metrics read into lib/summary/gpu: anything wrong is a warning, never a failure. */
#include "export.h"

#include "gpucsv.h"
#include "lines.h"
#include "rand/pystr.h"
#include "util.h"

#define MAX_SAMPLE_LINE ((size_t)256 << 20)

void
gpu_custom(struct gpus *g, const struct gpucsv *c, const char *path)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct gpucsv_metric *m = &c->m[i];
		if (gpu_custom_add(g, m) < 0)
			warn("warning: %s: %s: its telemetry key '%s' is taken; left out",
			     path, m->dcgm, m->key);
	}
}

int
gpu_read(struct gpus *g, const char *path)
{
	struct json_doc *doc = json_doc_new();
	struct lines l;
	const char *s;
	size_t n;
	int rc, warned = 0;
	char err[128];

	if (lines_open(&l, path, MAX_SAMPLE_LINE) < 0) {
		warn("warning: --gpu-samples: cannot open '%s': %s; no GPU telemetry", path,
		     util_strerror(errno));
		json_doc_free(doc);
		return -1;
	}
	while ((rc = lines_next(&l, &s, &n)) == 1) {
		if (pystr_isblank(s, n))
			continue;
		if (gpu_line(g, doc, s, n, err, sizeof(err)) < 0 && !warned++)
			warn("warning: %s:%zu: not a sample record (%s); left out", path,
			     l.lineno, err);
	}
	if (rc < 0)
		warn("warning: %s:%zu: %s; the samples after it are left out", path,
		     l.lineno, errno == ENOBUFS ? "line too long" : util_strerror(errno));
	lines_close(&l);
	json_doc_free(doc);
	return 0;
}
