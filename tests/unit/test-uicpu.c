/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for aiperf-ui's client health: /proc/PID/stat parsing, the CPU share, notices. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Private to the tool; tested from its source. */
#include "../../cmd/aiperf-ui/cpu.c"
#include "test.h"

static int
ticks(const char *s, long long *t)
{
	return ui_cpu_ticks(s, strlen(s), t);
}

int
main(void)
{
	const char *line = "4242 (aiperf-send) R 1 2 3 4 5 6 7 8 9 10 150 25 0 0 20 0 1 0";
	const char *odd = "7 (a) b) (c d) S 1 2 3 4 5 6 7 8 9 10 3 4 0 0";
	char tmp[] = "/tmp/test-uicpu-XXXXXX", pidf[64];
	const char *files[3];
	double a, b;
	struct ui_state st;
	struct ui_cpu c;
	long long t = 0, t1;
	FILE *f;
	int fd;

	TEST("utime + stime", ticks(line, &t) == 0 && t == 175);
	TEST("a name with spaces and parentheses", ticks(odd, &t) == 0 && t == 7);
	TEST("no name: refused", ticks("4242 R 1 2", &t) < 0);
	TEST("cut short: refused", ticks("1 (x) R 1 2 3 4 5 6 7 8 9 10 11", &t) < 0);
	TEST("not a number: refused", ticks("1 (x) R 1 2 3 4 5 6 7 8 9 10 x 2", &t) < 0);
	TEST("a huge number: refused",
	     ticks("1 (x) R 1 2 3 4 5 6 7 8 9 10 99999999999999999999999 2", &t) < 0);
	TEST("empty: refused", ui_cpu_ticks("", 0, &t) < 0);

	ui_cpu_init(&c, NULL, 0);
	TEST("no PID file: unknown", ui_cpu_sample(&c, 1) < 0);
	files[0] = "/nonexistent/pid";
	ui_cpu_init(&c, files, 1);
	TEST("a missing PID file: unknown", ui_cpu_sample(&c, 1) < 0 && c.alive == 0);
	ui_cpu_release(&c);
	snprintf(pidf, sizeof(pidf), "%s", tmp);
	fd = mkstemp(pidf);
	TEST("scratch file", fd >= 0);
	f = fdopen(fd, "w");
	fprintf(f, "%ld\n", (long)getpid());
	fclose(f);
	files[0] = pidf;
	ui_cpu_init(&c, files, 1);
	TEST("the first sample: unknown",
	     ui_cpu_sample(&c, 1000000000) < 0 && c.p[0].pid == getpid() && c.alive == 1);
	for (volatile long i = 0; i < 20000000; i++)
		;
	TEST("then a share of a core", ui_cpu_sample(&c, 2000000000) >= 0);
	ui_cpu_release(&c);

	/* several senders: their shares summed, the ones started counted */
	files[1] = pidf;
	files[2] = "/nonexistent/pid";
	ui_cpu_init(&c, files, 3);
	ui_cpu_sample(&c, 1000000000);
	t = c.p[0].ticks;
	t1 = c.p[1].ticks;
	for (volatile long i = 0; i < 50000000; i++)
		;
	a = ui_cpu_sample(&c, 3000000000);
	b = 100.0 * (double)(c.p[0].ticks - t + c.p[1].ticks - t1) / (double)c.tck / 2;
	TEST("two senders (the same PID twice): their shares summed",
	     c.alive == 2 && a >= 0 && a > b - 1e-9 && a < b + 1e-9 &&
	     c.p[0].ticks - t >= 0 && c.p[1].ticks - t1 >= 0);
	TEST("one not started: not counted", c.p[2].pid == 0 && c.p[2].ticks == -1);
	ui_cpu_release(&c);

	f = fopen(pidf, "w");
	fprintf(f, "0\n");
	fclose(f);
	ui_cpu_init(&c, files, 1);
	TEST("PID 0: refused", ui_cpu_sample(&c, 1) < 0 && c.p[0].pid == 0);
	ui_cpu_release(&c);

	memset(&st, 0, sizeof(st));
	f = fopen(pidf, "w");
	fprintf(f, "aiperf profile: interrupted\x1b[2J\nsecond line\n");
	fclose(f);
	TEST("a notice: its first line", ui_notice_read(&st, pidf) == 1);
	TEST_STR("... without control characters", st.notice, "aiperf profile: interrupted[2J");
	TEST("read once", ui_notice_read(&st, pidf) == 0);
	memset(&st, 0, sizeof(st));
	TEST("no file, no notice", ui_notice_read(&st, "/nonexistent/n") == 0 && !st.notice[0]);
	TEST("no path, no notice", ui_notice_read(&st, NULL) == 0);
	unlink(pidf);
	return TEST_DONE();
}
