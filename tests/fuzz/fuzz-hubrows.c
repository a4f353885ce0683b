/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/hub/rowpage: any page is refused or yields rows whose text lies in it and parses as an object. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hub/rowpage.h"
#include "json/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(const char *s, size_t n, const struct rowpage *p, struct json_doc *doc)
{
	char e[128];

	if (p->n > ROWPAGE_MAX_ROWS || p->total < 0)
		abort();
	for (size_t i = 0; i < p->n; i++) {
		const struct json *v;

		if (p->row[i] < s || p->row[i] + p->len[i] > s + n)
			abort();
		json_doc_reset(doc);
		v = json_parse(doc, p->row[i], p->len[i], e, sizeof(e));
		if (!v || v->type != JSON_OBJECT)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the first byte is the offset asked for; a copy, so that reading
	 * past the end is caught */
	uint64_t offset = size ? data[0] % 4 * 100 : 0;
	size_t n = size ? size - 1 : 0;
	char *s = malloc(n ? n : 1), err[256];
	struct json_doc *doc = json_doc_new();
	struct rowpage p;

	if (!s)
		abort();
	memcpy(s, data + (size ? 1 : 0), n);
	if (rowpage_parse(s, n, offset, &p, err, sizeof(err)) == 0)
		check(s, n, &p, doc);
	else if (p.n || p.row || !memchr(err, '\0', sizeof(err)))
		abort();
	rowpage_release(&p);
	json_doc_free(doc);
	free(s);
	return 0;
}
