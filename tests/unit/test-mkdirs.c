/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for util_mkdirs: mkdir -p, a file in the way, links followed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"
#include "util.h"

static char dir[] = "/tmp/test-mkdirs-XXXXXX";

static int
is_dir(const char *rel)
{
	char *p = xstrfmt("%s/%s", dir, rel);
	struct stat st;
	int rc = stat(p, &st) == 0 && S_ISDIR(st.st_mode);

	free(p);
	return rc;
}

static int
mk(const char *rel)
{
	char *p = xstrfmt("%s/%s", dir, rel);
	int rc = util_mkdirs(p);

	free(p);
	return rc;
}

int
main(void)
{
	char *p;
	FILE *f;

	if (!mkdtemp(dir))
		return 1;
	TEST("a folder three deep", mk("a/b/c") == 0 && is_dir("a/b/c"));
	TEST("again: it exists, no error", mk("a/b/c") == 0);
	TEST("a trailing slash", mk("d/e/") == 0 && is_dir("d/e"));
	TEST("doubled slashes", mk("g//h") == 0 && is_dir("g/h"));
	p = xstrfmt("%s/file", dir);
	f = fopen(p, "w");
	if (f)
		fclose(f);
	errno = 0;
	TEST("a file at the path: ENOTDIR", mk("file") < 0 && errno == ENOTDIR);
	errno = 0;
	TEST("a file as a parent: fails", mk("file/x") < 0 && errno == ENOTDIR);
	free(p);
	p = xstrfmt("%s/a", dir);
	char *l = xstrfmt("%s/link", dir);
	TEST("a link to a folder is followed",
	     symlink(p, l) == 0 && mk("link/b/new") == 0 && is_dir("a/b/new"));
	free(p);
	free(l);
	TEST("the root exists", util_mkdirs("/") == 0);
	p = xstrfmt("rm -rf '%s'", dir);
	if (system(p) != 0)
		return 1;
	free(p);
	return TEST_DONE();
}
