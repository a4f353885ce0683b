/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/proftab: any text parses or fails cleanly; every option parsed is found by its names. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proftab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proftab t;
	size_t bad;

	proftab_init(&t);
	if (proftab_parse(&t, (const char *)data, size, &bad) < 0) {
		if (t.n || t.opts)
			abort();
		return 0;
	}
	for (size_t i = 0; i < t.n; i++) {
		const struct proftab_opt *o = &t.opts[i];

		if (!proftab_find(&t, o->name) || !o->stages || !o->line)
			abort();
		for (size_t k = 0; k < o->naliases; k++)
			if (!proftab_find(&t, o->aliases[k]))
				abort();
	}
	proftab_release(&t);
	return 0;
}
