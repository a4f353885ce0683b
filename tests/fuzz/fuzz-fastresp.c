/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: aiperf-metrics' fast path for responses (fastresp.c) against the general path. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cmd/aiperf-metrics/metrics.h"
#include "../../cmd/aiperf-metrics/accuracy.c"
#include "../../cmd/aiperf-metrics/compute.c"
#include "../../cmd/aiperf-metrics/fastresp.c"
#include "../../cmd/aiperf-metrics/fastpacket.c"
#include "../../cmd/aiperf-metrics/health.c"
#include "../../cmd/aiperf-metrics/parse.c"
#include "../../cmd/aiperf-metrics/parse_endpoints.c"
#include "../../cmd/aiperf-metrics/parse_images.c"
#include "../../cmd/aiperf-metrics/parse_template.c"
#include "../../cmd/aiperf-metrics/tokens.c"
#include "../../cmd/aiperf-metrics/usage.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The first byte picks the shape: 0-3: the rest is a raw record line;
 * else the rest is one packet's JSON text, put in a record as a JSON
 * string (4: escaped as json.dumps would, 5: as it is, unescaped) of a
 * chat (odd) or completions record, after a plain chunk. With bit 8 set
 * (12-15) a 0x01 byte splits the rest into several packets, whose shared
 * starts the fast path reads once (fastresp.c's checkpoints).
 */
static void
wrap(struct buf *line, unsigned mode, const uint8_t *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";

	buf_reset(line);
	buf_addf(line, "{\"metadata\":{\"x_request_id\":\"r\"},\"start_perf_ns\":1000,"
		 "\"responses\":[{\"perf_ns\":1500,\"packets\":[{\"name\":\"data\",\"value\":"
		 "\"{\\\"object\\\":\\\"%s\\\",\\\"choices\\\":[{\\\"delta\\\":{\\\"content\\\":"
		 "\\\"a\\\"},\\\"text\\\":\\\"b\\\"}]}\"}]},"
		 "{\"perf_ns\":2000,\"packets\":[{\"name\":\"data\",\"value\":\"",
		 mode & 2 ? "chat.completion.chunk" : "text_completion");
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c == 1 && (mode & 8)) {
			buf_addf(line, "\"}]},{\"perf_ns\":%zu,\"packets\":[{\"name\":\"data\","
				 "\"value\":\"", 2000 + i);
			continue;
		}
		if (mode & 1)
			buf_addch(line, c);
		else if (c == '"' || c == '\\')
			buf_addf(line, "\\%c", c);
		else if (c < 0x20)
			buf_addf(line, "\\u00%c%c", hex[c >> 4], hex[c & 15]);
		else
			buf_addch(line, c);
	}
	buf_addf(line, "\"}]}],\"aiperf\":{\"endpoint_type\":\"%s\"}}",
		 mode & 2 ? "chat" : "completions");
}

static void
run(struct rec *r, const struct opts *o, const char *s, size_t n, struct buf *out)
{
	char why[256];

	buf_reset(out);
	r->fr_want = 1;
	if (rec_parse(r, o, s, n, why, sizeof(why)) < 0) {
		buf_addf(out, "error: %s", why);
		return;
	}
	buf_addf(out, "%zu %zu %d %d %d|", r->nr, r->nraw, r->perr, r->has_out, r->has_reason);
	buf_add(out, r->out_text.s, r->out_text.len);
	buf_addch(out, '|');
	buf_add(out, r->reason_text.s, r->reason_text.len);
	buf_addch(out, '|');
	buf_add(out, r->emsg.s, r->emsg.len);
	buf_addch(out, '|');
	rec_emit(r, o, out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rec fast, slow;
	static struct buf a, b, line;
	static struct opts o[2];
	static int init;
	const char *s = (const char *)data + 1;
	size_t n = size ? size - 1 : 0;

	if (!init) {
		rec_init(&fast);
		rec_init(&slow);
		slow.slow = 1;
		buf_init(&a, BUF_NOMAX);
		buf_init(&b, BUF_NOMAX);
		buf_init(&line, BUF_NOMAX);
		o[0].tok = tokenizer_open("test:words", NULL);
		o[1].server_tokens = 1;
		o[1].export_trace = 1;
		init = 1;
	}
	if (!size)
		return 0;
	if (data[0] % 16 >= 4 && data[0] % 16 < 8) {
		wrap(&line, data[0] % 16 - 4, data + 1, n);
		s = line.s;
		n = line.len;
	} else if (data[0] % 16 >= 12) {
		wrap(&line, data[0] % 16 - 12 + 8, data + 1, n);
		s = line.s;
		n = line.len;
	}
	for (int i = 0; i < 2; i++) {
		run(&fast, &o[i], s, n, &a);
		run(&slow, &o[i], s, n, &b);
		if (a.len != b.len || memcmp(a.s, b.s, a.len)) {
			fprintf(stderr, "fast: %.*s\nslow: %.*s\n", (int)a.len, a.s,
				(int)b.len, b.s);
			abort();
		}
	}
	return 0;
}
