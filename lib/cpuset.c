/* SPDX-License-Identifier: Apache-2.0 */
/* A CPU list ("0-2,4") into a bit set: decimal numbers and ranges, nothing else. */
#include "cpuset.h"

#include <string.h>

/* A CPU number at *s, advanced past it: 0, or -1 when none or too large. */
static int
number(const char **s, int *out)
{
	int v = 0;

	if (**s < '0' || **s > '9')
		return -1;
	for (; **s >= '0' && **s <= '9'; (*s)++) {
		v = v * 10 + (**s - '0');
		if (v >= CPUSET_MAX)
			return -1;
	}
	*out = v;
	return 0;
}

static int
item(const char **s, unsigned char *set)
{
	int a, b;

	if (number(s, &a) < 0)
		return -1;
	b = a;
	if (**s == '-') {
		(*s)++;
		if (number(s, &b) < 0 || b < a)
			return -1;
	}
	for (int i = a; i <= b; i++)
		set[i / 8] |= (unsigned char)(1u << (i % 8));
	return 0;
}

int
cpuset_parse(const char *s, unsigned char set[CPUSET_MAX / 8])
{
	memset(set, 0, CPUSET_MAX / 8);
	for (;;) {
		if (item(&s, set) < 0)
			break;
		if (!*s)
			return 0;
		if (*s++ != ',')
			break;
	}
	memset(set, 0, CPUSET_MAX / 8);
	return -1;
}

int
cpuset_has(const unsigned char set[CPUSET_MAX / 8], int cpu)
{
	return cpu >= 0 && cpu < CPUSET_MAX && (set[cpu / 8] >> (cpu % 8) & 1);
}
