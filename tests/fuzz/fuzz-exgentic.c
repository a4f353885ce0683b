/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for Exgentic trace rows (lib/dataset/exgentic): every call read is valid JSON, in start order. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dataset/exgentic.h"
#include "json/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* s parses as one JSON value of type t. */
static void
check_json(const char *s, enum json_type t)
{
	struct json_doc *d;
	const struct json *v;

	if (!s)
		return;
	d = json_doc_new();
	v = json_parse(d, s, strlen(s), NULL, 0);
	if (!v || v->type != t)
		abort();
	json_doc_free(d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct exg_filters f;
	struct exg_row r;
	struct exg_stats st = { 0 };
	char err[512];
	int64_t us;
	int rc;

	exg_filters_init(&f, size & 1);
	rc = exg_row_parse((const char *)data, size, 1, &f, &r, &st, err, sizeof(err));
	if (rc == 0 && (!r.session_id || !r.harness || !r.match))
		abort();
	if (rc != 0 && (rc != -1 || strncmp(err, "Exgentic ", 9)))
		abort();
	for (size_t i = 0; rc == 0 && i < r.ncalls; i++) {
		if (i && (r.calls[i].start_us < r.calls[i - 1].start_us ||
			  r.calls[i].end_us < r.calls[i].start_us))
			abort();
		if (r.calls[i].max_tokens < 1)
			abort();
		check_json(r.calls[i].messages, JSON_ARRAY);
		check_json(r.calls[i].tools, JSON_ARRAY);
		check_json(r.calls[i].extra, JSON_OBJECT);
	}
	exg_row_release(&r);
	(void)exg_parse_time((const char *)data, size, &us);
	return 0;
}
