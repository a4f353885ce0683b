/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-plot's output folder: files written whole under new names and renamed over theirs (lib/outfile); nothing below it followed through a symbolic link. */
#include "plot.h"

#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "util.h"

#define TRIES 100
#define MAX_DEPTH 4

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

int
outdir_write(int at, const char *atpath, const char *name, const void *s, size_t n)
{
	if (outfile_write(at, name, s, n) < 0)
		return error("cannot write '%s/%s':", atpath, name);
	return 0;
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
		*tmp = outfile_tmpname(name);
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
