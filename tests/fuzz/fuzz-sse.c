/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: any chunk split of an SSE stream yields the same messages as the whole stream. */
#include "http/sse.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
render(void *ctx, const struct sse_msg *m)
{
	struct buf *out = ctx;
	buf_add(out, m->text, m->len);
	buf_addch(out, 0);
	for (size_t i = 0; i < m->n; i++) {
		buf_add(out, m->f[i].name, m->f[i].nlen);
		buf_addch(out, 1);
		if (m->f[i].value)
			buf_add(out, m->f[i].value, m->f[i].vlen);
		buf_addch(out, 2);
	}
	return 0;
}

static void
parse(const uint8_t *p, size_t n, const uint8_t *cuts, size_t ncuts,
      struct buf *out)
{
	struct sse s;
	size_t i = 0, c = 0;

	sse_init(&s, 1 << 20, render, out);
	while (i < n) {
		size_t step = ncuts ? (size_t)cuts[c++ % ncuts] % 7 + 1 : n;
		if (step > n - i)
			step = n - i;
		sse_feed(&s, (const char *)p + i, step);
		i += step;
	}
	sse_finish(&s);
	sse_release(&s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf a = BUF_INIT(1 << 24), b = BUF_INIT(1 << 24);
	/* The first byte says how many of the next bytes choose the cuts. */
	if (size < 1)
		return 0;
	size_t ncuts = data[0] % 16;
	if (ncuts > size - 1)
		ncuts = size - 1;
	const uint8_t *cuts = data + 1, *p = data + 1 + ncuts;
	size_t n = size - 1 - ncuts;

	parse(p, n, NULL, 0, &a);
	parse(p, n, cuts, ncuts, &b);
	if (a.len != b.len || memcmp(buf_str(&a), buf_str(&b), a.len))
		abort();
	buf_release(&a);
	buf_release(&b);
	return 0;
}
