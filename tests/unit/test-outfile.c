/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/outfile: links at the name replaced, never written through; nothing left behind. */
#include "outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"
#include "util.h"

static char dir[] = "/tmp/test-outfile-XXXXXX";

static char *
at(const char *name)
{
	return xstrfmt("%s/%s", dir, name);
}

/* The file's first line (without '\n'), or "" when it cannot be read. */
static const char *
content(const char *name)
{
	static char line[512];
	char *p = at(name);
	FILE *f = fopen(p, "r");

	line[0] = '\0';
	if (f && !fgets(line, sizeof(line), f))
		line[0] = '\0';
	if (f)
		fclose(f);
	line[strcspn(line, "\n")] = '\0';
	free(p);
	return line;
}

static void
put(const char *name, const char *s)
{
	char *p = at(name);
	FILE *f = fopen(p, "w");

	if (f) {
		fputs(s, f);
		fclose(f);
	}
	free(p);
}

/* name a link to target (a path in dir) */
static int
plant(const char *name, const char *target)
{
	char *p = at(name), *t = at(target);
	int rc = symlink(t, p);

	free(p);
	free(t);
	return rc;
}

static int
is_regular(const char *name)
{
	char *p = at(name);
	struct stat st;
	int rc = lstat(p, &st) == 0 && S_ISREG(st.st_mode);

	free(p);
	return rc;
}

static int
exists(const char *name)
{
	char *p = at(name);
	struct stat st;
	int rc = lstat(p, &st) == 0;

	free(p);
	return rc;
}

/* Hidden entries in dir/sub (sub "" for dir itself): temporaries left. */
static int
hidden(const char *sub)
{
	char *p = at(sub);
	DIR *d = opendir(p);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	free(p);
	return n;
}

static int
write_str(const char *name, const char *s)
{
	char *p = at(name);
	int rc = outfile_write(AT_FDCWD, p, s, strlen(s));

	free(p);
	return rc;
}

static void
test_write(void)
{
	TEST("a new file written whole", write_str("a.json", "one\n") == 0 &&
	     !strcmp(content("a.json"), "one") && is_regular("a.json") && hidden("") == 0);
	TEST("an old file replaced", write_str("a.json", "two\n") == 0 &&
	     !strcmp(content("a.json"), "two") && hidden("") == 0);

	put("victim", "victim\n");
	TEST("plant a link at the name", plant("b.json", "victim") == 0);
	TEST("a link at the name is replaced", write_str("b.json", "mine\n") == 0 &&
	     is_regular("b.json") && !strcmp(content("b.json"), "mine"));
	TEST("what it pointed to is unchanged", !strcmp(content("victim"), "victim"));

	TEST("plant a dangling link at the name", plant("c.json", "nowhere") == 0);
	TEST("a dangling link is replaced, nothing made where it pointed",
	     write_str("c.json", "mine\n") == 0 && is_regular("c.json") && !exists("nowhere"));

	/* the names the tools used to write to, and plot-style hidden ones */
	TEST("plant links at temporary-looking names",
	     plant("d.json.tmp", "victim") == 0 && plant(".d.json", "victim") == 0 &&
	     plant(".d.json.000000000000", "victim") == 0);
	TEST("those links are not written through", write_str("d.json", "mine\n") == 0 &&
	     !strcmp(content("victim"), "victim") && !strcmp(content("d.json"), "mine"));
	for (const char *const *n = (const char *const[]){ ".d.json", ".d.json.000000000000",
							NULL }; *n; n++) {
		char *l = at(*n);
		unlink(l);
		free(l);
	}

	char *sub = at("sub");
	mkdir(sub, 0777);
	free(sub);
	TEST("a name in a folder: its temporary beside it",
	     write_str("sub/e.csv", "e\n") == 0 && !strcmp(content("sub/e.csv"), "e") &&
	     hidden("sub") == 0);
}

static void
test_failures(void)
{
	char *p = at("folder");
	mkdir(p, 0777);
	errno = 0;
	TEST("a folder at the name: EISDIR, nothing left",
	     outfile_write(AT_FDCWD, p, "x", 1) < 0 && errno == EISDIR && hidden("") == 0);
	free(p);

	p = at("missing/f.json");
	errno = 0;
	TEST("a missing folder: ENOENT", outfile_write(AT_FDCWD, p, "x", 1) < 0 && errno == ENOENT);
	free(p);

	char *ro = at("ro");
	mkdir(ro, 0555);
	p = at("ro/f.json");
	if (geteuid() == 0) {
		printf("ok %d - a read-only folder: EACCES # SKIP root writes anywhere\n", ++test_n);
	} else {
		errno = 0;
		TEST("a read-only folder: EACCES", outfile_write(AT_FDCWD, p, "x", 1) < 0 &&
		     errno == EACCES && hidden("ro") == 0);
	}
	free(p);
	rmdir(ro);
	free(ro);

	/* A file size limit stands in for a full disk: EFBIG. */
	static char big[4096];
	struct rlimit old, lim;
	memset(big, 'x', sizeof(big));
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = (struct rlimit){ 1000, old.rlim_max };
	TEST("setrlimit", setrlimit(RLIMIT_FSIZE, &lim) == 0);
	p = at("a.json");
	errno = 0;
	TEST("a full disk: EFBIG, the old file kept, nothing left",
	     outfile_write(AT_FDCWD, p, big, sizeof(big)) < 0 && errno == EFBIG &&
	     !strcmp(content("a.json"), "two") && hidden("") == 0);

	struct outfile of;
	FILE *f = outfile_fopen(&of, AT_FDCWD, p);
	TEST("a stream", f != NULL);
	for (int i = 0; f && i < 4; i++)
		fwrite(big, 1, sizeof(big), f);
	errno = 0;
	TEST("a stream on a full disk: the commit fails, nothing left",
	     f && outfile_commit(&of) < 0 && errno == EFBIG &&
	     !strcmp(content("a.json"), "two") && hidden("") == 0);
	setrlimit(RLIMIT_FSIZE, &old);

	f = outfile_fopen(&of, AT_FDCWD, p);
	if (f)
		fputs("half", f);
	errno = EPIPE;
	if (f)
		outfile_discard(&of);
	TEST("discard: the old file kept, nothing left, errno kept",
	     f && errno == EPIPE && !strcmp(content("a.json"), "two") && hidden("") == 0);
	free(p);
}

static void
test_names(void)
{
	char name[NAME_MAX + 1];
	memset(name, 'n', NAME_MAX);
	name[NAME_MAX] = '\0';
	TEST("a name of NAME_MAX bytes: its temporary fits", write_str(name, "long\n") == 0 &&
	     !strcmp(content(name), "long") && hidden("") == 0);

	char *t = outfile_tmpname("dir/x.json"), *u = outfile_tmpname("dir/x.json");
	TEST("temporary names: hidden, beside, 12 digits", !strncmp(t, "dir/.x.json.", 12) &&
	     strlen(t) == 24 && strspn(t + 12, "0123456789abcdef") == 12);
	TEST("temporary names differ", strcmp(t, u) != 0);
	free(t);
	free(u);

	int d = open(dir, O_RDONLY | O_DIRECTORY);
	TEST("relative to a folder's descriptor", d >= 0 &&
	     outfile_write(d, "rel.txt", "rel\n", 4) == 0 && !strcmp(content("rel.txt"), "rel"));
	close(d);
}

static int
fresh(const char *name)
{
	char *p = at(name);
	int fd = outfile_fresh(AT_FDCWD, p);

	free(p);
	return fd;
}

static void
test_fresh(void)
{
	int fd;

	put("victim", "victim\n");
	plant("r.jsonl", "victim");
	fd = fresh("r.jsonl");
	TEST("fresh: a link at the name removed, a new file made",
	     fd >= 0 && write(fd, "new\n", 4) == 4 && is_regular("r.jsonl") &&
	     !strcmp(content("r.jsonl"), "new") && !strcmp(content("victim"), "victim"));
	close(fd);

	plant("s.jsonl", "nowhere");
	fd = fresh("s.jsonl");
	TEST("fresh: a dangling link removed, nothing made where it pointed",
	     fd >= 0 && is_regular("s.jsonl") && !exists("nowhere"));
	close(fd);

	fd = fresh("r.jsonl");
	TEST("fresh: an old file replaced, empty", fd >= 0 && !strcmp(content("r.jsonl"), ""));
	close(fd);

	errno = 0;
	TEST("fresh: a folder at the name, EISDIR", fresh("folder") < 0 && errno == EISDIR);
}

static int
append(const char *name)
{
	char *p = at(name);
	int fd = outfile_append(AT_FDCWD, p);

	free(p);
	return fd;
}

static void
test_append(void)
{
	int fd = append("log");

	TEST("append: made when absent", fd >= 0 && write(fd, "1\n", 2) == 2);
	close(fd);
	fd = append("log");
	TEST("append: appends", fd >= 0 && write(fd, "2\n", 2) == 2);
	close(fd);
	TEST("append: both lines", is_regular("log") && !strcmp(content("log"), "1"));

	plant("log2", "victim");
	errno = 0;
	TEST("append: a link at the name not followed (ELOOP)",
	     append("log2") < 0 && errno == ELOOP && !strcmp(content("victim"), "victim"));

	char *p = at("fifo");
	TEST("mkfifo", mkfifo(p, 0600) == 0);
	free(p);
	errno = 0;
	TEST("append: a FIFO refused at once", append("fifo") < 0 &&
	     (errno == EFTYPE || errno == ENXIO));
	errno = 0;
	TEST("append: a folder refused", append("folder") < 0 && errno == EISDIR);
}

/* A FIFO (as /dev/null, a device) named as an output is written where it
 * is, never replaced. (Tested on a FIFO of our own: a failing test must not
 * replace the machine's /dev/null.) */
static void
test_devices(void)
{
	struct stat st;
	struct outfile of;
	char *p = at("pipe"), got[16] = { 0 };
	int rd, fd;

	TEST("device: mkfifo", mkfifo(p, 0600) == 0);
	rd = open(p, O_RDONLY | O_NONBLOCK);
	TEST("device: written in place", rd >= 0 && outfile_write(AT_FDCWD, p, "ab", 2) == 0 &&
	     lstat(p, &st) == 0 && S_ISFIFO(st.st_mode));
	TEST("device: open, commit", outfile_open(&of, AT_FDCWD, p) == 0 && of.tmp == NULL &&
	     write(of.fd, "c", 1) == 1 && outfile_commit(&of) == 0 &&
	     lstat(p, &st) == 0 && S_ISFIFO(st.st_mode));
	TEST("device: discard leaves it", outfile_open(&of, AT_FDCWD, p) == 0 &&
	     (outfile_discard(&of), lstat(p, &st) == 0 && S_ISFIFO(st.st_mode)));
	fd = outfile_fresh(AT_FDCWD, p);
	TEST("device: fresh opens it where it is", fd >= 0 && write(fd, "d", 1) == 1 &&
	     lstat(p, &st) == 0 && S_ISFIFO(st.st_mode));
	if (fd >= 0)
		close(fd);
	TEST("device: what was written came through", rd >= 0 && read(rd, got, sizeof(got) - 1) == 4 &&
	     !strcmp(got, "abcd"));
	if (rd >= 0)
		close(rd);
	free(p);
}

int
main(void)
{
	if (!mkdtemp(dir))
		return 1;
	test_write();
	test_failures();
	test_names();
	test_fresh();
	test_append();
	test_devices();
	char *cmd = xstrfmt("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# cannot remove %s\n", dir);
	free(cmd);
	return TEST_DONE();
}
