/* SPDX-License-Identifier: Apache-2.0 */
/* Endpoint payloads (chat, completions, embeddings) and --extra-inputs, in the original's key order. */
#include <ctype.h>
#include <math.h>
#include <strings.h>

#include "gen.h"
#include "json.h"
#include "util.h"

#define PAYLOAD_MAX (256u << 20)

void
kv_set(struct kvlist *l, const char *key, size_t klen, char *val)
{
	for (size_t i = 0; i < l->n; i++) {
		if (strlen(l->v[i].key) == klen &&
		    !memcmp(l->v[i].key, key, klen)) {
			free(l->v[i].val);
			l->v[i].val = val;
			return;
		}
	}
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8;
		l->v = xreallocarray(l->v, l->cap, sizeof(*l->v));
	}
	l->v[l->n].key = xstrndup(key, klen);
	l->v[l->n++].val = val;
}

static const char *
kv_get(const struct kvlist *l, const char *key)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].key, key))
			return l->v[i].val;
	return NULL;
}

void
kv_release(struct kvlist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].key);
		free(l->v[i].val);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static char *
detach(struct buf *b)
{
	return buf_detach(b, NULL);
}

/* A parsed value as orjson writes it back: floats re-rendered. */
static void
put_json(struct jw *w, const struct json *v)
{
	const struct json *c;
	double d;

	switch (v->type) {
	case JSON_NUMBER:
		if (v->len == 2 && !memcmp(v->str, "-0", 2))
			jw_int(w, 0);
		else if (strcspn(v->str, ".eE") < v->len &&
			 !json_double(v, &d))
			jw_double(w, d);
		else
			jw_raw(w, v->str, v->len);
		return;
	case JSON_ARRAY:
		jw_arr(w);
		for (c = v->child; c; c = c->next)
			put_json(w, c);
		jw_arr_end(w);
		return;
	case JSON_OBJECT:
		jw_obj(w);
		for (c = v->child; c; c = c->next) {
			jw_keyn(w, c->key, c->keylen);
			put_json(w, c);
		}
		jw_obj_end(w);
		return;
	default:
		jw_value(w, v);
	}
}

static int
all_digits(const char *s, size_t n, int skip_dot)
{
	size_t d = 0;

	for (size_t i = 0; i < n; i++) {
		if (skip_dot && s[i] == '.')
			continue;
		if (!isdigit((unsigned char)s[i]))
			return 0;
		d++;
	}
	return d > 0;
}

static int
ieq(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && !strncasecmp(s, w, n);
}

/* config_validators.coerce_value: bool, null, int, float, else string. */
static char *
coerce(const char *s, size_t n)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;
	size_t dots = 0;

	jw_init(&w, &b, 0);
	for (size_t i = 0; i < n; i++)
		dots += s[i] == '.';
	if (ieq(s, n, "true") || ieq(s, n, "false"))
		jw_bool(&w, ieq(s, n, "true"));
	else if (ieq(s, n, "none") || ieq(s, n, "null"))
		jw_null(&w);
	else if (all_digits(s, n, 0) && (s[0] != '0' || n == 1))
		jw_raw(&w, s, n);
	else if (n > 1 && s[0] == '-' && all_digits(s + 1, n - 1, 0) &&
		 (s[1] != '0' || n == 2))
		jw_raw(&w, n == 2 && s[1] == '0' ? "0" : s, n == 2 && s[1] == '0' ? 1 : n);
	else if (dots == 1 && (all_digits(s, n, 1) ||
			       (s[0] == '-' && all_digits(s + 1, n - 1, 1)))) {
		char *t = xstrndup(s, n);

		jw_double(&w, strtod(t, NULL));
		free(t);
	} else {
		jw_strn(&w, s, n);
	}
	return detach(&b);
}

static int
extras_json(struct kvlist *l, const char *arg, char *err, size_t errlen)
{
	struct json_doc *d = json_doc_new();
	char perr[128];
	struct json *v = json_parse(d, arg, strlen(arg), perr, sizeof(perr));
	int rc = 0;

	if (!v || v->type != JSON_OBJECT) {
		snprintf(err, errlen, "'%s' must be a valid JSON object%s%s",
			 arg, v ? "" : ": ", v ? "" : perr);
		rc = -1;
		goto out;
	}
	for (const struct json *c = v->child; c; c = c->next) {
		struct buf b = BUF_INIT(BUF_NOMAX);
		struct jw w;

		jw_init(&w, &b, 0);
		put_json(&w, c);
		kv_set(l, c->key, c->keylen, detach(&b));
	}
out:
	json_doc_free(d);
	return rc;
}

int
extras_parse(struct kvlist *l, const char *arg, char *err, size_t errlen)
{
	if (arg[0] == '{')
		return extras_json(l, arg, err, errlen);
	for (const char *p = arg;;) {
		size_t n = strcspn(p, ","), kn, vn;
		const char *colon = memchr(p, ':', n), *k, *v;

		if (!colon) {
			snprintf(err, errlen,
				 "'%s': each item must be in 'key:value' format",
				 arg);
			return -1;
		}
		kn = (size_t)(colon - p);
		vn = n - kn - 1;
		k = gen_strip(p, &kn);
		v = gen_strip(colon + 1, &vn);
		kv_set(l, k, kn, coerce(v, vn));
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

static char *
json_string(const char *s)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	json_quote(&b, s, strlen(s));
	return detach(&b);
}

static char *
texts_array(const struct turn *t)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;

	jw_init(&w, &b, 0);
	jw_arr(&w);
	for (size_t i = 0; i < t->ntexts; i++)
		if (t->texts[i][0])
			jw_str(&w, t->texts[i]);
	jw_arr_end(&w);
	return detach(&b);
}

/* One user message: a plain string for one text, else text parts. */
static char *
chat_messages(const struct turn *t)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;

	jw_init(&w, &b, 0);
	jw_arr(&w);
	jw_obj(&w);
	jw_key(&w, "role");
	jw_str(&w, "user");
	jw_key(&w, "content");
	if (t->ntexts == 1) {
		jw_str(&w, t->texts[0]);
	} else {
		jw_arr(&w);
		for (size_t i = 0; i < t->ntexts; i++) {
			if (!t->texts[i][0])
				continue;
			jw_obj(&w);
			jw_key(&w, "type");
			jw_str(&w, "text");
			jw_key(&w, "text");
			jw_str(&w, t->texts[i]);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
	}
	jw_obj_end(&w);
	jw_arr_end(&w);
	return detach(&b);
}

static char *
int_text(long long v)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	buf_addf(&b, "%lld", v);
	return detach(&b);
}

/* stream_options.include_usage, added or merged into the user's object. */
static void
add_stream_options(struct kvlist *kv)
{
	const char *cur = kv_get(kv, "stream_options");
	struct json_doc *d;
	struct json *v;
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;
	int seen = 0;

	if (!cur) {
		kv_set(kv, "stream_options", 14, xstrdup("{\"include_usage\":true}"));
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
		kv_set(kv, "stream_options", 14, detach(&b));
	}
	json_doc_free(d);
}

static void
build_kv(const struct gen_opts *o, const struct turn *t, struct kvlist *kv)
{
	const char *model = o->models[t->model];
	int stream = o->streaming && o->ep != EP_EMBEDDINGS;

	if (o->ep == EP_CHAT)
		kv_set(kv, "messages", 8, chat_messages(t));
	else if (o->ep == EP_COMPLETIONS)
		kv_set(kv, "prompt", 6, texts_array(t));
	kv_set(kv, "model", 5, json_string(model));
	if (o->ep == EP_EMBEDDINGS)
		kv_set(kv, "input", 5, texts_array(t));
	else
		kv_set(kv, "stream", 6, xstrdup(stream ? "true" : "false"));
	if (t->max_tokens > 0 && o->ep != EP_EMBEDDINGS) {
		const char *k = o->ep == EP_CHAT && !o->legacy_max_tokens ?
					"max_completion_tokens" : "max_tokens";

		kv_set(kv, k, strlen(k), int_text(t->max_tokens));
	}
	for (size_t i = 0; i < o->extras.n; i++)
		kv_set(kv, o->extras.v[i].key, strlen(o->extras.v[i].key),
		       xstrdup(o->extras.v[i].val));
	if (stream && o->server_token_count)
		add_stream_options(kv);
}

static char *
render(const struct kvlist *kv)
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
	return detach(&b);
}

static char *
piece(struct buf *b, size_t *len)
{
	return buf_detach(b, len);
}

void
payload_render(const struct gen_opts *o, struct turn *t, size_t k)
{
	struct kvlist kv = { 0 };
	struct buf b = BUF_INIT(BUF_NOMAX);
	const char *model, *stream;

	build_kv(o, t, &kv);
	t->payload = render(&kv);
	model = kv_get(&kv, "model");
	stream = kv_get(&kv, "stream");
	buf_addf(&b, "\"model\":%s,\"endpoint_type\":", model ? model : "\"\"");
	json_quote(&b, o->endpoint_type, strlen(o->endpoint_type));
	buf_addstr(&b, ",\"path\":");
	json_quote(&b, o->path, strlen(o->path));
	buf_addf(&b, ",\"stream\":%s", stream && !strcmp(stream, "true") ?
					       "true" : "false");
	if (t->max_tokens > 0 && o->ep != EP_EMBEDDINGS)
		buf_addf(&b, ",\"max_tokens\":%lld", t->max_tokens);
	t->head = piece(&b, &t->head_len);
	if (t->delay_ms >= 0)
		buf_addf(&b, ",\"delay_ns\":%lld", llround(t->delay_ms * 1e6));
	t->mid = piece(&b, &t->mid_len);
	/* chat turns after the first resend the session's history */
	if (k > 0 && o->ep == EP_CHAT)
		buf_addstr(&b, ",\"history\":true");
	buf_addf(&b, ",\"payload\":%s}\n", t->payload);
	t->end = piece(&b, &t->end_len);
	kv_release(&kv);
}
