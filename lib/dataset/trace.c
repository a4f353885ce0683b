/* SPDX-License-Identifier: Apache-2.0 */
/* The mooncake trace line: one JSON object per line with lengths, hash ids and timing. */
#include "dataset/trace.h"

#include "rand/pystr.h"
#include "util.h"

void trace_parser_init(struct trace_parser *p, size_t max_hash)
{
	memset(p, 0, sizeof(*p));
	p->doc = json_doc_new();
	p->max_hash = max_hash ? max_hash : TRACE_MAX_HASH;
	p->ts_kind = FIELD_MS;
}

void trace_parser_release(struct trace_parser *p)
{
	json_doc_free(p->doc);
	free(p->line.hash_ids);
	memset(p, 0, sizeof(*p));
}

static int fail(char *err, size_t errlen, const char *what, const char *why)
{
	snprintf(err, errlen, "%s: %s", what, why);
	return -1;
}

/* An optional length: absent or null leaves *out at 0; out of
 * FIELD_TOKENS is an error. */
static int get_int(const struct json *o, const char *key, int64_t *out,
		   unsigned bit, unsigned *has, char *err, size_t errlen)
{
	const struct json *v = json_get(o, key);
	const char *why;

	*out = 0;
	if (!v || v->type == JSON_NULL)
		return 0;
	if (json_int64(v, out) < 0)
		return fail(err, errlen, key, "expected an integer");
	if ((why = field_check(FIELD_TOKENS, (double)*out)))
		return fail(err, errlen, key, why);
	*has |= bit;
	return 0;
}

/* An optional number within kind's bounds. */
static int get_num(const struct json *o, const char *key, enum field_kind kind,
		   double *out, unsigned bit, unsigned *has, char *err,
		   size_t errlen)
{
	const struct json *v = json_get(o, key);
	const char *why;

	*out = 0;
	if (!v || v->type == JSON_NULL)
		return 0;
	if (json_double(v, out) < 0)
		return fail(err, errlen, key, "expected a number");
	if ((why = field_check(kind, *out)))
		return fail(err, errlen, key, why);
	*has |= bit;
	return 0;
}

/* Plain non-negative integers up to 18 digits, the common case; else -1. */
static int fast_int(const struct json *v, int64_t *out)
{
	int64_t x = 0;

	if (v->type != JSON_NUMBER || v->len == 0 || v->len > 18)
		return -1;
	for (size_t i = 0; i < v->len; i++) {
		unsigned d = (unsigned char)v->str[i] - '0';

		if (d > 9)
			return -1;
		x = x * 10 + d;
	}
	*out = x;
	return 0;
}

static int get_hash_ids(struct trace_parser *p, const struct json *o,
			char *err, size_t errlen)
{
	const struct json *v = json_get(o, "hash_ids"), *e;
	struct trace_line *l = &p->line;

	l->n_hash = 0;
	if (!v || v->type == JSON_NULL)
		return 0;
	if (v->type != JSON_ARRAY)
		return fail(err, errlen, "hash_ids", "expected a list of integers");
	if (v->len > p->max_hash) {
		snprintf(err, errlen, "hash_ids: more than %zu ids", p->max_hash);
		return -1;
	}
	if (v->len > p->cap_hash) {
		p->cap_hash = v->len;
		l->hash_ids = xreallocarray(l->hash_ids, p->cap_hash,
					    sizeof(*l->hash_ids));
	}
	for (e = v->child; e; e = e->next) {
		int64_t *slot = &l->hash_ids[l->n_hash++];

		if (fast_int(e, slot) < 0 && json_int64(e, slot) < 0)
			return fail(err, errlen, "hash_ids",
				    "expected a list of integers");
	}
	if (l->n_hash)
		l->has |= TRACE_HASH_IDS;
	return 0;
}

static int present(const struct json *o, const char *key)
{
	const struct json *v = json_get(o, key);

	return v && v->type != JSON_NULL;
}

int trace_parse(struct trace_parser *p, const char *s, size_t n, char *err,
		size_t errlen)
{
	struct trace_line *l = &p->line;
	const struct json *o;
	char jerr[128];

	if (pystr_isblank(s, n))
		return 0;
	json_doc_reset(p->doc);
	l->has = 0;
	l->n_hash = 0;
	o = json_parse(p->doc, s, n, jerr, sizeof(jerr));
	if (!o)
		return fail(err, errlen, "invalid JSON", jerr);
	if (o->type != JSON_OBJECT)
		return fail(err, errlen, "trace line", "expected a JSON object");
	l->root = o;
	if (get_int(o, "input_length", &l->input_length, TRACE_INPUT_LENGTH,
		    &l->has, err, errlen) < 0 ||
	    get_int(o, "output_length", &l->output_length, TRACE_OUTPUT_LENGTH,
		    &l->has, err, errlen) < 0 ||
	    get_num(o, "timestamp", p->ts_kind, &l->timestamp, TRACE_TIMESTAMP,
		    &l->has, err, errlen) < 0 ||
	    get_hash_ids(p, o, err, errlen) < 0)
		return -1;
	if (json_get(o, "delay")) {
		double d;

		if (get_num(o, "delay", FIELD_MS, &d, TRACE_DELAY, &l->has, err,
			    errlen) < 0)
			return -1;
	}
	l->has |= present(o, "session_id") ? TRACE_SESSION_ID : 0;
	l->has |= present(o, "text_input") ? TRACE_TEXT_INPUT : 0;
	l->has |= present(o, "messages") ? TRACE_MESSAGES : 0;
	return 1;
}
