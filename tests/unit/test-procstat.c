/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/procstat: /proc/PID/stat lines, hostile ones, and reading a live process. */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "procstat.h"
#include "test.h"

static struct procstat ps;

static int
parse(const char *s)
{
	errno = 0;
	return procstat_parse(&ps, s, strlen(s));
}

/* A stat line of pid 42 named name, utime u and stime s. */
static const char *
line(const char *name, const char *u, const char *s)
{
	static char buf[512];

	snprintf(buf, sizeof(buf), "42 (%s) S 7 42 42 0 -1 4194560 100 0 0 0 %s %s 0 0 20 0 1 0 "
		 "12345 1000 100 18446744073709551615 1 1 0 0 0 0 0 0 0 17 3 0 0 0 0 0\n", name, u, s);
	return buf;
}

static void
test_parse(void)
{
	TEST("a plain line", parse(line("aiperf-send", "150", "25")) == 0 && ps.pid == 42 &&
	     !strcmp(ps.comm, "aiperf-send") && ps.state == 'S' && ps.ppid == 7 &&
	     ps.pgrp == 42 && ps.utime == 150 && ps.stime == 25 && ps.starttime == 12345);
	TEST("a name with spaces and parentheses: the last ')' ends it",
	     parse(line("a) b) (c d", "3", "4")) == 0 && !strcmp(ps.comm, "a) b) (c d") &&
	     ps.utime == 3 && ps.stime == 4 && ps.ppid == 7);
	TEST("16 bytes of ')' and spaces", parse(line(")) ) ) )) )) ) )", "5", "6")) == 0 &&
	     strlen(ps.comm) == 16 && ps.utime == 5 && ps.starttime == 12345);
	TEST("an empty name", parse(line("", "1", "2")) == 0 && !ps.comm[0]);
	TEST("a name too long for the struct is cut",
	     parse(line("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
			"1", "2")) == 0 && strlen(ps.comm) == sizeof(ps.comm) - 1);
	TEST("no final newline", parse("1 (x) R 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18") == 0 &&
	     ps.utime == 10 && ps.stime == 11 && ps.starttime == 18 && ps.ppid == 0);
	TEST("a newline in the name", parse(line("a\nb", "1", "2")) == 0 && ps.utime == 1);
}

static void
test_hostile(void)
{
	TEST("empty", parse("") < 0 && errno == EINVAL);
	TEST("empty with length 0 of a real line", procstat_parse(&ps, "1 (x) R", 0) < 0);
	TEST("a newline alone", parse("\n") < 0);
	TEST("no ')'", parse("42 (aiperf-send S 7 42 42 0 -1 1 2 3 4 5 150 25 0 0 20 0 1 0 9") < 0);
	TEST("no '('", parse("42 aiperf-send) S 7 42 42 0 -1 1 2 3 4 5 150 25 0 0 20 0 1 0 9") < 0);
	TEST("no pid", parse("(x) S 7 42 42 0 -1 1 2 3 4 5 150 25 0 0 20 0 1 0 9") < 0);
	TEST("a pid not a number", parse("4x2 (x) S 7 42 42 0 -1 1 2 3 4 5 150 25 0 0 20 0 1 0 9") < 0);
	TEST("')' before '('", parse("1 )x( S 7 42 42 0 -1 1 2 3 4 5 150 25 0 0 20 0 1 0 9") < 0);
	TEST("a ')' among the fields leaves too few",
	     parse("1 (x) S 7 42 42 0 -1 1 2 3 ) 4 5 150 25 0 0 20 0 1 0 9") < 0);
	TEST("missing fields: starttime",
	     parse("1 (x) R 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17") < 0);
	TEST("missing fields: utime", parse("1 (x) R 0 1 2 3 4 5 6 7 8 9") < 0);
	TEST("nothing after the name", parse("1 (x)") < 0 && parse("1 (x)\n") < 0);
	TEST("a state of two letters", parse("1 (x) RS 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18") < 0);
	TEST("negative utime", parse(line("x", "-1", "2")) < 0);
	TEST("negative ppid", parse("1 (x) R -1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18") < 0);
	TEST("a sign", parse(line("x", "+1", "2")) < 0);
	TEST("huge: past INT64_MAX", parse(line("x", "9223372036854775808", "2")) < 0 &&
	     parse(line("x", "99999999999999999999999999", "2")) < 0);
	TEST("INT64_MAX itself", parse(line("x", "9223372036854775807", "2")) == 0 &&
	     ps.utime == INT64_MAX);
	TEST("not a number", parse(line("x", "1.5", "2")) < 0 && parse(line("x", "0x10", "2")) < 0);
	static const char nul[] = "1 (x) R 0 1 2 3 4 5 6 7 8 9 1\0 11 12 13 14 15 16 17 18";

	TEST("a NUL inside", procstat_parse(&ps, nul, sizeof(nul) - 1) < 0);
}

static void
test_ns(void)
{
	long tck = sysconf(_SC_CLK_TCK);

	TEST("one second of ticks", procstat_ns(tck) == 1000000000);
	TEST("a tick", procstat_ns(1) == 1000000000 / tck);
	TEST("0 and negative are 0", procstat_ns(0) == 0 && procstat_ns(-5) == 0);
	TEST("huge saturates", procstat_ns(INT64_MAX) == INT64_MAX &&
	     procstat_ns(INT64_MAX / 1000000000 * tck) == INT64_MAX);
	ps.utime = INT64_MAX;
	ps.stime = INT64_MAX;
	TEST("utime + stime saturates", procstat_cpu_ns(&ps) == INT64_MAX);
	ps.utime = tck;
	ps.stime = 2 * tck;
	TEST("utime + stime", procstat_cpu_ns(&ps) == 3000000000LL);
}

static void
test_read(void)
{
	pid_t child;
	int st;
	char comm[64] = "";
	FILE *f = fopen("/proc/self/comm", "r");

	if (f && fgets(comm, sizeof(comm), f))
		comm[strcspn(comm, "\n")] = '\0';
	if (f)
		fclose(f);
	TEST("this process", procstat_read(&ps, getpid()) == 0 && ps.pid == getpid() &&
	     ps.ppid == getppid() && ps.state == 'R' && comm[0] && !strcmp(ps.comm, comm));
	TEST("pid 0 and negative", procstat_read(&ps, 0) < 0 && errno == EINVAL &&
	     procstat_read(&ps, -1) < 0);
	child = fork();
	if (child == 0)
		_exit(0);
	waitpid(child, &st, 0);
	TEST("a process gone: ESRCH", procstat_read(&ps, child) < 0 && errno == ESRCH);
	child = fork();
	if (child == 0)
		_exit(0);
	/* bounded: 5 s at most */
	for (int i = 0; i < 5000 && procstat_read(&ps, child) == 0 && ps.state != 'Z'; i++)
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	TEST("a zombie is read", ps.state == 'Z' && ps.ppid == getpid());
	waitpid(child, &st, 0);
}

int
main(void)
{
	test_parse();
	test_hostile();
	test_ns();
	test_read();
	return TEST_DONE();
}
