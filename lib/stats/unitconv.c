/* SPDX-License-Identifier: Apache-2.0 */
/* The original's unit conversions: times, sizes, powers and energies, alone or in rates. */
#include "stats/unitconv.h"

#include <string.h>

/* One of a kind's units, with how many of it make the kind's base unit. */
static const struct unit {
	const char *name;
	int kind;
	double per;
} units[] = {
	{ "ns", 1, 1e9 }, { "us", 1, 1e6 }, { "ms", 1, 1e3 }, { "s", 1, 1 },
	{ "sec", 1, 1 },
	{ "B", 2, 1 }, { "KB", 2, 1.0 / 1024 }, { "MB", 2, 1.0 / 1048576 },
	{ "GB", 2, 1.0 / 1073741824 }, { "TB", 2, 1.0 / 1099511627776.0 },
	{ "mW", 3, 1e3 }, { "W", 3, 1 },
	{ "mJ", 4, 1e3 }, { "J", 4, 1 }, { "MJ", 4, 1e-6 },
};

static const struct unit *
unit_find(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i].name) == n && !memcmp(units[i].name, s, n))
			return &units[i];
	return NULL;
}

int
unitconv_factor(const char *from, const char *to, double *factor)
{
	double f = 1;

	for (int part = 0; strcmp(from, to); part++) {
		size_t n = strcspn(from, "/"), k = strcspn(to, "/");

		if (n != k || memcmp(from, to, n)) {
			const struct unit *x = unit_find(from, n), *y = unit_find(to, k);

			if (!x || !y || x->kind != y->kind)
				return -1;
			/* the original's value * (target.per / source.per) */
			f *= part ? x->per / y->per : y->per / x->per;
		}
		if (!from[n] || !to[k]) {
			if (from[n] || to[k])
				return -1;
			break;
		}
		from += n + 1;
		to += k + 1;
	}
	*factor = f;
	return 0;
}

