/* SPDX-License-Identifier: Apache-2.0 */
/* --answer-key: replies by exact prompt text, split into the mock's pseudo tokens. */
#include "mock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "rand/pystr.h"
#include "util.h"

#define ANSWERS_MAX_BYTES ((size_t)64 << 20)
#define ANSWERS_MAX ((size_t)1 << 20)

static int
is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The end of the pseudo token at s[i] (gen.c's rule: ~4 bytes, stretched
 * by up to 2 to end at whitespace), moved on to a code point boundary. */
static size_t
piece_end(const char *s, size_t n, size_t i)
{
	size_t e = i + 4 < n ? i + 4 : n;

	for (size_t x = e; x < n && x < i + 6; x++)
		if (is_space((unsigned char)s[x])) {
			e = x;
			break;
		}
	while (e < n && ((unsigned char)s[e] & 0xC0) == 0x80)
		e++;
	return e;
}

/* The reply's pieces, each JSON-escaped on its own (a chunk's text). */
static void
split(struct answer *a, const char *s, size_t n)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	size_t cap = 0;

	a->n = 0;
	a->off = xreallocarray(NULL, cap = 16, sizeof(*a->off));
	for (size_t i = 0; i < n;) {
		size_t e = piece_end(s, n, i);

		if ((size_t)a->n + 2 > cap) {
			cap *= 2;
			a->off = xreallocarray(a->off, cap, sizeof(*a->off));
		}
		a->off[a->n++] = b.len;
		json_quote(&b, s + i, e - i);
		/* drop the quotes json_quote() put around it */
		memmove(b.s + a->off[a->n - 1], b.s + a->off[a->n - 1] + 1,
			b.len - a->off[a->n - 1] - 2);
		b.len -= 2;
		i = e;
	}
	a->off[a->n] = b.len;
	buf_addch(&b, '\0');
	a->text = buf_detach(&b, NULL);
}

static int
by_match(const void *x, const void *y)
{
	const struct answer *a = x, *b = y;
	size_t n = a->match_len < b->match_len ? a->match_len : b->match_len;
	int c = memcmp(a->match, b->match, n);

	if (c)
		return c;
	return a->match_len < b->match_len ? -1 : a->match_len > b->match_len;
}

static int
add(struct answers *k, const struct json *o, char *why, size_t wl)
{
	const struct json *m = json_get(o, "match"), *r = json_get(o, "reply");

	if (!o || o->type != JSON_OBJECT)
		return util_seterr(why, wl, "not a JSON object");
	if (!json_is_str(m))
		return util_seterr(why, wl, "\"match\" is not a string");
	if (!json_is_str(r) || !r->len)
		return util_seterr(why, wl, "\"reply\" is not a non-empty string");
	if (k->n == ANSWERS_MAX)
		return util_seterr(why, wl, "more than %zu answers", ANSWERS_MAX);
	if (k->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 64;
		k->a = xreallocarray(k->a, k->cap, sizeof(*k->a));
	}
	struct answer *a = &k->a[k->n++];
	memset(a, 0, sizeof(*a));
	a->match = xstrndup(m->str, m->len);
	a->match_len = m->len;
	split(a, r->str, r->len);
	return 0;
}

/* Parse text into k; -1 with "line N: ..." in err. */
static int
parse(struct answers *k, const char *s, size_t n, char *err, size_t el)
{
	struct json_doc *d = json_doc_new();
	char why[200];
	size_t lineno = 0;
	int rc = 0;

	for (size_t i = 0; i < n && rc == 0;) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t len = nl ? (size_t)(nl - (s + i)) : n - i;

		lineno++;
		if (!pystr_isblank(s + i, len)) {
			json_doc_reset(d);
			const struct json *o = json_parse(d, s + i, len, why, sizeof(why));
			if (!o || add(k, o, why, sizeof(why)) < 0)
				rc = util_seterr(err, el, "line %zu: %s", lineno, why);
			else
				k->a[k->n - 1].line = lineno;
		}
		i += len + 1;
	}
	json_doc_free(d);
	if (rc == 0 && k->n)
		qsort(k->a, k->n, sizeof(*k->a), by_match);
	for (size_t i = 1; rc == 0 && i < k->n; i++)
		if (!by_match(&k->a[i - 1], &k->a[i]))
			rc = util_seterr(err, el, "line %zu: \"match\" repeats line %zu's",
					 k->a[i].line > k->a[i - 1].line ? k->a[i].line : k->a[i - 1].line,
					 k->a[i].line < k->a[i - 1].line ? k->a[i].line : k->a[i - 1].line);
	return rc;
}

int
answers_load(struct answers *k, const char *path, char *err, size_t el)
{
	size_t n;
	char *s = util_readfile(path, ANSWERS_MAX_BYTES, &n);
	int rc;

	memset(k, 0, sizeof(*k));
	if (!s) {
		if (errno == EFBIG)
			return util_seterr(err, el, "larger than %zu bytes", ANSWERS_MAX_BYTES);
		if (errno == EFTYPE)
			return util_seterr(err, el, "not a regular file");
		return util_seterr(err, el, "%s", util_strerror(errno));
	}
	rc = parse(k, s, n, err, el);
	free(s);
	if (rc < 0)
		answers_release(k);
	return rc;
}

void
answers_release(struct answers *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->a[i].match);
		free(k->a[i].text);
		free(k->a[i].off);
	}
	free(k->a);
	memset(k, 0, sizeof(*k));
}

const struct answer *
answers_find(const struct answers *k, const char *s, size_t n)
{
	struct answer key = { .match = (char *)s, .match_len = n };

	if (!k || !k->n)
		return NULL;
	return bsearch(&key, k->a, k->n, sizeof(*k->a), by_match);
}

/* The text a request is matched by: the last chat message's string
 * content, or the completions prompt string (alone in an array too). */
const struct answer *
answers_match(const struct answers *k, enum route rt, const struct json *root)
{
	const struct json *v = NULL, *msgs;

	if (rt == ROUTE_CHAT) {
		msgs = json_get(root, "messages");
		for (const struct json *m = msgs && msgs->type == JSON_ARRAY ? msgs->child : NULL;
		     m; m = m->next)
			v = m;
		v = json_get(v, "content");
	} else if (rt == ROUTE_COMPLETIONS) {
		/* a string, or (as aiperf-gen and the original send it) an
		 * array of one */
		v = json_get(root, "prompt");
		if (v && v->type == JSON_ARRAY && v->len == 1)
			v = v->child;
	}
	return json_is_str(v) ? answers_find(k, v->str, v->len) : NULL;
}

const char *
resp_token(const struct resp *r, long i, size_t *len)
{
	if (!r->key)
		return gen_word(r->word + (unsigned)i, len);
	*len = r->key->off[i + 1] - r->key->off[i];
	return r->key->text + r->key->off[i];
}
