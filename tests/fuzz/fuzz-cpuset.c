/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/cpuset: any text parses or fails cleanly; a refused list leaves the set empty. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpuset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char set[CPUSET_MAX / 8];
	char *s = malloc(size + 1);
	int r;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	r = cpuset_parse(s, set);
	for (int i = 0; i < CPUSET_MAX; i++)
		if (cpuset_has(set, i) && (r < 0 || !strchr("0123456789", s[0])))
			abort();
	free(s);
	return 0;
}
