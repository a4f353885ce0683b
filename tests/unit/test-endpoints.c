/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for the endpoint bodies: aiperf-gen's payload_endpoints.c and aiperf-metrics' parse_endpoints.c. */
#include <stdio.h>
#include <stdlib.h>

/* Both are private to their tools; test them from their sources. */
#include "../../cmd/aiperf-gen/payload_endpoints.c"
#include "../../cmd/aiperf-gen/payload_images.c"
#include "../../cmd/aiperf-metrics/parse_endpoints.c"
#include "../../cmd/aiperf-metrics/parse_images.c"
#include "test.h"

/* What the two files take from the rest of their tools. */
static int thrown;

char *
payload_chat_messages(const struct turn *t)
{
	(void)t;
	return xstrdup("[\"chat\"]");
}

/* These turns have no audio or video (cmd/aiperf-gen/av.c). */
void
av_content(struct jw *w, const struct turn *t)
{
	(void)w;
	(void)t;
}

void
payload_stream_options(struct extras *kv)
{
	extras_set(kv, "stream_options", 14, xstrdup("{}"));
}

void
rec_not_object(struct rec *r, const struct json *v)
{
	(void)r;
	thrown += v->type == JSON_ARRAY ? 1 : 100;
}

void
rec_throw(struct rec *r, const char *cls, const char *msg)
{
	(void)r;
	(void)msg;
	thrown += !strcmp(cls, "ValidationError") ? 1000 : 10000;
}

static char *
body(struct gen_opts *o, struct turn *t)
{
	struct extras kv = { 0 };
	struct buf b = BUF_INIT(BUF_NOMAX);

	if (!payload_endpoint_kv(o, t, 0, &kv))
		return xstrdup("(none)");
	for (size_t i = 0; i < kv.n; i++)
		buf_addf(&b, "%s%s=%s", i ? " " : "", kv.v[i].key, kv.v[i].val);
	extras_release(&kv);
	return buf_detach(&b, NULL);
}

/* parse one JSON text as endpoint et: data flag, output text, thrown */
static char *
parse(enum etype et, int stream, const char *text)
{
	static char res[256];
	struct json_doc *d = json_doc_new();
	const struct json *v = json_parse(d, text, strlen(text), NULL, 0);
	struct rec r = { .et = et, .stream = stream };
	int output = 0, data;

	buf_init(&r.out_text, 1 << 20);
	thrown = 0;
	data = v ? parse_endpoint_body(&r, v, &output) : -1;
	snprintf(res, sizeof(res), "%d/%d/%s/%d", data, output, buf_str(&r.out_text), thrown);
	buf_release(&r.out_text);
	json_doc_free(d);
	return res;
}

int
main(void)
{
	char m0[] = "m", t0[] = "a b", t1[] = "", t2[] = "c", err[128];
	char *models[] = { m0 };
	char *texts[] = { t0, t1, t2 };
	struct turn t = { .texts = texts, .ntexts = 3, .max_tokens = 5 };
	struct gen_opts o = { .models = models, .nmodels = 1 };
	char *s;

	/* the names, paths and flags: test-endpoint.c (lib/endpoint.c) */
	o.ep = ENDPOINT_HF_GENERATE;
	extras_parse(&o.extras, "max_new_tokens:9", err, sizeof(err));
	extras_parse(&o.extras, "{\"details\":true}", err, sizeof(err));
	TEST_STR("TGI: texts joined by one space, extras in parameters", s = body(&o, &t),
		 "inputs=\"a b c\" parameters={\"max_new_tokens\":9,\"details\":true}");
	free(s);
	extras_release(&o.extras);
	o.extras = (struct extras){ 0 };
	o.ep = ENDPOINT_SOLIDO_RAG;
	TEST_STR("Solido: query list, filters, inference_model", s = body(&o, &t),
		 "query=[\"a b\",\"c\"] filters={\"family\":\"Solido\",\"tool\":\"SDE\"} inference_model=\"m\"");
	free(s);
	o.ep = ENDPOINT_RESPONSES;
	o.streaming = o.server_token_count = 1;
	TEST_STR("responses: input_text parts, max_output_tokens, stream_options", s = body(&o, &t),
		 "input=[{\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"a b\"},"
		 "{\"type\":\"input_text\",\"text\":\"c\"}]}] model=\"m\" stream=true "
		 "max_output_tokens=5 stream_options={}");
	free(s);
	o.ep = ENDPOINT_CHAT;
	TEST_STR("chat is payload.c's", s = body(&o, &t), "(none)");
	free(s);
	o.streaming = o.server_token_count = 0;
	t.max_tokens = -1;
	{
		char q0[] = "q1", q1[] = "q2", p0[] = "p \"1\"", p1[] = "", o0[] = "x";
		char nq[] = "queries", nq2[] = "query", np[] = "passages", nx[] = "other";
		char *rt[] = { o0, p0, q0, q1, p1 }, *rn[] = { nx, np, nq, nq2, np };
		struct turn r = { .texts = rt, .names = rn, .ntexts = 5, .max_tokens = -1 };

		extras_parse(&o.extras, "top_n:2", err, sizeof(err));
		extras_parse(&o.extras, "model:z", err, sizeof(err));
		o.ep = ENDPOINT_NIM_RANKINGS;
		TEST_STR("nim_rankings: model, query object, passage objects (empty kept), extras after",
			 s = body(&o, &r), "model=\"z\" query={\"text\":\"q1\"} "
			 "passages=[{\"text\":\"p \\\"1\\\"\"},{\"text\":\"\"}] top_n=2");
		free(s);
		o.ep = ENDPOINT_COHERE_RANKINGS;
		TEST_STR("cohere_rankings: model, query, documents; the first query of both names",
			 s = body(&o, &r), "model=\"z\" query=\"q1\" documents=[\"p \\\"1\\\"\",\"\"] top_n=2");
		free(s);
		o.ep = ENDPOINT_HF_TEI_RANKINGS;
		TEST_STR("hf_tei_rankings: query, texts, no model but the extra's",
			 s = body(&o, &r), "query=\"q1\" texts=[\"p \\\"1\\\"\",\"\"] top_n=2 model=\"z\"");
		free(s);
		extras_release(&o.extras);
		o.extras = (struct extras){ 0 };
	}

	TEST("etype names", etype_named("solido-rag") == ET_SOLIDO_RAG &&
	     etype_named("nim_embeddings") == ET_EMBEDDINGS && etype_named("template") == ET_TEMPLATE &&
	     etype_named("tmpl") == ET_OTHER &&
	     etype_named("Chat_Embeddings") == ET_CHAT_EMBEDDINGS);
	TEST_STR("TGI body", parse(ET_HF_GENERATE, 0, "{\"generated_text\":\"x y\"}"), "1/1/x y/0");
	TEST_STR("TGI list body: the first", parse(ET_HF_GENERATE, 0, "[{\"generated_text\":\"x\"},{\"generated_text\":\"y\"}]"), "1/1/x/0");
	TEST_STR("TGI hostile bodies: no data, no exception",
		 parse(ET_HF_GENERATE, 0, "[5]"), "0/0//0");
	TEST_STR("TGI: non-string text", parse(ET_HF_GENERATE, 0, "{\"generated_text\":[\"x\"]}"), "0/0//0");
	TEST_STR("TGI stream: token.text", parse(ET_HF_GENERATE, 1, "{\"token\":{\"text\":\" a\"},\"generated_text\":\"all\"}"), "1/1/ a/0");
	TEST_STR("TGI stream: token not an object", parse(ET_HF_GENERATE, 1, "{\"token\":\"x\"}"), "0/0//0");
	TEST_STR("TGI stream: a list", parse(ET_HF_GENERATE, 1, "[{\"token\":{\"text\":\"a\"}}]"), "0/0//0");
	TEST_STR("chat_embeddings: OpenAI data", parse(ET_CHAT_EMBEDDINGS, 0,
		 "{\"data\":[{\"object\":\"embedding\",\"embedding\":[1]}]}"), "1/0//0");
	TEST_STR("chat_embeddings: embeddings field", parse(ET_CHAT_EMBEDDINGS, 0, "{\"embeddings\":[[1]]}"), "1/0//0");
	TEST_STR("chat_embeddings: empty embedding", parse(ET_CHAT_EMBEDDINGS, 0, "{\"embedding\":[]}"), "0/0//0");
	TEST_STR("chat_embeddings: data items without embedding", parse(ET_CHAT_EMBEDDINGS, 0,
		 "{\"data\":[{\"object\":\"embedding\"}]}"), "0/0//0");
	TEST_STR("chat_embeddings: a list body", parse(ET_CHAT_EMBEDDINGS, 0, "[1]"), "0/0//0");
	TEST_STR("solido: content", parse(ET_SOLIDO_RAG, 0, "{\"content\":\"x\",\"sources\":[]}"), "1/1/x/0");
	TEST_STR("solido: a list raises", parse(ET_SOLIDO_RAG, 0, "[\"content\"]"), "0/0//1");
	TEST_STR("solido: empty content", parse(ET_SOLIDO_RAG, 1, "{\"content\":\"\"}"), "0/0//0");
	TEST("rankings etype names", etype_named("nim-rankings") == ET_NIM_RANKINGS &&
	     etype_named("rankings") == ET_NIM_RANKINGS && etype_named("COHERE_rankings") == ET_COHERE_RANKINGS &&
	     etype_named("hf_tei_rankings") == ET_HF_TEI_RANKINGS && etype_extra(ET_HF_TEI_RANKINGS) &&
	     etype_rankings(ET_COHERE_RANKINGS) && !etype_rankings(ET_SOLIDO_RAG));
	TEST_STR("nim: rankings", parse(ET_NIM_RANKINGS, 0, "{\"rankings\":[{\"index\":0,\"logit\":1.5}]}"), "1/0//0");
	TEST_STR("nim: empty rankings: no data", parse(ET_NIM_RANKINGS, 0, "{\"rankings\":[]}"), "0/0//0");
	TEST_STR("nim: no rankings", parse(ET_NIM_RANKINGS, 0, "{\"results\":[{}]}"), "0/0//0");
	TEST_STR("nim: a list body: no data", parse(ET_NIM_RANKINGS, 0, "[{\"index\":0}]"), "0/0//0");
	TEST_STR("nim: rankings a string: ValidationError", parse(ET_NIM_RANKINGS, 0, "{\"rankings\":\"x\"}"), "0/0//1000");
	TEST_STR("nim: a ranking not an object: ValidationError", parse(ET_NIM_RANKINGS, 0, "{\"rankings\":[{},null]}"), "0/0//1000");
	TEST_STR("nim: rankings false: no data", parse(ET_NIM_RANKINGS, 0, "{\"rankings\":false}"), "0/0//0");
	TEST_STR("cohere: results", parse(ET_COHERE_RANKINGS, 0, "{\"results\":[{\"index\":1,\"relevance_score\":0.5}]}"), "1/0//0");
	TEST_STR("cohere: items without fields still map", parse(ET_COHERE_RANKINGS, 0, "{\"results\":[5,{}]}"), "1/0//0");
	TEST_STR("cohere: no object items: no data", parse(ET_COHERE_RANKINGS, 0, "{\"results\":[null,\"x\",5]}"), "0/0//0");
	TEST_STR("cohere: results an object: no data", parse(ET_COHERE_RANKINGS, 0, "{\"results\":{\"index\":0}}"), "0/0//0");
	TEST_STR("cohere: a list body: no data", parse(ET_COHERE_RANKINGS, 0, "[{\"index\":0}]"), "0/0//0");
	TEST_STR("tei: a list body", parse(ET_HF_TEI_RANKINGS, 0, "[{\"index\":0,\"score\":0.9}]"), "1/0//0");
	TEST_STR("tei: results", parse(ET_HF_TEI_RANKINGS, 0, "{\"results\":[{\"index\":0}]}"), "1/0//0");
	TEST_STR("tei: list of numbers: ValidationError", parse(ET_HF_TEI_RANKINGS, 0, "[0.9,0.1]"), "0/0//1000");
	TEST_STR("tei: results a number: ValidationError", parse(ET_HF_TEI_RANKINGS, 0, "{\"results\":3}"), "0/0//1000");
	TEST_STR("tei: a string body: no data", parse(ET_HF_TEI_RANKINGS, 0, "\"x\""), "0/0//0");
	TEST_STR("tei: empty list: no data", parse(ET_HF_TEI_RANKINGS, 0, "[]"), "0/0//0");

	/* image endpoints (payload_images.c, parse_images.c) */
	{
		char i0[] = "data:image/png;base64,AA", i1[] = "", i2[] = "http://x/y.png";
		char *imgs[] = { i0, i1, i2 };
		struct turn it = { .texts = texts, .ntexts = 3, .max_tokens = -1,
				   .images = imgs, .nimages = 3 };

		o.ep = ENDPOINT_IMAGE_GENERATION;
		extras_parse(&o.extras, "n:2", err, sizeof(err));
		TEST_STR("image_generation: the first text, b64_json, n overridden", s = body(&o, &it),
			 "prompt=\"a b\" model=\"m\" response_format=\"b64_json\" n=2");
		free(s);
		o.streaming = 1;
		TEST_STR("image_generation: stream only when streaming", s = body(&o, &it),
			 "prompt=\"a b\" model=\"m\" response_format=\"b64_json\" n=2 stream=true");
		free(s);
		o.streaming = 0;
		extras_release(&o.extras);
		o.extras = (struct extras){ 0 };
		o.ep = ENDPOINT_IMAGE_RETRIEVAL;
		TEST_STR("image_retrieval: non-empty images as image_url items, no model", s = body(&o, &it),
			 "input=[{\"type\":\"image_url\",\"url\":\"data:image/png;base64,AA\"},"
			 "{\"type\":\"image_url\",\"url\":\"http://x/y.png\"}]");
		free(s);
	}
	TEST_STR("image_generation: data[] is data", parse(ET_IMAGE_GENERATION, 0,
		 "{\"data\":[{\"b64_json\":\"AA\"},5]}"), "1/0//0");
	TEST_STR("image_generation: a streamed b64_json is data", parse(ET_IMAGE_GENERATION, 1,
		 "{\"b64_json\":\"AA\",\"partial_image_index\":0}"), "1/0//0");
	TEST_STR("image_generation: any object is data (always-truthy ImageResponseData)",
		 parse(ET_IMAGE_GENERATION, 0, "{\"created\":1}"), "1/0//0");
	TEST_STR("image_generation: {} is no data", parse(ET_IMAGE_GENERATION, 0, "{}"), "0/0//0");
	TEST_STR("image_generation: data null raises TypeError", parse(ET_IMAGE_GENERATION, 0,
		 "{\"data\":null}"), "0/0//10000");
	TEST_STR("image_generation: a list body raises AttributeError", parse(ET_IMAGE_GENERATION, 0,
		 "[{\"b64_json\":\"x\"}]"), "0/0//1");
	TEST_STR("image_retrieval: data", parse(ET_IMAGE_RETRIEVAL, 0, "{\"data\":[{\"index\":0}]}"), "1/0//0");
	TEST_STR("image_retrieval: empty data is no data", parse(ET_IMAGE_RETRIEVAL, 0, "{\"data\":[]}"), "0/0//0");
	TEST_STR("image_retrieval: a string body raises", parse(ET_IMAGE_RETRIEVAL, 0, "\"x\""), "0/0//100");
	return TEST_DONE();
}
