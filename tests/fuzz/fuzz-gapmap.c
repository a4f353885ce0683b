/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: genai-perf-map's parsers (its options table, GenAI-Perf's options, its YAML config, sweep ranges): hostile input never crashes or leaks, and what is accepted maps to whole words. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../cmd/genai-perf-map/gaptab.c"
#include "../../cmd/genai-perf-map/gapmap.c"
#include "../../cmd/genai-perf-map/gapyaml.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct gaptab tab;
static int loaded;

/* The shipped table (run from the source tree), else a few rows of it. */
static void
load(void)
{
	static const char mini[] =
		"-m --model\twords\tmodel_names\t-\t--model\t-\n"
		"--service-kind=openai\targ\tendpoint.service_kind\ttriton\t~\t-\n"
		"--service-kind\targ\t-\t-\t!\tno\n"
		"--input-file=payload:*\targ\t-\t-\t--input-file * --custom-dataset-type mooncake_trace\tp\n"
		"--input-file\targ\tinput.file\t-\t--input-file\t-\n"
		"--goodput -g\tjoined\tinput.goodput\t-\t--goodput\t-\n"
		"-H --header\tlist\tinput.header\t-\t--header\t-\n"
		"--extra-inputs\tlist\tinput.extra\t-\t--extra-inputs\t-\n"
		"--streaming\tflag\tendpoint.streaming\tfalse\t--streaming\t-\n"
		"--generate-plots\tflag\toutput.generate_plots\tfalse\t@plots\t-\n"
		"--sweep-type=concurrency\targ\tanalyze.concurrency\t1:1024\t--concurrency\t-\n"
		"--sweep-type\targ\t-\t-\t!\tno\n";
	size_t n, bad;
	char *s = util_readfile("data/genai-perf-options.tsv", GAPTAB_MAX_FILE, &n);

	gaptab_init(&tab);
	if (!s || gaptab_parse(&tab, s, n, &bad) < 0)
		if (gaptab_parse(&tab, mini, sizeof(mini) - 1, &bad) < 0)
			abort();
	free(s);
	loaded = 1;
}

static void
check_out(const struct gapmap *m)
{
	size_t n;
	char **v = gapmap_argv(m, &n);

	for (size_t i = 0; i < n; i++) {
		if (!v[i])
			abort();
		free(v[i]);
	}
	free(v);
}

static void
fuzz_args(const uint8_t *data, size_t size, int mode)
{
	char *s = xstrndup((const char *)data, size), *argv[128];
	int argc = 0;
	struct gapmap m;

	for (char *w = s; argc < 128;) {
		char *nl = strchr(w, '\n');

		argv[argc++] = w;
		if (!nl)
			break;
		*nl = '\0';
		w = nl + 1;
	}
	gapmap_init(&m, &tab);
	m.analyze = mode == 2;
	m.keyvals = mode == 3;
	if (gapmap_args(&m, argc, argv) == 0 && (!m.analyze || gapmap_sweep(&m) == 0))
		check_out(&m);
	gapmap_release(&m);
	free(s);
}

static void
fuzz_yaml(const uint8_t *data, size_t size)
{
	struct gapmap m;

	gapmap_init(&m, &tab);
	if (gapyaml_load(&m, (const char *)data, size) == 0 && (!m.sweep_type || gapmap_sweep(&m) == 0))
		check_out(&m);
	gapmap_release(&m);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gaptab t;
	size_t bad;
	char *s, *out = NULL, err[128];

	if (!loaded)
		load();
	if (size < 1)
		return 0;
	switch (data[0] % 5) {
	case 0:
		gaptab_init(&t);
		if (gaptab_parse(&t, (const char *)data + 1, size - 1, &bad) == 0)
			for (size_t i = 0; i < t.n; i++)
				if (!t.rows[i].target || (!t.rows[i].nnames && !t.rows[i].yaml))
					abort();
		gaptab_release(&t);
		break;
	case 1:
		fuzz_yaml(data + 1, size - 1);
		break;
	case 4:
		s = xstrndup((const char *)data + 1, size - 1);
		if (gapmap_range(s, &out, err, sizeof(err)) == 0 && !*out)
			abort();
		free(out);
		free(s);
		break;
	default:
		fuzz_args(data + 1, size - 1, data[0] % 5);
	}
	return 0;
}
