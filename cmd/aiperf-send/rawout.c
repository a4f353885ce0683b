/* SPDX-License-Identifier: Apache-2.0 */
/* --raw-file: raw records written to a file by a thread of their own, from a bounded queue. */
#include "rawout.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/types.h>
#include <unistd.h>
#include "clock.h"
#include "util.h"

#define SLOT_BYTES ((size_t)16 << 10)	/* a queue slot per this much of the cap */
#define MIN_SLOTS 64
#define MAX_SLOTS 65536
#define SPARES 4		/* written buffers kept for the loop to reuse */
#define SPARE_MAX ((size_t)1 << 20)	/* larger ones are freed */

struct rawout {
	pthread_mutex_t mu;
	pthread_cond_t more;	/* to the writer: a block queued, or closing */
	pthread_cond_t room;	/* to the loop: a block written */
	pthread_t th;
	int fd;
	struct buf *q;		/* the ring of queued blocks */
	size_t nq, head, n;	/* its slots, the oldest block, blocks queued */
	size_t bytes, cap;	/* bytes queued (until written), their cap */
	struct buf spare[SPARES];
	size_t nspare;
	int idle;		/* the writer waits for a block */
	int full;		/* the loop waits for room */
	int closing;
	int err;		/* errno of the first failure, or 0 */
	off_t good;		/* bytes of whole records in the file (the writer's) */
	struct rawout_stats st;
};

/* A write failed after done bytes of b: the file keeps whole records only. */
static int
cut_back(struct rawout *r, const struct buf *b, size_t done, int err)
{
	while (done && b->s[done - 1] != '\n')
		done--;
	r->good += (off_t)done;
	/* A file that cannot be cut (a device) keeps what it got; the
	 * write's error is the one to report. */
	if (ftruncate(r->fd, r->good) < 0)
		errno = err;
	return err;
}

/* Write b whole; 0, or the errno of the failure. */
static int
write_block(struct rawout *r, const struct buf *b)
{
	size_t off = 0;

	while (off < b->len) {
		ssize_t w = write(r->fd, b->s + off, b->len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return cut_back(r, b, off, w < 0 ? errno : ENOSPC);
		off += (size_t)w;
	}
	r->good += (off_t)b->len;
	return 0;
}

/* b was written: keep its allocation for the loop, or free it (under mu). */
static void
recycle(struct rawout *r, struct buf *b)
{
	if (r->nspare < SPARES && b->cap <= SPARE_MAX) {
		buf_reset(b);
		r->spare[r->nspare++] = *b;
		buf_init(b, BUF_NOMAX);
	} else {
		buf_release(b);
	}
}

static void *
writer(void *arg)
{
	struct rawout *r = arg;

	pthread_mutex_lock(&r->mu);
	for (;;) {
		while (!r->n && !r->closing) {
			r->idle = 1;
			pthread_cond_wait(&r->more, &r->mu);
			r->idle = 0;
		}
		if (!r->n)
			break;
		struct buf *b = &r->q[r->head];
		int err = r->err;
		/* The loop touches only the slots after the n queued ones. */
		pthread_mutex_unlock(&r->mu);
		if (!err)
			err = write_block(r, b);
		pthread_mutex_lock(&r->mu);
		if (!r->err)
			r->err = err;
		r->bytes -= b->len;
		recycle(r, b);
		r->head = (r->head + 1) % r->nq;
		r->n--;
		if (r->full)
			pthread_cond_signal(&r->room);
	}
	pthread_mutex_unlock(&r->mu);
	return NULL;
}

struct rawout *
rawout_open(const char *path, size_t cap)
{
	struct rawout *r = xcalloc(1, sizeof(*r));
	sigset_t all, old;
	int e;

	r->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (r->fd < 0) {
		free(r);
		return NULL;
	}
	r->cap = cap;
	r->nq = cap / SLOT_BYTES;
	r->nq = r->nq < MIN_SLOTS ? MIN_SLOTS : r->nq > MAX_SLOTS ? MAX_SLOTS : r->nq;
	r->q = xcalloc(r->nq, sizeof(*r->q));
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->more, NULL);
	pthread_cond_init(&r->room, NULL);
	/* Signals are the loop's (a signalfd): the writer takes none. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = pthread_create(&r->th, NULL, writer, r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e) {
		r->closing = -1;	/* no thread to join */
		rawout_close(r, NULL);
		errno = e;
		return NULL;
	}
	return r;
}

/* Wait until len more bytes fit (under mu), and count the wait. */
static void
wait_room(struct rawout *r, size_t len)
{
	int64_t t0 = clock_mono_ns(), dt;

	r->full = 1;
	while (r->n == r->nq || (r->n && r->bytes + len > r->cap))
		pthread_cond_wait(&r->room, &r->mu);
	r->full = 0;
	dt = clock_mono_ns() - t0;
	r->st.waits++;
	r->st.wait_ns += dt;
	if (dt > r->st.max_wait_ns)
		r->st.max_wait_ns = dt;
}

int
rawout_put(struct rawout *r, struct buf *b)
{
	struct buf *t;

	if (!b->len)
		return 0;
	pthread_mutex_lock(&r->mu);
	/* A block larger than the cap still goes, alone. */
	if (r->n == r->nq || (r->n && r->bytes + b->len > r->cap))
		wait_room(r, b->len);
	if (r->err) {
		int err = r->err;
		pthread_mutex_unlock(&r->mu);
		buf_reset(b);
		return errno = err, -1;
	}
	t = &r->q[(r->head + r->n) % r->nq];
	*t = *b;
	if (r->nspare)
		*b = r->spare[--r->nspare];
	else
		buf_init(b, BUF_NOMAX);
	r->n++;
	r->bytes += t->len;
	if (r->bytes > r->st.peak)
		r->st.peak = r->bytes;
	if (r->idle)
		pthread_cond_signal(&r->more);
	pthread_mutex_unlock(&r->mu);
	return 0;
}

int
rawout_close(struct rawout *r, struct rawout_stats *st)
{
	int err;

	if (r->closing == 0) {
		pthread_mutex_lock(&r->mu);
		r->closing = 1;
		pthread_cond_signal(&r->more);
		pthread_mutex_unlock(&r->mu);
		pthread_join(r->th, NULL);
	}
	err = r->err;
	if (close(r->fd) < 0 && !err)
		err = errno;
	r->st.bytes = (uint64_t)r->good;
	if (st)
		*st = r->st;
	for (size_t i = 0; i < r->nspare; i++)
		buf_release(&r->spare[i]);
	pthread_cond_destroy(&r->room);
	pthread_cond_destroy(&r->more);
	pthread_mutex_destroy(&r->mu);
	free(r->q);
	free(r);
	return err ? (errno = err, -1) : 0;
}
