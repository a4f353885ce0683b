/* SPDX-License-Identifier: Apache-2.0 */
/* --status-fd: the run so far as NDJSON status lines, for a live view (aiperf-ui). */
#include "status.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "clock.h"
#include "json/jw.h"
#include "util.h"

#define EVERY_NS 500000000
#define SUB 64			/* buckets per power of two: < 1% apart */
#define NBUCKET (58 * SUB)
#define MAXTYPES 16
#define WAIT_MS 5000

/* A log-linear histogram of non-negative int64 values. */
struct hist {
	uint64_t n;
	int64_t max;
	uint32_t b[NBUCKET];
};

enum { H_TTFT, H_ITL, H_LAT, H_LATE, H_N };

struct phase {
	uint64_t done, errors, tokens;
	int64_t first_ns, last_ns;
};

struct status {
	int fd;
	struct phase warm, prof;
	struct hist h[H_N];
	int64_t late_min;
	struct {
		char name[48];
		uint64_t n;
	} err[MAXTYPES + 1];	/* the last: every other type */
	int nerr;
	int64_t next;
	uint64_t lines, dropped;
	struct buf line;
};

static int
bucket(int64_t v)
{
	int e, shift;

	if (v < SUB)
		return v < 0 ? 0 : (int)v;
	e = 63 - __builtin_clzll((unsigned long long)v);
	shift = e - 6;
	return (shift + 1) * SUB + (int)((v >> shift) - SUB);
}

/* The middle of bucket i's range. */
static double
bucket_mid(int i)
{
	int shift = i / SUB - 1;

	if (i < SUB)
		return i;
	return ((double)(i % SUB + SUB) + 0.5) * (double)(1ULL << shift);
}

static void
hist_add(struct hist *h, int64_t v)
{
	if (v < 0)
		v = 0;
	h->b[bucket(v)]++;
	if (!h->n++ || v > h->max)
		h->max = v;
}

/* The q-quantile (0..1) of h, within a bucket's width. */
static double
hist_q(const struct hist *h, double q)
{
	uint64_t want = (uint64_t)(q * (double)(h->n - 1)) + 1, seen = 0;

	for (int i = 0; i < NBUCKET; i++)
		if ((seen += h->b[i]) >= want)
			return bucket_mid(i) < (double)h->max ? bucket_mid(i) : (double)h->max;
	return (double)h->max;
}

struct status *
status_new(int fd)
{
	struct status *s = xcalloc(1, sizeof(*s));
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		die("--status-fd %d: not an open file descriptor", fd);
	(void)fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	s->fd = fd;
	s->warm.first_ns = s->prof.first_ns = -1;
	s->warm.last_ns = s->prof.last_ns = -1;
	buf_init(&s->line, BUF_NOMAX);
	return s;
}

static void
phase_add(struct phase *p, const struct status_item *it)
{
	p->done++;
	p->errors += it->error != 0;
	if (it->osl > 0)
		p->tokens += (uint64_t)it->osl;
	if (it->start_ns >= 0 && (p->first_ns < 0 || it->start_ns < p->first_ns))
		p->first_ns = it->start_ns;
	if (it->end_ns > p->last_ns)
		p->last_ns = it->end_ns;
}

static void
count_error(struct status *s, const char *type)
{
	int i;

	for (i = 0; i < s->nerr; i++)
		if (!strcmp(s->err[i].name, type))
			break;
	if (i == s->nerr) {
		if (s->nerr == MAXTYPES) {
			i = MAXTYPES;
			snprintf(s->err[i].name, sizeof(s->err[i].name), "%s", "other");
		} else {
			snprintf(s->err[i].name, sizeof(s->err[i].name), "%s", type);
			s->nerr++;
		}
	}
	s->err[i].n++;
}

static void
put_phase(struct jw *w, const char *key, const struct phase *p)
{
	double span = (double)(p->last_ns - p->first_ns) / 1e9;

	jw_key(w, key);
	jw_obj(w);
	jw_key(w, "done");
	jw_int(w, (int64_t)p->done);
	jw_key(w, "errors");
	jw_int(w, (int64_t)p->errors);
	jw_key(w, "span_s");
	jw_double(w, p->first_ns >= 0 && span > 0 ? span : 0);
	jw_key(w, "request_rate");
	jw_double(w, p->first_ns >= 0 && span > 0 ? (double)p->done / span : 0);
	jw_key(w, "output_token_rate");
	jw_double(w, p->first_ns >= 0 && span > 0 ? (double)p->tokens / span : 0);
	jw_obj_end(w);
}

/* {"n":N,"p50":..,"p90":..,"p99":..,"max":..} in unit (ns per unit). */
static void
put_hist(struct jw *w, const char *key, const struct hist *h, double unit)
{
	static const struct {
		const char *k;
		double q;
	} qs[] = { { "p50", 0.50 }, { "p90", 0.90 }, { "p99", 0.99 } };

	jw_key(w, key);
	if (!h->n) {
		jw_null(w);
		return;
	}
	jw_obj(w);
	jw_key(w, "n");
	jw_int(w, (int64_t)h->n);
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		jw_key(w, qs[i].k);
		jw_double(w, hist_q(h, qs[i].q) / unit);
	}
	jw_key(w, "max");
	jw_double(w, (double)h->max / unit);
	jw_obj_end(w);
}

static void
emit(struct status *s, int end)
{
	struct jw w;
	const char *p;
	size_t left;

	buf_reset(&s->line);
	jw_init(&w, &s->line, 0);
	jw_obj(&w);
	jw_key(&w, "phase");
	jw_str(&w, s->prof.done ? "profiling" : s->warm.done ? "warmup" : "starting");
	put_phase(&w, "warmup", &s->warm);
	put_phase(&w, "profiling", &s->prof);
	put_hist(&w, "ttft_ms", &s->h[H_TTFT], 1e6);
	put_hist(&w, "itl_ms", &s->h[H_ITL], 1e6);
	put_hist(&w, "latency_ms", &s->h[H_LAT], 1e6);
	put_hist(&w, "lateness_us", &s->h[H_LATE], 1e3);
	jw_key(&w, "errors_by_type");
	jw_obj(&w);
	for (int i = 0; i <= MAXTYPES; i++)
		if (s->err[i].n) {
			jw_key(&w, s->err[i].name);
			jw_int(&w, (int64_t)s->err[i].n);
		}
	jw_obj_end(&w);
	jw_key(&w, "end");
	jw_bool(&w, end);
	jw_obj_end(&w);
	buf_addch(&s->line, '\n');
	/* a line is written whole or not at all (PIPE_BUF), else dropped */
	p = s->line.s;
	left = s->line.len;
	if (left > 4096) {
		s->dropped++;
		return;
	}
	for (;;) {
		ssize_t n = write(s->fd, p, left);

		if (n == (ssize_t)left) {
			s->lines++;
			return;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			s->dropped++;
			return;
		}
		s->fd = -1;	/* the reader went away: stop */
		return;
	}
}

void
status_record(struct status *s, const struct status_item *it)
{
	int64_t now;

	if (!s || s->fd < 0)
		return;
	if (it->warmup) {
		phase_add(&s->warm, it);
	} else {
		phase_add(&s->prof, it);
		if (it->error)
			count_error(s, it->etype[0] ? it->etype : "Error");
		if (it->ttft_ns >= 0)
			hist_add(&s->h[H_TTFT], it->ttft_ns);
		if (it->itl_ns >= 0)
			hist_add(&s->h[H_ITL], (int64_t)it->itl_ns);
		if (it->lat_ns >= 0)
			hist_add(&s->h[H_LAT], it->lat_ns);
		if (it->late_ns != INT64_MIN)
			hist_add(&s->h[H_LATE], it->late_ns);
	}
	if ((now = clock_mono_ns()) < s->next)
		return;
	s->next = now + EVERY_NS;
	emit(s, 0);
}

void
status_end(struct status *s)
{
	struct pollfd pfd;
	struct stat sb;
	int64_t until;

	if (!s)
		return;
	if (s->fd >= 0) {
		/* the last line must arrive: wait for room (bounded) */
		int fl = fcntl(s->fd, F_GETFL);

		if (fl >= 0)
			(void)fcntl(s->fd, F_SETFL, fl & ~O_NONBLOCK);
		emit(s, 1);
	}
	/* a pipe's write end polls POLLERR once its reader closed it; a
	 * file or a terminal has nobody to wait for */
	until = clock_mono_ns() + (int64_t)WAIT_MS * 1000000;
	while (s->fd >= 0 && fstat(s->fd, &sb) == 0 && S_ISFIFO(sb.st_mode)) {
		int64_t left = (until - clock_mono_ns()) / 1000000;

		if (left <= 0)
			break;
		pfd.fd = s->fd;
		pfd.events = 0;
		if (poll(&pfd, 1, (int)left) < 0 && errno != EINTR)
			break;
		if (pfd.revents & (POLLERR | POLLHUP | POLLNVAL))
			break;
	}
	buf_release(&s->line);
	free(s);
}
