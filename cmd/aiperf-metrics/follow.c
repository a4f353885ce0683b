/* SPDX-License-Identifier: Apache-2.0 */
/* --follow: a growing file copied to a pipe until stdin ends, for the one line reader. */
#define _GNU_SOURCE	/* pipe2, F_SETPIPE_SZ, splice */
#include "metrics.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rand/pystr.h"
#include "util.h"

#define CHUNK (1 << 20)
#define PIPE_BYTES (1 << 20)
#define FOLLOW_WAIT_MS 20	/* at the file's end: how long one sleep lasts */

/*
 * The thread copies the file into the pipe as it grows and closes the
 * pipe when it is done (stdin ended and the file was read to its end) or
 * failed; the main thread reads the pipe with struct lines, so following
 * shares every rule of the ordinary reader, the last line without '\n'
 * and zstd included. A failure is kept in why: the main thread reports it
 * once the pipe has ended, before it handles any line read after that.
 */
struct follow {
	const char *path;	/* the one file, or the one being opened */
	const char *const *paths;	/* several files (--follow repeated) */
	size_t npaths;
	int rd, wr;		/* the pipe */
	pthread_t th;
	int joined;
	int stdin_done;		/* stdin ended: the writer has finished */
	int failed;		/* why holds the message; read after the join */
	char why[512];
	char *b;		/* CHUNK bytes of copy buffer */
};

/*
 * Sleep until stdin has something to say or FOLLOW_WAIT_MS pass. Data
 * there is an error unless blank: with --follow the records come from the
 * file (a sender without --raw-file writes them to its stdout instead).
 */
static int
wait_stdin(struct follow *f)
{
	struct pollfd p = { .fd = 0, .events = POLLIN };
	char s[4096];
	ssize_t r;

	if (poll(&p, 1, FOLLOW_WAIT_MS) < 0)
		return errno == EINTR ? 0 : util_seterr(f->why, sizeof(f->why),
			"cannot wait for '<stdin>': %s", util_strerror(errno));
	if (!p.revents)
		return 0;
	r = read(0, s, sizeof(s));
	if (r == 0)
		f->stdin_done = 1;
	if (r < 0 && errno != EINTR && errno != EAGAIN)
		return util_seterr(f->why, sizeof(f->why), "cannot read '<stdin>': %s",
				   util_strerror(errno));
	if (r > 0 && !pystr_isblank(s, (size_t)r))
		return util_seterr(f->why, sizeof(f->why),
			"standard input carries data, but with --follow the records come "
			"from '%s' (does the writer lack --raw-file?)", f->path);
	return 0;
}

static int
put_all(struct follow *f, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(f->wr, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return util_seterr(f->why, sizeof(f->why), "cannot pass '%s' on: %s",
					   f->path, util_strerror(errno));
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * Open the file, waiting for it to appear until stdin ends. Only a regular
 * file has a size to follow (O_NONBLOCK: a FIFO must not block the open;
 * it does nothing to a regular file).
 */
static int
open_wait(struct follow *f)
{
	struct stat st;
	int fd;

	while ((fd = open(f->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
		if (errno != ENOENT || f->stdin_done)
			return util_seterr(f->why, sizeof(f->why), "cannot open '%s': %s",
					   f->path, util_strerror(errno));
		if (wait_stdin(f) < 0)
			return -1;
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		return fd;
	close(fd);
	return util_seterr(f->why, sizeof(f->why), "cannot follow '%s': not a regular file",
			   f->path);
}

/* At the end: the name must still be the file read (or be gone). */
static int
check_same(struct follow *f, const struct stat *st)
{
	struct stat now;

	if (stat(f->path, &now) < 0 || (now.st_dev == st->st_dev && now.st_ino == st->st_ino))
		return 0;
	return util_seterr(f->why, sizeof(f->why),
			   "'%s' was replaced while following (another file has its name)",
			   f->path);
}

/*
 * The file's bytes go into the pipe by splice(2) from the page cache (no
 * copy through this thread), else, where the file system cannot splice,
 * by read and write. The file is appended to, never rewritten (a
 * truncation is an error below), so the pages the pipe refers to keep the
 * bytes it passed.
 */
static ssize_t
pass_on(struct follow *f, int fd, int *nosplice)
{
	ssize_t r;

	if (!*nosplice) {
		r = splice(fd, NULL, f->wr, NULL, CHUNK, SPLICE_F_MOVE);
		if (r < 0 && errno == EPIPE)
			return util_seterr(f->why, sizeof(f->why), "cannot pass '%s' on: %s",
					   f->path, util_strerror(errno)), -2;
		if (r >= 0 || (errno != EINVAL && errno != ENOSYS))
			return r;
		*nosplice = 1;
	}
	r = read(fd, f->b, CHUNK);
	if (r > 0 && put_all(f, f->b, (size_t)r) < 0)
		return -2;
	return r;
}

static int
copy(struct follow *f, int fd)
{
	struct stat st;
	off_t off = 0;
	int nosplice = !util_fastpath();	/* AIPERF_NO_FASTPATH=1: read and write */

	for (;;) {
		ssize_t r = pass_on(f, fd, &nosplice);
		if (r == -2)
			return -1;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return util_seterr(f->why, sizeof(f->why), "cannot read '%s': %s",
					   f->path, util_strerror(errno));
		if (r > 0) {
			off += r;
			continue;
		}
		if (fstat(fd, &st) < 0)
			return util_seterr(f->why, sizeof(f->why), "cannot stat '%s': %s",
					   f->path, util_strerror(errno));
		if (st.st_size < off)
			return util_seterr(f->why, sizeof(f->why),
				"'%s' was truncated while following (%lld bytes, %lld read)",
				f->path, (long long)st.st_size, (long long)off);
		/* stdin ended before this read found the end: the file is whole */
		if (f->stdin_done)
			return check_same(f, &st);
		if (wait_stdin(f) < 0)
			return -1;
	}
}

/*
 * Several files, one a writer (aiperf profile --workers-max: a sender
 * each): whole lines from each as they come, in turns, so that no line
 * is cut by another file's; a line longer than CHUNK holds the others back
 * until its end has come. The files are opened as they appear. Once stdin
 * has ended, a pass reads each file to its end; a last line without its
 * newline gets one.
 */
struct src {
	int fd;			/* -1: not open yet */
	int mid;		/* inside a line (copy_lines) */
	off_t off;		/* bytes passed on */
	struct stat st;
};

/* Pass src's whole lines (all of it when last); bytes passed, or -1.
 * src->mid: a line's start went, its end has not (the others wait). */
static ssize_t
copy_lines(struct follow *f, struct src *src, const char *path, int last)
{
	ssize_t done = 0;

	for (;;) {
		ssize_t r = pread(src->fd, f->b, CHUNK, src->off), k;

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return util_seterr(f->why, sizeof(f->why), "cannot read '%s': %s",
					   path, util_strerror(errno));
		if (r == 0) {
			if (last && src->mid && put_all(f, "\n", 1) < 0)
				return -1;
			src->mid = src->mid && !last;
			return done;
		}
		for (k = r; k > 0 && f->b[k - 1] != '\n'; k--)
			;
		if (!k && (src->mid || r == CHUNK || last))
			k = r;
		if (!k)
			return done;
		if (put_all(f, f->b, (size_t)k) < 0)
			return -1;
		src->off += k;
		done += k;
		src->mid = f->b[k - 1] != '\n';
	}
}

/* Whether src's file grew back from the first read (truncated) or its
 * name now names another file; -1 with why set. */
static int
check_src(struct follow *f, struct src *src, const char *path, int last)
{
	if (fstat(src->fd, &src->st) < 0)
		return util_seterr(f->why, sizeof(f->why), "cannot stat '%s': %s", path,
				   util_strerror(errno));
	if (src->st.st_size < src->off)
		return util_seterr(f->why, sizeof(f->why),
			"'%s' was truncated while following (%lld bytes, %lld read)", path,
			(long long)src->st.st_size, (long long)src->off);
	f->path = path;
	return last ? check_same(f, &src->st) : 0;
}

static int
copy_many(struct follow *f)
{
	struct src *src = xcalloc(f->npaths, sizeof(*src));
	int rc = -1;

	for (size_t i = 0; i < f->npaths; i++)
		src[i].fd = -1;
	for (;;) {
		int last = f->stdin_done;	/* the writers are done: read to the end */
		ssize_t moved = 0, r;

		for (size_t i = 0; i < f->npaths; i++) {
			const char *path = f->paths[i];

			if (src[i].fd < 0) {
				int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
				if (fd < 0 && errno == ENOENT && !last)
					continue;
				f->path = path;
				if (fd < 0) {
					util_seterr(f->why, sizeof(f->why), "cannot open '%s': %s",
						    path, util_strerror(errno));
					goto out;
				}
				src[i].fd = fd;
				if (fstat(fd, &src[i].st) < 0 || !S_ISREG(src[i].st.st_mode)) {
					util_seterr(f->why, sizeof(f->why),
						    "cannot follow '%s': not a regular file", path);
					goto out;
				}
			}
			if ((r = copy_lines(f, &src[i], path, last)) < 0)
				goto out;
			moved += r;
			/* a line cut short: its end first, whatever the others have */
			while (src[i].mid) {
				int end = f->stdin_done;

				if (!end && wait_stdin(f) < 0)
					goto out;
				if ((r = copy_lines(f, &src[i], path, end)) < 0)
					goto out;
				moved += r;
			}
			if (check_src(f, &src[i], path, last) < 0)
				goto out;
		}
		if (last) {
			rc = 0;
			goto out;
		}
		if (!moved && wait_stdin(f) < 0)
			goto out;
	}
out:
	for (size_t i = 0; i < f->npaths; i++)
		if (src[i].fd >= 0)
			close(src[i].fd);
	free(src);
	return rc;
}

static void *
follow_main(void *arg)
{
	struct follow *f = arg;
	int fd;

	if (f->npaths > 1) {
		f->failed = copy_many(f) < 0;
		close(f->wr);
		return NULL;
	}
	fd = open_wait(f);
	f->failed = fd < 0 || copy(f, fd) < 0;
	if (fd >= 0)
		close(fd);
	close(f->wr);
	return NULL;
}

struct follow *
follow_start(const char *const *paths, size_t n)
{
	struct follow *f = xcalloc(1, sizeof(*f));
	int p[2];

	if (pipe2(p, O_CLOEXEC) < 0)
		die("cannot make a pipe:");
	(void)fcntl(p[1], F_SETPIPE_SZ, PIPE_BYTES);	/* fewer wake-ups; best effort */
	f->path = paths[0];
	f->paths = paths;
	f->npaths = n;
	f->rd = p[0];
	f->wr = p[1];
	f->b = xmalloc(CHUNK);
	errno = pthread_create(&f->th, NULL, follow_main, f);
	if (errno)
		die("cannot start a thread:");
	return f;
}

int
follow_fd(const struct follow *f)
{
	return f->rd;
}

void
follow_end(struct follow *f)
{
	if (f->joined)
		return;
	pthread_join(f->th, NULL);
	f->joined = 1;
	if (f->failed)
		die("%s", f->why);
}

void
follow_free(struct follow *f)
{
	if (!f)
		return;
	follow_end(f);
	close(f->rd);
	free(f->b);
	free(f);
}
