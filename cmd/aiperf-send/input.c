/* SPDX-License-Identifier: Apache-2.0 */
/* Request records from stdin, read without blocking into a bounded queue. */
#include "send.h"

#include <fcntl.h>
#include <unistd.h>
#include "clock.h"
#include "json/json.h"
#include "rand/pystr.h"
#include "util.h"
#include "xfer.h"

/* Ask the loop for one more "readable" once reading would block. */
static void
input_rearm(struct sender *s)
{
	if (s->in_polled < 0)
		return;
	s->in_ready = 0;
	if (evloop_mod(s->loop, 0, EVLOOP_IN | EVLOOP_ONESHOT) < 0)
		die("epoll on '<stdin>':");
}

static void
on_stdin(struct evloop *l, int fd, unsigned events, void *ud)
{
	struct sender *s = ud;

	(void)l;
	(void)fd;
	(void)events;
	s->in_ready = 1;
}

void
input_open(struct sender *s)
{
	int fl = fcntl(0, F_GETFL);

	if (fl < 0)
		die("cannot read '<stdin>':");
	s->in_flags = fl;
	if (!(fl & O_NONBLOCK))
		fcntl(0, F_SETFL, fl | O_NONBLOCK);
	lines_fdopen(&s->in, 0, "<stdin>", s->o->max_line);
	/* Regular files (and /dev/null) cannot be polled: always readable. */
	s->in_ready = 1;
	if (evloop_add(s->loop, 0, EVLOOP_IN | EVLOOP_ONESHOT, on_stdin, s) == 0)
		s->in_polled = 1;
	else if (errno == EPERM)
		s->in_polled = -1;
	else
		die("epoll on '<stdin>':");
}

/*
 * A record read (or re-issued) joins the queue, or its session when a
 * later turn; a warmup record after the warmup duration ended is not sent.
 */
void
input_enqueue(struct sender *s, struct xfer *x)
{
	if (x->warmup)
		s->wpending++;
	if (x->warmup && s->warmup_over) {
		s->nread++;
		sender_not_sent(s, x);
		return;
	}
	if ((x->num_turns > 1 && x->turn_index > 0) || x->dag_parent) {
		s->nread++;
		sess_park(s, x);
		return;
	}
	x->next = NULL;
	if (s->qtail)
		s->qtail->next = x;
	else
		s->qhead = x;
	s->qtail = x;
	s->qlen++;
	s->nread++;
}

static void
bad_line(struct sender *s, const char *why)
{
	error("%s:%zu: %s", s->in.name, s->in.lineno, why);
	s->in_state = 2;	/* stop reading; what was read before is still sent */
	s->status = 1;
}

static int
add_line(struct sender *s, const char *line, size_t n)
{
	char why[512];
	struct xfer *x;

	if (pystr_isblank(line, n))
		return 0;	/* blank lines carry no request */
	while (n && (line[n - 1] == '\r' || line[n - 1] == ' '))
		n--;
	x = xfer_parse(s, line, n, why, sizeof(why));
	if (!x) {
		bad_line(s, why);
		return -1;
	}
	warmup_keep(s, x, line, n);
	s->nlines[x->warmup]++;
	input_enqueue(s, x);
	return 0;
}

#define PUMP_BATCH 32	/* records one pass parses at most while others wait */

/*
 * Whether a pass that added `added` records reads on. The queue must have
 * room (--read-ahead). Before the first request a pass reads all it can.
 * Then reading never delays a send: a pass stops when the queue's head may
 * start now (or within SPIN_NS of its intended time), and after
 * PUMP_BATCH records; the loop comes back for the rest between sends.
 */
static int
read_on(struct sender *s, int added)
{
	const struct xfer *x = s->qhead;
	int64_t now;

	if (s->qlen >= s->qmax)
		return 0;
	if (!x || s->phase == 0)
		return 1;
	if (added >= PUMP_BATCH)
		return 0;
	if (s->phase != (x->warmup ? 1 : 2))
		return 1;	/* it waits for the phase before to drain */
	now = clock_now_ns();
	if (x->at_ns >= 0 && now < s->phase_start + x->at_ns - SPIN_NS)
		return 1;
	return !sched_may_start(s, x, 1, now);
}

/* Whether stdin may give more now and the queue wants it. */
int
input_wanted(const struct sender *s)
{
	return s->in_ready && s->in_state == 0 && !s->stopping && s->qlen < s->qmax;
}

/*
 * Read records until the queue holds qmax or stdin would block, in
 * passes (read_on). Returns 1 when a record was added. A malformed line
 * stops the run (status 1): records read before it are still sent or
 * reported.
 */
int
input_pump(struct sender *s)
{
	const char *line;
	size_t n;
	int added = 0;

	while (s->in_state == 0 && !s->stopping && read_on(s, added)) {
		int r = lines_next(&s->in, &line, &n);
		if (r == 0) {
			s->in_state = 1;
			s->in_ready = 0;
			break;
		}
		if (r < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				input_rearm(s);
				break;
			}
			if (errno == ENOBUFS) {
				bad_line(s, "line too long");
			} else {
				error("cannot read '%s':", s->in.name);
				s->in_state = 2;
				s->status = 1;
			}
			break;
		}
		if (add_line(s, line, n) < 0)
			break;
		added++;
	}
	if (s->in_state != 0)
		sess_sweep(s);
	return added > 0;
}

/*
 * --read-all: read to the end of the input before anything is sent,
 * sleeping while the producer is slow; a signal ends the wait (the run
 * then stops with what was read).
 */
void
input_read_all(struct sender *s)
{
	while (s->in_state == 0 && !s->nsig) {
		if (s->in_ready)
			input_pump(s);
		else if (evloop_run_once(s->loop, -1) < 0)
			die("epoll_wait:");
	}
}

/* Give stdin back as we found it: the descriptor may be shared. */
void
input_close(struct sender *s)
{
	evloop_forget(s->loop, 0);
	lines_close(&s->in);
	fcntl(0, F_SETFL, s->in_flags);
}

/* x goes first in the queue (a re-issued warmup record, turn 0). */
void
input_unshift(struct sender *s, struct xfer *x)
{
	if (x->warmup)
		s->wpending++;
	x->next = s->qhead;
	s->qhead = x;
	if (!s->qtail)
		s->qtail = x;
	s->qlen++;
	s->nread++;
}

struct xfer *
input_pop(struct sender *s)
{
	struct xfer *x = s->qhead;
	if (!x)
		return NULL;
	s->qhead = x->next;
	if (!s->qhead)
		s->qtail = NULL;
	s->qlen--;
	x->next = NULL;
	return x;
}
