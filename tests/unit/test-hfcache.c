/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/tok/hfcache: what it writes never goes through a link planted in the cache. */
#include "tok/hfcache.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"
#include "util.h"

#define COMMIT "0123456789abcdef0123456789abcdef01234567"

static char dir[] = "/tmp/test-hfcache-XXXXXX";

static char *
at(const char *name)
{
	return xstrfmt("%s/%s", dir, name);
}

static off_t
size_of(const char *name)
{
	char *p = at(name);
	struct stat st;
	off_t n = lstat(p, &st) == 0 && S_ISREG(st.st_mode) ? st.st_size : -1;

	free(p);
	return n;
}

int
main(void)
{
	char err[256];

	if (!mkdtemp(dir))
		return 1;
	char *repo = at("repo"), *refs = at("repo/refs"), *victim = at("victim");
	char *main_ = at("repo/refs/main"), *nxs = at("repo/.no_exist");
	FILE *f = fopen(victim, "w");
	TEST("setup: a victim and a link at refs/main",
	     f && fputs("victim\n", f) >= 0 && fclose(f) == 0 &&
	     mkdir(repo, 0777) == 0 && mkdir(refs, 0777) == 0 && symlink(victim, main_) == 0);
	TEST("write_ref", hfcache_write_ref(repo, "main", COMMIT, err, sizeof(err)) == 0);
	TEST("the ref is a file of its own, the victim unchanged",
	     size_of("repo/refs/main") == 40 && size_of("victim") == 7);

	char *nx = at("repo/.no_exist/" COMMIT), *mark = at("repo/.no_exist/" COMMIT "/x.json");
	char *nowhere = at("nowhere");
	TEST("setup: a dangling link at a missing-file mark",
	     mkdir(nxs, 0777) == 0 && mkdir(nx, 0777) == 0 &&
	     symlink(nowhere, mark) == 0);
	hfcache_mark_missing(repo, COMMIT, "x.json");
	TEST("mark_missing makes nothing where the link points", access(nowhere, F_OK) < 0);

	free(repo);
	free(refs);
	free(victim);
	free(main_);
	free(nxs);
	free(nx);
	free(mark);
	free(nowhere);
	char *cmd = xstrfmt("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# cannot remove %s\n", dir);
	free(cmd);
	return TEST_DONE();
}
