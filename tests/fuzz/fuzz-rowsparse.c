/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/hub/rows rows_parse: any JSON Lines text is refused or yields rows that each parse as an object. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hub/rows.h"
#include "json/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy, so that reading past the end is caught */
	char *s = malloc(size ? size : 1), err[256];
	struct json_doc *doc = json_doc_new();
	struct rows r;
	size_t bytes = 0;

	if (!s)
		abort();
	memcpy(s, data, size);
	if (rows_parse(s, size, "f", &r, 4096, err, sizeof(err)) == 0) {
		for (size_t i = 0; i < r.n; i++) {
			const struct json *v;
			char e[128];

			bytes += r.len[i] + 1;
			json_doc_reset(doc);
			v = json_parse(doc, r.v[i], r.len[i], e, sizeof(e));
			if (!v || v->type != JSON_OBJECT || r.v[i][r.len[i]] != '\0' ||
			    memchr(r.v[i], '\n', r.len[i]))
				abort();
		}
		if (bytes > 4096)
			abort();
	} else if (r.n || r.v || !memchr(err, '\0', sizeof(err))) {
		abort();
	}
	rows_free(&r);
	json_doc_free(doc);
	free(s);
	return 0;
}
