/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for aiperf-gen's trace and custom dataset loaders and record emit loops: every input ends, with the requested record count. */
#include <stddef.h>
#include <stdint.h>

#include "gen.h"
#include "json/json.h"
#include "tok/toksrc.h"
#include "dataset/trace.h"
#include "util.h"
#include "fuzztool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__asan_default_options(void);

/* After a die() the target frees what it can (fuzztool.h), but the
 * prompt it drops then is lost. */
const char *
__asan_default_options(void)
{
	return "detect_leaks=0";
}

static struct prompt *prompt;

static void
setup(void)
{
	static const char corpus[] = "To be, or not to be, that is the "
		"question: whether 'tis nobler in the mind to suffer the "
		"slings and arrows of outrageous fortune.\n";
	char err[256];
	static struct tok *t;
	const char *path;

	setenv("AIPERF_DATA_DIR", "data", 0);	/* run from the top directory */
	if (!t && !(t = tok_load("builtin", NULL, err, sizeof(err)))) {
		fprintf(stderr, "%s\n", err);
		abort();
	}
	path = fuzz_file("corpus.txt", (const uint8_t *)corpus,
			 sizeof(corpus) - 1);
	fuzz_armed = 0;
	prompt = prompt_new(t, path, 1);
	fuzz_closefds();
}

/* Inputs whose prompts would be large are out of scope (cost, not bugs). */
static int
too_costly(const char *s, size_t n)
{
	struct trace_parser p;
	char err[64];
	int bad = 0;

	trace_parser_init(&p, 256);
	for (size_t i = 0, j; i < n && !bad; i = j + 1) {
		for (j = i; j < n && s[j] != '\n'; j++)
			;
		if (trace_parse(&p, s + i, j - i, err, sizeof(err)) == 1)
			bad = p.line.input_length > 512 || p.line.n_hash > 32;
	}
	trace_parser_release(&p);
	/* BurstGPT CSV rows: numbers of more than 3 digits */
	for (size_t i = 0, run = 0; i < n && !bad; i++) {
		run = s[i] >= '0' && s[i] <= '9' ? run + 1 : 0;
		bad = run > 3 && s[0] == 'T';
	}
	return bad;
}

static char *models[] = { "m", "n" };

/* The options byte: timing mode, type inference, warmup, models, count. */
static void
options(struct gen_opts *o, uint8_t b, const char *file)
{
	*o = (struct gen_opts){ .endpoint_type = "chat", .isl = 550,
				.osl = -1, .num_entries = 100,
				.concurrency = 1, .batch_size = 1,
				.turns_mean = 1, .delay_ratio = 1,
				.cancel_delay = -1, .sched.pattern = -1,
				.warmup_sched.pattern = -1, .block_size = 4,
				.start_offset = -1, .end_offset = -1,
				.warmup_grace = -1, .sampling = -1,
				.has_seed = 1, .seed = 1 };
	o->models = models;
	o->nmodels = b & 0x10 ? 2 : 1;
	o->model_random = (b & 0x10) != 0;
	o->path = "/v1/chat/completions";
	o->input_file = file;
	o->custom_type = b & 0x04 ? NULL : "mooncake_trace";
	switch (b & 3) {
	case 1: o->sched.rate = 100; break;
	case 2: o->uc_rate = 10; o->num_users = 3; break;
	case 3: o->fixed_schedule = 1; break;
	}
	if (b & 0x08)
		o->warmup_count = 3;
	o->request_count = 1 + 5 * (b >> 5);
}

static size_t
turns(const struct dataset *d)
{
	size_t n = 0;

	if (d->stream)
		return d->lines;	/* a streamed single_turn file: a turn a record */
	for (size_t i = 0; i < d->n; i++)
		n += d->convs[i].nturns;
	return n;
}

/* Each line one request record; returns the number of lines. */
static size_t
check_records(const char *s, size_t len)
{
	struct json_doc *doc = json_doc_new();
	size_t n = 0;

	for (size_t i = 0, j; i < len; i = j + 1, n++) {
		const struct json *v;
		size_t sl;
		const char *schema;

		for (j = i; j < len && s[j] != '\n'; j++)
			;
		if (j == len)
			abort();	/* a record without its newline */
		json_doc_reset(doc);
		v = json_parse(doc, s + i, j - i, NULL, 0);
		schema = v ? json_str(json_get(v, "schema"), &sl) : NULL;
		if (!schema || strcmp(schema, "aiperf.request/1"))
			abort();
	}
	json_doc_free(doc);
	return n;
}

static void
emit(struct dataset *d, const struct gen_opts *o)
{
	size_t len, got, want;
	long long profiling = o->request_count;
	char *out;
	int rc;

	fuzz_out_begin();
	rc = records_emit(d, o, 1);
	out = fuzz_out_end(0, &len);
	if (rc)
		abort();
	got = check_records(out, len);
	if (o->fixed && (size_t)profiling > turns(d))
		profiling = (long long)turns(d);
	want = (size_t)(o->warmup_count + profiling);
	if (!turns(d))
		want = 0;
	if (got != want) {
		fprintf(stderr, "%zu records, want %zu\n", got, want);
		abort();
	}
	free(out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dataset d = { 0 };
	struct gen_opts o;

	static unsigned runs;

	/* the prompt caches every hash id block it was asked for */
	if (prompt && ++runs % 512 == 0) {
		prompt_free(prompt);
		prompt = NULL;
	}
	if (!prompt)
		setup();
	if (!size || too_costly((const char *)data + 1, size - 1))
		return 0;
	options(&o, data[0], fuzz_file("trace.jsonl", data + 1, size - 1));
	fuzz_track = 1;
	if (FUZZ_TRY()) {
		/* the prompt's caches may hold freed blocks now: start anew */
		fuzz_armed = fuzz_track = 0;
		fuzz_release_tracked(1);
		fuzz_closefds();
		prompt = NULL;
		return 0;
	}
	sched_check_opts(&o);
	trace_check_opts(&o);
	sched_check_mode(&o);
	trace_dataset_build(&d, &o, prompt, 1);
	fuzz_armed = fuzz_track = 0;
	fuzz_release_tracked(0);
	emit(&d, &o);
	dataset_free(&d);
	return 0;
}
