/* SPDX-License-Identifier: Apache-2.0 */
/* Output files that are never written through a symbolic link at their name. */
#include "outfile.h"

#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

#define TRIES 100
#define DIGITS 12
/* ".NAME." and the digits in one component */
#define BASE_MAX (NAME_MAX - DIGITS - 2)
#define NEW_FLAGS (O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC)

static uint64_t
noise(void)
{
	static uint64_t seq;
	struct timespec ts;
	uint64_t x;

	if (getrandom(&x, sizeof(x), GRND_NONBLOCK) == (ssize_t)sizeof(x))
		return x;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 30 ^ (uint64_t)getpid() << 40) +
	       ++seq * 0x9e3779b97f4a7c15u;
}

char *
outfile_tmpname(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t n = strlen(base);

	return xstrfmt("%.*s.%.*s.%0*llx", (int)(base - path), path,
		       (int)(n > BASE_MAX ? BASE_MAX : n), base, DIGITS,
		       (unsigned long long)(noise() & ((1ull << (4 * DIGITS)) - 1)));
}

static void
release(struct outfile *of)
{
	free(of->tmp);
	free(of->path);
	of->tmp = of->path = NULL;
	of->fd = -1;
	of->f = NULL;
}

/* A device, FIFO or socket at path (not a link to one) is written where
 * it is, never replaced: /dev/null stays /dev/null. Its descriptor, or -2
 * when path is anything else (or nothing). */
static int
special(int at, const char *path)
{
	struct stat st;

	if (fstatat(at, path, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !(S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISFIFO(st.st_mode) ||
	      S_ISSOCK(st.st_mode)))
		return -2;
	return openat(at, path, O_WRONLY | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
}

int
outfile_open(struct outfile *of, int at, const char *path)
{
	memset(of, 0, sizeof(*of));
	of->at = at;
	of->fd = special(at, path);
	if (of->fd >= 0) {
		of->path = xstrdup(path);
		return 0;
	}
	if (of->fd == -1)
		return -1;
	of->fd = -1;
	for (int i = 0; of->fd < 0 && i < TRIES; i++) {
		free(of->tmp);
		of->tmp = outfile_tmpname(path);
		if ((of->fd = openat(at, of->tmp, NEW_FLAGS, 0666)) < 0 && errno != EEXIST)
			break;
	}
	if (of->fd < 0) {
		int err = errno;

		release(of);
		return errno = err, -1;
	}
	of->path = xstrdup(path);
	return 0;
}

FILE *
outfile_fopen(struct outfile *of, int at, const char *path)
{
	if (outfile_open(of, at, path) < 0)
		return NULL;
	if (!(of->f = fdopen(of->fd, "w")))
		outfile_discard(of);
	return of->f;
}

/* Close the new file: 0, or the errno of what failed. */
static int
finish(struct outfile *of)
{
	int err = 0;

	if (!of->f)
		return close(of->fd) < 0 ? errno : 0;
	errno = 0;
	if (fflush(of->f) == EOF || ferror(of->f))
		err = errno ? errno : EIO;
	if (fclose(of->f) == EOF && !err)
		err = errno;
	return err;
}

int
outfile_commit(struct outfile *of)
{
	int err = finish(of);

	if (!err && of->tmp && renameat(of->at, of->tmp, of->at, of->path) < 0)
		err = errno;
	if (err && of->tmp)
		unlinkat(of->at, of->tmp, 0);
	release(of);
	return err ? (errno = err, -1) : 0;
}

void
outfile_discard(struct outfile *of)
{
	int err = errno;

	if (of->f)
		fclose(of->f);
	else if (of->fd >= 0)
		close(of->fd);
	if (of->tmp)
		unlinkat(of->at, of->tmp, 0);
	release(of);
	errno = err;
}

static int
write_all(int fd, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -1 : (errno = ENOSPC, -1);
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

int
outfile_write(int at, const char *path, const void *s, size_t n)
{
	struct outfile of;

	if (outfile_open(&of, at, path) < 0)
		return -1;
	if (write_all(of.fd, s, n) < 0) {
		outfile_discard(&of);
		return -1;
	}
	return outfile_commit(&of);
}

int
outfile_fresh(int at, const char *path)
{
	int dev = special(at, path);

	if (dev != -2)
		return dev;
	for (int i = 0; i < TRIES; i++) {
		int fd = openat(at, path, NEW_FLAGS, 0666);

		if (fd >= 0 || errno != EEXIST)
			return fd;
		/* a folder: EISDIR (Linux; EPERM elsewhere) */
		if (unlinkat(at, path, 0) < 0 && errno != ENOENT)
			return -1;
	}
	return errno = EEXIST, -1;
}

int
outfile_append(int at, const char *path)
{
	int fd = openat(at, path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK |
			O_NOCTTY | O_CLOEXEC, 0666);
	struct stat st;
	int err = 0;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0)
		err = errno;
	else if (!S_ISREG(st.st_mode))
		err = EFTYPE;
	if (err) {
		close(fd);
		return errno = err, -1;
	}
	return fd;
}
