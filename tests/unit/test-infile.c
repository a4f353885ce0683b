/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for named inputs: util_openfile(), util_readfile(), lines_open(). */
#include "util.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lines.h"
#include "test.h"

static char dir[] = "/tmp/test-infile-XXXXXX";

static const char *
at(const char *name)
{
	static char p[2][256];
	static int k;

	k ^= 1;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

static void
put(const char *name, const char *text)
{
	FILE *f = fopen(at(name), "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		abort();
}

/* Each refusal must come at once: a blocked open fails the test by alarm. */
static void
test_refusals(void)
{
	size_t n;
	int fd;

	alarm(10);
	TEST("regular file opens", (fd = util_openfile(at("ten"), 0)) >= 0);
	TEST("and blocks as a regular descriptor", fd >= 0 && !(fcntl(fd, F_GETFL) & O_NONBLOCK));
	if (fd >= 0)
		close(fd);
	TEST("a FIFO without a writer is refused at once",
	     util_openfile(at("fifo"), 0) < 0 && errno == EFTYPE);
	TEST("a terminal or device is refused", util_openfile("/dev/null", 0) < 0 && errno == EFTYPE);
	TEST("a directory is EISDIR", util_openfile(dir, 0) < 0 && errno == EISDIR);
	TEST("a missing file is ENOENT", util_openfile(at("none"), 0) < 0 && errno == ENOENT);
	TEST("over max by its size is EFBIG before reading",
	     util_openfile(at("ten"), 9) < 0 && errno == EFBIG);
	TEST("at max is taken", (fd = util_openfile(at("ten"), 10)) >= 0);
	if (fd >= 0)
		close(fd);
	TEST_STR("EFTYPE has a message", util_strerror(EFTYPE), "Not a regular file");
	TEST("readfile refuses the FIFO", !util_readfile(at("fifo"), 100, &n) && errno == EFTYPE);
	TEST("readfile refuses over max", !util_readfile(at("ten"), 9, &n) && errno == EFBIG);
	char *s = util_readfile(at("ten"), 10, &n);
	TEST("readfile reads at max", s && n == 10 && !strcmp(s, "0123456789"));
	free(s);
	alarm(0);
}

static void
test_lines(void)
{
	struct lines l;
	const char *s;
	size_t n;

	alarm(10);
	TEST("lines_open refuses a FIFO at once", lines_open(&l, at("fifo"), 64) < 0 && errno == EFTYPE);
	TEST("lines_open refuses a directory", lines_open(&l, dir, 64) < 0 && errno == EISDIR);
	TEST("lines_open_stream refuses a device",
	     lines_open_stream(&l, "/dev/null", 64) < 0 && errno == EFTYPE);
	TEST("lines_open reads a regular file", lines_open(&l, at("ten"), 64) == 0 &&
	     lines_next(&l, &s, &n) == 1 && n == 10);
	lines_close(&l);
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open(at("fifo"), O_WRONLY);
		_exit(fd < 0 || write(fd, "a\nb\n", 4) != 4);
	}
	int ok = lines_open_stream(&l, at("fifo"), 64) == 0 && lines_next(&l, &s, &n) == 1 &&
		 !strcmp(s, "a") && lines_next(&l, &s, &n) == 1 && !strcmp(s, "b") &&
		 lines_next(&l, &s, &n) == 0;
	TEST("lines_open_stream waits for a FIFO's writer and reads it", ok);
	if (ok)
		lines_close(&l);
	int st;
	TEST("the writer wrote", waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st));
	alarm(0);
}

int
main(void)
{
	if (!mkdtemp(dir))
		return 1;
	put("ten", "0123456789");
	if (mkfifo(at("fifo"), 0600) < 0)
		return 1;
	test_refusals();
	test_lines();
	unlink(at("ten"));
	unlink(at("fifo"));
	rmdir(dir);
	return TEST_DONE();
}
