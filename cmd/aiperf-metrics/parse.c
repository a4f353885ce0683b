/* SPDX-License-Identifier: Apache-2.0 */
/* Raw record reading and response parsing per endpoint type (chat, completions, embeddings, responses). */
#include "metrics.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "stats/numfmt.h"
#include "util.h"

#define TEXT_MAX ((size_t)256 << 20)

void
rec_init(struct rec *r)
{
	memset(r, 0, sizeof(*r));
	r->doc = json_doc_new();
	buf_init(&r->out_text, TEXT_MAX);
	buf_init(&r->reason_text, TEXT_MAX);
	buf_init(&r->etype_s, 4096);
	buf_init(&r->emsg, (size_t)1 << 20);
	buf_init(&r->in, TEXT_MAX);
	buf_init(&r->fscratch, TEXT_MAX);
	buf_init(&r->gtext, BUF_NOMAX);
	buf_init(&r->note, BUF_NOMAX);
	r->ms = mstate_new();
	r->fr_want = 1;
}

void
rec_reset(struct rec *r)
{
	json_doc_reset(r->doc);
	r->root = r->metadata = r->payload = r->error = r->aiperf = NULL;
	r->trace = NULL;
	r->tfield = NULL;
	r->start_perf_ns = 0;
	r->has_start = r->warmup = r->unrecorded = r->stream = 0;
	r->nr = r->nraw = 0;
	r->bad_perf = r->has_out = r->has_reason = r->perr = 0;
	r->has_vinf = r->has_vmem = 0;
	r->fr_on = 0;
	r->nfr = r->nfs = 0;
	r->nfast = 0;
	r->nrm = 0;
	r->acc.graded = 0;
	buf_reset(&r->note);
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
	buf_release(&r->in);
	buf_release(&r->fscratch);
	buf_release(&r->gtext);
	buf_release(&r->note);
	free(r->rm);
	free(r->fr);
	free(r->fs);
	free(r->fp);
	free(r->fm);
	mstate_free(r->ms);
	tfield_free(r->tf);
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

/* Python repr() of a parsed JSON value (json.loads result). */
static void
py_repr_json(struct buf *b, const struct json *v, int depth)
{
	char num[48];
	double d;

	switch (v->type) {
	case JSON_NULL: buf_addstr(b, "None"); return;
	case JSON_TRUE: buf_addstr(b, "True"); return;
	case JSON_FALSE: buf_addstr(b, "False"); return;
	case JSON_STRING: py_repr_str(b, v->str, v->len); return;
	case JSON_NUMBER:
		if (!memchr(v->str, '.', v->len) && !memchr(v->str, 'e', v->len)
		    && !memchr(v->str, 'E', v->len))
			buf_add(b, v->str, v->len);
		else if (json_double(v, &d) == 0)
			buf_add(b, num, numfmt_repr(num, d, NUMFMT_PYREPR));
		return;
	default:
		break;
	}
	if (depth > 64 || b->len > 65536) {
		buf_addstr(b, "...");
		return;
	}
	buf_addch(b, v->type == JSON_ARRAY ? '[' : '{');
	for (const struct json *c = v->child; c; c = c->next) {
		if (c != v->child)
			buf_addstr(b, ", ");
		if (v->type == JSON_OBJECT) {
			py_repr_str(b, c->key, c->keylen);
			buf_addstr(b, ": ");
		}
		py_repr_json(b, c, depth + 1);
	}
	buf_addch(b, v->type == JSON_ARRAY ? ']' : '}');
}

/* ErrorDetails._safe_repr: at most 4096 characters, then an ellipsis. */
static void
cut_repr(struct buf *b)
{
	size_t chars = 0;

	for (size_t i = 0; i < b->len; i++) {
		if (((unsigned char)b->s[i] & 0xc0) == 0x80)
			continue;
		if (chars++ == 4096) {
			b->len = i;
			b->s[i] = '\0';
			buf_addstr(b, "\xe2\x80\xa6");
			return;
		}
	}
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
	cut_repr(&r->emsg);
}

void
rec_throw(struct rec *r, const char *cls, const char *msg)
{
	throw_err(r, cls, msg);
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
	struct buf m = BUF_INIT((size_t)1 << 20);

	/* Python repr of the value; containers are not rendered exactly. */
	buf_addstr(&m, "Unsupported OpenAI object type: ");
	if (o && o->type == JSON_STRING)
		py_repr_str(&m, o->str, o->len);
	else if (o && o->type == JSON_NUMBER)
		buf_add(&m, o->str, o->len);
	else if (o && (o->type == JSON_TRUE || o->type == JSON_FALSE))
		buf_addstr(&m, o->type == JSON_TRUE ? "True" : "False");
	else
		buf_addstr(&m, !o || o->type == JSON_NULL ? "None" : "<container>");
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
		rec_reason_mark(r);
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

/* Embeddings: data items must all be embedding objects (else ValueError);
 * data when one has a non-null embedding. The original attaches no usage. */
static int
parse_embeddings(struct rec *r, const struct json *obj)
{
	const struct json *data = json_get(obj, "data");
	int n = 0;

	if (!data || data->type != JSON_ARRAY || !data->len)
		return 0;
	for (const struct json *it = data->child; it; it = it->next) {
		const struct json *e = json_get(it, "embedding");

		if (it->type != JSON_OBJECT
		    || strcmp(json_str_or(json_get(it, "object"), ""), "embedding")) {
			struct buf m = BUF_INIT((size_t)1 << 20);

			buf_addstr(&m, "Received invalid list in response: ");
			py_repr_json(&m, obj, 0);
			throw_err(r, "ValueError", buf_str(&m));
			buf_release(&m);
			return 0;
		}
		n += e && e->type != JSON_NULL;
	}
	return n > 0;
}

static const struct json *
usage_of(const struct json *obj)
{
	const struct json *u = json_get(obj, "usage");

	return u && u->type == JSON_OBJECT && u->len ? u : NULL;
}

/* Responses API streaming event: text, reasoning and tool-call deltas,
 * the final text again on output_text.done (as the original counts it). */
static int
parse_resp_event(struct rec *r, const char *type, const struct json *obj, int *output)
{
	const struct json *d = json_get(obj, "delta");

	if (!strcmp(type, "response.output_text.delta")
	    || !strcmp(type, "response.function_call_arguments.delta")) {
		if (!nonempty_str(d))
			return 0;
		add_text(&r->out_text, &r->has_out, d);
		return *output = 1;
	}
	if (!strcmp(type, "response.reasoning_text.delta")) {
		if (!nonempty_str(d))
			return 0;
		add_text(&r->reason_text, &r->has_reason, d);
		rec_reason_mark(r);
		return 1;
	}
	d = json_get(obj, "text");
	if (!strcmp(type, "response.output_text.done") && nonempty_str(d)) {
		add_text(&r->out_text, &r->has_out, d);
		return *output = 1;
	}
	return 0;
}

/* Append the non-empty "text" of parts of the given type to b. */
static size_t
collect_parts(struct buf *b, const struct json *parts, const char *type)
{
	size_t before = b->len;

	for (const struct json *p = parts && parts->type == JSON_ARRAY ? parts->child : NULL;
	     p; p = p->next) {
		const struct json *t = json_get(p, "text");

		if (!strcmp(json_str_or(json_get(p, "type"), ""), type) && nonempty_str(t))
			buf_add(b, t->str, t->len);
	}
	return b->len - before;
}

/* Responses API full response: reasoning summaries, else message text,
 * else function calls; the output_text field as a fallback. */
static int
parse_resp_full(struct rec *r, const struct json *obj, int *output)
{
	struct buf text = BUF_INIT(TEXT_MAX), reason = BUF_INIT(TEXT_MAX), tool = BUF_INIT(TEXT_MAX);
	const struct json *out = json_get(obj, "output"), *ot;
	int data = 1;

	for (const struct json *it = out && out->type == JSON_ARRAY ? out->child : NULL;
	     it; it = it->next) {
		const char *t = json_str_or(json_get(it, "type"), "");

		if (!strcmp(t, "reasoning"))
			collect_parts(&reason, json_get(it, "summary"), "summary_text");
		else if (!strcmp(t, "message"))
			collect_parts(&text, json_get(it, "content"), "output_text");
		else if (!strcmp(t, "function_call")) {
			const struct json *n = json_get(it, "name"), *a = json_get(it, "arguments");

			if (nonempty_str(n))
				buf_add(&tool, n->str, n->len);
			if (nonempty_str(a))
				buf_add(&tool, a->str, a->len);
		}
	}
	ot = json_get(obj, "output_text");
	if (reason.len) {
		buf_add(&r->reason_text, reason.s, reason.len);
		rec_reason_mark(r);
		r->has_reason = 1;
		if (text.len && buf_add(&r->out_text, text.s, text.len) == 0)
			r->has_out = *output = 1;
	} else if (text.len || tool.len) {
		struct buf *b = text.len ? &text : &tool;

		if (buf_add(&r->out_text, b->s, b->len) == 0)
			r->has_out = *output = 1;
	} else if (nonempty_str(ot)) {
		add_text(&r->out_text, &r->has_out, ot);
		*output = 1;
	} else {
		data = 0;
	}
	buf_release(&text);
	buf_release(&reason);
	buf_release(&tool);
	return data;
}

static int
parse_responses_api(struct rec *r, const struct json *obj, int *output,
		    const struct json **usage)
{
	const struct json *type = json_get(obj, "type");

	*usage = NULL;
	if (type) {
		const char *t = json_str_or(type, "");
		int data = parse_resp_event(r, t, obj, output);

		if (!data && !strcmp(t, "response.completed"))
			*usage = usage_of(json_get(obj, "response"));
		return data;
	}
	if (strcmp(json_str_or(json_get(obj, "object"), ""), "response"))
		return 0;
	*usage = usage_of(obj);
	return parse_resp_full(r, obj, output);
}

/* Is k an SSE packet whose data joins the response text? */
static const struct json *
data_value(const struct json *k)
{
	const struct json *v = NULL, *name = NULL;

	for (const struct json *m = k->type == JSON_OBJECT ? k->child : NULL; m; m = m->next) {
		if (m->keylen == 5 && !memcmp(m->key, "value", 5))
			v = m;
		else if (m->keylen == 4 && !memcmp(m->key, "name", 4))
			name = m;
	}
	/* strcmp: the test as it was (the name read as a C string) */
	if (!name || name->type != JSON_STRING || strcmp(name->str, "data")
	    || !v || v->type != JSON_STRING || !v->len)
		return NULL;
	return v;
}

/*
 * The JSON of one response: non-empty SSE data packets joined by '\n'
 * (SSEMessage.extract_data_content), or the body text. A single packet's
 * text is used where it lies; several are joined in t.
 */
static int
resp_text(const struct json *resp, struct buf *t, const char **s, size_t *n)
{
	const struct json *p = json_get(resp, "packets");
	const struct json *text = json_get(resp, "text");
	const struct json *v, *one = NULL;
	int count = 0;

	*s = "";
	*n = 0;
	if (p && p->type == JSON_ARRAY) {
		for (const struct json *k = p->child; k; k = k->next)
			if ((v = data_value(k)) != NULL && !count++)
				one = v;
		if (count == 1) {
			if (one->len > t->max)
				return -1;
			*s = one->str;
			*n = one->len;
			return 0;
		}
		buf_reset(t);
		for (const struct json *k = p->child; k; k = k->next) {
			if (!(v = data_value(k)))
				continue;
			if (t->len)
				buf_addch(t, '\n');
			if (buf_add(t, v->str, v->len) < 0)
				return -1;
		}
		*s = buf_str(t);
		*n = t->len;
		return 0;
	}
	if (text && text->type == JSON_STRING) {
		if (text->len > t->max)
			return -1;
		*s = text->str;
		*n = text->len;
	}
	return 0;
}

/* A truthy JSON value that is not an object: the parsers' json_obj.get()
 * raises AttributeError; falsy values are no data. */
void
rec_not_object(struct rec *r, const struct json *v)
{
	const char *type = NULL;
	char m[64];

	if (r->et == ET_OTHER)
		return;
	if (v->type == JSON_ARRAY && v->len)
		type = "list";
	else if (v->type == JSON_STRING && v->len)
		type = "str";
	else if (v->type == JSON_TRUE)
		type = "bool";
	else if (v->type == JSON_NUMBER) {
		double d = 0;

		json_double(v, &d);
		if (d != 0)
			type = memchr(v->str, '.', v->len) || memchr(v->str, 'e', v->len)
			       || memchr(v->str, 'E', v->len) ? "float" : "int";
	}
	if (!type)
		return;
	snprintf(m, sizeof(m), "'%s' object has no attribute 'get'", type);
	throw_err(r, "AttributeError", m);
}

static void
keep_resp(struct rec *r, int64_t perf, int data, int output, const struct json *usage)
{
	struct resp *x;

	if (r->nr == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->r = xreallocarray(r->r, r->cap, sizeof(*r->r));
	}
	x = &r->r[r->nr++];
	x->perf_ns = perf;
	x->data = data;
	x->output = output;
	x->usage = usage;
}

/* The response being parsed is JSON that json_parse() cannot read: no
 * data is not what it says, so the record fails, naming the limit. */
void
rec_too_deep(struct rec *r)
{
	char m[160];

	snprintf(m, sizeof(m), "response %zu is JSON nested deeper than %d arrays and "
		 "objects (the limit of aiperf-metrics' parser)", r->nraw ? r->nraw - 1 : 0,
		 JSON_MAX_DEPTH);
	throw_err(r, "InvalidInferenceResultError", m);
}

/* Parse one response; keeps it when it has data or usage. */
static void
parse_one(struct rec *r, int64_t perf, const char *s, size_t n)
{
	char err[128];
	const struct json *obj, *usage;
	int data = 0, output = 0;

	while (n && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
		s++, n--;
	if (!n || (n == 6 && !memcmp(s, "[DONE]", 6)))
		return;
	if (r->et == ET_TEMPLATE) {
		if (tfield_body(r, s, n, &output))
			keep_resp(r, perf, 1, output, NULL);
		return;
	}
	/* get_json(): text that is not JSON is no data, not an error. */
	obj = json_parse(r->doc, s, n, err, sizeof(err));
	if (!obj) {
		if (errno == ELOOP)
			rec_too_deep(r);
		return;
	}
	if (etype_extra(r->et))
		data = parse_endpoint_body(r, obj, &output);
	else if (obj->type != JSON_OBJECT) {
		rec_not_object(r, obj);
		return;
	} else if (r->et == ET_CHAT)
		data = parse_chat(r, obj, &output);
	else if (r->et == ET_COMPLETIONS)
		data = parse_completions(r, obj, &output);
	else if (r->et == ET_EMBEDDINGS)
		data = parse_embeddings(r, obj);
	else if (r->et != ET_RESPONSES)
		data = obj->len > 0;
	if (r->et == ET_RESPONSES)
		data = parse_responses_api(r, obj, &output, &usage);
	else
		usage = r->et == ET_EMBEDDINGS || (etype_extra(r->et)
			&& r->et != ET_IMAGE_GENERATION) ? NULL : usage_of(obj);
	if (!data && !usage)
		return;
	keep_resp(r, perf, data, output, usage);
}

static int
parse_responses(struct rec *r, const struct json *arr, char *why, size_t wl)
{
	struct buf t = BUF_INIT(TEXT_MAX);
	size_t i = 0;

	for (const struct json *e = arr->child; e; e = e->next, i++) {
		const char *text;
		size_t tn;
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
		if (resp_text(e, &t, &text, &tn) < 0) {
			throw_err(r, "ResponseTooLargeError", "response text too large");
			continue;
		}
		parse_one(r, perf, text, tn);
	}
	buf_release(&t);
	return 0;
}

/* A quoted JSON string fastresp_scan() checked, decoded into r's arena. */
const char *
rec_unquote(const struct rec *r, const char *s, size_t n, size_t *len)
{
	const struct json *v = json_parse(r->doc, s, n, NULL, 0);

	*len = v ? v->len : 0;
	return v ? v->str : "";
}

/* resp_text() of a response fastresp_scan() found. */
static int
fast_text(struct rec *r, const struct fresp *f, struct buf *t, const char **s, size_t *n)
{
	const char *v;
	size_t vn;

	*s = "";
	*n = 0;
	if (f->packets && f->ndata != 1) {
		buf_reset(t);
		for (size_t i = f->first; i < f->first + f->ndata; i++) {
			v = rec_unquote(r, r->fs[i].s, r->fs[i].n, &vn);
			if (t->len)
				buf_addch(t, '\n');
			if (buf_add(t, v, vn) < 0)
				return -1;
		}
		*s = buf_str(t);
		*n = t->len;
		return 0;
	}
	if (f->packets || f->s) {
		v = f->packets ? rec_unquote(r, r->fs[f->first].s, r->fs[f->first].n, &vn)
			       : rec_unquote(r, f->s, f->n, &vn);
		if (vn > t->max)
			return -1;
		*s = v;
		*n = vn;
	}
	return 0;
}

/* parse_responses() over what fastresp_scan() found: a single data packet
 * read by fastresp_packet() where it can, else decoded for parse_one(). */
static void
fast_responses(struct rec *r)
{
	struct buf t = BUF_INIT(TEXT_MAX);

	for (size_t i = 0; i < r->nfr; i++) {
		const struct fresp *f = &r->fr[i];
		const struct json *usage;
		const char *text;
		size_t tn;
		int data, output;

		r->nraw++;
		if (f->perf_ns <= 0)
			r->bad_perf = 1;
		if (r->perr)
			continue;
		if (f->packets && f->ndata == 1) {
			/* (r->fs is NULL while no response has packets) */
			const struct fspan *sp = r->fs + f->first;

			if (sp->n == 8 && !memcmp(sp->s + 1, "[DONE]", 6))
				continue;
			if (fastresp_packet(r, sp, &data, &output, &usage)) {
				if (data || usage)
					keep_resp(r, f->perf_ns, data, output, usage);
				r->nfast++;
				continue;
			}
		}
		if (fast_text(r, f, &t, &text, &tn) < 0) {
			throw_err(r, "ResponseTooLargeError", "response text too large");
			continue;
		}
		parse_one(r, f->perf_ns, text, tn);
	}
	buf_release(&t);
}

/* Record's aiperf.endpoint_type (NULL: unknown), else --endpoint-type, else
 * the payload shape. */
static const struct endpoint_type *
type_of(const struct rec *r, const struct opts *o)
{
	const struct json *t = json_get(r->aiperf, "endpoint_type");
	enum endpoint_id id = ENDPOINT_CHAT;

	if (t && t->type == JSON_STRING)
		return endpoint_find_record(t->str);
	if (o->endpoint_type)
		return endpoint_find(o->endpoint_type);
	if (json_get(r->payload, "messages"))
		id = ENDPOINT_CHAT;
	else if (json_get(r->payload, "prompt"))
		id = ENDPOINT_COMPLETIONS;
	else if (json_get(r->payload, "instructions") || json_get(r->payload, "max_output_tokens")
		 || json_get(json_at(json_get(r->payload, "input"), 0), "content"))
		id = ENDPOINT_RESPONSES;
	else if (json_get(r->payload, "input"))
		id = ENDPOINT_EMBEDDINGS;
	return endpoint_get(id);
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

/* Is the escape at s[0] == '\\' one that json_quote() writes itself? */
static int
canonical_escape(const char *s, size_t left)
{
	static const char hex[] = "0123456789abcdef";
	int v;

	if (left >= 2 && strchr("\"\\nrtbf", s[1]) && s[1])
		return 2;
	if (left < 6 || s[1] != 'u' || s[2] != '0' || s[3] != '0' || (s[4] != '0' && s[4] != '1'))
		return 0;
	if (!strchr(hex, s[5]) || !s[5])
		return 0;
	v = (s[4] - '0') * 16 + (int)(strchr(hex, s[5]) - hex);
	return v == '\b' || v == '\t' || v == '\n' || v == '\f' || v == '\r' ? 0 : 6;
}

/* The first '"' or '\\' at or after p, or end (eight bytes at a time). */
static const char *
quote_or_backslash(const char *p, const char *end)
{
	const uint64_t ones = 0x0101010101010101, highs = 0x8080808080808080;
	uint64_t x, q, b;

	while (end - p >= 8) {
		memcpy(&x, p, 8);
		q = x ^ (ones * '"');
		b = x ^ (ones * '\\');
		/* a zero byte in q or b marks the byte (false marks only above it) */
		if ((((q - ones) & ~q) | ((b - ones) & ~b)) & highs)
			break;
		p += 8;
	}
	while (p < end && *p != '"' && *p != '\\')
		p++;
	return p;
}

/*
 * Fast path for the common line shape: when the line starts with
 * {"metadata":{ and that object is compact with only the escapes
 * json_quote() writes, its bytes are exactly what jw_value() would write,
 * so the writer copies them (the fuzz target checks this equivalence).
 */
static void
find_meta_raw(struct rec *r, const char *s, size_t n)
{
	static const char pre[] = "{\"metadata\":{";
	size_t i = sizeof(pre) - 2, depth = 0;
	int in_str = 0;

	r->meta_raw = NULL;
	if (n < sizeof(pre) - 1 || memcmp(s, pre, sizeof(pre) - 1)
	    || r->root->child != r->metadata)
		return;
	for (; i < n; i++) {
		char c = s[i];

		if (in_str) {
			int k;

			/* plain bytes (the line parsed, so no controls here) */
			i = (size_t)(quote_or_backslash(s + i, s + n) - s);
			if (i >= n)
				return;
			c = s[i];
			k = c == '\\' ? canonical_escape(s + i, n - i) : 1;
			if (!k)
				return;
			i += (size_t)k - 1;
			in_str = c != '"';
			continue;
		}
		/* digits, letters, ',' and ':' between strings */
		while (((c >= '0' && c <= '9') || c == ',' || c == ':') && i + 1 < n)
			c = s[++i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
			return;
		in_str = c == '"';
		depth += c == '{' || c == '[';
		if ((c == '}' || c == ']') && --depth == 0)
			break;
	}
	if (i < n) {
		r->meta_raw = s + sizeof(pre) - 2;
		r->meta_len = i + 1 - (sizeof(pre) - 2);
	}
}

/*
 * Requests the original never records: not sent because the run stopped
 * (its credit was never issued), and cancelled in flight when the run's
 * grace period ran out or it was interrupted (a cancelled credit returns no
 * record). The sender writes both so that nothing read is lost.
 */
static int
never_recorded(const char *type)
{
	return !strcmp(type, "NotSentError") || !strcmp(type, "NotFinishedError");
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

static int
parse_with(struct rec *r, const struct opts *o, const char *s, size_t n,
	   char *why, size_t wl, int fast)
{
	const struct json_hook hook = { "responses", 9, fastresp_scan, r };
	const struct json *resp;
	const struct endpoint_type *t;

	rec_reset(r);
	r->root = json_parse_hook(r->doc, s, n, why, wl, fast ? &hook : NULL);
	if (!r->root || check_fields(r, why, wl) < 0)
		return -1;
	find_meta_raw(r, s, n);
	r->payload = json_get(r->root, "payload");
	r->aiperf = json_get(r->root, "aiperf");
	r->trace = json_get(r->root, "trace_data");
	r->warmup = !strcmp(json_str_or(json_get(r->metadata, "benchmark_phase"), ""),
			    "warmup");
	r->unrecorded = never_recorded(json_str_or(json_get(r->error, "type"), ""));
	t = type_of(r, o);
	r->et = etype_parser(t);
	r->caps = t ? t->flags : 0;
	r->stream = stream_of(r, o);
	/* the fast path serves chat and completions; the others read the
	 * responses' tree */
	r->fr_want = r->et == ET_CHAT || r->et == ET_COMPLETIONS;
	if (r->fr_on && !r->fr_want)
		return parse_with(r, o, s, n, why, wl, 0);
	resp = json_get(r->root, "responses");
	if (r->error || !resp || resp->type != JSON_ARRAY)
		return 0;
	if (r->fr_on) {
		fast_responses(r);
	} else {
		if (r->et == ET_TEMPLATE)
			tfield_begin(r);
		if (parse_responses(r, resp, why, wl) < 0)
			return -1;
		if (r->et == ET_TEMPLATE)
			tfield_end(r);
	}
	rec_check_usage(r, o);
	return 0;
}

int
rec_parse(struct rec *r, const struct opts *o, const char *s, size_t n,
	  char *why, size_t wl)
{
	/* A file's records are mostly of one kind: the fast path is tried
	 * when the last record could take it. */
	return parse_with(r, o, s, n, why, wl, r->fr_want && !r->slow && util_fastpath());
}
