/* SPDX-License-Identifier: Apache-2.0 */
/* The image routes: POST /v1/images/generations (OpenAI images API, SSE partial images) and /v1/infer (NIM image retrieval). */
#include "mock.h"

#include <string.h>

#include "json/json.h"
#include "util.h"

#define ADD(b, lit) buf_add((b), (lit), sizeof(lit) - 1)

/* A real 8x8 RGB PNG (a colour gradient): every image the mock makes. */
#define PNG_B64 "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAGUlEQVR42mNkYGhQYGDA" \
		"RCwMCgxYweCUAABobwJednxjlwAAAABJRU5ErkJggg=="
#define MAX_IMAGES 10		/* n, as the OpenAI API bounds it */
#define MAX_PARTIAL 3		/* partial_images */
#define TOKENS_PER_IMAGE 272	/* output tokens of one image (usage) */

struct imgreq {
	const struct json *prompt;
	int64_t n, partial;
	int url;		/* response_format "url" */
	const char *size, *quality, *background, *format;
	long prompt_tokens;
	const char *why;	/* 400 message */
};

/* A string field of root, or dflt; a non-string value is a 400. */
static const char *
str_field(const struct json *root, const char *key, const char *dflt, struct imgreq *q)
{
	const struct json *v = json_get(root, key);

	if (!v || v->type == JSON_NULL)
		return dflt;
	if (v->type != JSON_STRING)
		q->why = "a string field of the request is not a string";
	return v->type == JSON_STRING ? v->str : dflt;
}

static int64_t
int_field(const struct json *root, const char *key, int64_t dflt, int64_t max,
	  const char *why, struct imgreq *q)
{
	const struct json *v = json_get(root, key);
	int64_t n = dflt;

	if (v && v->type != JSON_NULL && (json_int64(v, &n) < 0 || n < 0 || n > max))
		q->why = why;
	return n;
}

static const struct json *
parse_request(struct server *s, const char *body, size_t blen, char *err, size_t errlen)
{
	char perr[128];
	const struct json *root;

	json_doc_reset(s->doc);
	root = json_parse(s->doc, body, blen, perr, sizeof(perr));
	if (!root)
		snprintf(err, errlen, "invalid JSON body: %s", perr);
	else if (root->type != JSON_OBJECT)
		snprintf(err, errlen, "the request body must be a JSON object");
	return root && root->type == JSON_OBJECT ? root : NULL;
}

/* The images API's request checks: a string prompt, n 1..10, url or b64_json. */
static void
read_imgreq(const struct json *root, struct imgreq *q)
{
	const char *fmt;

	memset(q, 0, sizeof(*q));
	q->prompt = json_get(root, "prompt");
	if (!q->prompt || q->prompt->type != JSON_STRING)
		q->why = "'prompt' is required and must be a string";
	q->n = int_field(root, "n", 1, MAX_IMAGES, "'n' must be an integer from 1 to 10", q);
	if (q->n < 1)
		q->why = "'n' must be an integer from 1 to 10";
	q->partial = int_field(root, "partial_images", 0, MAX_PARTIAL,
			       "'partial_images' must be an integer from 0 to 3", q);
	fmt = str_field(root, "response_format", "b64_json", q);
	if (strcmp(fmt, "b64_json") && strcmp(fmt, "url"))
		q->why = "'response_format' must be 'url' or 'b64_json'";
	q->url = !strcmp(fmt, "url");
	q->size = str_field(root, "size", "1024x1024", q);
	q->quality = str_field(root, "quality", "medium", q);
	q->background = str_field(root, "background", "opaque", q);
	q->format = str_field(root, "output_format", "png", q);
	if (!q->why)
		q->prompt_tokens = (long)(q->prompt->len + 3) / 4;
}

/* The fields every image answer and event repeats, JSON-escaped. */
static void
settings(struct buf *b, const struct imgreq *q)
{
	ADD(b, "\"background\":");
	json_quote(b, q->background, strlen(q->background));
	ADD(b, ",\"output_format\":");
	json_quote(b, q->format, strlen(q->format));
	ADD(b, ",\"quality\":");
	json_quote(b, q->quality, strlen(q->quality));
	ADD(b, ",\"size\":");
	json_quote(b, q->size, strlen(q->size));
}

static void
usage(struct buf *b, long prompt, long images)
{
	long out = images * TOKENS_PER_IMAGE;

	buf_addf(b, "\"usage\":{\"input_tokens\":%ld,\"input_tokens_details\":"
		 "{\"image_tokens\":0,\"text_tokens\":%ld},\"output_tokens\":%ld,"
		 "\"total_tokens\":%ld}", prompt, prompt, out, prompt + out);
}

/* The non-streaming answer: data[] (b64_json, or url), the settings, usage. */
static char *
images_body(const struct imgreq *q, int64_t created, uint64_t id, size_t *len)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	buf_addf(&b, "{\"created\":%lld,\"data\":[", (long long)created);
	for (int64_t i = 0; i < q->n; i++) {
		buf_addstr(&b, i ? ",{" : "{");
		if (q->url)
			buf_addf(&b, "\"url\":\"https://aiperf-mock.invalid/images/%llu-%lld.png\"",
				 (unsigned long long)id, (long long)i);
		else
			ADD(&b, "\"b64_json\":\"" PNG_B64 "\"");
		ADD(&b, ",\"revised_prompt\":");
		json_quote(&b, q->prompt->str, q->prompt->len);
		buf_addch(&b, '}');
	}
	ADD(&b, "],");
	settings(&b, q);
	buf_addch(&b, ',');
	usage(&b, q->prompt_tokens, (long)q->n);
	return buf_detach(&b, len);	/* the sender stamps it and closes it */
}

/*
 * One SSE event of a stream (fmt_token): each of the n images sends
 * partial_images image_generation.partial_image events, then its
 * image_generation.completed event (with usage on the last); every event
 * carries a top-level b64_json, which is what the original parses.
 */
void
images_event(struct buf *b, const struct resp *r, long i, int64_t stamp)
{
	long per = r->img_partial + 1, k = i % per;
	int done = k == per - 1;
	char num[24];

	if (done)
		ADD(b, "event: image_generation.completed\ndata: "
		    "{\"type\":\"image_generation.completed\",");
	else
		ADD(b, "event: image_generation.partial_image\ndata: "
		    "{\"type\":\"image_generation.partial_image\",");
	ADD(b, "\"b64_json\":\"" PNG_B64 "\",\"created_at\":");
	buf_add(b, num, fmt_i64(num, r->img_created));
	buf_addch(b, ',');
	buf_add(b, r->head, r->head_len);	/* the settings */
	if (!done)
		buf_addf(b, ",\"partial_image_index\":%ld", k);
	if (done && i + 1 == r->n_content) {
		buf_addch(b, ',');
		usage(b, r->prompt_tokens, r->n_content / per);
	}
	ADD(b, ",\"aiperf_send_ns\":");
	buf_add(b, num, fmt_i64(num, stamp));
	ADD(b, "}\n\n");
}

void
gen_images(struct conn *c, const char *body, size_t blen, int64_t arrival)
{
	struct server *s = c->srv;
	const struct options *o = s->opt;
	char err[200];
	const struct json *root = parse_request(s, body, blen, err, sizeof(err));
	struct imgreq q;
	uint64_t id = gen_next_id(s), rng = o->seed ^ (id * 0x9e3779b97f4a7c15ULL);
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct resp *r;

	if (!root) {
		http_error(c, 400, "invalid_request_error", err);
		return;
	}
	read_imgreq(root, &q);
	if (q.why) {
		http_error(c, 400, "invalid_request_error", q.why);
		return;
	}
	if (gen_inject(c, &rng))
		return;
	r = gen_start(c, ROUTE_IMAGES, rng);
	r->arrival = arrival;
	r->id = id;
	r->prompt_tokens = q.prompt_tokens;
	r->img_partial = (long)q.partial;
	r->img_created = s->created;
	r->n_content = (long)(q.n * (q.partial + 1));
	s->c.prompt_tokens += (uint64_t)q.prompt_tokens;
	r->base = arrival + o->stall_ns + o->ttft_ns + gen_jitter(&r->rng, o->jitter_ns);
	if (json_truthy(json_get(root, "stream"))) {
		r->kind = RESP_SSE;
		r->fmt = FMT_IMAGE;
		settings(&b, &q);
		r->head = buf_detach(&b, &r->head_len);
		r->due = r->base;
		r->at = arrival + o->stall_ns;
	} else {
		r->kind = RESP_FIXED;
		r->body = images_body(&q, s->created, id, &r->body_len);
		r->stamp = 1;	/* the sender adds ,"aiperf_send_ns":N} */
		r->at = r->base + o->itl_ns * (r->n_content - 1);
	}
	conn_arm(c, r->at);
}

static uint64_t
hash(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

/* Deterministic boxes for image i: 1-3 of the original mock's categories. */
static void
boxes(struct buf *b, uint64_t h)
{
	static const char *const cats[] = { "title", "table", "figure", "text", "header", "footer" };
	int n = 1 + (int)(gen_rand01(&h) * 3);

	buf_addch(b, '{');
	for (int k = 0; k < n; k++) {
		double x0 = gen_rand01(&h) * 0.5, y0 = gen_rand01(&h) * 0.5;
		double x1 = x0 + 0.05 + gen_rand01(&h) * (0.95 - x0);
		double y1 = y0 + 0.05 + gen_rand01(&h) * (0.95 - y0);

		buf_addf(b, "%s\"%s\":[{\"x_min\":%.4f,\"y_min\":%.4f,\"x_max\":%.4f,"
			 "\"y_max\":%.4f,\"confidence\":%.4f}]", k ? "," : "",
			 cats[(k * 2 + (int)(h & 1)) % 6], x0, y0, x1, y1,
			 0.7 + gen_rand01(&h) * 0.3);
	}
	buf_addch(b, '}');
}

/* NIM image retrieval: "input" lists {"type":"image_url","url":...}. */
void
gen_infer(struct conn *c, const char *body, size_t blen, int64_t arrival)
{
	struct server *s = c->srv;
	const struct options *o = s->opt;
	char err[200];
	const struct json *root = parse_request(s, body, blen, err, sizeof(err));
	const struct json *in = root ? json_get(root, "input") : NULL, *u;
	uint64_t id = gen_next_id(s), rng = o->seed ^ (id * 0x9e3779b97f4a7c15ULL);
	struct buf b = BUF_INIT(BUF_NOMAX);
	double mb = 0;
	long n = 0;
	struct resp *r;

	if (!root) {
		http_error(c, 400, "invalid_request_error", err);
		return;
	}
	if (!in || in->type != JSON_ARRAY || !in->len) {
		http_error(c, 400, "invalid_request_error", "'input' must be a non-empty array");
		return;
	}
	for (const struct json *e = in->child; e; e = e->next)
		if (e->type != JSON_OBJECT || !(u = json_get(e, "url")) || u->type != JSON_STRING) {
			http_error(c, 400, "invalid_request_error",
				   "each 'input' item must be an object with a string 'url'");
			return;
		}
	if (gen_inject(c, &rng))
		return;
	ADD(&b, "{\"data\":[");
	for (const struct json *e = in->child; e; e = e->next, n++) {
		u = json_get(e, "url");
		buf_addf(&b, "%s{\"index\":%ld,\"bounding_boxes\":", n ? "," : "", n);
		boxes(&b, hash(u->str, u->len) ^ o->seed);
		buf_addch(&b, '}');
		mb += (double)u->len / (1024.0 * 1024 * 1.37);
	}
	buf_addf(&b, "],\"usage\":{\"images_size_mb\":%.4f}", mb);
	r = gen_start(c, ROUTE_INFER, rng);
	r->arrival = arrival;
	r->kind = RESP_FIXED;
	r->body = buf_detach(&b, &r->body_len);
	r->stamp = 1;
	r->at = arrival + o->stall_ns + o->img_base_ns + o->img_per_ns * n;
	conn_arm(c, r->at);
}
