/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/json: parse, and a compact rewrite must parse to the same text again;
 * every number reads as strtod/strtoll read it (the fast paths). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A second parse in the now warm arena (strings decoded in one pass where
 * the first parse of a top-level string took the two-pass path) must give
 * the same value or the same error. */
static void
same_again(struct json_doc *d, const uint8_t *data, size_t size,
	   const struct json *v, const char *err)
{
	char err2[128];
	struct json *v2 = json_parse(d, (const char *)data, size, err2, sizeof(err2));
	struct buf a = BUF_INIT(BUF_NOMAX), b = BUF_INIT(BUF_NOMAX);
	struct jw w;

	if (!v != !v2 || (!v && strcmp(err, err2)))
		abort();
	if (v) {
		jw_init(&w, &a, 0);
		jw_value(&w, v);
		jw_init(&w, &b, 0);
		jw_value(&w, v2);
		if (a.len != b.len || memcmp(a.s, b.s, a.len))
			abort();
	}
	buf_release(&a);
	buf_release(&b);
}

/* json_int64 as it was before its fast path: strtoll, else an integral
 * strtod. */
static int
int64_ref(const char *s, int64_t *out)
{
	char *end;

	if (!strpbrk(s, ".eE")) {
		errno = 0;
		long long x = strtoll(s, &end, 10);
		if (errno || *end)
			return -1;
		*out = x;
		return 0;
	}
	double d = strtod(s, &end);
	if (d != floor(d) || fabs(d) > 9.2e18)
		return -1;
	*out = (int64_t)d;
	return 0;
}

static void
check_numbers(const struct json *v, int depth)
{
	double a, b;
	int64_t i = 0, j = 0;

	if (v->type == JSON_NUMBER) {
		b = strtod(v->str, NULL);
		if (json_double(v, &a) || memcmp(&a, &b, sizeof(a)))
			abort();
		int ri = json_int64(v, &i), rj = int64_ref(v->str, &j);
		if (ri != rj || (!ri && i != j))
			abort();
	}
	if (depth < 64)
		for (const struct json *c = v->child; c; c = c->next)
			check_numbers(c, depth + 1);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_doc *d = json_doc_new();
	char err[128];
	struct json *v = json_parse(d, (const char *)data, size, err, sizeof(err));

	same_again(d, data, size, v, err);
	if (v)
		check_numbers(v, 0);
	if (v) {
		struct buf a = BUF_INIT(BUF_NOMAX), b = BUF_INIT(BUF_NOMAX);
		struct jw w;
		jw_init(&w, &a, 0);
		jw_value(&w, v);
		struct json *v2 = json_parse(d, a.s, a.len, err, sizeof(err));
		if (!v2)
			abort();
		jw_init(&w, &b, 2);
		jw_value(&w, v2);
		struct json *v3 = json_parse(d, b.s, b.len, err, sizeof(err));
		buf_reset(&b);
		jw_init(&w, &b, 0);
		jw_value(&w, v3);
		if (a.len != b.len || memcmp(a.s, b.s, a.len))
			abort();
		buf_release(&a);
		buf_release(&b);
	}
	json_doc_free(d);
	return 0;
}
