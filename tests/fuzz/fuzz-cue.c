/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for lib/cue, the lines senders, scrapers and their
 * coordinator exchange through FIFOs. The first byte picks 1 to 4 senders
 * and the chunk size the input is pushed into the reader in; the rest is
 * the FIFO's bytes. Each line the reader gives is parsed as a phase cue
 * and as a go: what parses formats back to the same line. The lines must
 * come out the same pushed in chunks as pushed whole. Every line goes
 * into a barrier; its goes never go back in time.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cue.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A parsed line formatted again must be the line itself. */
static void
round_trip(const char *line, size_t len)
{
	char out[CUE_LINE_MAX];
	const char *why;
	struct cue_mark m;
	struct cue_go g;

	if (!cue_mark_parse(line, len, &m, &why) &&
	    (cue_mark_format(&m, out) != len + 1 || memcmp(out, line, len)))
		abort();
	if (!cue_go_parse(line, len, &g, &why) &&
	    (cue_go_format(&g, out) != len + 1 || memcmp(out, line, len)))
		abort();
}

/* Each line of s[0..n), pushed chunk bytes at a time, into the barrier b
 * (when not NULL); a hash of the lines' bytes and kinds. */
static uint64_t
lines(const char *s, size_t n, size_t chunk, struct cue_barrier *b)
{
	struct cue_reader r;
	uint64_t h = 1469598103934665603ULL;
	int64_t prev = 0;
	size_t at = 0, len;
	const char *line;
	char w[160];
	int k;

	cue_reader_init(&r);
	while (at < n) {
		at += cue_reader_push(&r, s + at, n - at < chunk ? n - at : chunk);
		while ((k = cue_reader_next(&r, &line, &len))) {
			h = (h ^ (uint64_t)k) * 1099511628211ULL;
			for (size_t i = 0; k > 0 && i < len; i++)
				h = (h ^ (unsigned char)line[i]) * 1099511628211ULL;
			if (k > 0 && (len >= CUE_LINE_MAX || line[len]))
				abort();
			if (k > 0)
				round_trip(line, len);
			if (b && cue_barrier_line(b, k > 0 ? line : NULL, len, w, sizeof(w)) == 1) {
				struct cue_go g;

				if (cue_barrier_go(b, (int64_t)at * 1000, &g) || g.wall_ns < prev)
					abort();
				prev = g.wall_ns;
			}
		}
	}
	return h;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cue_barrier b;
	const char *s = (const char *)data + 1;

	if (size < 1)
		return 0;
	cue_barrier_init(&b, 1 + (data[0] & 3), (int64_t)(data[0] >> 2) * 1000,
			 (data[0] & 0x80) ? 20000 : 0);
	if (lines(s, size - 1, 1 + (data[0] >> 2), &b) != lines(s, size - 1, size, NULL))
		abort();
	return 0;
}
