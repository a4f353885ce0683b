/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: lib/procstat's /proc/PID/stat parser never crashes, and what parses is in range. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "procstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct procstat ps;

	if (procstat_parse(&ps, s, size) < 0)
		return 0;
	/* the name ends at the last ')': none is left after it */
	const char *close = NULL;

	for (size_t i = 0; i < size; i++)
		if (s[i] == ')')
			close = s + i;
	if (!close || memchr(ps.comm, '\0', sizeof(ps.comm)) == NULL)
		abort();
	if (strlen(ps.comm) > (size_t)(close - s))
		abort();
	if (ps.pid < 0 || ps.ppid < 0 || ps.pgrp < 0 || ps.utime < 0 || ps.stime < 0 ||
	    ps.starttime < 0 || procstat_cpu_ns(&ps) < 0)
		abort();
	return 0;
}
