/* SPDX-License-Identifier: Apache-2.0 */
/* Token counting for aiperf-metrics: the tokenizer choice, input text assembly, counts. */
#include "metrics.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "tok/tok.h"
#include "tok/toksrc.h"

#define MAX_MODELS 64

struct tokenizer {
	int words;		/* test-only fake: whitespace-separated words */
	char *spec, *revision;
	struct tok *single;	/* --tokenizer given: one for all models */
	struct tok *builtin;	/* fallback for models not found locally */
	struct {
		char *model;
		struct tok *t;
	} m[MAX_MODELS];
	size_t nm;
	pthread_mutex_t lock;
};

static int64_t
count_words(const char *s, size_t n)
{
	int64_t c = 0;
	int in = 0;

	for (size_t i = 0; i < n; i++) {
		int sp = isspace((unsigned char)s[i]);

		c += !sp && !in;
		in = !sp;
	}
	return c;
}

/* Load model's tokenizer from a local path or the HuggingFace cache only:
 * HF_HUB_OFFLINE is set around the call (the lock is held). */
static struct tok *
load_offline(const char *model, const char *revision)
{
	char err[512];
	const char *v = getenv("HF_HUB_OFFLINE");
	char *old = v ? xstrdup(v) : NULL;
	struct tok *k;

	if (!*model)
		return NULL;
	setenv("HF_HUB_OFFLINE", "1", 1);
	k = tok_load(model, revision, err, sizeof(err));
	if (old)
		setenv("HF_HUB_OFFLINE", old, 1);
	else
		unsetenv("HF_HUB_OFFLINE");
	free(old);
	return k;
}

struct tokenizer *
tokenizer_open(const char *spec, const char *revision)
{
	struct tokenizer *t = xcalloc(1, sizeof(*t));

	pthread_mutex_init(&t->lock, NULL);
	t->words = spec && !strcmp(spec, "test:words");
	t->spec = spec ? xstrdup(spec) : NULL;
	t->revision = revision ? xstrdup(revision) : NULL;
	return t;
}

static struct tok *
open_or_die(const char *spec, const char *revision)
{
	char err[512];
	struct tok *k = tok_load(spec, revision, err, sizeof(err));

	if (!k)
		die("cannot load tokenizer '%s': %s", spec, err);
	return k;
}

/* The tokenizer for model, loaded on first use (call with t->lock held). */
static struct tok *
for_model(struct tokenizer *t, const char *model)
{
	struct tok *k;

	if (t->spec)
		return t->single ? t->single : (t->single = open_or_die(t->spec, t->revision));
	for (size_t i = 0; i < t->nm; i++)
		if (!strcmp(t->m[i].model, model))
			return t->m[i].t;
	if (!(k = load_offline(model, t->revision))) {
		warn("no tokenizer for model '%s' in the local cache; using builtin (o200k_base)",
		     model);
		if (!t->builtin)
			t->builtin = open_or_die("builtin", NULL);
		k = t->builtin;
	}
	if (t->nm < MAX_MODELS) {
		t->m[t->nm].model = xstrdup(model);
		t->m[t->nm++].t = k;
	}
	return k;
}

void
tokenizer_free(struct tokenizer *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nm; i++) {
		if (t->m[i].t != t->builtin)
			tok_free(t->m[i].t);
		free(t->m[i].model);
	}
	tok_free(t->single);
	tok_free(t->builtin);
	pthread_mutex_destroy(&t->lock);
	free(t->spec);
	free(t->revision);
	free(t);
}

int64_t
tokenizer_count(struct tokenizer *t, const struct rec *r, const char *s, size_t n)
{
	struct tok *k;

	if (!t)
		return -1;
	if (t->words)
		return count_words(s ? s : "", n);
	pthread_mutex_lock(&t->lock);
	k = for_model(t, json_str_or(json_get(r->payload, "model"), ""));
	pthread_mutex_unlock(&t->lock);
	return (int64_t)tok_count(k, s ? s : "", n);
}

/* Append one part, joined to earlier parts by a single space. */
static void
part(struct buf *b, int *nparts, const char *s, size_t n)
{
	if ((*nparts)++)
		buf_addch(b, ' ');
	buf_add(b, s, n);
}

/* A chat message's text: its string content, or its text parts concatenated. */
static void
message_text(struct buf *b, int *np, const struct json *content)
{
	size_t start;
	int any = 0;

	if (content && content->type == JSON_STRING) {
		part(b, np, content->str, content->len);
		return;
	}
	if (!content || content->type != JSON_ARRAY)
		return;
	start = b->len;
	if (*np)
		buf_addch(b, ' ');
	for (const struct json *p = content->child; p; p = p->next) {
		const struct json *tx = json_get(p, "text");

		const char *type = json_str_or(json_get(p, "type"), "");

		if ((strcmp(type, "text") && strcmp(type, "input_text")) || !json_is_str(tx))
			continue;
		buf_add(b, tx->str, tx->len);
		any = 1;
	}
	if (any)
		(*np)++;
	else if (b->len > start)	/* the separator (b->s is NULL while empty) */
		b->len = start, b->s[start] = 0;
}

/* Strings, or string elements, or (Responses API input items) their content. */
static void
strings(struct buf *b, int *np, const struct json *v)
{
	if (v && v->type == JSON_STRING)
		part(b, np, v->str, v->len);
	for (const struct json *e = v && v->type == JSON_ARRAY ? v->child : NULL; e; e = e->next) {
		if (e->type == JSON_STRING)
			part(b, np, e->str, e->len);
		else if (e->type == JSON_OBJECT)
			message_text(b, np, json_get(e, "content"));
	}
}

/* A rankings body's texts: the query, then the passages (NIM: objects
 * with a "text"; Cohere: "documents"; TEI: "texts"). */
static void
rankings_text(struct buf *b, int *np, const struct json *payload)
{
	static const char *const lists[] = { "passages", "documents", "texts" };
	const struct json *q = json_get(payload, "query");

	if (q && q->type == JSON_OBJECT)
		q = json_get(q, "text");
	if (json_is_str(q))
		part(b, np, q->str, q->len);
	for (size_t i = 0; i < 3; i++) {
		const struct json *l = json_get(payload, lists[i]);

		for (const struct json *e = l && l->type == JSON_ARRAY ? l->child : NULL;
		     e; e = e->next) {
			const struct json *t = e->type == JSON_OBJECT ? json_get(e, "text") : e;

			if (json_is_str(t))
				part(b, np, t->str, t->len);
		}
	}
}

/* The request's text parts joined by spaces (aiperf-records(5) INPUT TOKENS). */
static int
input_text(const struct rec *r, struct buf *b)
{
	const struct json *it = json_get(r->aiperf, "input_text");
	const struct json *msgs = json_get(r->payload, "messages");
	int np = 0;

	buf_reset(b);
	if (it && it->type == JSON_STRING) {
		buf_add(b, it->str, it->len);
		return 1;
	}
	for (const struct json *m = msgs && msgs->type == JSON_ARRAY ? msgs->child : NULL;
	     m; m = m->next)
		message_text(b, &np, json_get(m, "content"));
	if (!msgs) {
		strings(b, &np, json_get(r->payload, "instructions"));
		strings(b, &np, json_get(r->payload, "prompt"));
		strings(b, &np, json_get(r->payload, "input"));
		strings(b, &np, json_get(r->payload, "inputs"));	/* TGI */
		if (r->et == ET_SOLIDO_RAG)
			strings(b, &np, json_get(r->payload, "query"));
		if (etype_rankings(r->et))
			rankings_text(b, &np, r->payload);
	}
	return np > 0;
}

int64_t
tokens_input(struct tokenizer *t, struct rec *r)
{
	if (!t || !input_text(r, &r->in))
		return -1;
	return tokenizer_count(t, r, r->in.s, r->in.len);
}
