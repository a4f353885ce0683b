/* SPDX-License-Identifier: Apache-2.0 */
/* Endpoint payloads (chat, completions, embeddings) and --extra-inputs, in the original's key order. */
#include <math.h>

#include "gen.h"
#include "json/extras.h"
#include "json/json.h"
#include "util.h"

#define PAYLOAD_MAX (256u << 20)

static void
role_message(struct jw *w, const char *role, const char *content)
{
	jw_obj(w);
	jw_key(w, "role");
	jw_str(w, role);
	jw_key(w, "content");
	jw_str(w, content);
	jw_obj_end(w);
}

/* The turn's message (role "user" unless the turn names one): a plain
 * string for one text, else text parts; on a first turn after the
 * conversation's own system message, the shared system prompt and the
 * user context. */
char *
payload_chat_messages(const struct turn *t)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;

	jw_init(&w, &b, 0);
	jw_arr(&w);
	if (t->sysmsg)
		role_message(&w, "system", t->sysmsg);
	if (t->system)
		role_message(&w, "system", t->system);
	if (t->context)
		role_message(&w, "user", t->context);
	jw_obj(&w);
	jw_key(&w, "role");
	jw_str(&w, t->role ? t->role : "user");
	jw_key(&w, "content");
	payload_content(&w, t, "text");
	jw_obj_end(&w);
	jw_arr_end(&w);
	return buf_detach(&b, NULL);
}

static char *
int_text(long long v)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	buf_addf(&b, "%lld", v);
	return buf_detach(&b, NULL);
}

/* stream_options.include_usage, added or merged into the user's object. */
void
payload_stream_options(struct extras *kv)
{
	const char *cur = extras_get(kv, "stream_options");
	struct json_doc *d;
	struct json *v;
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;
	int seen = 0;

	if (!cur) {
		extras_set(kv, "stream_options", 14, xstrdup("{\"include_usage\":true}"));
		return;
	}
	d = json_doc_new();
	v = json_parse(d, cur, strlen(cur), NULL, 0);
	if (v && v->type == JSON_OBJECT) {
		jw_init(&w, &b, 0);
		jw_obj(&w);
		for (const struct json *c = v->child; c; c = c->next) {
			int iu = c->keylen == 13 && !memcmp(c->key, "include_usage", 13);

			jw_keyn(&w, c->key, c->keylen);
			if (iu)
				jw_bool(&w, 1);
			else
				jw_value(&w, c);
			seen |= iu;
		}
		if (!seen) {
			jw_key(&w, "include_usage");
			jw_bool(&w, 1);
		}
		jw_obj_end(&w);
		extras_set(kv, "stream_options", 14, buf_detach(&b, NULL));
	}
	json_doc_free(d);
}

/* The turn's own extra members over kv's, as the original's extra_body
 * (payload.update: a key kept in its place, its value replaced). */
static void
turn_extra(struct extras *kv, const struct turn *t)
{
	struct json_doc *d;
	const struct json *v;

	if (!t->extra)
		return;
	d = json_doc_new();
	v = json_parse(d, t->extra, strlen(t->extra), NULL, 0);
	for (const struct json *c = v ? v->child : NULL; c; c = c->next) {
		struct buf b = BUF_INIT(BUF_NOMAX);
		struct jw w;

		if (memchr(c->key, '\0', c->keylen))
			continue;	/* no key of the body can hold a NUL */
		jw_init(&w, &b, 0);
		jw_value(&w, c);
		extras_set(kv, c->key, c->keylen, buf_detach(&b, NULL));
	}
	json_doc_free(d);
}

static void
build_kv(const struct gen_opts *o, const struct turn *t, struct extras *kv)
{
	const char *model = o->models[t->model];
	int stream = o->streaming && o->ep != ENDPOINT_EMBEDDINGS;

	if (o->ep == ENDPOINT_CHAT && t->raw_messages)
		extras_set(kv, "messages", 8, xstrdup(t->raw_messages));
	else if (o->ep == ENDPOINT_CHAT)
		extras_set(kv, "messages", 8, payload_chat_messages(t));
	else if (o->ep == ENDPOINT_COMPLETIONS)
		extras_set(kv, "prompt", 6, payload_texts(t));
	extras_set(kv, "model", 5, payload_quoted(model));
	if (o->ep == ENDPOINT_EMBEDDINGS)
		extras_set(kv, "input", 5, payload_texts(t));
	else
		extras_set(kv, "stream", 6, xstrdup(stream ? "true" : "false"));
	/* ChatEndpoint.format_payload's order: tools, then the limit */
	if (o->ep == ENDPOINT_CHAT && t->raw_tools)
		extras_set(kv, "tools", 5, xstrdup(t->raw_tools));
	if (t->max_tokens >= 0 && o->ep != ENDPOINT_EMBEDDINGS) {
		const char *k = o->ep == ENDPOINT_CHAT && !o->legacy_max_tokens ?
					"max_completion_tokens" : "max_tokens";

		extras_set(kv, k, strlen(k), int_text(t->max_tokens));
	}
	for (size_t i = 0; i < o->extras.n; i++)
		extras_set(kv, o->extras.v[i].key, strlen(o->extras.v[i].key),
		       xstrdup(o->extras.v[i].val));
	turn_extra(kv, t);
	if (stream && o->server_token_count)
		payload_stream_options(kv);
}

static char *
render(const struct extras *kv)
{
	struct buf b = BUF_INIT(PAYLOAD_MAX);
	struct jw w;

	jw_init(&w, &b, 0);
	jw_obj(&w);
	for (size_t i = 0; i < kv->n; i++) {
		jw_key(&w, kv->v[i].key);
		jw_raw(&w, kv->v[i].val, strlen(kv->v[i].val));
	}
	jw_obj_end(&w);
	return buf_detach(&b, NULL);
}

static char *
piece(struct buf *b, size_t *len)
{
	return buf_detach(b, len);
}

void
payload_render(const struct gen_opts *o, struct turn *t, size_t k)
{
	struct extras kv = { 0 };
	struct buf b = BUF_INIT(BUF_NOMAX);
	const char *model, *stream;

	if (o->ep == ENDPOINT_TEMPLATE)
		template_kv(o, t, k, &kv);
	else if (!payload_endpoint_kv(o, t, k, &kv))
		build_kv(o, t, &kv);
	else
		turn_extra(&kv, t);
	t->payload = render(&kv);
	model = extras_get(&kv, "model");
	stream = extras_get(&kv, "stream");
	/* TGI and Solido carry neither in the body: the options say */
	if (!model)
		model = o->ep == ENDPOINT_SOLIDO_RAG ? extras_get(&kv, "inference_model") : NULL;
	if (!stream && endpoint_has(o->ep, ENDPOINT_STREAMS))
		stream = o->streaming ? "true" : "false";
	buf_addstr(&b, "\"model\":");
	if (model)
		buf_addstr(&b, model);
	else
		json_quote(&b, o->models[t->model], strlen(o->models[t->model]));
	buf_addstr(&b, ",\"endpoint_type\":");
	json_quote(&b, o->endpoint_type, strlen(o->endpoint_type));
	if (template_response_field(o->tmpl)) {
		buf_addstr(&b, ",\"response_field\":");
		json_quote(&b, template_response_field(o->tmpl),
			   strlen(template_response_field(o->tmpl)));
	}
	buf_addstr(&b, ",\"path\":");
	json_quote(&b, o->path, strlen(o->path));
	buf_addf(&b, ",\"stream\":%s", stream && !strcmp(stream, "true") ?
					       "true" : "false");
	if (t->max_tokens >= 0 && endpoint_has(o->ep, ENDPOINT_SENDS_MAX_TOKENS))
		buf_addf(&b, ",\"max_tokens\":%lld", t->max_tokens);
	t->head = piece(&b, &t->head_len);
	if (t->delay_ms >= 0)
		buf_addf(&b, ",\"delay_ns\":%lld", llround(t->delay_ms * 1e6));
	t->mid = piece(&b, &t->mid_len);
	/* chat turns after the first resend the session's history */
	if (k > 0 && o->ep == ENDPOINT_CHAT && !t->no_history)
		buf_addstr(&b, ",\"history\":true");
	if (o->ep == ENDPOINT_TEMPLATE)
		template_input_text(&b, t);
	if (t->headers) {
		buf_addstr(&b, ",\"headers\":");
		buf_addstr(&b, t->headers);
	}
	buf_addstr(&b, ",\"payload\":");
	t->end = piece(&b, &t->end_len);
	t->payload_len = strlen(t->payload);
	extras_release(&kv);
}
