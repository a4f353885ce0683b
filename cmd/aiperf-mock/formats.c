/* SPDX-License-Identifier: Apache-2.0 */
/* Response bodies and SSE events of the Responses API, TGI generate, Solido RAG and rankings routes. */
#include "mock.h"

#include <string.h>

#include "json/json.h"
#include "util.h"

#define ADD(b, lit) buf_add((b), (lit), sizeof(lit) - 1)

static void
add_stamp(struct buf *b, int64_t stamp, const char *end)
{
	char num[24];

	ADD(b, "\"aiperf_send_ns\":");
	buf_add(b, num, fmt_i64(num, stamp));
	buf_addstr(b, end);
}

/* Words [from, to) of the response text, JSON-escaped already. */
static void
words(struct buf *b, const struct resp *r, long from, long to)
{
	for (long i = from; i < to; i++) {
		size_t n;
		const char *w = resp_token(r, i, &n);

		buf_add(b, w, n);
	}
}

static void
resp_usage(struct buf *b, const struct resp *r)
{
	long total = r->n_reason + r->n_content;

	buf_addf(b, "\"usage\":{\"input_tokens\":%ld,\"input_tokens_details\":"
		 "{\"cached_tokens\":0},\"output_tokens\":%ld,\"output_tokens_details\":"
		 "{\"reasoning_tokens\":%ld},\"total_tokens\":%ld}",
		 r->prompt_tokens, total, r->n_reason, r->prompt_tokens + total);
}

/* The Responses API object: reasoning item (summary), message item. */
static void
resp_object(struct buf *b, const struct server *s, const struct resp *r,
	    const char *status, int full, enum fault f)
{
	long total = r->n_reason + r->n_content;

	buf_addf(b, "{\"id\":\"resp_%llu\",\"object\":\"response\",\"created_at\":%lld,"
		 "\"status\":\"%s\",\"model\":", (unsigned long long)r->id,
		 (long long)s->created, status);
	buf_add(b, r->head, r->head_len);
	ADD(b, ",\"output\":[");
	if (full && r->n_reason) {
		buf_addf(b, "{\"id\":\"rs_%llu\",\"type\":\"reasoning\",\"summary\":"
			 "[{\"type\":\"summary_text\",\"text\":\"", (unsigned long long)r->id);
		words(b, r, 0, r->n_reason);
		ADD(b, "\"}]},");
	}
	if (full) {
		buf_addf(b, "{\"id\":\"msg_%llu\",\"type\":\"message\",\"status\":\"completed\","
			 "\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\","
			 "\"text\":\"", (unsigned long long)r->id);
		words(b, r, r->n_reason, total);
		gen_fault_text(b, r, f);
		ADD(b, "\",\"annotations\":[]}]}");
	} else if (b->s[b->len - 1] == ',') {
		b->len--;
	}
	ADD(b, "],");
	if (full)
		resp_usage(b, r);
	else
		ADD(b, "\"usage\":null");
}

void
fmt_fixed_body(struct server *s, struct resp *r, enum fault f)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	long total = r->n_reason + r->n_content;

	switch (r->fmt) {
	case FMT_RESPONSES:
		resp_object(&b, s, r, "completed", 1, f);
		break;
	case FMT_TGI:
		ADD(&b, "{\"generated_text\":\"");
		words(&b, r, 0, total);
		gen_fault_text(&b, r, f);
		buf_addf(&b, "\",\"details\":{\"finish_reason\":\"%s\",\"generated_tokens\":%ld,"
			 "\"seed\":null}", !strcmp(r->finish, "length") ? "length" : "eos_token",
			 total);
		break;
	default:	/* FMT_RAG */
		ADD(&b, "{\"content\":\"");
		words(&b, r, 0, total);
		gen_fault_text(&b, r, f);
		ADD(&b, "\",\"sources\":[{\"title\":\"aiperf-mock\",\"source\":\"mock://doc/1\"}]");
		break;
	}
	r->body = buf_detach(&b, &r->body_len);
	r->stamp = 1;
}

/* One SSE event per token: reasoning deltas first, then output text. */
void
fmt_token(struct buf *b, const struct resp *r, long i, int64_t stamp, enum fault f)
{
	size_t wl;
	const char *w = resp_token(r, i, &wl);
	long total = r->n_reason + r->n_content;

	if (r->fmt == FMT_IMAGE) {
		images_event(b, r, i, stamp);
		return;
	}
	switch (r->fmt) {
	case FMT_RESPONSES:
		if (i < r->n_reason)
			buf_addf(b, "event: response.reasoning_text.delta\ndata: {\"type\":"
				 "\"response.reasoning_text.delta\",\"item_id\":\"rs_%llu\","
				 "\"output_index\":0,\"content_index\":0,\"delta\":\"",
				 (unsigned long long)r->id);
		else
			buf_addf(b, "event: response.output_text.delta\ndata: {\"type\":"
				 "\"response.output_text.delta\",\"item_id\":\"msg_%llu\","
				 "\"output_index\":%d,\"content_index\":0,\"delta\":\"",
				 (unsigned long long)r->id, r->n_reason ? 1 : 0);
		buf_add(b, w, wl);
		if (i == 0)
			gen_fault_text(b, r, f);
		ADD(b, "\",");
		break;
	case FMT_TGI:
		buf_addf(b, "data: {\"index\":%ld,\"token\":{\"id\":%u,\"text\":\"", i + 1,
			 (r->word + (unsigned)i) % 32000);
		buf_add(b, w, wl);
		if (i == 0)
			gen_fault_text(b, r, f);
		ADD(b, "\",\"logprob\":-0.5,\"special\":false},\"generated_text\":");
		if (i + 1 == total) {
			buf_addch(b, '"');
			words(b, r, 0, total);
			buf_addf(b, "\",\"details\":{\"finish_reason\":\"%s\",\"generated_tokens\":%ld,"
				 "\"seed\":null},", !strcmp(r->finish, "length") ? "length" : "eos_token",
				 total);
		} else {
			ADD(b, "null,\"details\":null,");
		}
		break;
	default:	/* FMT_RAG */
		ADD(b, "data: {\"content\":\"");
		buf_add(b, w, wl);
		if (i == 0)
			gen_fault_text(b, r, f);
		ADD(b, "\",");
		break;
	}
	add_stamp(b, stamp, "}\n\n");
}

/* After the last token: the Responses API's done and completed events
 * (usage always, as the API sends it); TGI and RAG streams just end. */
void
fmt_tail(struct buf *b, const struct server *s, const struct resp *r, int64_t stamp)
{
	long total = r->n_reason + r->n_content;

	if (r->fmt != FMT_RESPONSES)
		return;
	buf_addf(b, "event: response.output_text.done\ndata: {\"type\":"
		 "\"response.output_text.done\",\"item_id\":\"msg_%llu\",\"output_index\":%d,"
		 "\"content_index\":0,\"text\":\"", (unsigned long long)r->id,
		 r->n_reason ? 1 : 0);
	words(b, r, r->n_reason, total);
	ADD(b, "\",");
	add_stamp(b, stamp, "}\n\n");
	ADD(b, "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":");
	resp_object(b, s, r, "completed", 1, FAULT_NONE);
	ADD(b, "},");
	add_stamp(b, stamp, "}\n\n");
}

/* The first event of a Responses API stream. */
void
fmt_sse_start(struct buf *b, const struct server *s, const struct resp *r)
{
	if (r->fmt != FMT_RESPONSES)
		return;
	ADD(b, "event: response.created\ndata: {\"type\":\"response.created\",\"response\":");
	resp_object(b, s, r, "in_progress", 0, FAULT_NONE);
	ADD(b, "}}\n\n");
}

const struct json *
fmt_passage_text(enum route rt, const struct json *e)
{
	if (rt == ROUTE_NIM_RANKING)
		e = e->type == JSON_OBJECT ? json_get(e, "text") : NULL;
	return json_is_str(e) ? e : NULL;
}

const struct json *
fmt_rankings_request(enum route rt, const struct json *root,
		     const struct json **query, const char **why)
{
	static const char *const list[] = {
		[ROUTE_NIM_RANKING] = "passages", [ROUTE_COHERE_RERANK] = "documents",
		[ROUTE_TEI_RERANK] = "texts",
	};
	const struct json *q = json_get(root, "query"), *l = json_get(root, list[rt]);

	if (rt == ROUTE_NIM_RANKING)
		q = q && q->type == JSON_OBJECT ? json_get(q, "text") : NULL;
	if (!json_is_str(q)) {
		*why = rt == ROUTE_NIM_RANKING ? "'query' must be an object with a string 'text'" :
						   "'query' must be a string";
		return NULL;
	}
	if (!l || l->type != JSON_ARRAY || !l->len) {
		*why = rt == ROUTE_NIM_RANKING ? "'passages' must be a non-empty array" :
			 rt == ROUTE_COHERE_RERANK ? "'documents' must be a non-empty array" :
						     "'texts' must be a non-empty array";
		return NULL;
	}
	for (const struct json *e = l->child; e; e = e->next)
		if (!fmt_passage_text(rt, e)) {
			*why = rt == ROUTE_NIM_RANKING ?
				"each passage must be an object with a string 'text'" :
				"each document must be a string";
			return NULL;
		}
	*query = q;
	return l;
}

/* Passage order by score, best first; ties by index (a stable sort). */
static void
rank_order(const double *score, long n, long *order)
{
	for (long i = 0; i < n; i++) {
		long j = i;

		for (; j > 0 && score[order[j - 1]] < score[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
}

/*
 * NIM: {"rankings":[{"index","logit"}],"usage"} (logits around -10..10);
 * Cohere v2: {"results":[{"index","relevance_score"}],"id","meta"};
 * TEI: [{"index","score"}]. As their API references show them.
 */
void
fmt_rankings(struct buf *b, enum route rt, const double *score, long n,
	     long top_n, long prompt_tokens, uint64_t id)
{
	long *order = xcalloc(n ? (size_t)n : 1, sizeof(*order));
	long k = top_n > 0 && top_n < n ? top_n : n;

	rank_order(score, n, order);
	if (rt == ROUTE_NIM_RANKING)
		ADD(b, "{\"rankings\":[");
	else if (rt == ROUTE_COHERE_RERANK)
		ADD(b, "{\"results\":[");
	else
		buf_addch(b, '[');
	for (long i = 0; i < k; i++) {
		long x = order[i];

		if (rt == ROUTE_NIM_RANKING)
			buf_addf(b, "%s{\"index\":%ld,\"logit\":%.6f}", i ? "," : "", x,
				 score[x] * 20 - 10);
		else if (rt == ROUTE_COHERE_RERANK)
			buf_addf(b, "%s{\"index\":%ld,\"relevance_score\":%.6f}",
				 i ? "," : "", x, score[x]);
		else
			buf_addf(b, "%s{\"index\":%ld,\"score\":%.6f}", i ? "," : "", x,
				 score[x]);
	}
	if (rt == ROUTE_NIM_RANKING)
		buf_addf(b, "],\"usage\":{\"prompt_tokens\":%ld,\"total_tokens\":%ld}",
			 prompt_tokens, prompt_tokens);
	else if (rt == ROUTE_COHERE_RERANK)
		buf_addf(b, "],\"id\":\"aiperf-mock-%llu\",\"meta\":{\"api_version\":"
			 "{\"version\":\"2\",\"is_experimental\":false},"
			 "\"billed_units\":{\"search_units\":1}}", (unsigned long long)id);
	else
		buf_addch(b, ']');
	free(order);
}
