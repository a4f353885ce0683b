/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: aiperf-plot --dashboard's request heads: hostile bytes never crash, and a path it serves is one of the shapes it may serve (no component "..", none hidden, safe characters), whatever the target said. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../cmd/aiperf-plot/dashreq.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Components of path: each non-empty, safe, not starting with '.'. */
static int
components(const char *p)
{
	int n = 0;

	for (;;) {
		size_t k = strcspn(p, "/");

		if (!k || p[0] == '.')
			abort();
		for (size_t i = 0; i < k; i++)
			if (!strchr("-_.", p[i]) && !(p[i] >= 'a' && p[i] <= 'z') &&
			    !(p[i] >= 'A' && p[i] <= 'Z') && !(p[i] >= '0' && p[i] <= '9'))
				abort();
		n++;
		if (!p[k])
			return n;
		p += k + 1;
	}
}

static void
check_path(const char *p)
{
	int n = components(p);

	if (n > 4)	/* no component is ".." or hidden: none starts with '.' */
		abort();
	if (n == 2 && strncmp(p, "data/", 5))
		abort();
	if (n >= 3 && strncmp(p, "runs/", 5))
		abort();
	if (n == 4 && strncmp(p + 5 + strcspn(p + 5, "/") + 1, "data/", 5))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dashreq d;
	int rc;

	if (size > 3 * DASHREQ_MAX_HEAD)
		return 0;
	rc = dashreq_parse(&d, (const char *)data, size);
	if (rc == 0)
		return 0;
	switch (d.status) {
	case 200:
		check_path(d.path);
		break;
	case 400: case 404: case 405: case 417: case 431: case 501: case 505:
		break;
	default:
		abort();
	}
	return 0;
}
