/* SPDX-License-Identifier: Apache-2.0 */
/* The rows layout on disk: openat() a folder at a time, O_NOFOLLOW below the root. */
#include "hub/rowcache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hub/rows.h"
#include "outfile.h"
#include "util.h"

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_CLOEXEC)


/* Step from folder fd into its entry name, which must be a real folder;
 * made first when make. Closes fd. Returns the new descriptor or -1. */
static int
step(int fd, const char *name, int make)
{
	int nfd = -1, e;

	if (!make || mkdirat(fd, name, 0777) == 0 || errno == EEXIST)
		nfd = openat(fd, name, DIR_FLAGS | O_NOFOLLOW);
	e = errno;
	close(fd);
	errno = e;
	return nfd;
}

/* The folder ROOT/<id>/<config>, or -1 with errno (ELOOP, ENOTDIR: a
 * link or a file on the way). */
static int
open_folder(const char *root, const char *id, const char *config, int make)
{
	const char *slash = strchr(id, '/');
	int fd;

	if (make && util_mkdirs(root) < 0)
		return -1;
	if ((fd = open(root, DIR_FLAGS)) < 0)
		return -1;
	if (slash) {
		char *org = xstrndup(id, (size_t)(slash - id));

		fd = step(fd, org, make);
		free(org);
		id = slash + 1;
	}
	if (fd >= 0)
		fd = step(fd, id, make);
	if (fd >= 0)
		fd = step(fd, config, make);
	return fd;
}

static int
not_followed(char *err, size_t errlen, const char *root, const char *id,
	     const char *config, const char *split, int e)
{
	char *path = rows_path(root, id, config, split);
	int rc;

	if (e == ELOOP || e == ENOTDIR || e == EFTYPE || e == ENXIO)
		rc = util_seterr(err, errlen, "'%s': a link, or not a regular file, "
				 "on the way (never followed): remove it", path);
	else
		rc = util_seterr(err, errlen, "'%s': %s", path, util_strerror(e));
	free(path);
	return rc;
}

int
rowcache_open(const char *root, const char *id, const char *config,
	      const char *split, char *err, size_t errlen)
{
	char *name = xstrfmt("%s.jsonl", split);
	int dfd = open_folder(root, id, config, 0), fd = -1, e;
	struct stat st;

	if (dfd >= 0)
		fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
				       O_NOCTTY | O_CLOEXEC);
	e = errno;
	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
		e = S_ISDIR(st.st_mode) ? EISDIR : EFTYPE;
		close(fd);
		fd = -1;
	}
	if (dfd >= 0)
		close(dfd);
	free(name);
	if (fd >= 0)
		return fd;
	if (e == ENOENT)
		return -2;
	return not_followed(err, errlen, root, id, config, split, e);
}

static int
write_rows(struct outfile *of, const struct rows *r)
{
	FILE *f = of->f;

	for (size_t i = 0; i < r->n; i++)
		if (fwrite(r->v[i], 1, r->len[i], f) != r->len[i] ||
		    putc('\n', f) == EOF)
			return -1;
	return 0;
}

/* Whatever is at name must be a regular file (or nothing) to be replaced. */
static int
replaceable(int dfd, const char *name)
{
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -1;
	if (S_ISREG(st.st_mode))
		return 0;
	errno = S_ISLNK(st.st_mode) ? ELOOP : EFTYPE;
	return -1;
}

int
rowcache_store(const char *root, const char *id, const char *config,
	       const char *split, const struct rows *r, char *err,
	       size_t errlen)
{
	char *name = xstrfmt("%s.jsonl", split);
	int dfd = open_folder(root, id, config, 1), rc = -1;
	struct outfile of;

	if (dfd >= 0 && replaceable(dfd, name) == 0 &&
	    outfile_fopen(&of, dfd, name)) {
		if (write_rows(&of, r) < 0)
			outfile_discard(&of);
		else
			rc = outfile_commit(&of);
	}
	if (rc < 0)
		not_followed(err, errlen, root, id, config, split, errno);
	if (dfd >= 0)
		close(dfd);
	free(name);
	return rc;
}
