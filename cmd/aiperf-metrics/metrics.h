/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-metrics internals: one raw record parsed, its responses, token counts and metric values. */
#ifndef AIPERF_METRICS_H
#define AIPERF_METRICS_H

#include <stdint.h>
#include "buf.h"
#include "json.h"

/*
 * A struct rec is reused for every input line: rec_reset() keeps its memory.
 * Every json pointer borrows from rec->doc and lives until the next reset.
 */
enum etype {
	ET_CHAT,
	ET_COMPLETIONS,
	ET_EMBEDDINGS,
	ET_OTHER,	/* unknown: latency metrics only */
};

struct resp {
	int64_t perf_ns;
	int data;		/* a content response (text, reasoning, tool call) */
	int output;		/* data with non-empty output text (TTFO) */
	const struct json *usage;
};

struct opts;

struct rec {
	struct json_doc *doc;
	const struct json *root, *metadata, *payload, *error, *aiperf, *trace;
	int64_t start_perf_ns;
	int has_start;
	int warmup;
	int stream;
	enum etype et;
	struct resp *r;
	size_t nr, cap;
	size_t nraw;		/* responses in the record */
	int bad_perf;		/* a response perf_ns outside (0, 2^63-1) */
	struct buf out_text, reason_text;
	int has_out, has_reason;	/* some output / reasoning text seen */
	/* error raised while parsing responses (the original's exceptions) */
	struct buf etype_s, emsg;
	int perr;
};

struct opts {
	const char *endpoint_type;	/* NULL: from the record */
	int server_tokens;
	int streaming;
	int export_trace;
	int drop_warmup;
	int keep_going;
	int unbuffered;
	struct tokenizer *tok;
};

void rec_init(struct rec *r);
void rec_reset(struct rec *r);
void rec_release(struct rec *r);

/* parse.c: read one raw record line into r. Returns 0, or -1 with a
 * message in why (the line is malformed: not a raw record). */
int rec_parse(struct rec *r, const struct opts *o, const char *s, size_t n,
	      char *why, size_t whylen);

/* compute.c: write the metric record for r to out (a line with '\n').
 * Returns 0, or 1 when the record yields no line. */
int rec_emit(struct rec *r, const struct opts *o, struct buf *out);

/* tokens.c: the tokenizer (client-side counts). */
struct tokenizer *tokenizer_open(const char *spec, const char *revision,
				 const char *model, int quiet);
void tokenizer_free(struct tokenizer *t);
/* Token count of s[0..n), or -1 when no tokenizer is loaded. */
int64_t tokenizer_count(struct tokenizer *t, const char *s, size_t n);
/* Input sequence length of r's request, or -1 when it has no text. */
int64_t tokens_input(struct tokenizer *t, const struct rec *r);

/* Python repr() of a str, appended to b. */
void py_repr_str(struct buf *b, const char *s, size_t n);

#endif
