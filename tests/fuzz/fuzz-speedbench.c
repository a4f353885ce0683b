/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/dataset/speedbench: any JSON line parses or is refused with a message, and a parsed row's fields hold. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dataset/speedbench.h"
#include "rand/pystr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_row(const struct speedbench_row *r)
{
	const char *role, *content;
	size_t rl, cl, n = 0;

	if (pystr_len(r->id, r->id_len) != 32 || !r->category_len)
		abort();
	if (!r->nmessages || r->nmessages > SPEEDBENCH_MAX_MESSAGES)
		abort();
	for (const struct json *m = r->messages->child; m; m = m->next, n++) {
		speedbench_message(m, &role, &rl, &content, &cl);
		if (pystr_isblank(role, rl) || pystr_isblank(content, cl))
			abort();
	}
	if (n != r->nmessages)
		abort();
	for (const struct speedbench_type *t = speedbench_types; t->name; t++)
		(void)speedbench_wants(t, r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_doc *d = json_doc_new();
	const struct json *v;
	struct speedbench_row r;
	char err[512];

	v = json_parse(d, (const char *)data, size, err, sizeof(err));
	if (v) {
		memset(err, 0, sizeof(err));
		if (speedbench_parse(v, &r, err, sizeof(err)) == 0)
			check_row(&r);
		else if (!err[0] || !memchr(err, '\0', sizeof(err)))
			abort();
	}
	json_doc_free(d);
	(void)speedbench_lookup((const char *)data, size);
	return 0;
}
