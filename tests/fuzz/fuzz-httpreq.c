/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/httpreq: any bytes parse without crashing, and a head split anywhere parses the same. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "http/httpreq.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_prefixes(const char *s, size_t n, const struct httpreq *whole)
{
	struct httpreq r;

	/* Every proper prefix of a complete head must ask for more, or fail
	 * the same way; never report a different complete head. */
	for (size_t k = 0; k < whole->head_len; k += 1 + k / 8) {
		int rc = httpreq_parse_head(&r, s, k, 4096);
		if (rc == 1)
			abort();
	}
	if (httpreq_parse_head(&r, s, n, 4096) != 1 || r.head_len != whole->head_len ||
	    r.content_length != whole->content_length || r.flags != whole->flags)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct httpreq r;
	struct buf out = BUF_INIT(1 << 16);
	size_t used = 0;
	int rc;

	if (size > 20000)
		return 0;
	rc = httpreq_parse_head(&r, s, size, 4096);
	if (rc == 1) {
		if (r.head_len > size || r.path_len > r.target_len)
			abort();
		check_prefixes(s, size, &r);
		s += r.head_len;
		size -= r.head_len;
	}
	rc = httpreq_dechunk(s, size, &out, &used);
	if (rc == 1 && (used > size || out.len > size))
		abort();
	if (rc != 1 && out.len != 0)
		abort();
	buf_release(&out);
	return 0;
}
