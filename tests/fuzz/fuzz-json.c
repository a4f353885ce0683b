/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/json: parse, and a compact rewrite must parse to the same text again. */
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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_doc *d = json_doc_new();
	char err[128];
	struct json *v = json_parse(d, (const char *)data, size, err, sizeof(err));

	same_again(d, data, size, v, err);
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
