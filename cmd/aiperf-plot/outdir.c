/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-plot's output folder: files written whole under new names and renamed over theirs; nothing below it followed through a symbolic link. */
#include "plot.h"

#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "util.h"

#define TRIES 100
#define MAX_DEPTH 4

/* A hidden name for a new file or folder beside name: ".name.XXXXXXXXXXXX".
 * Guessable, which costs only a retry: it is always created exclusively. */
static char *
temp_name(const char *name)
{
	static uint64_t seq;
	uint64_t x = (uint64_t)clock_mono_ns() ^ ((uint64_t)getpid() << 40) ^
		     ++seq * 0x9e3779b97f4a7c15u;

	return xstrfmt(".%s.%012llx", name, (unsigned long long)(x & 0xffffffffffffu));
}

/* The message for at/name that could not be opened or made. */
static int
refuse(int at, const char *atpath, const char *name, const char *what)
{
	struct stat st;
	int err = errno;

	if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
		return error("'%s/%s' is a symbolic link: not followed", atpath, name);
	errno = err;
	return error("cannot %s '%s/%s':", what, atpath, name);
}

int
outdir_sub(int at, const char *atpath, const char *name)
{
	int fd;

	if (mkdirat(at, name, 0777) < 0 && errno != EEXIST)
		return refuse(at, atpath, name, "create");
	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? refuse(at, atpath, name, "open") : fd;
}

static int
write_all(int fd, const char *s, size_t n)
{
	ssize_t w;

	while (n > 0) {
		if ((w = write(fd, s, n)) < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

int
outdir_write(int at, const char *atpath, const char *name, const void *s, size_t n)
{
	char *tmp = NULL;
	int fd = -1, i, err;

	for (i = 0; fd < 0 && i < TRIES; i++) {
		free(tmp);
		tmp = temp_name(name);
		fd = openat(at, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		error("cannot create '%s/%s':", atpath, tmp);
		free(tmp);
		return -1;
	}
	err = write_all(fd, s, n) < 0 ? errno : 0;
	if (close(fd) < 0 && !err)
		err = errno;
	if (!err && renameat(at, tmp, at, name) < 0)
		err = errno;
	if (err)
		unlinkat(at, tmp, 0);
	free(tmp);
	errno = err;
	return err ? error("cannot write '%s/%s':", atpath, name) : 0;
}

int
outdir_move(int from, const char *name, int to, const char *topath)
{
	if (renameat(from, name, to, name) < 0)
		return error("cannot write '%s/%s':", topath, name);
	return 0;
}

int
outdir_mktemp(int at, const char *atpath, const char *name, char **tmp)
{
	int i, fd;

	*tmp = NULL;
	for (i = 0; i < TRIES; i++) {
		free(*tmp);
		*tmp = temp_name(name);
		if (mkdirat(at, *tmp, 0700) == 0)
			break;
		if (errno != EEXIST)
			i = TRIES;
	}
	if (i >= TRIES) {
		error("cannot create '%s/%s':", atpath, *tmp);
		free(*tmp);
		*tmp = NULL;
		return -1;
	}
	if ((fd = openat(at, *tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		error("cannot open '%s/%s':", atpath, *tmp);
		unlinkat(at, *tmp, AT_REMOVEDIR);
		free(*tmp);
		*tmp = NULL;
	}
	return fd;
}

/* Remove what folder fd holds, folders in it too (a few levels). */
static void
empty(int fd, int depth)
{
	struct dirent *e;
	DIR *d;
	int sub = dup(fd);

	if (sub < 0 || !(d = fdopendir(sub))) {
		if (sub >= 0)
			close(sub);
		return;
	}
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (unlinkat(fd, e->d_name, 0) == 0 || (errno != EISDIR && errno != EPERM) ||
		    depth >= MAX_DEPTH)
			continue;
		if ((sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
				  O_CLOEXEC)) >= 0) {
			empty(sub, depth + 1);
			close(sub);
		}
		unlinkat(fd, e->d_name, AT_REMOVEDIR);
	}
	closedir(d);
}

void
outdir_rmtemp(int at, char *tmp, int fd)
{
	if (fd >= 0) {
		empty(fd, 0);
		close(fd);
	}
	if (tmp)
		unlinkat(at, tmp, AT_REMOVEDIR);
	free(tmp);
}

int
outdir_openfile(int at, const char *rel, struct stat *st)
{
	const char *s = rel, *slash;
	int fd = dup(at), next;

	while (fd >= 0 && (slash = strchr(s, '/'))) {
		char *c = xstrndup(s, (size_t)(slash - s));

		next = openat(fd, c, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		free(c);
		close(fd);
		fd = next;
		s = slash + 1;
	}
	if (fd < 0)
		return -1;
	next = openat(fd, s, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	close(fd);
	if (next >= 0 && (fstat(next, st) < 0 || !S_ISREG(st->st_mode))) {
		close(next);
		errno = EFTYPE;
		return -1;
	}
	return next;
}
