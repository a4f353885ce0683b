/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/media/dataurl: inputs.json (and raw record) elision of any JSON-ish text, with or without the memo, keeps every byte outside the data: URLs and "data" base64 values it replaces, and media sniffing of any bytes is bounded. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "media/dataurl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether s has a data: URL or a "data" key, what elision replaces. */
static int
has_data(const char *s, size_t n)
{
	for (size_t i = 0; i + 4 <= n; i++)
		if (!memcmp(s + i, "data", 4))
			return 1;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	const char *s = (const char *)data;

	if (size > 100000)
		return 0;
	(void)dataurl_image_mime(data, size);
	dataurl_elide_json(&b, s, size, size ? data[0] % 64 : 0);
	/* nothing elided: the text comes back as it was */
	if (!has_data(s, size) && (b.len != size || (size && memcmp(b.s, s, size))))
		abort();
	/* each elided string (at least 10 bytes with its key) grows by a
	 * bounded marker */
	if (b.len > size + 128 * (size / 8 + 1))
		abort();
	/* the memo (aiperf-send's raw records) gives the same text, the
	 * first time and again */
	for (int pass = 0; pass < 2; pass++) {
		static struct dataurl_memo memo;
		struct buf m = BUF_INIT(BUF_NOMAX);

		dataurl_elide_json_memo(&m, s, size, size ? data[0] % 64 : 0, &memo);
		if (m.len != b.len || (b.len && memcmp(m.s, b.s, b.len)))
			abort();
		buf_release(&m);
	}
	buf_release(&b);
	if (size) {
		char *url = dataurl_encode("image/png", data, size);

		if (strncmp(url, "data:image/png;base64,", 22) ||
		    strlen(url) != 22 + 4 * ((size + 2) / 3))
			abort();
		free(url);
	}
	return 0;
}
