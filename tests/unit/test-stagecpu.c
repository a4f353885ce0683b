/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for aiperf-export's --stage-cpu samples: the window's CPU, hostile files. */
#include <stdio.h>
#include <string.h>

#include "summary/stagecpu.h"
#include "test.h"

static struct stagecpu sc;
static char why[160];

static int
parse(const char *text, int64_t start, int64_t end)
{
	why[0] = '\0';
	return stagecpu_parse(&sc, text, strlen(text), start, end, why, sizeof(why));
}

int
main(void)
{
	const char *good =
		"# samples\n"
		"names aiperf-gen aiperf-metrics\n"
		"1000 5000000000 0\n"
		"2000 5000000000 100000000\n"
		"3000 5000000000 300000000\n"
		"4000 5000000000 700000000\n"
		"end\n";

	TEST("window inside the samples: the CPU between them", parse(good, 2000, 3999) == 0 &&
	     sc.n == 2 && !strcmp(sc.names[1], "aiperf-metrics") &&
	     sc.seconds[0] == 0 && sc.seconds[1] > 0.1999 && sc.seconds[1] < 0.2001);
	TEST("a stage's CPU before the window is not counted", parse(good, 1500, 4500) == 0 &&
	     sc.seconds[0] == 0 && sc.total > 0.6999 && sc.total < 0.7001);
	TEST("a window before every sample: CPU from 0", parse(good, 10, 1000) == 0 &&
	     sc.seconds[0] == 5.0 && sc.window > 0);
	TEST("complete only with the end line", stagecpu_complete(good, strlen(good)) &&
	     !stagecpu_complete("names a\n1 2\n", 11) && !stagecpu_complete("ending\n", 7));
	TEST("no samples", parse("names a\nend\n", 0, 1) < 0 && strstr(why, "no samples"));
	TEST("a sample before the names", parse("1 2\nnames a\n", 0, 1) < 0 &&
	     strstr(why, "line 1"));
	TEST("too few and too many fields", parse("names a b\n1 2\n", 0, 1) < 0 &&
	     parse("names a\n1 2 3\n", 0, 1) < 0);
	TEST("negative, non-numeric, overflowing", parse("names a\n1 -2\n", 0, 1) < 0 &&
	     parse("names a\n1 x\n", 0, 1) < 0 &&
	     parse("names a\n1 99999999999999999999999\n", 0, 1) < 0);
	TEST("times going back", parse("names a\n5 1\n4 2\n", 0, 10) < 0);
	TEST("an empty window", parse(good, 10, 5) < 0);
	TEST("nine names: too many", parse("names a b c d e f g h i\n1 1 1 1 1 1 1 1 1 1\n", 0, 1) < 0);
	TEST("a name too long", parse("names aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n1 1\n", 0, 1) < 0);
	TEST("names without a name", parse("names \n1\n", 0, 1) < 0);
	TEST("no final newline, CPU going back is 0",
	     parse("names a\n1 500\n2 100", 1, 2) == 0 && sc.seconds[0] == 0);
	return TEST_DONE();
}
