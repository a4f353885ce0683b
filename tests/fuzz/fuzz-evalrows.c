/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: hostile hub rows through aiperf-evalset's row readers (MMLU with its shot sampler, GPQA, AIME, MATH-500, GSM8K). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../cmd/aiperf-evalset/pset.c"
#include "../../cmd/aiperf-evalset/row.c"
#include "../../cmd/aiperf-evalset/mmlu.c"
#include "../../cmd/aiperf-evalset/gpqa.c"
#include "../../cmd/aiperf-evalset/aime.c"
#include "../../cmd/aiperf-evalset/math500.c"
#include "../../cmd/aiperf-evalset/gsm8k.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char root[] = "/tmp/fuzz-evalrows-XXXXXX";

static const struct {
	const struct bench *b;
	const char *dir;	/* under root */
	const char *splits[2];
} cases[] = {
	{ &bench_mmlu, "lighteval/mmlu/abstract_algebra", { "dev", "test" } },
	{ &bench_gpqa, "Idavidrein/gpqa/gpqa_diamond", { "train", NULL } },
	{ &bench_aime, "Maxwell-Jia/AIME_2024/default", { "train", NULL } },
	{ &bench_math500, "HuggingFaceH4/MATH-500/default", { "test", NULL } },
	{ &bench_gsm8k, "openai/gsm8k/main", { "test", NULL } },
};

static void
put(const char *dir, const char *split, const uint8_t *s, size_t n)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s.jsonl", root, dir, split);
	if (!(f = fopen(path, "w")) || fwrite(s, 1, n, f) != n || fclose(f))
		abort();
}

static void
rmdirs(void)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		return;
}

static void
mkdirs(void)
{
	char cmd[512];

	if (!mkdtemp(root))
		abort();
	atexit(rmdirs);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s'", root, cases[i].dir);
		if (system(cmd))
			abort();
	}
}

/* Whatever the rows, load() returns 0 with whole problems or -1 with a message. */
static void
check(const struct bench *b, int shots, int cot)
{
	static const char *const tasks[] = { "abstract_algebra" };
	struct rows_src src = { .dir = root, .max_bytes = 1 << 20 };
	struct bench_opts o = { tasks, 1, shots, cot, &src };
	struct problem_set ps = { 0 };
	char err[512] = "";

	if (b->load(&o, &ps, err, sizeof(err)) < 0) {
		if (!*err || !memchr(err, '\0', sizeof(err)))
			abort();
		if (ps.n && !ps.v)
			abort();
	}
	for (size_t i = 0; i < ps.n; i++) {
		struct json_doc *d = json_doc_new();
		const struct problem *p = &ps.v[i];
		struct json *v;

		if (!p->task || !p->gold || !p->prompt)
			abort();
		v = p->messages ? json_parse(d, p->messages, strlen(p->messages), err, sizeof(err)) : NULL;
		if (p->messages && (!v || v->type != JSON_ARRAY || !v->len))
			abort();
		json_doc_free(d);
	}
	pset_release(&ps);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	size_t c;

	if (!ready++)
		mkdirs();
	if (size < 2)
		return 0;
	c = data[0] % (sizeof(cases) / sizeof(cases[0]));
	for (int k = 0; k < 2 && cases[c].splits[k]; k++)
		put(cases[c].dir, cases[c].splits[k], data + 2, size - 2);
	check(cases[c].b, data[1] % 10, data[1] >= 128);
	return 0;
}
