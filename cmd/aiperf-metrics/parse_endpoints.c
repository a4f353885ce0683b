/* SPDX-License-Identifier: Apache-2.0 */
/* Response parsing for chat_embeddings, huggingface_generate and solido_rag, and endpoint type names. */
#include "metrics.h"

#include <string.h>

static const struct {
	const char *name;
	enum etype et;
} names[] = {
	{ "chat", ET_CHAT },
	{ "completions", ET_COMPLETIONS },
	{ "embeddings", ET_EMBEDDINGS },
	{ "nim_embeddings", ET_EMBEDDINGS },
	{ "responses", ET_RESPONSES },
	{ "chat_embeddings", ET_CHAT_EMBEDDINGS },
	{ "huggingface_generate", ET_HF_GENERATE },
	{ "solido_rag", ET_SOLIDO_RAG },
	{ "template", ET_TEMPLATE },
};

enum etype
etype_named(const char *s)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (util_choice_eq(s, names[i].name))
			return names[i].et;
	return ET_OTHER;
}

int
etype_extra(enum etype et)
{
	return et == ET_CHAT_EMBEDDINGS || et == ET_HF_GENERATE || et == ET_SOLIDO_RAG;
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
	default:
		return 0;
	}
}
