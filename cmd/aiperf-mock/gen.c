/* SPDX-License-Identifier: Apache-2.0 */
/* LLM and embedding requests: read the body, plan tokens and timing, build fixed bodies. */
#include "mock.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json/json.h"
#include "util.h"

#define ADD(b, lit) buf_add((b), (lit), sizeof(lit) - 1)

/* What the request asks for and what the prompt weighs. */
struct plan {
	const char *model;
	size_t model_len;
	long prompt_tokens;
	uint64_t hash;		/* of the first prompt text: picks the words */
	int hashed;
	long max_tokens;	/* 0 when the request sets none */
	long min_tokens;
	int stream, include_usage;
	const struct answer *key;	/* --answer-key's reply */
	const char *why;	/* 400 message */
};

static uint64_t
splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

double
gen_rand01(uint64_t *x)
{
	return (double)(splitmix(x) >> 11) * 0x1.0p-53;
}

int64_t
gen_jitter(uint64_t *x, int64_t j)
{
	return j ? (int64_t)((gen_rand01(x) * 2 - 1) * (double)j) : 0;
}

static uint64_t
fnv1a(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return h;
}

static int
is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The original's pseudo tokens: ~4 characters, stretched by up to 2 to
 * end at whitespace. */
static long
pseudo_tokens(const char *s, size_t n)
{
	size_t i = 0;
	long k = 0;

	while (i < n) {
		size_t e = i + 4 < n ? i + 4 : n;
		for (size_t x = e; x < n && x < i + 6; x++) {
			if (is_space((unsigned char)s[x])) {
				e = x;
				break;
			}
		}
		i = e;
		k++;
	}
	return k;
}

static void
prompt_text(struct plan *p, const struct json *v)
{
	size_t n;
	const char *s = json_str(v, &n);

	if (!s)
		return;
	if (!p->hashed) {
		p->hash = fnv1a(s, n < 64 ? n : 64);
		p->hashed = 1;
	}
	p->prompt_tokens += pseudo_tokens(s, n);
}

/* Chat: the text of user messages (string content or text parts). */
static void
chat_prompt(struct plan *p, const struct json *root)
{
	const struct json *msgs = json_get(root, "messages");

	if (!msgs || msgs->type != JSON_ARRAY) {
		p->why = "'messages' must be an array";
		return;
	}
	for (const struct json *m = msgs->child; m; m = m->next) {
		const struct json *content = json_get(m, "content");
		if (strcmp(json_str_or(json_get(m, "role"), ""), "user"))
			continue;
		if (content && content->type == JSON_ARRAY) {
			for (const struct json *part = content->child; part; part = part->next)
				if (!strcmp(json_str_or(json_get(part, "type"), ""), "text"))
					prompt_text(p, json_get(part, "text"));
		} else {
			prompt_text(p, content);
		}
	}
}

/* Completions and embeddings: a string, strings, or token id arrays. */
static long
input_items(struct plan *p, const struct json *v, const char *field)
{
	long items = 0;

	if (json_is_str(v)) {
		prompt_text(p, v);
		return 1;
	}
	if (!v || v->type != JSON_ARRAY || v->len == 0) {
		p->why = field;
		return 0;
	}
	if (json_is_num(v->child)) {
		p->prompt_tokens += (long)v->len;
		return 1;
	}
	for (const struct json *e = v->child; e; e = e->next, items++) {
		if (json_is_str(e))
			prompt_text(p, e);
		else if (e->type == JSON_ARRAY)
			p->prompt_tokens += (long)e->len;
		else
			p->why = field;
	}
	return items;
}

/* Responses API: instructions, then input (a string, or items whose
 * content is a string or input_text parts). */
static void
responses_prompt(struct plan *p, const struct json *root)
{
	const struct json *in = json_get(root, "input");

	prompt_text(p, json_get(root, "instructions"));
	if (json_is_str(in)) {
		prompt_text(p, in);
		return;
	}
	if (!in || in->type != JSON_ARRAY) {
		p->why = "'input' must be a string or an array";
		return;
	}
	for (const struct json *m = in->child; m; m = m->next) {
		const struct json *content = json_get(m, "content");

		if (content && content->type == JSON_ARRAY) {
			for (const struct json *part = content->child; part; part = part->next)
				if (!strcmp(json_str_or(json_get(part, "type"), ""), "input_text"))
					prompt_text(p, json_get(part, "text"));
		} else {
			prompt_text(p, content);
		}
	}
}

/* The prompt text of route rt's body. */
static void
route_prompt(struct plan *p, enum route rt, const struct json *root)
{
	switch (rt) {
	case ROUTE_CHAT: chat_prompt(p, root); break;
	case ROUTE_RESPONSES: responses_prompt(p, root); break;
	case ROUTE_GENERATE:
	case ROUTE_GENERATE_STREAM:
		if (!json_is_str(json_get(root, "inputs")))
			p->why = "'inputs' must be a string";
		prompt_text(p, json_get(root, "inputs"));
		break;
	case ROUTE_RAG:
		input_items(p, json_get(root, "query"), "'query' must be a string or an array");
		break;
	default:
		input_items(p, json_get(root, "prompt"), "'prompt' must be a string or an array");
		break;
	}
}

static void
max_tokens(struct plan *p, const struct json *root)
{
	const struct json *v = json_get(root, "max_completion_tokens");
	int64_t n;

	if (!v || v->type == JSON_NULL)
		v = json_get(root, "max_tokens");
	if (!v || v->type == JSON_NULL)
		v = json_get(root, "max_output_tokens");	/* Responses API */
	if (!v || v->type == JSON_NULL)
		v = json_path(root, "parameters.max_new_tokens");	/* TGI */
	if (!v || v->type == JSON_NULL)
		return;
	if (json_int64(v, &n) < 0 || n < 1 || n > MOCK_MAX_TOKENS)
		p->why = "'max_tokens' must be an integer from 1 to 1048576";
	else
		p->max_tokens = (long)n;
}

static void
min_tokens(struct plan *p, const struct json *root)
{
	const struct json *v = json_get(root, "min_tokens");
	int64_t n;

	if (!v || v->type == JSON_NULL)
		return;
	if (json_int64(v, &n) < 0 || n < 0 || n > MOCK_MAX_TOKENS)
		p->why = "'min_tokens' must be an integer from 0 to 1048576";
	else
		p->min_tokens = (long)n;
}

/* Parse the body into p; NULL root (with p->why) on a 400. */
static const struct json *
read_body(struct server *s, struct plan *p, const char *body, size_t blen)
{
	static char err[160];
	char perr[128];
	const struct json *root, *model;

	memset(p, 0, sizeof(*p));
	json_doc_reset(s->doc);
	root = json_parse(s->doc, body, blen, perr, sizeof(perr));
	if (!root) {
		snprintf(err, sizeof(err), "invalid JSON body: %s", perr);
		p->why = err;
		return NULL;
	}
	if (root->type != JSON_OBJECT) {
		p->why = "the request body must be a JSON object";
		return NULL;
	}
	model = json_get(root, "model");
	p->model = json_str(model, &p->model_len);
	if (!p->model) {
		p->model = s->opt->model;
		p->model_len = strlen(p->model);
	}
	p->stream = json_truthy(json_get(root, "stream"));
	p->include_usage = json_truthy(json_path(root, "stream_options.include_usage"));
	return root;
}

/* Tokens [from, to) of the response text: words, each with its leading
 * space, or the answer key's reply. */
static void
add_words(struct buf *b, const struct resp *r, long from, long to)
{
	for (long i = from; i < to; i++) {
		size_t n;
		const char *w = resp_token(r, i, &n);
		buf_add(b, w, n);
	}
}

void
gen_usage(struct buf *b, long prompt, long completion, long reasoning, int chat)
{
	buf_addf(b, "\"usage\":{\"prompt_tokens\":%ld,\"completion_tokens\":%ld,"
		 "\"total_tokens\":%ld", prompt, completion, prompt + completion);
	if (chat)
		buf_addf(b, ",\"completion_tokens_details\":{\"reasoning_tokens\":%ld}",
			 reasoning);
	buf_addch(b, '}');
}

static void
add_id(struct buf *b, const struct server *s, int chat, uint64_t id,
       const char *object, const struct plan *p)
{
	buf_addf(b, "{\"id\":\"%s-%llu\",\"object\":\"%s\",\"created\":%lld,\"model\":",
		 chat ? "chatcmpl" : "cmpl", (unsigned long long)id, object,
		 (long long)s->created);
	json_quote(b, p->model, p->model_len);
}

/* The model as a JSON string (the other formats' head). */
static char *
model_json(const struct plan *p, size_t *len)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	json_quote(&b, p->model, p->model_len);
	return buf_detach(&b, len);
}

/* A non-streaming body, without its final '}' (the stamp closes it). */
static void
fixed_body(struct server *s, struct resp *r, const struct plan *p, uint64_t id,
	   enum fault f)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	long total = r->n_reason + r->n_content;

	if (r->fmt != FMT_OPENAI) {
		buf_release(&b);
		fmt_fixed_body(s, r, f);
		return;
	}
	add_id(&b, s, r->chat, id, r->chat ? "chat.completion" : "text_completion", p);
	if (r->chat) {
		ADD(&b, ",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"");
		add_words(&b, r, r->n_reason, total);
		gen_fault_text(&b, r, f);
		if (r->n_reason) {
			ADD(&b, "\",\"reasoning_content\":\"");
			add_words(&b, r, 0, r->n_reason);
		}
		ADD(&b, "\"},\"finish_reason\":\"");
	} else {
		ADD(&b, ",\"choices\":[{\"index\":0,\"text\":\"");
		add_words(&b, r, 0, total);
		gen_fault_text(&b, r, f);
		ADD(&b, "\",\"logprobs\":null,\"finish_reason\":\"");
	}
	buf_addstr(&b, r->finish);
	ADD(&b, "\"}],");
	gen_usage(&b, r->prompt_tokens, total, r->n_reason, r->chat);
	r->body = buf_detach(&b, &r->body_len);
	r->stamp = 1;
}

static char *
sse_head(struct server *s, int chat, uint64_t id, const struct plan *p,
	 size_t *len)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	ADD(&b, "data: ");
	add_id(&b, s, chat, id, chat ? "chat.completion.chunk" : "text_completion", p);
	ADD(&b, ",\"choices\":[");
	return buf_detach(&b, len);
}

/* Count, split and time the tokens of one response. */
static void
plan_tokens(struct server *s, struct resp *r, const struct plan *p)
{
	const struct options *o = s->opt;
	long n = p->max_tokens;

	if (!n)
		n = o->output_tokens ? o->output_tokens :
			(p->prompt_tokens > 16 ? p->prompt_tokens : 16);
	if (!p->max_tokens && n < p->min_tokens)
		n = p->min_tokens;
	if (n > MOCK_MAX_TOKENS)
		n = MOCK_MAX_TOKENS;
	r->finish = p->max_tokens ? "length" : "stop";
	r->n_reason = r->chat || r->fmt == FMT_RESPONSES ? (o->reasoning_tokens < n ? o->reasoning_tokens : n) : 0;
	/* the key's reply whole, no reasoning: its text is what is graded */
	if ((r->key = p->key)) {
		n = p->key->n;
		r->finish = "stop";
		r->n_reason = 0;
	}
	r->n_content = n - r->n_reason;
	r->prompt_tokens = p->prompt_tokens;
	r->word = (unsigned)(p->hash % 1000);
	s->c.prompt_tokens += (uint64_t)p->prompt_tokens;
	s->c.completion_tokens += (uint64_t)n;
	s->c.reasoning_tokens += (uint64_t)r->n_reason;
}

static int
inject_error(struct conn *c, uint64_t *rng)
{
	struct server *s = c->srv;

	if (s->opt->error_rate <= 0 || gen_rand01(rng) * 100 >= s->opt->error_rate)
		return 0;
	s->c.injected_errors++;
	http_error(c, 500, "server_error", "Simulated error");
	return 1;
}

/* Request ids are unique across workers: 1, 2, 3... with one worker. */
static uint64_t
new_id(struct server *s)
{
	return s->next_id++ * s->nworkers + s->worker + 1;
}

static struct resp *
start_resp(struct conn *c, enum route rt, uint64_t rng)
{
	struct resp *r = xcalloc(1, sizeof(*r));

	r->route = rt;
	r->status = 200;
	r->rng = rng;
	r->fail_after = c->srv->opt->fail_after;
	r->big = c->srv->opt->big_body;
	r->itl = c->srv->opt->itl_ns;
	/* the faults that cut a stream short do it after one chunk by default */
	enum fault f = (c->flags & CONN_FAULT) ? c->srv->opt->fault : FAULT_NONE;
	if (r->fail_after < 0 && (f == FAULT_RESET || f == FAULT_STALL_BODY ||
				  f == FAULT_SSE_ERROR))
		r->fail_after = 1;
	c->r = r;
	c->status = 200;
	c->srv->c.in_flight++;
	return r;
}

void
gen_request(struct conn *c, enum route rt, const char *body, size_t blen,
	    int64_t arrival)
{
	struct server *s = c->srv;
	const struct options *o = s->opt;
	struct plan p;
	const struct json *root = read_body(s, &p, body, blen);
	uint64_t id = new_id(s), rng = o->seed ^ (id * 0x9e3779b97f4a7c15ULL);

	if (root)
		route_prompt(&p, rt, root);
	if (root) {
		max_tokens(&p, root);
		min_tokens(&p, root);
		p.key = answers_match(&o->answers, rt, root);
	}
	if (p.why) {
		http_error(c, 400, "invalid_request_error", p.why);
		return;
	}
	if (inject_error(c, &rng))
		return;
	struct resp *r = start_resp(c, rt, rng);
	r->arrival = arrival;
	r->chat = rt == ROUTE_CHAT;
	r->id = id;
	r->fmt = rt == ROUTE_RESPONSES ? FMT_RESPONSES :
		 rt == ROUTE_GENERATE || rt == ROUTE_GENERATE_STREAM ? FMT_TGI :
		 rt == ROUTE_RAG ? FMT_RAG : FMT_OPENAI;
	/* TGI streams by route, RAG by the Accept header */
	if (rt == ROUTE_GENERATE || rt == ROUTE_RAG)
		p.stream = rt == ROUTE_RAG && (c->flags & CONN_ACCEPT_SSE);
	else if (rt == ROUTE_GENERATE_STREAM)
		p.stream = 1;
	plan_tokens(s, r, &p);
	int64_t t0 = arrival + o->stall_ns;
	int64_t others = s->c.in_flight > 0 ? s->c.in_flight - 1 : 0;	/* this one counted */
	int64_t ttft = o->ttft_ns + others * o->ttft_load_ns + gen_jitter(&r->rng, o->jitter_ns);
	r->base = t0 + (ttft > 0 ? ttft : 0);
	r->itl = o->itl_ns + others * o->itl_load_ns;
	if (p.stream) {
		r->kind = RESP_SSE;
		r->include_usage = p.include_usage;
		r->head = r->fmt == FMT_OPENAI ? sse_head(s, r->chat, id, &p, &r->head_len) :
						 model_json(&p, &r->head_len);
		r->due = r->base;
		r->at = t0;
	} else {
		r->kind = RESP_FIXED;
		r->abort = o->fail_after >= 0;
		if (r->fmt != FMT_OPENAI)
			r->head = model_json(&p, &r->head_len);
		fixed_body(s, r, &p, id, (c->flags & CONN_FAULT) ? o->fault : FAULT_NONE);
		r->at = r->base + r->itl * (r->n_reason + r->n_content);
	}
	if ((c->flags & CONN_FAULT) && o->fault == FAULT_STALL_HEAD)
		return;		/* never answered: the client gives up or hangs up */
	conn_arm(c, r->at);
}

/* A deterministic unit vector per input text. */
static void
add_vector(struct buf *b, uint64_t h, int dim)
{
	double v[4096], norm = 0;

	for (int d = 0; d < dim; d++) {
		v[d] = gen_rand01(&h) * 2 - 1;
		norm += v[d] * v[d];
	}
	norm = norm > 0 ? sqrt(norm) : 1;
	buf_addch(b, '[');
	for (int d = 0; d < dim; d++)
		buf_addf(b, d ? ",%.6f" : "%.6f", v[d] / norm);
	buf_addch(b, ']');
}

static uint64_t
item_hash(const struct json *e)
{
	size_t n;
	const char *s = json_str(e, &n);

	return s ? fnv1a(s, n) : (uint64_t)(e ? e->len : 0) * 0x9e3779b97f4a7c15ULL;
}

static void
embeddings_body(struct server *s, struct resp *r, const struct json *input,
		const struct plan *p)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	long i = 0;
	int many = input->type == JSON_ARRAY && !json_is_num(input->child);

	ADD(&b, "{\"object\":\"list\",\"data\":[");
	for (const struct json *e = many ? input->child : input; e;
	     e = many ? e->next : NULL, i++) {
		buf_addf(&b, "%s{\"object\":\"embedding\",\"index\":%ld,\"embedding\":",
			 i ? "," : "", i);
		add_vector(&b, item_hash(e) ^ s->opt->seed, s->opt->embedding_dim);
		buf_addch(&b, '}');
	}
	ADD(&b, "],\"model\":");
	json_quote(&b, p->model, p->model_len);
	buf_addf(&b, ",\"usage\":{\"prompt_tokens\":%ld,\"total_tokens\":%ld}",
		 p->prompt_tokens, p->prompt_tokens);
	r->body = buf_detach(&b, &r->body_len);
	r->stamp = 1;
}

void
gen_embeddings(struct conn *c, const char *body, size_t blen, int64_t arrival)
{
	struct server *s = c->srv;
	const struct options *o = s->opt;
	struct plan p;
	const struct json *root = read_body(s, &p, body, blen);
	const struct json *input = json_get(root, "input");
	uint64_t id = new_id(s), rng = o->seed ^ (id * 0x9e3779b97f4a7c15ULL);
	long n = 0;

	/* the template endpoint's nv-embedqa body: "text" for "input" */
	if (!input)
		input = json_get(root, "text");
	/* chat_embeddings (vLLM): chat messages, one vector per message */
	if (root && !input && json_get(root, "messages")) {
		chat_prompt(&p, root);
		input = json_get(root, "messages");
		n = p.why ? 0 : (long)input->len;
	} else if (root) {
		n = input_items(&p, input, "'input' must be a string or an array");
	}

	if (p.why) {
		http_error(c, 400, "invalid_request_error", p.why);
		return;
	}
	if (inject_error(c, &rng))
		return;
	struct resp *r = start_resp(c, ROUTE_EMBEDDINGS, rng);
	r->arrival = arrival;
	r->prompt_tokens = p.prompt_tokens;
	r->kind = RESP_FIXED;
	r->abort = o->fail_after >= 0;
	s->c.prompt_tokens += (uint64_t)p.prompt_tokens;
	embeddings_body(s, r, input, &p);
	r->at = arrival + o->stall_ns + o->emb_base_ns + o->emb_per_ns * n;
	conn_arm(c, r->at);
}

void
gen_rankings(struct conn *c, enum route rt, const char *body, size_t blen,
	     int64_t arrival)
{
	struct server *s = c->srv;
	const struct options *o = s->opt;
	struct plan p;
	const struct json *root = read_body(s, &p, body, blen), *q = NULL, *l = NULL;
	uint64_t id = new_id(s), rng = o->seed ^ (id * 0x9e3779b97f4a7c15ULL), h;
	struct buf b = BUF_INIT(BUF_NOMAX);
	double *score;
	long n = 0, i = 0;
	int64_t top_n = 0;

	if (root)
		l = fmt_rankings_request(rt, root, &q, &p.why);
	if (p.why) {
		http_error(c, 400, "invalid_request_error", p.why);
		return;
	}
	if (inject_error(c, &rng))
		return;
	prompt_text(&p, q);
	n = (long)l->len;
	score = xcalloc((size_t)n, sizeof(*score));
	/* a deterministic score per (query, passage) pair */
	for (const struct json *e = l->child; e; e = e->next, i++) {
		const struct json *t = fmt_passage_text(rt, e);

		prompt_text(&p, t);
		h = item_hash(q) ^ (item_hash(t) * 0x9e3779b97f4a7c15ULL) ^ o->seed;
		score[i] = gen_rand01(&h);
	}
	if (rt == ROUTE_COHERE_RERANK)
		json_int64(json_get(root, "top_n"), &top_n);
	struct resp *r = start_resp(c, rt, rng);
	r->kind = RESP_FIXED;
	r->abort = o->fail_after >= 0;
	s->c.prompt_tokens += (uint64_t)p.prompt_tokens;
	fmt_rankings(&b, rt, score, n, top_n > n ? n : (long)top_n, p.prompt_tokens, id);
	r->body = buf_detach(&b, &r->body_len);
	r->stamp = rt != ROUTE_TEI_RERANK;
	r->whole = rt == ROUTE_TEI_RERANK;
	free(score);
	r->at = arrival + o->stall_ns + o->rank_base_ns + o->rank_per_ns * n;
	conn_arm(c, r->at);
}

void
resp_free(struct resp *r)
{
	if (!r)
		return;
	free(r->body);
	free(r->head);
	free(r);
}

uint64_t
gen_next_id(struct server *s)
{
	return new_id(s);
}

int
gen_inject(struct conn *c, uint64_t *rng)
{
	return inject_error(c, rng);
}

struct resp *
gen_start(struct conn *c, enum route rt, uint64_t rng)
{
	return start_resp(c, rt, rng);
}
