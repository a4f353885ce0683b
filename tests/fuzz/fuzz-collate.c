/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for aiperf-aggregate's reader of the runs' records
 * (cmd/aiperf-aggregate/collate.c, outside input): the input, split at NUL
 * bytes, is the profile_export.jsonl of up to 4 runs, written to files and
 * read as --collated and the distribution test read them (a first byte
 * 'm' reads metric "m" alone). Every value kept is finite, every note
 * names a run, and the collated JSON is whole.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../cmd/aiperf-aggregate/collate.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SUMMARY "{\"x\": {\"unit\": \"u\", \"avg\": 1}}"

static char dir[64];

/* Runs r0 ... r3 with a summary each, their records from the input; a
 * last run without any. Returns how many runs. */
static size_t
write_runs(struct runagg *a, const char *s, const char *end)
{
	char err[256], label[8];
	size_t k;

	for (k = 0; k < 4;) {
		const char *z = memchr(s, '\0', (size_t)(end - s));
		size_t n = z ? (size_t)(z - s) : (size_t)(end - s);
		char *p = xstrfmt("%s/r%zu.jsonl", dir, k);
		FILE *f = fopen(p, "wb");

		if (!f || fwrite(s, 1, n, f) != n || fclose(f) != 0)
			abort();
		free(p);
		snprintf(label, sizeof(label), "r%zu", k++);
		if (runagg_add_json(a, label, SUMMARY, strlen(SUMMARY), err, sizeof(err)) < 0)
			abort();
		if (!z)
			break;
		s = z + 1;
	}
	if (runagg_add_json(a, "gone", SUMMARY, strlen(SUMMARY), err, sizeof(err)) < 0)
		abort();
	return k + 1;
}

static void
cleanup(void)
{
	for (int k = 0; k < 4; k++) {
		char *p = xstrfmt("%s/r%d.jsonl", dir, k);

		unlink(p);
		free(p);
	}
	rmdir(dir);
}

static void
check(const struct collate *c, size_t runs)
{
	const char *metric, *why;
	size_t run;

	for (size_t i = 0; i < c->n; i++)
		for (size_t k = 0; k < c->m[i].v.n; k++)
			if (!isfinite(c->m[i].v.v[k]))
				abort();
	for (size_t i = 0; collate_left_out(c, i, &run, &metric, &why); i++)
		if (run >= runs || !why[0])
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *end = s + size;
	const char *only = size && s[0] == 'm' ? "m" : NULL;
	struct runagg *a = runagg_new(0.95);
	struct buf out = BUF_INIT(BUF_NOMAX);
	struct collate *c = collate_new(only);
	size_t runs;

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/fuzz-collate.%ld", (long)getpid());
		if (mkdir(dir, 0700) < 0 && errno != EEXIST)
			abort();
		atexit(cleanup);
	}
	runs = write_runs(a, s, end);
	for (size_t i = 0; i < runs; i++) {
		char name[16];

		if (i + 1 < runs)
			snprintf(name, sizeof(name), "r%zu.jsonl", i);
		else
			snprintf(name, sizeof(name), "missing.jsonl");
		(void)collate_add_run(c, dir, name, i);
	}
	check(c, runagg_runs(a));
	collate_json(&out, c, a, 0, "0");
	if (!out.len || out.s[out.len - 1] != '}')
		abort();
	buf_release(&out);
	collate_free(c);
	runagg_free(a);
	return 0;
}
