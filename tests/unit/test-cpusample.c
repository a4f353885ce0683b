/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for aiperf-supervise's stage CPU sampler: the file aiperf-export --stage-cpu reads. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Private to the tool; tested from its source. */
#include "../../cmd/aiperf-supervise/cpu.c"
#include "summary/stagecpu.h"
#include "test.h"

#define MAXS 512
static long long t[MAXS], col[3][MAXS];
static int nsamples;
static char first[256], last[256];

/* A child that spins (busy) or sleeps until killed, 30 s at most. */
static pid_t
child(int busy)
{
	pid_t p = fork();

	if (p == 0) {
		alarm(30);
		for (;;)
			if (!busy)
				pause();
	}
	return p;
}

static void
reap(pid_t p)
{
	int st;

	kill(p, SIGKILL);
	waitpid(p, &st, 0);
}

/* Run l until ms have passed and done() holds, 5 s at most. */
static void
run_until(struct evloop *l, int64_t ms, const struct cpu_sampler *c,
	  int (*done)(const struct cpu_sampler *))
{
	int64_t t0 = clock_mono_ns();

	for (;;) {
		int64_t d = clock_mono_ns() - t0;

		if ((d >= ms * 1000000 && done(c)) || d > 5000000000LL)
			return;
		evloop_run_once(l, 10000000);
	}
}

static int64_t gen_at_kill;

static int
metrics_ran(const struct cpu_sampler *c)
{
	return c->metrics.ns > 0;
}

static int
gen_grew(const struct cpu_sampler *c)
{
	return c->gens[0].ns > gen_at_kill;
}

/* The samples of path into t and col; -1 if a line is not one. */
static int
load(const char *path)
{
	char line[256];
	FILE *f = fopen(path, "r");
	int bad = 0;

	nsamples = 0;
	if (!f || !fgets(first, sizeof(first), f))
		return -1;
	while (fgets(line, sizeof(line), f)) {
		snprintf(last, sizeof(last), "%s", line);
		if (!strcmp(line, "end\n"))
			continue;
		if (nsamples == MAXS || sscanf(line, "%lld %lld %lld %lld", &t[nsamples],
					       &col[0][nsamples], &col[1][nsamples],
					       &col[2][nsamples]) != 4)
			bad = 1;
		else
			nsamples++;
	}
	fclose(f);
	return bad ? -1 : 0;
}

static int
increasing(const long long *v, int strict)
{
	for (int i = 1; i < nsamples; i++)
		if (v[i] < v[i - 1] || (strict && v[i] == v[i - 1]))
			return 0;
	return 1;
}

static int
all(const long long *v, long long want, int from)
{
	for (int i = from; i < nsamples; i++)
		if (v[i] != want)
			return 0;
	return 1;
}

static void
test_samples(const char *path)
{
	struct evloop *l = evloop_new(8);
	pid_t busy = child(1), idle = child(0), ends = child(1);
	pid_t gens[] = { busy, idle, -1 };

	struct cpu_sampler *c = cpu_start(l, path, gens, 3, ends, 0);
	TEST("started", c != NULL);
	if (!c)
		return;
	run_until(l, 150, c, metrics_ran);
	reap(ends);
	int64_t ended = c->metrics.ns;
	int before = 0;

	gen_at_kill = c->gens[0].ns;
	run_until(l, 150, c, gen_grew);
	cpu_stop(c);
	reap(busy);
	reap(idle);
	evloop_free(l);
	TEST("every line a sample", load(path) == 0);
	TEST_STR("the names line", first, "names aiperf-gen aiperf-metrics aiperf-export\n");
	TEST_STR("\"end\" last", last, "end\n");
	TEST("a sample every 50 ms or so", nsamples >= 4);
	TEST("times increase", increasing(t, 1));
	TEST("the busy generator's column grows", increasing(col[0], 0) &&
	     col[0][nsamples - 1] > col[0][0]);
	for (int i = 0; i < nsamples; i++)
		before += col[1][i] < ended;
	TEST("a stage that ended keeps its largest value", ended > 0 && increasing(col[1], 0) &&
	     col[1][nsamples - 1] == ended && before < nsamples - 1);
	TEST("a stage not started stays 0", all(col[2], 0, 0));
}

/* What aiperf-export --stage-cpu makes of the file. */
static void
test_export_reads(const char *path)
{
	struct stagecpu sc;
	char why[160] = "", *text;
	size_t len;

	text = util_readfile(path, 1 << 20, &len);
	TEST("aiperf-export reads it", text && stagecpu_complete(text, len) &&
	     stagecpu_parse(&sc, text, len, t[0], t[nsamples - 1], why, sizeof(why)) == 0 &&
	     sc.n == 3 && !strcmp(sc.names[2], "aiperf-export") && sc.seconds[0] > 0 &&
	     sc.seconds[2] == 0);
	free(text);
}

/* cpu_start(path) with stderr in a file: the sampler and what it said. */
static struct cpu_sampler *
start_quiet(struct evloop *l, const char *path, char *err, size_t size)
{
	char tmp[] = "/tmp/test-cpusample-err-XXXXXX";
	int fd = mkstemp(tmp), saved = dup(2);
	ssize_t n;

	fflush(stderr);
	dup2(fd, 2);
	struct cpu_sampler *c = cpu_start(l, path, NULL, 0, -1, 0);

	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, err, size - 1, 0);
	err[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(tmp);
	return c;
}

static void
test_errors(void)
{
	struct evloop *l = evloop_new(8);
	char err[512];
	struct cpu_sampler *c;

	c = start_quiet(l, "/nonexistent/dir/stage-cpu", err, sizeof(err));
	TEST("a path that cannot be created: NULL", c == NULL);
	TEST_STR("and a warning naming it", err,
		 "test-cpusample: cannot create '/nonexistent/dir/stage-cpu': No such file or directory\n");
	c = start_quiet(l, "/dev/full", err, sizeof(err));
	TEST_STR("a write that fails: a warning, once", err,
		 "test-cpusample: cannot write '/dev/full': No space left on device\n");
	TEST("and a sampler to stop", c != NULL);
	cpu_stop(c);
	cpu_stop(NULL);
	TEST("stop NULL: a no-op", 1);
	evloop_free(l);
}

int
main(void)
{
	char dir[] = "/tmp/test-cpusample-XXXXXX", path[64];

	util_setprogname("test-cpusample");
	TEST("scratch folder", mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/stage-cpu", dir);
	test_samples(path);
	if (nsamples)
		test_export_reads(path);
	test_errors();
	unlink(path);
	rmdir(dir);
	return TEST_DONE();
}
