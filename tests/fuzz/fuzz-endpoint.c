/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: an endpoint type's lookup finds only a type the name names. */
#include "endpoint.h"

#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether s is name in some case, with dashes or underscores. */
static int
names(const char *s, const char *name)
{
	for (; *s && *name; s++, name++)
		if (!(tolower((unsigned char)*s) == *name || (*s == '-' && *name == '_')))
			return 0;
	return !*s && !*name;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	const struct endpoint_type *t, *r;

	memcpy(s, data, size);
	s[size] = '\0';
	t = endpoint_find(s);
	r = endpoint_find_record(s);
	if (t && (!names(s, t->name) || r != t))
		abort();
	if (r && !t && !names(s, "rankings"))
		abort();
	for (size_t i = 0; !t && i < ENDPOINT_N; i++)
		if (names(s, endpoint_get((enum endpoint_id)i)->name))
			abort();
	free(s);
	return 0;
}
