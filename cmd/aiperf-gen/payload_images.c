/* SPDX-License-Identifier: Apache-2.0 */
/* Image endpoint payloads: image_generation (OpenAI images API) and image_retrieval (NIM /v1/infer). */
#include "gen.h"
#include "json/extras.h"
#include "json/json.h"
#include "util.h"

/*
 * ImageGenerationEndpoint.format_payload: the first text as the prompt,
 * response_format b64_json (sglang answers nothing else) and n 1, which
 * --extra-inputs may override; "stream" only when streaming.
 */
static void
img_generation_kv(const struct gen_opts *o, const struct turn *t, struct extras *kv)
{
	if (!t->ntexts)
		die("Image generation endpoint requires text prompt in first turn.");
	extras_set(kv, "prompt", 6, payload_quoted(t->texts[0]));
	extras_set(kv, "model", 5, payload_quoted(o->models[t->model]));
	extras_set(kv, "response_format", 15, xstrdup("\"b64_json\""));
	extras_set(kv, "n", 1, xstrdup("1"));
	if (o->streaming)
		extras_set(kv, "stream", 6, xstrdup("true"));
}

/*
 * ImageRetrievalEndpoint.format_payload: one turn, every non-empty image
 * as {"type":"image_url","url":...}; no model key. The original's
 * ValueErrors are fatal here; max_tokens is only warned about (once).
 */
static void
img_retrieval_kv(const struct turn *t, size_t k, struct extras *kv)
{
	static int warned;
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;
	size_t n = 0;

	if (k > 0)
		die("Image Retrieval endpoint only supports one turn.");
	if (t->max_tokens > 0 && !warned++)
		warn("Max_tokens is provided but is not supported for Image Retrieval.");
	if (!t->nimages)
		die("Image Retrieval request requires at least one image. "
		    "Give images: --image-width-mean and --image-height-mean, "
		    "or an image field in the --input-file dataset");
	jw_init(&w, &b, 0);
	jw_arr(&w);
	for (size_t i = 0; i < t->nimages; i++) {
		if (!t->images[i][0])
			continue;
		jw_obj(&w);
		jw_key(&w, "type");
		jw_str(&w, "image_url");
		jw_key(&w, "url");
		jw_str(&w, t->images[i]);
		jw_obj_end(&w);
		n++;
	}
	jw_arr_end(&w);
	if (!n)
		die("No valid image content found. All images have empty contents "
		    "or empty content values.");
	extras_set(kv, "input", 5, buf_detach(&b, NULL));
}

void
payload_image_kv(const struct gen_opts *o, const struct turn *t, size_t k,
		 struct extras *kv)
{
	if (o->ep == ENDPOINT_IMAGE_GENERATION)
		img_generation_kv(o, t, kv);
	else
		img_retrieval_kv(t, k, kv);
	for (size_t i = 0; i < o->extras.n; i++)
		extras_set(kv, o->extras.v[i].key, strlen(o->extras.v[i].key),
			   xstrdup(o->extras.v[i].val));
}
