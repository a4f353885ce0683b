/* SPDX-License-Identifier: Apache-2.0 */
/* Routing: which handler answers a request, and the small GET endpoints. */
#define _GNU_SOURCE	/* memmem */
#include "mock.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "json/json.h"
#include "util.h"

static const struct {
	const char *path;
	const char *method;
	enum route route;
	enum mock_style style;	/* metrics routes */
} routes[] = {
	{ "/v1/chat/completions", "POST", ROUTE_CHAT, STYLE_MOCK },
	{ "/v1/completions", "POST", ROUTE_COMPLETIONS, STYLE_MOCK },
	{ "/v1/embeddings", "POST", ROUTE_EMBEDDINGS, STYLE_MOCK },
	{ "/v1/models", "GET", ROUTE_MODELS, STYLE_MOCK },
	{ "/health", "GET", ROUTE_HEALTH, STYLE_MOCK },
	{ "/", "GET", ROUTE_HEALTH, STYLE_MOCK },
	{ "/metrics", "GET", ROUTE_METRICS, STYLE_MOCK },
	{ "/v1/responses", "POST", ROUTE_RESPONSES, STYLE_MOCK },
	{ "/generate", "POST", ROUTE_GENERATE, STYLE_MOCK },
	{ "/generate_stream", "POST", ROUTE_GENERATE_STREAM, STYLE_MOCK },
	{ "/rag/api/prompt", "POST", ROUTE_RAG, STYLE_MOCK },
	{ "/v1/ranking", "POST", ROUTE_NIM_RANKING, STYLE_MOCK },
	{ "/v2/rerank", "POST", ROUTE_COHERE_RERANK, STYLE_MOCK },
	{ "/rerank", "POST", ROUTE_TEI_RERANK, STYLE_MOCK },
	{ "/v1/images/generations", "POST", ROUTE_IMAGES, STYLE_MOCK },
	{ "/v1/infer", "POST", ROUTE_INFER, STYLE_MOCK },
	{ "/v1/image/infer", "POST", ROUTE_INFER, STYLE_MOCK },
	{ "/vllm/metrics", "GET", ROUTE_METRICS, STYLE_VLLM },
	{ "/sglang/metrics", "GET", ROUTE_METRICS, STYLE_SGLANG },
	{ "/trtllm/metrics", "GET", ROUTE_METRICS, STYLE_TRTLLM },
	{ "/dynamo_frontend/metrics", "GET", ROUTE_METRICS, STYLE_DYN_FRONTEND },
	{ "/dynamo_component/prefill/metrics", "GET", ROUTE_METRICS, STYLE_DYN_PREFILL },
	{ "/dynamo_component/decode/metrics", "GET", ROUTE_METRICS, STYLE_DYN_DECODE },
};

static const char *const route_labels[ROUTE_N] = {
	"chat", "completions", "embeddings", "models", "health", "metrics",
	"responses", "generate", "generate_stream", "rag", "ranking", "v2_rerank",
	"rerank", "images_generations", "infer", "other",
};

static void
send_json(struct conn *c, int status, const struct buf *body)
{
	struct server *s = c->srv;

	buf_reset(&s->scratch);
	http_head(&s->scratch, status, "application/json", (long long)body->len,
		  !(c->flags & CONN_CLOSE_AFTER));
	buf_add(&s->scratch, body->s, body->len);
	conn_send(c, s->scratch.s, s->scratch.len);
	s->c.responses[status / 100 % 6]++;
	c->status = status;
}

static void
models(struct conn *c)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	buf_addstr(&b, "{\"object\":\"list\",\"data\":[{\"id\":");
	json_quote(&b, c->srv->opt->model, strlen(c->srv->opt->model));
	buf_addf(&b, ",\"object\":\"model\",\"created\":%lld,"
		 "\"owned_by\":\"aiperf-mock\"}]}", (long long)c->srv->created);
	send_json(c, 200, &b);
	buf_release(&b);
}

static void
health(struct conn *c)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	buf_addstr(&b, "{\"status\":\"healthy\"}");
	send_json(c, 200, &b);
	buf_release(&b);
}

static void
metric(struct buf *b, const char *name, const char *type, const char *help)
{
	buf_addf(b, "# HELP aiperf_mock_%s %s\n# TYPE aiperf_mock_%s %s\n",
		 name, help, name, type);
}

static void
metric_val(struct buf *b, const char *name, const char *help, uint64_t v)
{
	int gauge = strstr(name, "_total") == NULL;

	metric(b, name, gauge ? "gauge" : "counter", help);
	buf_addf(b, "aiperf_mock_%s %llu\n", name, (unsigned long long)v);
}

void
route_metrics(struct conn *c, enum mock_style style, int set)
{
	const struct counters *k = &c->srv->c;
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct server *s = c->srv;

	if (style != STYLE_MOCK) {	/* one server's families only */
		if (style == STYLE_DCGM)
			metrics_dcgm(&b, s, set);
		else
			metrics_style(&b, s, style);
		goto send;
	}
	metric(&b, "requests_total", "counter", "Requests received, by route.");
	for (int i = 0; i < ROUTE_N; i++)
		buf_addf(&b, "aiperf_mock_requests_total{route=\"%s\"} %llu\n",
			 route_labels[i], (unsigned long long)k->requests[i]);
	metric(&b, "responses_total", "counter", "Responses started, by status class.");
	for (int i = 1; i < 6; i++)
		buf_addf(&b, "aiperf_mock_responses_total{class=\"%dxx\"} %llu\n",
			 i, (unsigned long long)k->responses[i]);
	metric_val(&b, "prompt_tokens_total", "Prompt tokens (pseudo count) of LLM requests.", k->prompt_tokens);
	metric_val(&b, "completion_tokens_total", "Completion tokens planned, reasoning included.", k->completion_tokens);
	metric_val(&b, "reasoning_tokens_total", "Reasoning tokens planned.", k->reasoning_tokens);
	metric_val(&b, "chunks_total", "SSE token chunks written.", k->chunks);
	metric_val(&b, "late_chunks_total", "Token chunks written more than 1 ms after their due time.", k->late_chunks);
	metric(&b, "chunk_lag_max_seconds", "gauge", "Largest delay of a token chunk past its due time.");
	buf_addf(&b, "aiperf_mock_chunk_lag_max_seconds %.9f\n", (double)k->max_lag_ns / 1e9);
	metric_val(&b, "injected_errors_total", "Responses failed on purpose (--error-rate).", k->injected_errors);
	metric_val(&b, "aborted_total", "Responses cut short by a closed connection.", k->aborted);
	metric_val(&b, "requests_in_flight", "Responses in progress.", (uint64_t)k->in_flight);
	metric_val(&b, "connections_open", "Open client connections.", (uint64_t)k->conns_open);
	metric_val(&b, "connections_total", "Connections accepted.", k->conns_total);
	metric_val(&b, "connections_rejected_total", "Connections refused by --max-connections.", k->conns_rejected);
	if (s->opt->dcgm_gpus) {	/* a DCGM exporter reports nothing else */
		buf_reset(&b);
		metrics_dcgm(&b, s, 0);
	} else {
		metrics_vllm(&b, s);
	}
send:
	buf_reset(&s->scratch);
	http_head(&s->scratch, 200, "text/plain; version=0.0.4; charset=utf-8",
		  (long long)b.len, !(c->flags & CONN_CLOSE_AFTER));
	buf_add(&s->scratch, b.s, b.len);
	conn_send(c, s->scratch.s, s->scratch.len);
	s->c.responses[2]++;
	c->status = 200;
	buf_release(&b);
}

static void
access_log(const struct conn *c, const struct httpreq *req, int64_t arrival)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char host[INET6_ADDRSTRLEN] = "?";
	int port = 0;

	if (getpeername(c->fd, (struct sockaddr *)&ss, &len) == 0) {
		const void *a = ss.ss_family == AF_INET6 ?
			(const void *)&((struct sockaddr_in6 *)&ss)->sin6_addr :
			(const void *)&((struct sockaddr_in *)&ss)->sin_addr;
		inet_ntop(ss.ss_family, a, host, sizeof(host));
		port = ntohs(ss.ss_family == AF_INET6 ?
			     ((struct sockaddr_in6 *)&ss)->sin6_port :
			     ((struct sockaddr_in *)&ss)->sin_port);
	}
	fprintf(stderr, "%s: %s:%d \"%.*s %.*s HTTP/1.%d\" %d %lld\n", argv0,
		host, port, (int)req->method_len, req->method,
		(int)req->target_len, req->target, req->minor, c->status,
		(long long)arrival);
}

/* /dcgm{N}/metrics, N a GPU set 1..MOCK_DCGM_SETS without leading zeros: N; else 0. */
static int
dcgm_set(const char *p, size_t n)
{
	if (n != sizeof("/dcgm1/metrics") - 1 || memcmp(p, "/dcgm", 5) ||
	    memcmp(p + 6, "/metrics", 8) || p[5] < '1' ||
	    p[5] > '0' + MOCK_DCGM_SETS)
		return 0;
	return p[5] - '0';
}

static int
lookup(const struct httpreq *req, enum route *rt, enum mock_style *style,
       int *set)
{
	*style = STYLE_MOCK;
	*set = dcgm_set(req->target, req->path_len);
	if (*set) {
		*rt = ROUTE_METRICS;
		*style = STYLE_DCGM;
		return httpreq_is(req->method, req->method_len, "GET");
	}
	for (size_t i = 0; i < sizeof(routes) / sizeof(routes[0]); i++) {
		if (strlen(routes[i].path) != req->path_len ||
		    memcmp(routes[i].path, req->target, req->path_len))
			continue;
		*rt = routes[i].route;
		*style = routes[i].style;
		return httpreq_is(req->method, req->method_len, routes[i].method);
	}
	*rt = ROUTE_OTHER;
	return 0;
}

static void
answer(struct conn *c, enum route rt, const char *body, size_t blen,
       int64_t arrival, enum mock_style style, int set)
{
	switch (rt) {
	case ROUTE_CHAT:
	case ROUTE_COMPLETIONS:
	case ROUTE_RESPONSES:
	case ROUTE_GENERATE:
	case ROUTE_GENERATE_STREAM:
	case ROUTE_RAG:
		gen_request(c, rt, body, blen, arrival);
		break;
	case ROUTE_EMBEDDINGS:
		gen_embeddings(c, body, blen, arrival);
		break;
	case ROUTE_NIM_RANKING:
	case ROUTE_COHERE_RERANK:
	case ROUTE_TEI_RERANK:
		gen_rankings(c, rt, body, blen, arrival);
		break;
	case ROUTE_IMAGES:
		gen_images(c, body, blen, arrival);
		break;
	case ROUTE_INFER:
		gen_infer(c, body, blen, arrival);
		break;
	case ROUTE_MODELS:
		models(c);
		break;
	case ROUTE_HEALTH:
		health(c);
		break;
	case ROUTE_METRICS:
		route_metrics(c, style, set);
		break;
	default:
		http_error(c, 404, "not_found_error", "not found");
		break;
	}
}

void
route_dispatch(struct conn *c, const struct httpreq *req, const char *body,
	       size_t blen, int64_t arrival)
{
	struct server *s = c->srv;
	char msg[64];
	enum route rt;
	enum mock_style style;
	int set;
	int method_ok = lookup(req, &rt, &style, &set);

	s->c.requests[rt]++;
	c->status = 0;
	/* the RAG route streams when the client accepts an event stream */
	c->flags &= ~(unsigned)CONN_ACCEPT_SSE;
	if (memmem(c->in.s, req->head_len, "text/event-stream", 17))
		c->flags |= CONN_ACCEPT_SSE;
	if (rt == ROUTE_OTHER && videos_dispatch(c, req, body, blen)) {
		;	/* /v1/videos (videos.c) */
	} else if (rt == ROUTE_OTHER) {
		http_error(c, 404, "not_found_error", "not found");
	} else if (!method_ok) {
		http_error(c, 405, "invalid_request_error", "method not allowed");
	} else if (s->opt->status) {
		snprintf(msg, sizeof(msg), "mock status %d", s->opt->status);
		http_error(c, s->opt->status, "server_error", msg);
	} else {
		answer(c, rt, body, blen, arrival, style, set);
	}
	if (s->opt->verbose)
		access_log(c, req, arrival);
}
