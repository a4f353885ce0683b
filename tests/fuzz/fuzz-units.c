/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: unit parsers never crash and respect their max. */
#include "stats/units.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char s[64];
	uint64_t v;

	if (size >= sizeof(s))
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (units_count(s, 1000000, &v, NULL) == 0 && v > 1000000)
		abort();
	if (units_bytes(s, UINT64_MAX, &v, NULL) < 0)
		v = 0;
	if (units_duration_ns(s, 1000000000, 1ULL << 62, &v, NULL) == 0 &&
	    v > 1ULL << 62)
		abort();
	return 0;
}
