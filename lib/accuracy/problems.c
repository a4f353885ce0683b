/* SPDX-License-Identifier: Apache-2.0 */
/* Problem records (aiperf.problem/1, aiperf-records(5)): one accuracy benchmark problem a line. */
#include "accuracy/problems.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "rand/pystr.h"
#include "util.h"

#define SCHEMA "aiperf.problem/1"

/* A string member without NUL bytes, copied; NULL with a message in why. */
static char *
str_member(const struct json *o, const char *key, const char **why)
{
	const struct json *v = json_get(o, key);

	if (!v) {
		*why = "missing";
		return NULL;
	}
	if (v->type != JSON_STRING) {
		*why = "not a string";
		return NULL;
	}
	if (memchr(v->str, '\0', v->len)) {
		*why = "holds a NUL character";
		return NULL;
	}
	return xstrndup(v->str, v->len);
}

static int
check_messages(const struct json *m, const char **why)
{
	if (!m) {
		*why = "missing";
		return -1;
	}
	if (m->type != JSON_ARRAY || !m->len) {
		*why = "not a non-empty array";
		return -1;
	}
	for (const struct json *e = m->child; e; e = e->next)
		if (e->type != JSON_OBJECT || !json_is_str(json_get(e, "role"))) {
			*why = "holds a message that is not an object with a string \"role\"";
			return -1;
		}
	return 0;
}

static void
rec_free(struct problem_rec *p)
{
	free(p->task);
	free(p->gold);
	free(p->prompt);
	free(p->messages);
	memset(p, 0, sizeof(*p));
}

/* One parsed record into p; -1 with a message in err. */
static int
take(struct problem_rec *p, const struct json *o, size_t index, char *err, size_t errlen)
{
	static const char *const keys[] = { "task", "gold", "prompt" };
	char **to[] = { &p->task, &p->gold, &p->prompt };
	const char *why = NULL;
	int64_t v;

	if (o->type != JSON_OBJECT)
		return util_seterr(err, errlen, "not a JSON object");
	if (strcmp(json_str_or(json_get(o, "schema"), ""), SCHEMA))
		return util_seterr(err, errlen, "\"schema\" is not \"%s\"", SCHEMA);
	if (json_int64(json_get(o, "index"), &v) < 0 || v < 0 || (uint64_t)v != index)
		return util_seterr(err, errlen, "\"index\" is not %zu (the record's place)", index);
	p->index = index;
	for (size_t i = 0; i < 3; i++)
		if (!(*to[i] = str_member(o, keys[i], &why)))
			return util_seterr(err, errlen, "\"%s\" %s", keys[i], why);
	const struct json *m = json_get(o, "messages");
	if (check_messages(m, &why) < 0)
		return util_seterr(err, errlen, "\"messages\" %s", why);
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;
	jw_init(&w, &b, 0);
	jw_value(&w, m);
	p->messages = buf_detach(&b, &p->messages_len);
	if (json_int64(json_get(o, "max_tokens"), &v) < 0 || v < 1 || v > INT32_MAX)
		return util_seterr(err, errlen, "\"max_tokens\" is not an integer from 1 to %d",
				   INT32_MAX);
	p->max_tokens = v;
	return 0;
}

/* One non-blank line: parsed and appended to ps; -1 with a message. */
static int
add_line(struct problem_list *ps, struct json_doc *d, const char *s, size_t n, size_t lineno,
	 char *err, size_t errlen)
{
	char why[200];
	const struct json *o = json_parse(d, s, n, why, sizeof(why));

	if (!o)
		return util_seterr(err, errlen, "line %zu: %s", lineno, why);
	if (ps->n == PROBLEMS_MAX)
		return util_seterr(err, errlen, "line %zu: more than %zu problems", lineno,
				   PROBLEMS_MAX);
	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 64;
		ps->p = xreallocarray(ps->p, ps->cap, sizeof(*ps->p));
	}
	memset(&ps->p[ps->n], 0, sizeof(ps->p[ps->n]));
	if (take(&ps->p[ps->n], o, ps->n, why, sizeof(why)) < 0) {
		rec_free(&ps->p[ps->n]);
		return util_seterr(err, errlen, "line %zu: %s", lineno, why);
	}
	ps->n++;
	return 0;
}

int
problem_list_parse(struct problem_list *ps, const char *text, size_t n, char *err, size_t errlen)
{
	struct json_doc *d = json_doc_new();
	size_t lineno = 0;
	int rc = 0;

	memset(ps, 0, sizeof(*ps));
	for (size_t i = 0; i < n && rc == 0;) {
		const char *nl = memchr(text + i, '\n', n - i);
		size_t len = nl ? (size_t)(nl - (text + i)) : n - i;

		lineno++;
		if (!pystr_isblank(text + i, len)) {
			json_doc_reset(d);
			rc = add_line(ps, d, text + i, len, lineno, err, errlen);
		}
		i += len + 1;
	}
	json_doc_free(d);
	if (rc == 0 && !ps->n)
		rc = util_seterr(err, errlen, "no problem records");
	if (rc < 0)
		problem_list_release(ps);
	return rc;
}

int
problem_list_load(struct problem_list *ps, const char *path, char *err, size_t errlen)
{
	size_t n;
	char *s = util_readfile(path, PROBLEMS_MAX_BYTES, &n);
	int rc;

	memset(ps, 0, sizeof(*ps));
	if (!s) {
		if (errno == EFBIG)
			return util_seterr(err, errlen, "larger than %zu bytes", PROBLEMS_MAX_BYTES);
		if (errno == EFTYPE)
			return util_seterr(err, errlen, "not a regular file");
		return util_seterr(err, errlen, "%s", util_strerror(errno));
	}
	rc = problem_list_parse(ps, s, n, err, errlen);
	free(s);
	return rc;
}

void
problem_list_release(struct problem_list *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		rec_free(&ps->p[i]);
	free(ps->p);
	memset(ps, 0, sizeof(*ps));
}
