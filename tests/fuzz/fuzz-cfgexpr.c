/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/cfg/expr: any template renders to one JSON value or fails with a message and out untouched, the same way twice. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cfg/expr.h"
#include "json/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const vars[][2] = {
	{ "a", "16" },
	{ "f", "2.5" },
	{ "s", "\"x'y\\\"z\"" },
	{ "n", "null" },
	{ "t", "true" },
	{ "obj", "{\"k\": [1, 2, {\"z\": \"w\"}], \"n\": null, \"f\": -0.5}" },
	{ "arr", "[3, 1, 2.5, \"s\", true, [], {}]" },
	{ "obj.k", "[9]" },
	{ "huge", "123456789012345678901234567890" },
	{ "bad", "{" },
};

static int
lookup(void *ctx, const char *name, struct buf *out, char *err, size_t errlen)
{
	(void)ctx;
	if (!strcmp(name, "fails"))
		return util_seterr(err, errlen, "lookup failed");
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (!strcmp(vars[i][0], name))
			return buf_addstr(out, vars[i][1]);
	return 1;
}

static int
render(const uint8_t *data, size_t size, struct buf *out, char *err, size_t errlen)
{
	buf_addstr(out, "[");
	err[0] = '\0';
	int rc = cfgexpr_render((const char *)data, size, lookup, NULL, out, err, errlen);

	if (rc < 0 && (out->len != 1 || !err[0]))
		abort();
	return rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf a = BUF_INIT(BUF_NOMAX), b = BUF_INIT(BUF_NOMAX);
	char e1[128], e2[128];
	int r1, r2;

	if (size > 8192)
		return 0;
	r1 = render(data, size, &a, e1, sizeof(e1));
	r2 = render(data, size, &b, e2, sizeof(e2));
	if (r1 != r2 || a.len != b.len || memcmp(a.s, b.s, a.len) || (r1 && strcmp(e1, e2)))
		abort();
	if (r1 == 0) {
		struct json_doc *d = json_doc_new();
		char jerr[128];

		buf_addstr(&a, "]");
		struct json *v = json_parse(d, a.s, a.len, jerr, sizeof(jerr));
		/* one number, boolean or string */
		if (!v || v->len != 1 || v->child->type == JSON_ARRAY ||
		    v->child->type == JSON_OBJECT || v->child->type == JSON_NULL)
			abort();
		json_doc_free(d);
	}
	buf_release(&a);
	buf_release(&b);
	return 0;
}
