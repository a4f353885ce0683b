/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: redaction never crashes, and redacting twice changes nothing more. */
#include "http/redact.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "json/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef int (*redact_fn)(struct buf *b, const char *s, size_t n);

/* f(f(s)) == f(s): a redacted text holds nothing left to redact. */
static void
twice(redact_fn f, const char *s, size_t n)
{
	struct buf a = BUF_INIT(BUF_NOMAX), b = BUF_INIT(BUF_NOMAX);

	if (f(&a, s, n) < 0 || f(&b, buf_str(&a), a.len) < 0)
		abort();
	if (a.len != b.len || memcmp(buf_str(&a), buf_str(&b), a.len))
		abort();
	buf_release(&a);
	buf_release(&b);
}

static void
config(const char *s, size_t n)
{
	struct json_doc *d = json_doc_new();
	char err[64];
	struct json *v = json_parse(d, s, n, err, sizeof(err));
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;

	if (v) {
		jw_init(&w, &b, 2);
		redact_json(&w, v);
		/* what it writes is JSON again */
		if (!json_parse(d, b.s, b.len, err, sizeof(err)))
			abort();
	}
	buf_release(&b);
	json_doc_free(d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;

	if (size > 4096)
		return 0;
	twice(redact_url, s, size);
	twice(redact_header, s, size);
	twice(redact_cli, s, size);
	twice(redact_extra, s, size);
	if (redact_name(s, size) < 0)
		abort();
	config(s, size);
	return 0;
}
