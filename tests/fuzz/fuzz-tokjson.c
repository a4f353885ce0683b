/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: the tokenizer.json loader, then encode and decode with what loaded. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tok/hftok.h"
#include "tok/tokdec.h"
#include "tok/tokpipe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char text[] = "Hello, world! <s> 123 \xc3\xa9\xe4\xb8\xad "
				   "\xf0\x9f\x98\x80\r\n  x\xff";
	struct tokpipe p;
	char err[256];
	int32_t *ids = NULL;
	size_t n = 0, cap = 0, count;
	struct buf out = BUF_INIT(1 << 20);

	tokpipe_init(&p);
	if (hftok_parse(&p, (const char *)data, size, "fuzz", err,
			sizeof(err)) == 0) {
		count = tokpipe_encode(&p, text, sizeof(text) - 1, &ids, &n,
				       &cap);
		if (count != n || tokpipe_encode(&p, text, sizeof(text) - 1,
						 NULL, NULL, NULL) != n)
			__builtin_trap();
		tokdec_decode(&p, ids, n, 0, &out);
		tokdec_decode(&p, ids, n, 1, &out);
	} else if (!memchr(err, '\0', sizeof(err)) || !err[0]) {
		__builtin_trap();
	}
	free(ids);
	buf_release(&out);
	tokpipe_release(&p);
	return 0;
}
