/* SPDX-License-Identifier: Apache-2.0 */
/* Raw record reading and response parsing per endpoint type (chat, completions, embeddings). */
#include "metrics.h"

#include <stdio.h>
#include <string.h>

#define TEXT_MAX ((size_t)256 << 20)

void
rec_init(struct rec *r)
{
	memset(r, 0, sizeof(*r));
	r->doc = json_doc_new();
	buf_init(&r->out_text, TEXT_MAX);
	buf_init(&r->reason_text, TEXT_MAX);
	buf_init(&r->etype_s, 4096);
	buf_init(&r->emsg, 16384);
}

void
rec_reset(struct rec *r)
{
	json_doc_reset(r->doc);
	r->root = r->metadata = r->payload = r->error = r->aiperf = NULL;
	r->trace = NULL;
	r->start_perf_ns = 0;
	r->has_start = r->warmup = r->stream = 0;
	r->nr = r->nraw = 0;
	r->bad_perf = r->has_out = r->has_reason = r->perr = 0;
	buf_reset(&r->out_text);
	buf_reset(&r->reason_text);
	buf_reset(&r->etype_s);
	buf_reset(&r->emsg);
}

void
rec_release(struct rec *r)
{
	json_doc_free(r->doc);
	free(r->r);
	buf_release(&r->out_text);
	buf_release(&r->reason_text);
	buf_release(&r->etype_s);
	buf_release(&r->emsg);
}

/* Python repr() of a str: quotes chosen as Python does, C escapes, \xNN. */
void
py_repr_str(struct buf *b, const char *s, size_t n)
{
	int q = memchr(s, '\'', n) && !memchr(s, '"', n) ? '"' : '\'';

	buf_addch(b, q);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\\' || c == q)
			buf_addf(b, "\\%c", c);
		else if (c == '\n')
			buf_addstr(b, "\\n");
		else if (c == '\r')
			buf_addstr(b, "\\r");
		else if (c == '\t')
			buf_addstr(b, "\\t");
		else if (c < 0x20 || c == 0x7f)
			buf_addf(b, "\\x%02x", c);
		else
			buf_addch(b, c);
	}
	buf_addch(b, q);
}

/* Record a parser exception as the original does: class name, repr(). */
static void
throw_err(struct rec *r, const char *cls, const char *msg)
{
	if (r->perr)
		return;
	r->perr = 1;
	buf_addstr(&r->etype_s, cls);
	buf_addf(&r->emsg, "%s(", cls);
	py_repr_str(&r->emsg, msg, strlen(msg));
	buf_addch(&r->emsg, ')');
}

static int
nonempty_str(const struct json *v)
{
	return v && v->type == JSON_STRING && v->len > 0;
}

static void
add_text(struct buf *b, int *flag, const struct json *v)
{
	if (buf_add(b, v->str, v->len) == 0)
		*flag = 1;
}

static void
unsupported_object(struct rec *r, const struct json *obj)
{
	const struct json *o = json_get(obj, "object");
	struct buf m = BUF_INIT(1024);

	buf_addstr(&m, "Unsupported OpenAI object type: ");
	if (o && o->type == JSON_STRING)
		py_repr_str(&m, o->str, o->len < 200 ? o->len : 200);
	else
		buf_addstr(&m, o ? "<non-string>" : "None");
	throw_err(r, "ValueError", buf_str(&m));
	buf_release(&m);
}

/* Tool-call text: function names and arguments concatenated. */
static size_t
tool_text(struct rec *r, const struct json *calls)
{
	size_t before = r->out_text.len;

	for (const struct json *tc = calls ? calls->child : NULL; tc; tc = tc->next) {
		const struct json *f = json_get(tc, "function");
		const struct json *name = json_get(f, "name");
		const struct json *args = json_get(f, "arguments");

		if (nonempty_str(name))
			buf_add(&r->out_text, name->str, name->len);
		if (nonempty_str(args))
			buf_add(&r->out_text, args->str, args->len);
	}
	return r->out_text.len - before;
}

/* Chat: returns 1 when the message carries data (content, reasoning, tools). */
static int
parse_chat(struct rec *r, const struct json *obj, int *output)
{
	const char *object = json_str_or(json_get(obj, "object"), "");
	const char *key;
	const struct json *d, *content, *reason;

	if (!strcmp(object, "chat.completion"))
		key = "message";
	else if (!strcmp(object, "chat.completion.chunk"))
		key = "delta";
	else
		return unsupported_object(r, obj), 0;
	d = json_get(json_at(json_get(obj, "choices"), 0), key);
	if (!d || d->type != JSON_OBJECT || !d->len)
		return 0;
	content = json_get(d, "content");
	reason = json_get(d, "reasoning_content");
	if (!nonempty_str(reason))
		reason = json_get(d, "reasoning");
	if (nonempty_str(reason)) {
		add_text(&r->reason_text, &r->has_reason, reason);
		if (nonempty_str(content))
			add_text(&r->out_text, &r->has_out, content);
		*output = nonempty_str(content);
		return 1;
	}
	if (tool_text(r, json_get(d, "tool_calls"))) {
		r->has_out = 1;
		return *output = 1;
	}
	if (nonempty_str(content)) {
		add_text(&r->out_text, &r->has_out, content);
		return *output = 1;
	}
	return 0;
}

static int
parse_completions(struct rec *r, const struct json *obj, int *output)
{
	const char *object = json_str_or(json_get(obj, "object"), "");
	const struct json *t;

	if (strcmp(object, "completion") && strcmp(object, "text_completion"))
		return unsupported_object(r, obj), 0;
	t = json_get(json_at(json_get(obj, "choices"), 0), "text");
	if (!nonempty_str(t))
		return 0;
	add_text(&r->out_text, &r->has_out, t);
	return *output = 1;
}

static int
parse_embeddings(struct rec *r, const struct json *obj)
{
	const struct json *data = json_get(obj, "data");
	int n = 0;

	for (const struct json *it = data && data->type == JSON_ARRAY ? data->child : NULL;
	     it; it = it->next) {
		if (strcmp(json_str_or(json_get(it, "object"), ""), "embedding")) {
			throw_err(r, "ValueError", "Unsupported embedding response data item");
			return 0;
		}
		n++;
	}
	return n > 0;
}

/* The JSON of one response: SSE data packets joined by '\n', or the body. */
static int
resp_text(const struct json *resp, struct buf *t)
{
	const struct json *p = json_get(resp, "packets");
	const struct json *text = json_get(resp, "text");

	buf_reset(t);
	if (p && p->type == JSON_ARRAY) {
		int first = 1;

		for (const struct json *k = p->child; k; k = k->next) {
			const struct json *v = json_get(k, "value");

			if (strcmp(json_str_or(json_get(k, "name"), ""), "data") || !v
			    || v->type != JSON_STRING)
				continue;
			if (!first)
				buf_addch(t, '\n');
			first = 0;
			if (buf_add(t, v->str, v->len) < 0)
				return -1;
		}
		return 0;
	}
	if (text && text->type == JSON_STRING)
		return buf_add(t, text->str, text->len);
	return 0;
}

static const struct json *
usage_of(const struct json *obj)
{
	const struct json *u = json_get(obj, "usage");

	return u && u->type == JSON_OBJECT && u->len ? u : NULL;
}

/* Parse one response; keeps it when it has data or usage. */
static void
parse_one(struct rec *r, int64_t perf, const char *s, size_t n, size_t i)
{
	char err[128];
	const struct json *obj;
	struct resp *x;
	int data = 0, output = 0;

	while (n && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
		s++, n--;
	if (!n || (n == 6 && !memcmp(s, "[DONE]", 6)))
		return;
	obj = json_parse(r->doc, s, n, err, sizeof(err));
	if (!obj) {
		char m[200];

		snprintf(m, sizeof(m), "response %zu: %s", i, err);
		throw_err(r, "JSONDecodeError", m);
		return;
	}
	if (obj->type != JSON_OBJECT)
		return;
	if (r->et == ET_CHAT)
		data = parse_chat(r, obj, &output);
	else if (r->et == ET_COMPLETIONS)
		data = parse_completions(r, obj, &output);
	else if (r->et == ET_EMBEDDINGS)
		data = parse_embeddings(r, obj);
	else
		data = obj->len > 0;
	if (!data && !usage_of(obj))
		return;
	if (r->nr == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->r = xreallocarray(r->r, r->cap, sizeof(*r->r));
	}
	x = &r->r[r->nr++];
	x->perf_ns = perf;
	x->data = data;
	x->output = output;
	x->usage = usage_of(obj);
}

static int
parse_responses(struct rec *r, const struct json *arr, char *why, size_t wl)
{
	struct buf t = BUF_INIT(TEXT_MAX);
	size_t i = 0;

	for (const struct json *e = arr->child; e; e = e->next, i++) {
		int64_t perf;

		if (json_int64(json_get(e, "perf_ns"), &perf) < 0) {
			snprintf(why, wl, "responses[%zu]: 'perf_ns' is not an integer", i);
			buf_release(&t);
			return -1;
		}
		r->nraw++;
		if (perf <= 0 || perf == INT64_MAX)
			r->bad_perf = 1;
		if (r->perr)
			continue;
		if (resp_text(e, &t) < 0) {
			throw_err(r, "ResponseTooLargeError", "response text too large");
			continue;
		}
		parse_one(r, perf, t.s ? t.s : "", t.len, i);
	}
	buf_release(&t);
	return 0;
}

static enum etype
etype_from(const char *s)
{
	if (!strcmp(s, "chat"))
		return ET_CHAT;
	if (!strcmp(s, "completions"))
		return ET_COMPLETIONS;
	if (!strcmp(s, "embeddings") || !strcmp(s, "nim_embeddings"))
		return ET_EMBEDDINGS;
	return ET_OTHER;
}

/* Record's aiperf.endpoint_type, else --endpoint-type, else the payload shape. */
static enum etype
etype_of(const struct rec *r, const struct opts *o)
{
	const struct json *t = json_get(r->aiperf, "endpoint_type");

	if (t && t->type == JSON_STRING)
		return etype_from(t->str);
	if (o->endpoint_type)
		return etype_from(o->endpoint_type);
	if (json_get(r->payload, "messages"))
		return ET_CHAT;
	if (json_get(r->payload, "prompt"))
		return ET_COMPLETIONS;
	if (json_get(r->payload, "input"))
		return ET_EMBEDDINGS;
	return ET_CHAT;
}

static int
stream_of(const struct rec *r, const struct opts *o)
{
	const struct json *s = json_get(r->aiperf, "stream");

	if (s && (s->type == JSON_TRUE || s->type == JSON_FALSE))
		return s->type == JSON_TRUE;
	s = json_get(r->payload, "stream");
	if (s)
		return json_truthy(s);
	return o->streaming;
}

static int
check_fields(struct rec *r, char *why, size_t wl)
{
	const struct json *v;

	if (!r->root || r->root->type != JSON_OBJECT)
		return snprintf(why, wl, "not a JSON object"), -1;
	r->metadata = json_get(r->root, "metadata");
	if (!r->metadata || r->metadata->type != JSON_OBJECT)
		return snprintf(why, wl, "missing 'metadata' object"), -1;
	r->error = json_get(r->root, "error");
	if (r->error && r->error->type == JSON_NULL)
		r->error = NULL;
	if (r->error && r->error->type != JSON_OBJECT)
		return snprintf(why, wl, "'error' is not an object"), -1;
	v = json_get(r->root, "start_perf_ns");
	if (v && v->type != JSON_NULL) {
		if (json_int64(v, &r->start_perf_ns) < 0)
			return snprintf(why, wl, "'start_perf_ns' is not an integer"), -1;
		r->has_start = 1;
	} else if (!r->error) {
		return snprintf(why, wl, "missing 'start_perf_ns'"), -1;
	}
	v = json_get(r->root, "responses");
	if (v && v->type != JSON_ARRAY && v->type != JSON_NULL)
		return snprintf(why, wl, "'responses' is not an array"), -1;
	return 0;
}

int
rec_parse(struct rec *r, const struct opts *o, const char *s, size_t n,
	  char *why, size_t wl)
{
	const struct json *resp;

	rec_reset(r);
	r->root = json_parse(r->doc, s, n, why, wl);
	if (!r->root || check_fields(r, why, wl) < 0)
		return -1;
	r->payload = json_get(r->root, "payload");
	r->aiperf = json_get(r->root, "aiperf");
	r->trace = json_get(r->root, "trace_data");
	r->warmup = !strcmp(json_str_or(json_get(r->metadata, "benchmark_phase"), ""),
			    "warmup");
	r->et = etype_of(r, o);
	r->stream = stream_of(r, o);
	resp = json_get(r->root, "responses");
	if (r->error || !resp || resp->type != JSON_ARRAY)
		return 0;
	return parse_responses(r, resp, why, wl);
}
