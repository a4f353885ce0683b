/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/linefile: whole lines only, even when the disk fills. */
#include "linefile.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

static off_t
size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_size : -1;
}

/* The file's last byte, or -1. */
static int
last_byte(const char *path)
{
	FILE *f = fopen(path, "rb");
	int c = -1;

	if (f && fseek(f, -1, SEEK_END) == 0)
		c = getc(f);
	if (f)
		fclose(f);
	return c;
}

int
main(void)
{
	char path[] = "/tmp/test-linefile-XXXXXX";
	int fd = mkstemp(path);
	struct linefile lf;
	char line[30];
	int rc = 0;

	TEST("mkstemp", fd >= 0);
	close(fd);
	memset(line, 'x', sizeof(line));

	TEST("open", linefile_open(&lf, path, 0) == 0);
	for (int i = 0; i < 3; i++)
		rc |= linefile_put(&lf, line, sizeof(line));
	TEST("puts", rc == 0);
	TEST("close", linefile_close(&lf) == 0);
	TEST("three whole lines written", size_of(path) == 93 && last_byte(path) == '\n');

	/* A file size limit stands in for a full disk: EFBIG mid-buffer. */
	struct rlimit old, lim = { 100, 100 };
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim.rlim_max = old.rlim_max;
	TEST("setrlimit", setrlimit(RLIMIT_FSIZE, &lim) == 0);
	TEST("reopen", linefile_open(&lf, path, 0) == 0);
	rc = 0;
	for (int i = 0; i < 10; i++)
		rc |= linefile_put(&lf, line, sizeof(line));
	TEST("puts buffer (nothing written yet)", rc == 0);
	errno = 0;
	TEST("close fails with the write's error", linefile_close(&lf) == -1 && errno == EFBIG);
	TEST("cut back to the last whole line", size_of(path) == 93 && last_byte(path) == '\n');
	setrlimit(RLIMIT_FSIZE, &old);

	/* Large enough to flush while putting: later puts fail the same way. */
	lim.rlim_cur = 100000;
	setrlimit(RLIMIT_FSIZE, &lim);
	TEST("reopen for a flush mid-run", linefile_open(&lf, path, 0) == 0);
	int first = -1;
	for (int i = 0; i < 5000 && first < 0; i++)
		if (linefile_put(&lf, line, sizeof(line)) < 0)
			first = i;
	TEST("a put fails once the limit is hit", first > 0 && errno == EFBIG);
	TEST("lines counts what the file holds", lf.lines == (size_t)size_of(path) / 31);
	TEST("later puts keep failing", linefile_put(&lf, "y", 1) == -1 && errno == EFBIG);
	TEST("close reports it too", linefile_close(&lf) == -1 && errno == EFBIG);
	TEST("whole lines only", size_of(path) % 31 == 0 && last_byte(path) == '\n');
	setrlimit(RLIMIT_FSIZE, &old);

	/* A device that is always full: nothing to cut, the error is kept. */
	if (access("/dev/full", W_OK) == 0) {
		TEST("open /dev/full", linefile_open(&lf, "/dev/full", 0) == 0);
		linefile_put(&lf, "a", 1);
		TEST("ENOSPC from /dev/full", linefile_close(&lf) == -1 && errno == ENOSPC);
	} else {
		printf("ok %d - /dev/full # SKIP not writable here\n", ++test_n);
		printf("ok %d - ENOSPC # SKIP not writable here\n", ++test_n);
	}
	TEST("open fails on a missing directory",
	     linefile_open(&lf, "/nonexistent/dir/x", 0) == -1 && errno == ENOENT);

	/* LINEFILE_FRESH: a link at the name is removed, not written through. */
	char victim[] = "/tmp/test-linefile-victim-XXXXXX";
	int vfd = mkstemp(victim);
	TEST("a victim", vfd >= 0 && write(vfd, "victim\n", 7) == 7);
	close(vfd);
	unlink(path);
	TEST("plant a link", symlink(victim, path) == 0);
	TEST("fresh open", linefile_open(&lf, path, LINEFILE_FRESH) == 0);
	TEST("fresh put and close", linefile_put(&lf, line, sizeof(line)) == 0 &&
	     linefile_close(&lf) == 0);
	struct stat st;
	TEST("the name is a file of its own now", lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	     st.st_size == 31);
	TEST("the victim is unchanged", size_of(victim) == 7);
	unlink(victim);
	unlink(path);
	return TEST_DONE();
}
