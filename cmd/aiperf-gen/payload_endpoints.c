/* SPDX-License-Identifier: Apache-2.0 */
/* Endpoint payloads beyond chat, completions and embeddings: responses, chat_embeddings, nim_embeddings, huggingface_generate, solido_rag, the rankings types. */

#include "gen.h"
#include "json/extras.h"
#include "json/json.h"
#include "util.h"

char *
payload_quoted(const char *s)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	json_quote(&b, s, strlen(s));
	return buf_detach(&b, NULL);
}

char *
payload_texts(const struct turn *t)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;

	jw_init(&w, &b, 0);
	jw_arr(&w);
	for (size_t i = 0; i < t->ntexts; i++)
		if (t->texts[i][0])
			jw_str(&w, t->texts[i]);
	jw_arr_end(&w);
	return buf_detach(&b, NULL);
}

static char *
number(long long v)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	buf_addf(&b, "%lld", v);
	return buf_detach(&b, NULL);
}

/* A user message's content, for chat (payload.c) and responses alike. */
void
payload_content(struct jw *w, const struct turn *t, const char *part)
{
	if (t->ntexts == 1 && !t->nimages && !t->naudios && !t->nvideos) {
		jw_str(w, t->texts[0]);
		return;
	}
	jw_arr(w);
	for (size_t i = 0; i < t->ntexts; i++) {
		if (!t->texts[i][0])
			continue;
		jw_obj(w);
		jw_key(w, "type");
		jw_str(w, part);
		jw_key(w, "text");
		jw_str(w, t->texts[i]);
		jw_obj_end(w);
	}
	/* images (issue #17): chat image_url parts, responses input_image */
	for (size_t i = 0; i < t->nimages; i++) {
		int chat = !strcmp(part, "text");

		if (!t->images[i][0])
			continue;
		jw_obj(w);
		jw_key(w, "type");
		jw_str(w, chat ? "image_url" : "input_image");
		jw_key(w, "image_url");
		if (chat) {
			jw_obj(w);
			jw_key(w, "url");
			jw_str(w, t->images[i]);
			jw_obj_end(w);
		} else {
			jw_str(w, t->images[i]);
		}
		jw_obj_end(w);
	}
	/* then audio and video parts (av.c) */
	av_content(w, t);
	jw_arr_end(w);
}

/* Responses API input: the conversation's user context as a leading
 * user item, then one user item, content a string for one text, else
 * input_text parts (empty texts skipped). */
static char *
responses_input(const struct turn *t)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;

	jw_init(&w, &b, 0);
	jw_arr(&w);
	if (t->conv_context) {
		jw_obj(&w);
		jw_key(&w, "role");
		jw_str(&w, "user");
		jw_key(&w, "content");
		jw_str(&w, t->conv_context);
		jw_obj_end(&w);
	}
	jw_obj(&w);
	jw_key(&w, "role");
	jw_str(&w, "user");
	jw_key(&w, "content");
	payload_content(&w, t, "input_text");
	jw_obj_end(&w);
	jw_arr_end(&w);
	return buf_detach(&b, NULL);
}

/* TGI: the non-empty texts joined by one space. */
static char *
joined(const struct turn *t)
{
	struct buf s = BUF_INIT(BUF_NOMAX);
	char *q;

	for (size_t i = 0; i < t->ntexts; i++) {
		if (!t->texts[i][0])
			continue;
		if (s.len)
			buf_addch(&s, ' ');
		buf_addstr(&s, t->texts[i]);
	}
	q = payload_quoted(buf_str(&s));
	buf_release(&s);
	return q;
}

/* TGI parameters: max_new_tokens, then every extra input (they override). */
static char *
tgi_parameters(const struct gen_opts *o, const struct turn *t)
{
	struct extras p = { 0 };
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;

	if (t->max_tokens >= 0)
		extras_set(&p, "max_new_tokens", 14, number(t->max_tokens));
	for (size_t i = 0; i < o->extras.n; i++)
		extras_set(&p, o->extras.v[i].key, strlen(o->extras.v[i].key),
			   xstrdup(o->extras.v[i].val));
	jw_init(&w, &b, 0);
	jw_obj(&w);
	for (size_t i = 0; i < p.n; i++) {
		jw_key(&w, p.v[i].key);
		jw_raw(&w, p.v[i].val, strlen(p.v[i].val));
	}
	jw_obj_end(&w);
	extras_release(&p);
	return buf_detach(&b, NULL);
}

static void
add_extras(const struct gen_opts *o, struct extras *kv)
{
	for (size_t i = 0; i < o->extras.n; i++)
		extras_set(kv, o->extras.v[i].key, strlen(o->extras.v[i].key),
			   xstrdup(o->extras.v[i].val));
}

/* One warning of each kind a run: the original logs one per request. */
static void
warn_once(unsigned *seen, unsigned bit, const char *msg)
{
	if (*seen & bit)
		return;
	*seen |= bit;
	warn("%s", msg);
}

/*
 * BaseRankingsEndpoint.format_payload: texts named "query" or "queries"
 * give the query (the first one), "passages" the passages, others are
 * ignored; no query is the original's ValueError, here fatal.
 */
static void
rankings_kv(const struct gen_opts *o, const struct turn *t, size_t k,
	    struct extras *kv)
{
	static unsigned seen;
	struct buf b = BUF_INIT(BUF_NOMAX);
	const char *model = o->models[t->model], *query = NULL;
	size_t nquery = 0, npass = 0;
	struct jw w;

	if (k > 0)
		die("Rankings endpoint only supports one turn.");
	if (t->max_tokens >= 0)
		warn_once(&seen, 1, "Max_tokens is provided but is not supported for rankings.");
	jw_init(&w, &b, 0);
	jw_arr(&w);
	for (size_t i = 0; i < t->ntexts; i++) {
		const char *name = t->names && t->names[i] ? t->names[i] : "";

		if (!strcmp(name, "passages")) {
			if (o->ep == ENDPOINT_NIM_RANKINGS) {
				jw_obj(&w);
				jw_key(&w, "text");
				jw_str(&w, t->texts[i]);
				jw_obj_end(&w);
			} else {
				jw_str(&w, t->texts[i]);
			}
			npass++;
		} else if (!strcmp(name, "query") || !strcmp(name, "queries")) {
			if (!nquery++)
				query = t->texts[i];
		} else if (!(seen & 2)) {
			seen |= 2;
			warn("Ignoring text with name '%s' - rankings expects "
			     "'query'/'queries' and 'passages'", name);
		}
	}
	jw_arr_end(&w);
	if (!query)
		die("Rankings request requires a text with name 'query' or 'queries'. "
		    "Provide a Text object with name='query' or name='queries' "
		    "containing the search query.");
	if (nquery > 1 && !(seen & 4)) {
		seen |= 4;
		warn("Multiple query texts found, using the first one. Found %zu queries.",
		     nquery);
	}
	if (!npass)
		warn_once(&seen, 8, "Rankings request has query but no passages to rank. "
			  "Consider adding a Text object with name='passages' "
			  "containing texts to rank.");
	if (o->ep == ENDPOINT_NIM_RANKINGS) {
		struct buf q = BUF_INIT(BUF_NOMAX);

		buf_addstr(&q, "{\"text\":");
		json_quote(&q, query, strlen(query));
		buf_addch(&q, '}');
		extras_set(kv, "model", 5, payload_quoted(model));
		extras_set(kv, "query", 5, buf_detach(&q, NULL));
		extras_set(kv, "passages", 8, buf_detach(&b, NULL));
	} else if (o->ep == ENDPOINT_COHERE_RANKINGS) {
		extras_set(kv, "model", 5, payload_quoted(model));
		extras_set(kv, "query", 5, payload_quoted(query));
		extras_set(kv, "documents", 9, buf_detach(&b, NULL));
	} else {
		extras_set(kv, "query", 5, payload_quoted(query));
		extras_set(kv, "texts", 5, buf_detach(&b, NULL));
	}
	add_extras(o, kv);
}


int
payload_endpoint_kv(const struct gen_opts *o, const struct turn *t, size_t k,
		    struct extras *kv)
{
	const char *model = o->models[t->model];

	switch (o->ep) {
	case ENDPOINT_RESPONSES:
		extras_set(kv, "input", 5, responses_input(t));
		extras_set(kv, "model", 5, payload_quoted(model));
		extras_set(kv, "stream", 6, xstrdup(o->streaming ? "true" : "false"));
		if (t->conv_system)
			extras_set(kv, "instructions", 12, payload_quoted(t->conv_system));
		if (t->max_tokens >= 0)
			extras_set(kv, "max_output_tokens", 17, number(t->max_tokens));
		add_extras(o, kv);
		if (o->streaming && o->server_token_count)
			payload_stream_options(kv);
		return 1;
	case ENDPOINT_CHAT_EMBEDDINGS:
		/* the chat payload, never streamed */
		extras_set(kv, "messages", 8, payload_chat_messages(t));
		extras_set(kv, "model", 5, payload_quoted(model));
		extras_set(kv, "stream", 6, xstrdup("false"));
		if (t->max_tokens >= 0) {
			const char *mk = o->legacy_max_tokens ? "max_tokens" :
								"max_completion_tokens";

			extras_set(kv, mk, strlen(mk), number(t->max_tokens));
		}
		add_extras(o, kv);
		return 1;
	case ENDPOINT_NIM_EMBEDDINGS:
		/* texts only until images come (multimodal, issue #17) */
		extras_set(kv, "model", 5, payload_quoted(model));
		extras_set(kv, "input", 5, payload_texts(t));
		add_extras(o, kv);
		return 1;
	case ENDPOINT_HF_GENERATE:
		extras_set(kv, "inputs", 6, joined(t));
		extras_set(kv, "parameters", 10, tgi_parameters(o, t));
		return 1;
	case ENDPOINT_SOLIDO_RAG:
		extras_set(kv, "query", 5, payload_texts(t));
		extras_set(kv, "filters", 7, xstrdup("{\"family\":\"Solido\",\"tool\":\"SDE\"}"));
		extras_set(kv, "inference_model", 15, payload_quoted(model));
		add_extras(o, kv);
		return 1;
	case ENDPOINT_NIM_RANKINGS:
	case ENDPOINT_COHERE_RANKINGS:
	case ENDPOINT_HF_TEI_RANKINGS:
		rankings_kv(o, t, k, kv);
		return 1;
	case ENDPOINT_IMAGE_GENERATION:
	case ENDPOINT_IMAGE_RETRIEVAL:
		payload_image_kv(o, t, k, kv);
		return 1;
	case ENDPOINT_VIDEO_GENERATION:
		/* the first text is the prompt; size, seconds, seed, fps, ...
		 * come as extra inputs (aiperf-send submits them as a form) */
		if (!t->ntexts)
			die("Video generation endpoint requires text prompt in first turn.");
		extras_set(kv, "prompt", 6, payload_quoted(t->texts[0]));
		extras_set(kv, "model", 5, payload_quoted(model));
		add_extras(o, kv);
		return 1;
	default:
		return 0;
	}
}
