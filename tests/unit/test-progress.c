/* SPDX-License-Identifier: Apache-2.0 */
/* lib/progress: the simple view's bars, by count, by duration, unknown, and drawn in place. */
#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "test.h"

static const char *
bar(const struct progress *p, const char *label)
{
	static char b[256];

	progress_bar(p, label, b, sizeof(b));
	return b;
}

static char drawn[4096];
static const char long_line[] = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
				"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
				"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";

/* progress_draw's output for lines, after draws earlier ones on sc */
static const char *
draw(struct progress_screen *sc, const char *const lines[], int n)
{
	int fd[2];
	ssize_t k;

	if (pipe(fd) < 0)
		return "";
	progress_draw(sc, lines, n, fd[1]);
	close(fd[1]);
	k = read(fd[0], drawn, sizeof(drawn) - 1);
	close(fd[0]);
	drawn[k > 0 ? k : 0] = 0;
	return drawn;
}

/* progress_draw_phases's output, as draw's */
static const char *
draw_phases(struct progress_screen *sc, const struct progress *w, const struct progress *p)
{
	int fd[2];
	ssize_t k;

	if (pipe(fd) < 0)
		return "";
	progress_draw_phases(sc, w, p, fd[1]);
	close(fd[1]);
	k = read(fd[0], drawn, sizeof(drawn) - 1);
	close(fd[0]);
	drawn[k > 0 ? k : 0] = 0;
	return drawn;
}

int
main(void)
{
	struct progress p = { .done = 40, .errors = 2, .total = 100, .request_rate = 20,
			      .cpu = -1 };
	struct progress_screen sc = { 0 };
	const char *two[] = { "a", "b" };
	char b[64];
	double eta;

	TEST("by count", !strcmp(bar(&p, "Profiling"),
				 "Profiling [############------------------]  40.0% 40/100  2 errors  "
				 "20.0 req/s  ETA 00:03"));
	TEST("the ETA from the rate", progress_fraction(&p, &eta) == 0.4 && eta == 3);
	p.ended = 1;
	TEST("ended: full, ETA 0", progress_fraction(&p, &eta) == 1 && eta == 0);
	p = (struct progress){ .done = 7, .duration_s = 60, .span_s = 15, .cpu = 37.4 };
	TEST("by duration, the sender's CPU",
	     !strcmp(bar(&p, "Profiling"), "Profiling [########----------------------]  25.0% "
				       "15.0s/60s  0 errors  0.0 req/s  ETA 00:45  send CPU 37%"));
	p.cpu = 80, p.senders = 3;
	TEST("several senders named", strstr(bar(&p, "x"), "send CPU 80% (3 senders)") != NULL);
	p = (struct progress){ .done = 16, .cpu = -1 };
	TEST("unknown: a moving mark, no percentage, no ETA",
	     !strcmp(bar(&p, "Warmup"), "Warmup    [--#---------------------------] 16  0 errors  "
				    "0.0 req/s"));
	p = (struct progress){ .done = 150, .total = 100, .request_rate = 1, .cpu = -1 };
	TEST("past the total: 100%, ETA 0", progress_fraction(&p, &eta) == 1 && eta == 0);
	progress_eta(1e300, b, sizeof(b));
	TEST("a huge ETA capped", !strcmp(b, "99:59:59"));
	progress_eta(3725, b, sizeof(b));
	TEST("hours", !strcmp(b, "1:02:05"));
	progress_eta(-1, b, sizeof(b));
	TEST("no ETA", !strcmp(b, "--:--"));
	TEST("first draw: the lines", !strcmp(draw(&sc, two, 2), "\033[2Ka\n\033[2Kb\n"));
	TEST("next draw: over them",
	     !strcmp(draw(&sc, two, 2), "\r\033[2A\033[2Ka\n\033[2Kb\n") && sc.drawn == 2);
	{
		struct progress_screen ph = { 0 };
		struct progress w = { .done = 2, .total = 2, .ended = 1, .cpu = -1 };
		struct progress q = { .done = 1, .total = 4, .cpu = -1 };
		char want[512];

		char over[600];

		snprintf(want, sizeof(want), "\033[2K%s\n", bar(&q, "Profiling"));
		snprintf(over, sizeof(over), "\r\033[2A%s", want);
		TEST("phases: the warmup bar, then the profiling bar",
		     !strncmp(draw_phases(&ph, &w, &q), "\033[2KWarmup    [", 15) &&
		     strstr(drawn, want) != NULL && ph.drawn == 2);
		TEST("phases, no warmup: the profiling bar alone, over the two before",
		     !strcmp(draw_phases(&ph, NULL, &q), over) && ph.drawn == 1);
	}
	TEST("too much to draw: cut at the buffer", strlen(draw(&sc, (const char *const[]){
		long_line, long_line, long_line, long_line, long_line, long_line, long_line,
		long_line }, 8)) < 2048);
	return TEST_DONE();
}
