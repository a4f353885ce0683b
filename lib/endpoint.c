/* SPDX-License-Identifier: Apache-2.0 */
/* The endpoint types' table (spec 6.2, the original's plugins.yaml) and its lookups. */
#include "endpoint.h"

#include "util.h"

#define S ENDPOINT_STREAMS
#define OUT ENDPOINT_PRODUCES_TOKENS
#define IN ENDPOINT_TOKENIZES_INPUT
#define IMG ENDPOINT_TAKES_IMAGES
#define VID ENDPOINT_PRODUCES_VIDEO
#define MAX ENDPOINT_SENDS_MAX_TOKENS
#define RANK ENDPOINT_RANKS

/* Every type once: id, name, path, streaming path, flags, metrics title. */
#define ENDPOINT_TYPES(X) \
	X(CHAT, "chat", "/v1/chat/completions", NULL, S | OUT | IN | IMG | MAX, "LLM Metrics") \
	X(COMPLETIONS, "completions", "/v1/completions", NULL, S | OUT | IN | MAX, "LLM Metrics") \
	X(RESPONSES, "responses", "/v1/responses", NULL, S | OUT | IN | IMG | MAX, "LLM Metrics") \
	X(EMBEDDINGS, "embeddings", "/v1/embeddings", NULL, IN, "Embeddings Metrics") \
	X(CHAT_EMBEDDINGS, "chat_embeddings", "/v1/embeddings", NULL, IN | IMG | MAX, \
	  "Embeddings Metrics") \
	X(NIM_EMBEDDINGS, "nim_embeddings", "/v1/embeddings", NULL, IN | IMG, \
	  "NIM Embeddings Metrics") \
	X(NIM_RANKINGS, "nim_rankings", "/v1/ranking", NULL, IN | RANK, "Rankings Metrics") \
	X(COHERE_RANKINGS, "cohere_rankings", "/v2/rerank", NULL, IN | RANK, "Ranking Metrics") \
	X(HF_TEI_RANKINGS, "hf_tei_rankings", "/rerank", NULL, IN | RANK, "Ranking Metrics") \
	X(HF_GENERATE, "huggingface_generate", "/generate", "/generate_stream", \
	  S | OUT | IN | MAX, "LLM Metrics") \
	X(IMAGE_GENERATION, "image_generation", "/v1/images/generations", NULL, S | IN, \
	  "Image Generation Metrics") \
	X(VIDEO_GENERATION, "video_generation", "/v1/videos", NULL, IN | VID, \
	  "Video Generation Metrics") \
	X(IMAGE_RETRIEVAL, "image_retrieval", "/v1/infer", NULL, IMG, "Image Retrieval Metrics") \
	X(SOLIDO_RAG, "solido_rag", "/rag/api/prompt", NULL, S | OUT | IN, "SOLIDO RAG Metrics") \
	X(TEMPLATE, "template", "", NULL, S | OUT | IN | MAX, "LLM Metrics")

#define TYPE(id, name, path, spath, flags, title) \
	[ENDPOINT_##id] = { ENDPOINT_##id, name, path, spath, flags, title },
static const struct endpoint_type types[ENDPOINT_N] = { ENDPOINT_TYPES(TYPE) };

#define NAME(id, name, path, spath, flags, title) [ENDPOINT_##id] = name,
static const char *const names[ENDPOINT_N + 1] = { ENDPOINT_TYPES(NAME) };

/* Older names a record may carry (genai-perf's, the original's first). */
static const struct {
	const char *name;
	enum endpoint_id id;
} older[] = {
	{ "rankings", ENDPOINT_NIM_RANKINGS },
};

const struct endpoint_type *
endpoint_find(const char *name)
{
	for (size_t i = 0; name && i < ENDPOINT_N; i++)
		if (util_choice_eq(name, types[i].name))
			return &types[i];
	return NULL;
}

const struct endpoint_type *
endpoint_find_record(const char *name)
{
	const struct endpoint_type *t = endpoint_find(name);

	for (size_t i = 0; name && !t && i < sizeof(older) / sizeof(older[0]); i++)
		if (util_choice_eq(name, older[i].name))
			t = &types[older[i].id];
	return t;
}

const struct endpoint_type *
endpoint_get(enum endpoint_id id)
{
	return &types[id];
}

int
endpoint_has(enum endpoint_id id, unsigned flags)
{
	return (types[id].flags & flags) == flags;
}

const char *
endpoint_path(const struct endpoint_type *t, int streaming)
{
	return streaming && t->stream_path ? t->stream_path : t->path;
}

const char *const *
endpoint_names(void)
{
	return names;
}

int
endpoint_list(struct buf *b)
{
	int rc = 0;

	for (size_t i = 0; i < ENDPOINT_N && rc == 0; i++)
		rc = buf_addf(b, "%s%s", i ? ", " : "", types[i].name);
	return rc;
}
