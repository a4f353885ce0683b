/* SPDX-License-Identifier: Apache-2.0 */
/* Token counting for aiperf-metrics: the tokenizer choice, input text assembly, counts. */
#include "metrics.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "tok.h"
#include "toksrc.h"

struct tokenizer {
	struct tok *t;
	int words;		/* test-only fake: whitespace-separated words */
	char *spec, *revision;
	int tried;
	struct buf in;
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

/* Is model a local path or already in the HuggingFace hub cache? */
static int
model_local(const char *model)
{
	char dir[4096], name[1024];
	const char *cache = getenv("HF_HUB_CACHE"), *home = getenv("HF_HOME");
	struct stat sb;
	size_t j = 0;

	if (stat(model, &sb) == 0)
		return 1;
	for (const char *p = model; *p && j + 3 < sizeof(name); p++) {
		if (*p == '/') {
			name[j++] = '-';
			name[j++] = '-';
		} else {
			name[j++] = *p;
		}
	}
	name[j] = 0;
	if (cache)
		snprintf(dir, sizeof(dir), "%s/models--%s", cache, name);
	else if (home)
		snprintf(dir, sizeof(dir), "%s/hub/models--%s", home, name);
	else
		snprintf(dir, sizeof(dir), "%s/.cache/huggingface/hub/models--%s",
			 getenv("HOME") ? getenv("HOME") : "", name);
	return stat(dir, &sb) == 0;
}

struct tokenizer *
tokenizer_open(const char *spec, const char *revision, const char *model, int quiet)
{
	struct tokenizer *t = xcalloc(1, sizeof(*t));
	const char *fake = getenv("AIPERF_METRICS_FAKE_TOKENIZER");

	(void)model;
	(void)quiet;
	buf_init(&t->in, (size_t)256 << 20);
	t->words = (fake && !strcmp(fake, "words")) || (spec && !strcmp(spec, "test:words"));
	t->spec = spec ? xstrdup(spec) : NULL;
	t->revision = revision ? xstrdup(revision) : NULL;
	return t;
}

/* Load on first use: the model name comes from the first record. */
static int
load(struct tokenizer *t, const char *model)
{
	char err[512];
	const char *spec = t->spec;

	if (t->words || t->t)
		return 0;
	if (t->tried)
		return -1;
	t->tried = 1;
	if (!spec) {
		if (model && model_local(model)) {
			spec = model;
		} else {
			warn("no tokenizer for model '%s' in the local cache; using builtin (o200k_base)",
			     model ? model : "");
			spec = "builtin";
		}
	}
	t->t = tok_load(spec, t->revision, err, sizeof(err));
	if (!t->t)
		die("cannot load tokenizer '%s': %s", spec, err);
	return 0;
}

void
tokenizer_free(struct tokenizer *t)
{
	if (!t)
		return;
	tok_free(t->t);
	buf_release(&t->in);
	free(t->spec);
	free(t->revision);
	free(t);
}

static int64_t
count(struct tokenizer *t, const char *s, size_t n)
{
	if (t->words)
		return count_words(s, n);
	return (int64_t)tok_count(t->t, s, n);
}

int64_t
tokenizer_count(struct tokenizer *t, const char *s, size_t n)
{
	if (!t || load(t, NULL) < 0)
		return -1;
	return count(t, s ? s : "", n);
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

		if (strcmp(json_str_or(json_get(p, "type"), ""), "text") || !json_is_str(tx))
			continue;
		buf_add(b, tx->str, tx->len);
		any = 1;
	}
	if (any)
		(*np)++;
	else
		b->len = start, b->s[start] = 0;
}

static void
strings(struct buf *b, int *np, const struct json *v)
{
	if (v && v->type == JSON_STRING)
		part(b, np, v->str, v->len);
	for (const struct json *e = v && v->type == JSON_ARRAY ? v->child : NULL; e; e = e->next)
		if (e->type == JSON_STRING)
			part(b, np, e->str, e->len);
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
		strings(b, &np, json_get(r->payload, "prompt"));
		strings(b, &np, json_get(r->payload, "input"));
	}
	return np > 0;
}

int64_t
tokens_input(struct tokenizer *t, const struct rec *r)
{
	if (!t || !input_text(r, &t->in))
		return -1;
	if (load(t, json_str_or(json_get(r->payload, "model"), NULL)) < 0)
		return -1;
	return count(t, t->in.s ? t->in.s : "", t->in.len);
}
