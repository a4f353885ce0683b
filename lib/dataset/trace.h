/* SPDX-License-Identifier: Apache-2.0 */
/* The mooncake trace line: one JSON object per line with lengths, hash ids and timing. */
#ifndef AIPERF_TRACE_H
#define AIPERF_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "dataset/field.h"
#include "json/json.h"

/*
 * struct trace_parser owns a JSON arena and the hash id array of the last
 * parsed line; both are reused by the next trace_parse() call, so the
 * fields of p->line (and p->line.root) are valid until then.
 * trace_parser_release() frees everything.
 *
 * Defaults follow the original (prefix_analyzer.py, models.py): a missing
 * or null input_length/output_length reads as 0, missing or null hash_ids
 * as an empty list; the has mask tells which fields were present. Values
 * are checked as every dataset reader checks them (field_check()):
 * lengths FIELD_TOKENS, delay FIELD_MS and the
 * timestamp ts_kind (FIELD_MS; a bailian_trace reader sets
 * FIELD_SECONDS).
 */
enum trace_has {
	TRACE_INPUT_LENGTH = 1 << 0,
	TRACE_OUTPUT_LENGTH = 1 << 1,
	TRACE_HASH_IDS = 1 << 2,	/* present and non-empty */
	TRACE_TIMESTAMP = 1 << 3,
	TRACE_SESSION_ID = 1 << 4,
	TRACE_TEXT_INPUT = 1 << 5,	/* present and not null */
	TRACE_MESSAGES = 1 << 6,	/* present and not null */
	TRACE_DELAY = 1 << 7,
};

struct trace_line {
	unsigned has;
	int64_t input_length;
	int64_t output_length;
	double timestamp;
	int64_t *hash_ids;
	size_t n_hash;
	const struct json *root;	/* the whole object */
};

struct trace_parser {
	struct json_doc *doc;
	struct trace_line line;
	size_t cap_hash;
	size_t max_hash;	/* most hash ids accepted on one line */
	enum field_kind ts_kind;	/* the timestamp's unit */
};

#define TRACE_MAX_HASH ((size_t)1 << 24)

void trace_parser_init(struct trace_parser *p, size_t max_hash);
void trace_parser_release(struct trace_parser *p);
/*
 * Parse one line s[0..n). Returns 1 with p->line filled, 0 for a blank
 * line (pystr_isblank(); the original skips those), or -1 with a reason
 * such as "input_length: expected an integer" in err.
 */
int trace_parse(struct trace_parser *p, const char *s, size_t n, char *err,
		size_t errlen);

#endif
