/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for aiperf-trace convert (BurstGPT/Azure CSV, bailian JSONL): what it writes is a mooncake trace. */
#include <ctype.h>
#include <getopt.h>
#include <stddef.h>
#include <stdint.h>

#include "dataset/trace.h"
#include "tt.h"
#include "util.h"
#include "fuzztool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__asan_default_options(void);

/* die() leaves descriptors and blocks behind, freed here (fuzztool.h),
 * but not what libzstd allocated for a corrupt compressed input. */
const char *
__asan_default_options(void)
{
	return "detect_leaks=0";
}

static size_t
count_lines(const uint8_t *s, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += s[i] == '\n';
	return k + (n && s[n - 1] != '\n');
}

/* A session's lines are contiguous: a session id seen before the
 * previous line's must not come back. */
static void
check_grouped(char **sid, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		if (!strcmp(sid[i], sid[i - 1]))
			continue;
		for (size_t j = 0; j + 1 < i; j++)
			if (!strcmp(sid[j], sid[i]))
				abort();
	}
}

/*
 * Every line a mooncake trace line (lib/trace accepts it) with a
 * timestamp and both lengths; bailian lines also a session_id; at most
 * one line per input line, exactly one for bailian; rebased: the first
 * CSV line (and some bailian line) at timestamp 0.
 */
static void
check(const char *out, size_t len, int bailian, int rebase, size_t in_lines)
{
	struct trace_parser p;
	char err[256], **sid = NULL;
	size_t n = 0, zero = 0;

	trace_parser_init(&p, 0);
	for (size_t i = 0, j; i < len; i = j + 1, n++) {
		unsigned want = TRACE_TIMESTAMP | TRACE_INPUT_LENGTH |
				TRACE_OUTPUT_LENGTH;
		size_t sl;
		const char *s;

		for (j = i; j < len && out[j] != '\n'; j++)
			;
		if (j == len || trace_parse(&p, out + i, j - i, err,
					    sizeof(err)) != 1) {
			fprintf(stderr, "bad line: %.*s\n", (int)(j - i), out + i);
			abort();
		}
		if (bailian)
			want |= TRACE_SESSION_ID;
		if ((p.line.has & want) != want)
			abort();
		zero += p.line.timestamp == 0;
		if (!n && !bailian && rebase && p.line.timestamp != 0)
			abort();
		if (!bailian)
			continue;
		s = json_str(json_get(p.line.root, "session_id"), &sl);
		sid = xreallocarray(sid, n + 1, sizeof(*sid));
		sid[n] = xstrndup(s, sl);
	}
	trace_parser_release(&p);
	if (n > in_lines || (bailian && n != in_lines && n) ||
	    (bailian && rebase && n && !zero))
		abort();
	if (bailian)
		check_grouped(sid, n);
	for (size_t i = 0; bailian && i < n; i++)
		free(sid[i]);
	free(sid);
}

static size_t
nonblank_lines(const uint8_t *s, size_t n)
{
	size_t k = 0;
	int ink = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n') {
			k += ink;
			ink = 0;
		} else if (!isspace(s[i])) {
			ink = 1;
		}
	}
	return k + ink;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const from[] = { "burstgpt", "azure", "bailian",
					    "bailian" };
	char *argv[6], *out;
	int argc = 0, bailian, rebase;
	volatile int closed;	/* set between setjmp and a longjmp */
	size_t len, in;

	if (fuzz_fdbase < 0)
		fuzz_closefds();
	if (!size)
		return 0;
	bailian = (data[0] & 3) >= 2;
	rebase = !(data[0] & 4);
	argv[argc++] = "convert";
	argv[argc++] = "--from";
	argv[argc++] = (char *)from[data[0] & 3];
	if (!rebase)
		argv[argc++] = "--no-rebase";
	argv[argc++] = (char *)fuzz_file("trace", data + 1, size - 1);
	argv[argc] = NULL;
	in = bailian ? nonblank_lines(data + 1, size - 1) :
		       count_lines(data + 1, size - 1);
	optind = 0;
	fuzz_out_begin();
	closed = 0;
	fuzz_track = 1;
	if (!FUZZ_TRY()) {
		cmd_convert(argc, argv);
		closed = 1;
	}
	fuzz_armed = fuzz_track = 0;
	out = fuzz_out_end(closed, &len);
	if (fuzz_died) {
		fuzz_release_tracked(1);
		fuzz_closefds();
	} else {
		fuzz_release_tracked(1);	/* nothing: the converter freed it all */
		check(out, len, bailian, rebase, in);
	}
	free(out);
	return 0;
}
