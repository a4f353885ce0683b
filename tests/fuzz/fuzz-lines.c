/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/lines: any input (plain or zstd) splits into bounded lines without crashing. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "lines.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int p[2];
	struct lines l;
	const char *s;
	size_t n, total = 0;
	int r;

	if (size > 60000 || pipe(p) < 0)
		return 0;
	if (write(p[1], data, size) != (ssize_t)size)
		abort();
	close(p[1]);
	lines_fdopen(&l, p[0], "fuzz", 64);
	while ((r = lines_next(&l, &s, &n)) != 0) {
		if (r == 1 && n > 64)
			abort();
		/* zstd input may expand without bound: stop, the loop is finite */
		if (++total > 1000000)
			break;
		if (r < 0 && errno != ENOBUFS)
			break;
	}
	lines_close(&l);
	close(p[0]);
	return 0;
}
