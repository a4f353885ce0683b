/* SPDX-License-Identifier: Apache-2.0 */
/* An output file that only ever holds whole lines, even when a write fails (disk full). */
#include "linefile.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "outfile.h"

#define FLUSH_AT ((size_t)64 << 10)

int
linefile_open(struct linefile *lf, const char *path, unsigned flags)
{
	memset(lf, 0, sizeof(*lf));
	if (flags & LINEFILE_FRESH)
		lf->fd = outfile_fresh(AT_FDCWD, path);
	else
		lf->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (lf->fd < 0)
		return -1;
	lf->path = path;
	buf_init(&lf->b, BUF_NOMAX);
	return 0;
}

/* A write failed after `done` bytes of the buffer: keep its whole lines only. */
static int
cut_back(struct linefile *lf, size_t done, int err)
{
	const char *s = lf->b.s;

	while (done && s[done - 1] != '\n')
		done--;
	for (size_t i = 0; i < done; i++)
		lf->lines += s[i] == '\n';
	lf->good += (off_t)done;
	/* A file that cannot be cut (a device) keeps what it got. */
	if (ftruncate(lf->fd, lf->good) < 0 && errno != EINVAL)
		err = err ? err : errno;
	lf->err = err;
	lf->pending = 0;
	buf_reset(&lf->b);
	return errno = err, -1;
}

static int
flush(struct linefile *lf)
{
	size_t off = 0;

	while (off < lf->b.len) {
		ssize_t w = write(lf->fd, lf->b.s + off, lf->b.len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return cut_back(lf, off, w < 0 ? errno : ENOSPC);
		off += (size_t)w;
	}
	lf->good += (off_t)lf->b.len;
	lf->lines += lf->pending;
	lf->pending = 0;
	buf_reset(&lf->b);
	return 0;
}

int
linefile_put(struct linefile *lf, const char *s, size_t n)
{
	if (lf->err)
		return errno = lf->err, -1;
	buf_add(&lf->b, s, n);
	buf_addch(&lf->b, '\n');
	lf->pending++;
	return lf->b.len >= FLUSH_AT ? flush(lf) : 0;
}

int
linefile_close(struct linefile *lf)
{
	int rc = lf->err ? (errno = lf->err, -1) : flush(lf);
	int err = errno;

	if (close(lf->fd) < 0 && rc == 0) {
		rc = -1;
		err = errno;
	}
	buf_release(&lf->b);
	lf->fd = -1;
	return errno = err, rc;
}
