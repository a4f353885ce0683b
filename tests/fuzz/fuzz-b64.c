/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/b64: any bytes, both modes; what decodes stays within B64_ROOM. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "b64.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *out = malloc(B64_ROOM(size) + 1);
	char err[128];
	size_t n;

	if (!out)
		return 0;
	for (unsigned flags = 0; flags <= B64_SPACE; flags++)
		if (b64_decode((const char *)data, size, flags, out, &n, err,
			       sizeof(err)) == 0 && n > B64_ROOM(size))
			abort();
	free(out);
	return 0;
}
