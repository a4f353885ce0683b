/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/extras: --extra-inputs parsing never crashes and yields valid JSON members. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json/extras.h"
#include "json/json.h"
#include "rand/pystr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *arg = malloc(size + 1), err[256];
	struct extras l = { 0 };
	struct json_doc *d = json_doc_new();
	size_t n = size;

	memcpy(arg, data, size);
	arg[size] = '\0';
	pystr_strip(arg, &n);
	if (extras_parse(&l, arg, err, sizeof(err))) {
		/* the reason survives however long the argument (it is cut) */
		if (!strstr(err, "must be a valid JSON object") &&
		    !strstr(err, "each item must be"))
			abort();
	} else {
		for (size_t i = 0; i < l.n; i++) {
			json_doc_reset(d);
			/* every value must be one well-formed JSON value */
			if (!json_parse(d, l.v[i].val, strlen(l.v[i].val), err,
					sizeof(err)))
				abort();
		}
	}
	extras_release(&l);
	json_doc_free(d);
	free(arg);
	return 0;
}
