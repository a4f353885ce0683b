/* SPDX-License-Identifier: Apache-2.0 */
/* lib/cpuset: CPU lists as taskset writes them; hostile lists refused, the set left empty. */
#include "cpuset.h"

#include "test.h"

static int
count(const unsigned char *set)
{
	int n = 0;

	for (int i = 0; i < CPUSET_MAX; i++)
		n += cpuset_has(set, i);
	return n;
}

static int
refused(const char *s)
{
	unsigned char set[CPUSET_MAX / 8];

	return cpuset_parse(s, set) < 0 && count(set) == 0;
}

int
main(void)
{
	unsigned char set[CPUSET_MAX / 8];

	TEST("one CPU", cpuset_parse("3", set) == 0 && count(set) == 1 && cpuset_has(set, 3));
	TEST("a range and a CPU", cpuset_parse("0-2,4", set) == 0 && count(set) == 4 &&
	     cpuset_has(set, 0) && cpuset_has(set, 2) && !cpuset_has(set, 3) && cpuset_has(set, 4));
	TEST("the largest CPU", cpuset_parse("1023", set) == 0 && cpuset_has(set, 1023));
	TEST("a range of one", cpuset_parse("5-5", set) == 0 && count(set) == 1);
	TEST("overlapping ranges", cpuset_parse("0-3,2-5", set) == 0 && count(set) == 6);
	TEST("out of the set: false", !cpuset_has(set, -1) && !cpuset_has(set, CPUSET_MAX));
	TEST("empty", refused(""));
	TEST("past the largest", refused("1024"));
	TEST("a huge number", refused("99999999999999999999"));
	TEST("a range past the largest", refused("0-4096"));
	TEST("a reversed range", refused("4-2"));
	TEST("a trailing comma", refused("1,"));
	TEST("a leading comma", refused(",1"));
	TEST("two commas", refused("1,,2"));
	TEST("a negative", refused("-1"));
	TEST("an open range", refused("2-"));
	TEST("spaces", refused("1, 2"));
	TEST("a sign", refused("+1"));
	TEST("hex", refused("0x3"));
	TEST("garbage after a good list, nothing kept", refused("0-2,x"));
	return TEST_DONE();
}
