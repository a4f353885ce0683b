/* SPDX-License-Identifier: Apache-2.0 */
/* /v1/videos: asynchronous video jobs (submit, status, content), OpenAI/SGLang-shaped. */
#define _GNU_SOURCE	/* memmem */
#include "mock.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "util.h"

/*
 * A job keeps no state in the server: its id says when it was created (wall
 * clock ns), how long it takes (ns) and whether it fails, so any worker
 * answers for any job and memory stays flat. Before a tenth of its time it
 * is "queued", then "in_progress" with progress in percent, then
 * "completed" (or "failed").
 */

#define FAIL_MARK "[video-fail]"
#define MAX_FIELD 4096

struct job {
	int64_t t0, dur;
	int fail;
	uint64_t n;
};

struct field {
	char prompt[MAX_FIELD], model[256], size[64], seconds[64];
};

static uint64_t
mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15u;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static void
copy(char *dst, size_t cap, const char *p, size_t n)
{
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, p, n);
	dst[n] = '\0';
}

static char *
slot(struct field *f, const char *k, size_t n, size_t *cap)
{
#define F(name) if (n == sizeof(#name) - 1 && !memcmp(k, #name, n)) \
	return *cap = sizeof(f->name), f->name
	F(prompt);
	F(model);
	F(size);
	F(seconds);
#undef F
	return NULL;
}

/* multipart/form-data: each part's name="..." and its value up to CRLF--. */
static void
parse_multipart(struct field *f, const char *b, size_t n)
{
	const char *end = b + n, *p = b;

	while ((p = memmem(p, (size_t)(end - p), "name=\"", 6))) {
		const char *k = p + 6, *q = memchr(k, '"', (size_t)(end - k));
		const char *v, *ve;
		size_t cap;
		char *dst;

		if (!q || !(v = memmem(q, (size_t)(end - q), "\r\n\r\n", 4)))
			return;
		v += 4;
		ve = memmem(v, (size_t)(end - v), "\r\n--", 4);
		if (!ve)
			ve = end;
		if ((dst = slot(f, k, (size_t)(q - k), &cap)))
			copy(dst, cap, v, (size_t)(ve - v));
		p = ve;
	}
}

static int
hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* application/x-www-form-urlencoded, decoded into the known fields. */
static void
parse_urlencoded(struct field *f, const char *b, size_t n)
{
	const char *end = b + n, *p = b;

	while (p < end) {
		const char *amp = memchr(p, '&', (size_t)(end - p)), *e;
		const char *pe = amp ? amp : end;
		size_t cap, k = 0;
		char *dst;

		e = memchr(p, '=', (size_t)(pe - p));
		if (e && (dst = slot(f, p, (size_t)(e - p), &cap))) {
			for (const char *c = e + 1; c < pe && k + 1 < cap; c++) {
				if (*c == '+')
					dst[k++] = ' ';
				else if (*c == '%' && pe - c > 2 && hexval(c[1]) >= 0 &&
					 hexval(c[2]) >= 0) {
					dst[k++] = (char)(hexval(c[1]) * 16 + hexval(c[2]));
					c += 2;
				} else
					dst[k++] = *c;
			}
			dst[k] = '\0';
		}
		p = pe + 1;
	}
}

static void
parse_json(struct server *s, struct field *f, const char *b, size_t n)
{
	char err[64];
	const struct json *o;

	json_doc_reset(s->doc);
	o = json_parse(s->doc, b, n, err, sizeof(err));
	for (const struct json *c = o && o->type == JSON_OBJECT ? o->child : NULL; c; c = c->next) {
		size_t cap;
		char *dst = slot(f, c->key, c->keylen, &cap);
		if (dst && (c->type == JSON_STRING || c->type == JSON_NUMBER))
			copy(dst, cap, c->str, c->len);
	}
}

static void
send_body(struct conn *c, int status, const char *ctype, const char *body, size_t n)
{
	struct server *s = c->srv;

	buf_reset(&s->scratch);
	http_head_on(c, &s->scratch, status, ctype, (long long)n);
	buf_add(&s->scratch, body, n);
	conn_send(c, s->scratch.s, s->scratch.len);
	s->c.responses[status / 100 % 6]++;
	c->status = status;
}

/* The job object for a status answer at time now (wall ns). */
static void
job_json(struct buf *b, const struct server *s, const char *id, const struct job *j,
	 const struct field *f, int64_t now)
{
	int64_t el = now - j->t0;
	const char *st = "queued";
	long prog = 0;

	if (el >= j->dur)
		st = j->fail ? "failed" : "completed", prog = j->fail ? 0 : 100;
	else if (el >= j->dur / 10)
		st = "in_progress", prog = (long)(el * 100 / (j->dur ? j->dur : 1));
	buf_addf(b, "{\"id\":\"%s\",\"object\":\"video\",\"model\":", id);
	json_quote(b, f && f->model[0] ? f->model : s->opt->model,
		   strlen(f && f->model[0] ? f->model : s->opt->model));
	buf_addf(b, ",\"status\":\"%s\",\"progress\":%ld,\"created_at\":%" PRId64, st, prog,
		 j->t0 / 1000000000);
	if (f && f->size[0]) {
		buf_addstr(b, ",\"size\":");
		json_quote(b, f->size, strlen(f->size));
	}
	if (f && f->seconds[0]) {
		buf_addstr(b, ",\"seconds\":");
		json_quote(b, f->seconds, strlen(f->seconds));
	}
	buf_addstr(b, ",\"quality\":\"standard\"");
	if (!strcmp(st, "completed")) {
		int64_t done = (j->t0 + j->dur) / 1000000000;
		buf_addf(b, ",\"completed_at\":%" PRId64 ",\"expires_at\":%" PRId64
			 ",\"inference_time_s\":%.3f,\"peak_memory_mb\":%.1f", done, done + 3600,
			 (double)j->dur / 1e9, 2048.0 + (double)(j->n % 7) * 128.0);
	} else if (!strcmp(st, "failed")) {
		buf_addstr(b, ",\"error\":{\"code\":\"generation_failed\",\"message\":"
			   "\"aiperf-mock: video generation failed\"}");
	}
	buf_addch(b, '}');
}

static void
submit(struct conn *c, const char *body, size_t blen)
{
	struct server *s = c->srv;
	const struct options *o = s->opt;
	struct field f;
	struct job j;
	struct buf b = BUF_INIT(BUF_NOMAX);
	char id[128];

	memset(&f, 0, sizeof(f));
	if (blen >= 2 && !memcmp(body, "--", 2))
		parse_multipart(&f, body, blen);
	else if (blen && body[0] == '{')
		parse_json(s, &f, body, blen);
	else
		parse_urlencoded(&f, body, blen);
	if (!f.prompt[0]) {
		http_error(c, 422, "invalid_request_error", "prompt: field required");
		return;
	}
	j.n = s->next_id++ * s->nworkers + s->worker;
	j.t0 = clock_wall_ns();
	j.dur = o->video_ns;
	j.fail = strstr(f.prompt, FAIL_MARK) != NULL ||
		 (double)(mix(o->seed ^ mix(j.n)) >> 11) / 9007199254740992.0 * 100.0 <
		 o->video_fail_rate;
	snprintf(id, sizeof(id), "video_%" PRId64 "_%" PRId64 "_%d_%" PRIu64, j.t0, j.dur,
		 j.fail, j.n);
	job_json(&b, s, id, &j, &f, j.t0);
	send_body(c, 200, "application/json", b.s, b.len);
	buf_release(&b);
}

/* The job of an id this mock made; 0, or -1. */
static int
parse_id(const char *p, size_t n, struct job *j)
{
	char tmp[128], *e;

	if (n >= sizeof(tmp) || n < 7 || memcmp(p, "video_", 6))
		return -1;
	memcpy(tmp, p, n);
	tmp[n] = '\0';
	j->t0 = strtoll(tmp + 6, &e, 10);
	if (*e != '_')
		return -1;
	j->dur = strtoll(e + 1, &e, 10);
	if (*e != '_' || (e[1] != '0' && e[1] != '1') || e[2] != '_')
		return -1;
	j->fail = e[1] == '1';
	j->n = strtoull(e + 3, &e, 10);
	return *e || j->t0 <= 0 || j->dur < 0 ? -1 : 0;
}

/* A fixed-size MP4-looking body: an ftyp box, then an mdat box of zeros. */
static void
content(struct conn *c, const struct job *j, int64_t now)
{
	const struct options *o = c->srv->opt;
	static const unsigned char ftyp[24] = {
		0, 0, 0, 24, 'f', 't', 'y', 'p', 'i', 's', 'o', 'm', 0, 0, 2, 0,
		'i', 's', 'o', 'm', 'm', 'p', '4', '1',
	};
	size_t n = (size_t)o->video_bytes < sizeof(ftyp) + 8 ? sizeof(ftyp) + 8
							      : (size_t)o->video_bytes;
	char *b;
	uint32_t m = (uint32_t)(n - sizeof(ftyp));

	if (now - j->t0 < j->dur || j->fail) {
		http_error(c, 404, "invalid_request_error", "video is not ready");
		return;
	}
	b = xcalloc(1, n);
	memcpy(b, ftyp, sizeof(ftyp));
	b[24] = (char)(m >> 24), b[25] = (char)(m >> 16), b[26] = (char)(m >> 8);
	b[27] = (char)m;
	memcpy(b + 28, "mdat", 4);
	send_body(c, 200, "video/mp4", b, n);
	free(b);
}

int
videos_dispatch(struct conn *c, const struct httpreq *req, const char *body, size_t blen)
{
	const char *p = req->target;
	size_t n = req->path_len;
	static const char pre[] = "/v1/videos";
	const size_t pl = sizeof(pre) - 1;
	struct job j;
	int is_get = httpreq_is(req->method, req->method_len, "GET");

	if (n < pl || memcmp(p, pre, pl) || (n > pl && p[pl] != '/'))
		return 0;
	if (n == pl || (n == pl + 1)) {
		if (httpreq_is(req->method, req->method_len, "POST"))
			submit(c, body, blen);
		else
			http_error(c, 405, "invalid_request_error", "method not allowed");
		return 1;
	}
	p += pl + 1;
	n -= pl + 1;
	int want_content = n > 8 && !memcmp(p + n - 8, "/content", 8);
	if (want_content)
		n -= 8;
	if (!is_get) {
		http_error(c, 405, "invalid_request_error", "method not allowed");
	} else if (memchr(p, '/', n) || parse_id(p, n, &j) < 0) {
		http_error(c, 404, "invalid_request_error", "video not found");
	} else if (want_content) {
		content(c, &j, clock_wall_ns());
	} else {
		struct buf b = BUF_INIT(BUF_NOMAX);
		char id[128];
		copy(id, sizeof(id), p, n);
		job_json(&b, c->srv, id, &j, NULL, clock_wall_ns());
		send_body(c, 200, "application/json", b.s, b.len);
		buf_release(&b);
	}
	return 1;
}
