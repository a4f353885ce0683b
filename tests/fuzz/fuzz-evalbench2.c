/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for aiperf-evalset's hellaswag, bigbench and lcb_codegeneration: any rows load or are refused with a message. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../cmd/aiperf-evalset/pset.c"
#include "../../cmd/aiperf-evalset/names.c"
#include "../../cmd/aiperf-evalset/row.c"
#include "../../cmd/aiperf-evalset/hellaswag.c"
#include "../../cmd/aiperf-evalset/bigbench.c"
#include "../../cmd/aiperf-evalset/lcb.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[] = "/tmp/fuzz-evalbench2.XXXXXX";
static const char *const files[] = {
	"Rowan/hellaswag/default/train.jsonl",
	"Rowan/hellaswag/default/validation.jsonl",
	"lukaemon/bbh/navigate/test.jsonl",
	"livecodebench/code_generation_lite/v4_v5/test.jsonl",
};
/* the folders put() makes, deepest first */
static const char *const dirs[] = {
	"Rowan/hellaswag/default", "Rowan/hellaswag", "Rowan",
	"lukaemon/bbh/navigate", "lukaemon/bbh", "lukaemon",
	"livecodebench/code_generation_lite/v4_v5",
	"livecodebench/code_generation_lite", "livecodebench", "",
};

static void
cleanup(void)
{
	char path[256];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, dirs[i]);
		rmdir(path);
	}
}

static void
put(const char *rel, const uint8_t *data, size_t size)
{
	char path[256], *slash = path + strlen(dir);
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	while ((slash = strchr(slash + 1, '/'))) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	if (!(f = fopen(path, "w")))
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
}

/* The first byte: the benchmark (low 2 bits), n-shots (next 2), CoT. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct bench *const b[] = {
		&bench_hellaswag, &bench_bigbench, &bench_lcb, &bench_hellaswag,
	};
	static const char *const nav[] = { "navigate" };
	struct rows_src src = { .offline = 1 };
	struct bench_opts o = { .src = &src };
	struct problem_set p = { 0 };
	const struct bench *bn;
	static int ready;
	char err[1024];

	if (!size)
		return 0;
	if (!ready) {
		if (!mkdtemp(dir))
			abort();
		atexit(cleanup);
		/* the BBH prompt files: data/ of the checkout it runs in */
		setenv("AIPERF_DATA_DIR", "data", 0);
		ready = 1;
	}
	src.dir = dir;
	bn = b[data[0] & 3];
	o.n_shots = bn == &bench_lcb ? 0 : (data[0] >> 2) & 3;
	o.cot = bn == &bench_bigbench && (data[0] & 16);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		put(files[i], data + 1, size - 1);
	if (bn == &bench_bigbench) {
		o.tasks = nav;
		o.ntasks = 1;
	}
	memset(err, 0xA5, sizeof(err));
	if (bn->load(&o, &p, err, sizeof(err)) < 0) {
		if (!memchr(err, '\0', sizeof(err)) || !err[0])
			abort();
	} else {
		for (size_t i = 0; i < p.n; i++)
			if (!p.v[i].task[0] || strlen(p.v[i].prompt) < 10 ||
			    p.v[i].messages || p.v[i].max_tokens < 5)
				abort();
	}
	pset_release(&p);
	return 0;
}
