/* SPDX-License-Identifier: Apache-2.0 */
/* Response parsing for chat_embeddings, huggingface_generate, solido_rag and the rankings types, and each endpoint type's parser. */
#include "metrics.h"

#include <stdlib.h>
#include <string.h>

/* The parser of each type: embeddings and nim_embeddings share one. */
static const enum etype parsers[ENDPOINT_N] = {
	[ENDPOINT_CHAT] = ET_CHAT,
	[ENDPOINT_COMPLETIONS] = ET_COMPLETIONS,
	[ENDPOINT_RESPONSES] = ET_RESPONSES,
	[ENDPOINT_EMBEDDINGS] = ET_EMBEDDINGS,
	[ENDPOINT_CHAT_EMBEDDINGS] = ET_CHAT_EMBEDDINGS,
	[ENDPOINT_NIM_EMBEDDINGS] = ET_EMBEDDINGS,
	[ENDPOINT_NIM_RANKINGS] = ET_NIM_RANKINGS,
	[ENDPOINT_COHERE_RANKINGS] = ET_COHERE_RANKINGS,
	[ENDPOINT_HF_TEI_RANKINGS] = ET_HF_TEI_RANKINGS,
	[ENDPOINT_HF_GENERATE] = ET_HF_GENERATE,
	[ENDPOINT_IMAGE_GENERATION] = ET_IMAGE_GENERATION,
	[ENDPOINT_VIDEO_GENERATION] = ET_VIDEO,
	[ENDPOINT_IMAGE_RETRIEVAL] = ET_IMAGE_RETRIEVAL,
	[ENDPOINT_SOLIDO_RAG] = ET_SOLIDO_RAG,
	[ENDPOINT_TEMPLATE] = ET_TEMPLATE,
};

enum etype
etype_parser(const struct endpoint_type *t)
{
	return t ? parsers[t->id] : ET_OTHER;
}

enum etype
etype_named(const char *s)
{
	return etype_parser(endpoint_find_record(s));
}

int
etype_extra(enum etype et)
{
	return et == ET_CHAT_EMBEDDINGS || et == ET_HF_GENERATE || et == ET_SOLIDO_RAG
	       || etype_rankings(et) || et == ET_IMAGE_GENERATION
	       || et == ET_IMAGE_RETRIEVAL || et == ET_VIDEO;
}

int
etype_rankings(enum etype et)
{
	return et == ET_NIM_RANKINGS || et == ET_COHERE_RANKINGS || et == ET_HF_TEI_RANKINGS;
}

static int
text_of(struct rec *r, const struct json *v, int *output)
{
	if (!v || v->type != JSON_STRING || !v->len)
		return 0;
	if (buf_add(&r->out_text, v->str, v->len) == 0)
		r->has_out = 1;
	return *output = 1;
}

/* try_extract_embeddings: OpenAI data[] whose first item is an embedding
 * object (items with an "embedding" key), else a non-empty "embeddings"
 * or "embedding" list. Anything else is no data, never an error. */
static int
chat_embeddings(const struct json *v)
{
	const struct json *data = json_get(v, "data"), *f;

	if (data && data->type == JSON_ARRAY && data->child
	    && data->child->type == JSON_OBJECT
	    && !strcmp(json_str_or(json_get(data->child, "object"), ""), "embedding")) {
		for (const struct json *it = data->child; it; it = it->next)
			if (json_get(it, "embedding"))
				return 1;
	}
	f = json_get(v, "embeddings");
	if (f && f->type == JSON_ARRAY && f->len)
		return 1;
	f = json_get(v, "embedding");
	return f && f->type == JSON_ARRAY && f->len;
}

/* TGI: streaming events carry token.text (the final generated_text is
 * never read); a body is {"generated_text"} or a list of them (the first
 * read). Nothing here raises: a malformed body is no data. */
static int
hf_generate(struct rec *r, const struct json *v, int *output)
{
	if (r->stream)
		return text_of(r, json_get(json_get(v, "token"), "text"), output);
	if (v->type == JSON_ARRAY)
		v = v->child;
	return text_of(r, json_get(v, "generated_text"), output);
}

/* RankingsResponseData(rankings=v): falsy is no data; pydantic wants a
 * list of objects and raises on anything else. */
static int
rankings_list(struct rec *r, const struct json *v)
{
	size_t i = 0;
	char m[128];

	if (!v || !json_truthy(v))
		return 0;
	if (v->type != JSON_ARRAY) {
		rec_throw(r, "ValidationError", "1 validation error for "
			  "RankingsResponseData\nrankings\n  Input should be a valid list");
		return 0;
	}
	for (const struct json *e = v->child; e; e = e->next, i++)
		if (e->type != JSON_OBJECT) {
			snprintf(m, sizeof(m), "1 validation error for RankingsResponseData"
				 "\nrankings.%zu\n  Input should be a valid dictionary", i);
			rec_throw(r, "ValidationError", m);
			return 0;
		}
	return 1;
}

/*
 * The rankings types' extract_rankings: NIM reads "rankings", Cohere
 * "results" (object items only, each as {index, score}), TEI a list body
 * or "results". A body of the wrong type or without them is no data
 * (the newer releases' guards), never an exception.
 */
static int
rankings(struct rec *r, const struct json *v)
{
	const struct json *res;

	switch (r->et) {
	case ET_NIM_RANKINGS:
		return v->type == JSON_OBJECT && rankings_list(r, json_get(v, "rankings"));
	case ET_COHERE_RANKINGS:
		res = v->type == JSON_OBJECT ? json_get(v, "results") : NULL;
		if (!res || res->type != JSON_ARRAY)
			return 0;
		for (const struct json *e = res->child; e; e = e->next)
			if (e->type == JSON_OBJECT)
				return 1;
		return 0;
	default:
		if (v->type == JSON_ARRAY)
			return rankings_list(r, v);
		return v->type == JSON_OBJECT && rankings_list(r, json_get(v, "results"));
	}
}

/* A number, or a string that is one as a whole (pydantic's lax float). */
static int
number_of(const struct json *v, double *d)
{
	char tmp[64], *end;

	if (v && v->type == JSON_NUMBER)
		return json_double(v, d) == 0;
	if (!v || v->type != JSON_STRING || !v->len || v->len >= sizeof(tmp))
		return 0;
	memcpy(tmp, v->str, v->len);
	tmp[v->len] = '\0';
	*d = strtod(tmp, &end);
	return !*end && end != tmp && *d == *d;
}

/*
 * A video job object (VideoGenerationEndpoint.parse_response): a non-empty
 * object is a content response; the metrics read inference_time_s and
 * peak_memory_mb from the first response that has them.
 */
static int
video(struct rec *r, const struct json *v)
{
	if (v->type != JSON_OBJECT) {
		rec_not_object(r, v);
		return 0;
	}
	if (!r->has_vinf && number_of(json_get(v, "inference_time_s"), &r->vinf_s))
		r->has_vinf = 1;
	if (!r->has_vmem && number_of(json_get(v, "peak_memory_mb"), &r->vmem_mb))
		r->has_vmem = 1;
	return v->len > 0;
}

int
parse_endpoint_body(struct rec *r, const struct json *v, int *output)
{
	switch (r->et) {
	case ET_CHAT_EMBEDDINGS:
		return v->type == JSON_OBJECT && chat_embeddings(v);
	case ET_HF_GENERATE:
		return hf_generate(r, v, output);
	case ET_SOLIDO_RAG:
		/* json_obj.get("content"): a truthy non-object raises */
		if (v->type != JSON_OBJECT) {
			rec_not_object(r, v);
			return 0;
		}
		return text_of(r, json_get(v, "content"), output);
	case ET_NIM_RANKINGS:
	case ET_COHERE_RANKINGS:
	case ET_HF_TEI_RANKINGS:
		return rankings(r, v);
	case ET_IMAGE_GENERATION:
	case ET_IMAGE_RETRIEVAL:
		return parse_image_body(r, v);
	case ET_VIDEO:
		return video(r, v);
	default:
		return 0;
	}
}
