/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/dataset/replay: raw_payload lines, inputs.json texts, capture records and ISO times; a body written once is written again byte for byte. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dataset/replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A body given, parsed and written again, must be what it was. */
static void
stable(struct json_doc *d, const char *s, size_t n)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	const struct json *v;
	struct jw w;

	json_doc_reset(d);
	if (!(v = json_parse(d, s, n, NULL, 0)))
		abort();
	jw_init(&w, &b, 0);
	jw_value(&w, v);
	if (b.len != n || memcmp(b.s, s, n))
		abort();
	buf_release(&b);
}

static void
inputs(struct json_doc *d, const char *s, size_t n)
{
	struct replay_inputs ri;
	char err[512];

	if (replay_inputs_parse(s, n, &ri, err, sizeof(err)) < 0) {
		if (ri.n || ri.v || !memchr(err, '\0', sizeof(err)))
			abort();
		return;
	}
	for (size_t i = 0; i < ri.n; i++)
		for (size_t k = 0; k < ri.v[i].n; k++)
			stable(d, ri.v[i].payloads[k], ri.v[i].lens[k]);
	replay_inputs_release(&ri);
}

static void
capture(struct json_doc *d, const char *s, size_t n)
{
	struct replay_capture c = { .messages = NULL };
	char err[512];

	replay_capture_release(&c);
	if (replay_capture_parse(d, s, n, &c, err, sizeof(err)) == 1) {
		if (!c.messages || c.max_tokens < -1 || c.input_length < -1)
			abort();
		stable(d, c.messages, strlen(c.messages));
	}
	replay_capture_release(&c);
}

/* The first byte picks the parser; the rest is its input. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct json_doc *d;
	struct buf out = BUF_INIT(BUF_NOMAX);
	char err[512], *s;
	double ms;

	if (!size)
		return 0;
	if (!d)
		d = json_doc_new();
	/* a copy, so that reading past size is caught */
	s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	switch (data[0] % 4) {
	case 0:
		if (replay_payload(d, s, size - 1, &out, err, sizeof(err)) == 1) {
			char *body = buf_detach(&out, NULL);
			size_t n = strlen(body);

			stable(d, body, n);
			free(body);
		}
		break;
	case 1: inputs(d, s, size - 1); break;
	case 2: capture(d, s, size - 1); break;
	default:
		if (replay_iso_ms(s, size - 1, &ms) == 0 && ms != ms)
			abort();
	}
	buf_release(&out);
	free(s);
	return 0;
}
