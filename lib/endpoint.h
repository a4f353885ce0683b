/* SPDX-License-Identifier: Apache-2.0 */
/* The endpoint types: one table of names, paths and capabilities that every tool reads. */
#ifndef AIPERF_ENDPOINT_H
#define AIPERF_ENDPOINT_H

#include "buf.h"

/*
 * What --endpoint-type names, as the original's plugins.yaml describes it
 * (spec 6.2): the canonical name, the default path, the capabilities and
 * the console's metrics title. The tools keep their own code per type
 * (aiperf-gen's payload builders, aiperf-metrics' response parsers) and
 * select it by the type's id; the facts live here only.
 *
 * Everything returned points into a static table: nothing to free, nothing
 * to copy, valid for the life of the program. The lookups never fail
 * loudly: an unknown name is NULL, and the caller words the usage error
 * (endpoint_names() and endpoint_list() give the choices).
 */
enum endpoint_id {		/* in the order the choices are listed */
	ENDPOINT_CHAT,
	ENDPOINT_COMPLETIONS,
	ENDPOINT_RESPONSES,
	ENDPOINT_EMBEDDINGS,
	ENDPOINT_CHAT_EMBEDDINGS,
	ENDPOINT_NIM_EMBEDDINGS,
	ENDPOINT_NIM_RANKINGS,
	ENDPOINT_COHERE_RANKINGS,
	ENDPOINT_HF_TEI_RANKINGS,
	ENDPOINT_HF_GENERATE,
	ENDPOINT_IMAGE_GENERATION,
	ENDPOINT_VIDEO_GENERATION,
	ENDPOINT_IMAGE_RETRIEVAL,
	ENDPOINT_SOLIDO_RAG,
	ENDPOINT_TEMPLATE,
	ENDPOINT_N
};

enum endpoint_flags {
	ENDPOINT_STREAMS = 1 << 0,		/* supports_streaming */
	ENDPOINT_PRODUCES_TOKENS = 1 << 1,	/* produces_tokens: text out */
	ENDPOINT_TOKENIZES_INPUT = 1 << 2,	/* tokenizes_input */
	ENDPOINT_TAKES_IMAGES = 1 << 3,		/* supports_images */
	ENDPOINT_PRODUCES_VIDEO = 1 << 4,	/* the video metrics */
	ENDPOINT_SENDS_MAX_TOKENS = 1 << 5,	/* the body carries max_tokens in some form */
	ENDPOINT_RANKS = 1 << 6,		/* a rankings type: query and passages */
};

struct endpoint_type {
	enum endpoint_id id;
	const char *name;		/* canonical: "huggingface_generate" */
	const char *path;		/* default path; "" for template (the URL as given) */
	const char *stream_path;	/* the path when streaming, or NULL: path */
	unsigned flags;			/* enum endpoint_flags */
	const char *metrics_title;	/* "LLM Metrics", after "NVIDIA AIPerf | " */
};

/*
 * The type a name names, as the original's enums take it: any case, '-'
 * for '_' ("NIM-Rankings"); canonical names only. NULL if none, or if
 * name is NULL.
 */
const struct endpoint_type *endpoint_find(const char *name);

/*
 * The same for a record's endpoint_type field, which may also hold an
 * older name the original wrote (genai-perf's "rankings" for
 * nim_rankings). No option takes those.
 */
const struct endpoint_type *endpoint_find_record(const char *name);

/* The type with that id; id must be below ENDPOINT_N. */
const struct endpoint_type *endpoint_get(enum endpoint_id id);

/* Whether type id has every flag in flags. */
int endpoint_has(enum endpoint_id id, unsigned flags);

/* The path a request of type t goes to (streaming: its streaming path). */
const char *endpoint_path(const struct endpoint_type *t, int streaming);

/* The canonical names in id order, NULL-terminated (a struct opt's
 * .choices: --help, completion, "invalid value" messages). */
const char *const *endpoint_names(void);

/* Append the canonical names to b, ", " between them (the choices in a
 * usage error). Returns buf_add's result. */
int endpoint_list(struct buf *b);

#endif
