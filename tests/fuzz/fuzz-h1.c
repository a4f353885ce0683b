/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/h1: any bytes parse without crashing, and any split parses the same as one feed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "http/h1.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct res {
	struct buf got;
	long used;
	int rc;
	int status;
	unsigned flags;
};

static int
on_bytes(void *ctx, const char *p, size_t n)
{
	struct buf *b = ctx;
	buf_add(b, p, n);
	buf_addch(b, '|');
	return 0;
}

/* Feed s in pieces of step bytes (0: whole), then the end of the stream. */
static void
parse(const char *s, size_t n, size_t step, struct res *r)
{
	struct h1 h;
	size_t off = 0;

	buf_init(&r->got, BUF_NOMAX);
	h1_init(&h, 512, 2048, on_bytes, NULL, &r->got);
	r->rc = 0;
	while (off < n && !(h.flags & H1_DONE)) {
		size_t k = step && step < n - off ? step : n - off;
		long u = h1_feed(&h, s + off, k);
		if (u < 0) {
			r->rc = -1;
			break;
		}
		if ((size_t)u > k)
			abort();
		off += (size_t)u;
	}
	if (r->rc == 0)
		r->rc = h1_eof(&h);
	if (r->rc < 0 && !h.err)
		abort();
	r->used = (long)off;
	r->status = h.status;
	r->flags = h.flags;
	h1_release(&h);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct res a, b;

	if (size < 1 || size > 20000)
		return 0;
	size_t step = data[0] % 17 + 1;
	parse((const char *)data + 1, size - 1, 0, &a);
	parse((const char *)data + 1, size - 1, step, &b);
	/* Lines may be handed over in one piece or another, but not differ. */
	if (a.rc != b.rc || (a.rc == 0 && a.used != b.used) || a.status != b.status ||
	    a.flags != b.flags || a.got.len != b.got.len ||
	    (a.got.len && memcmp(a.got.s, b.got.s, a.got.len)))
		abort();
	buf_release(&a.got);
	buf_release(&b.got);
	return 0;
}
