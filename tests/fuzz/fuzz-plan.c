/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/plan: any text parses or fails cleanly, and a plan that parses is written and read back the same. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct plan p, q;
	struct buf a = BUF_INIT(BUF_NOMAX), b = BUF_INIT(BUF_NOMAX);
	char err[256];

	plan_init(&p);
	plan_init(&q);
	if (plan_parse(&p, (const char *)data, size, err, sizeof(err)) < 0)
		return 0;
	plan_write(&p, &a);
	if (plan_parse(&q, a.s, a.len, err, sizeof(err)) < 0)
		abort();
	plan_write(&q, &b);
	if (a.len != b.len || memcmp(a.s, b.s, a.len))
		abort();
	plan_release(&p);
	plan_release(&q);
	buf_release(&a);
	buf_release(&b);
	return 0;
}
