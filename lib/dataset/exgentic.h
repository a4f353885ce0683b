/* SPDX-License-Identifier: Apache-2.0 */
/* Exgentic agent traces: one hub row a recorded session, its LLM calls as complete chat request snapshots. */
#ifndef AIPERF_EXGENTIC_H
#define AIPERF_EXGENTIC_H

#include <stddef.h>
#include <stdint.h>

/*
 * The rows of Exgentic/agent-llm-traces (v1) and -v2 (the original's
 * dataset/loader/exgentic.py, exgentic_v2.py, exgentic_filters.py):
 *   {"harness": "tool_calling", "session_id": "...",
 *    "models": ["openai/azure/Kimi-K2.5", ...], "benchmark": "swebench",
 *    "spans": [{"type": "llm_call", "start_time": ISO 8601,
 *               "end_time": ISO 8601, "status": {"code": 1},
 *               "attributes": {"gen_ai.input.messages": JSON text,
 *                              "gen_ai.tool.definitions": JSON text,
 *                              "gen_ai.system_instructions": text,
 *                              "gen_ai.usage.input_tokens": 100,
 *                              "gen_ai.usage.output_tokens": 20,
 *                              "gen_ai.request.max_tokens": 512,
 *                              "gen_ai.request.temperature": 0.7,
 *                              "gen_ai.request.stop_sequences": [...]}}]}
 * A span is a call replayed when its type is "llm_call" (or absent, with
 * gen_ai.operation.name "chat"), its status code is not 2 (failed) and
 * both token counts are positive. Its OpenTelemetry GenAI messages
 * (parts of type text, thinking, tool_call, tool_call_response) become
 * OpenAI chat messages, its tool definitions chat tools, its recorded
 * temperature and stop sequences body members.
 *
 * Every string here is malloc'd and owned by the struct that holds it
 * (exg_row_release). The JSON texts written are at most a small constant
 * times the row's size, which the caller's reader caps.
 */

/* The filter values of exgentic_filters.py, in its enum order. */
enum { EXG_NHARNESS = 5, EXG_NMODEL = 6, EXG_NBENCH = 6 };
extern const char *const exg_harnesses[EXG_NHARNESS];
extern const char *const exg_models[EXG_NMODEL];
extern const char *const exg_benches[EXG_NBENCH];

/* --dataset-filter harness=, source_model=, benchmark= (v2 only): an
 * index into the tables above, -1 for any. */
struct exg_filters {
	int v2;
	int harness, model, bench;
};

/* No filter, for v1 (v2 0) or v2 (1). */
void exg_filters_init(struct exg_filters *f, int v2);

/*
 * One filter key=value into f: the value matched without regard to case,
 * a source model first stripped of its provider prefix. Returns 0, or -1
 * with the original's message in err ("Invalid Exgentic dataset filters:
 * source_model: input should be ...; available filters: harness=[...]").
 */
int exg_filter_add(struct exg_filters *f, const char *key, const char *val,
		   char *err, size_t errlen);

/* The checks of the whole set, before any row is read: a benchmark for v1,
 * an unsupported harness/source model pair, a source model no harness has.
 * Returns 0, or -1 with the original's message in err. */
int exg_filters_check(const struct exg_filters *f, char *err, size_t errlen);

/* canonical_source_model: s without an "openai/azure/", "azure/", "aws/"
 * or "gcp/" prefix (any case); a pointer into s. */
const char *exg_canonical_model(const char *s);

/* One replayed call. */
struct exg_call {
	int64_t start_us, end_us;	/* microseconds since the epoch */
	size_t index;			/* in the row's spans */
	int64_t max_tokens;		/* the request's, else the output's */
	char *messages;			/* JSON array text, sent as is */
	char *tools;			/* JSON array text, or NULL */
	char *extra;			/* JSON object text, or NULL */
};

/* The spans a row skipped, counted across rows. */
struct exg_stats {
	size_t failed, non_llm, zero_token;
};

struct exg_row {
	char *session_id, *harness;
	char **models;		/* canonical, each once, in row order */
	size_t nmodels;
	int match;		/* the filters take it (else no calls read) */
	struct exg_call *calls;	/* by start time, then span index */
	size_t ncalls;
};

/*
 * Read row s[0..n) (number row_index, from 1, for messages) with filters
 * f into *r (zeroed first; exg_row_release it whatever the result).
 * Returns 0, r->match saying whether the filters take the row (its calls
 * are read only then; none may be left), or -1 with the original's
 * message in err ("Exgentic session 'abc' span 3: gen_ai.input.messages
 * must be a JSON array of objects").
 */
int exg_row_parse(const char *s, size_t n, size_t row_index,
		  const struct exg_filters *f, struct exg_row *r,
		  struct exg_stats *st, char *err, size_t errlen);
void exg_row_release(struct exg_row *r);

/*
 * datetime.fromisoformat of s[0..n) (YYYY-MM-DD, then a separator and
 * HH[:MM[:SS[.f...]]] with at most six fraction digits read, then Z or
 * +-HH[:MM]; none: UTC) as microseconds since the epoch. 0 or -1.
 */
int exg_parse_time(const char *s, size_t n, int64_t *us);

#endif
