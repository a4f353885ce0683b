/* SPDX-License-Identifier: Apache-2.0 */
/* The sender loop: one CURLM driven by lib/evloop through curl_multi_socket_action (hiperfifo). */
#include "send.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "clock.h"
#include "json/json.h"
#include "outq.h"
#include "rawout.h"
#include "runlog.h"
#include "util.h"
#include "vjob.h"
#include "xfer.h"

#define MAX_EVENTS 256
#define FLUSH_NS 100000000	/* records wait at most this long in the output buffer */
#define OUT_KEEP ((size_t)4 << 20)	/* the output buffer's room kept between flushes */

static void
on_signal(struct evloop *l, int sig, void *ud)
{
	struct sender *s = ud;

	(void)l;
	(void)sig;
	s->nsig++;
}

int64_t
sender_wall(const struct sender *s, int64_t mono)
{
	return s->wall0 + (mono - s->mono0);
}

/*
 * --raw-file: the block goes to the writer thread's queue, no write(2)
 * here. A failed write stops the run as a failed stdout would.
 */
static void
hand_over(struct sender *s)
{
	if (!s->downstream_gone && rawout_put(s->raw, &s->out) < 0) {
		error("cannot write '%s':", s->o->raw_file);
		s->status = 1;
		s->downstream_gone = 1;
		sender_stop(s, 0);
	}
	buf_reset(&s->out);
	s->flushed_ns = clock_now_ns();
}

static void out_failed(struct sender *s);

/* The reader took what it could; stop watching once nothing waits. */
static void
on_stdout(struct evloop *l, int fd, unsigned events, void *ud)
{
	struct sender *s = ud;

	(void)fd;
	(void)events;
	if (outq_pump(&s->outq) < 0)
		out_failed(s);
	else if (!outq_pending(&s->outq) && s->out_watched) {
		evloop_del(l, 1);
		s->out_watched = 0;
	}
}

/*
 * Standard output failed: EPIPE is a reader that is done (nothing more
 * to say), anything else an error.
 */
static void
out_failed(struct sender *s)
{
	if (errno != EPIPE) {
		error("cannot write '<stdout>':");
		s->status = 1;
	}
	s->downstream_gone = 1;
	if (s->out_watched)
		evloop_del(s->loop, 1);
	s->out_watched = 0;
	sender_stop(s, 0);
}

/*
 * The block goes to standard output without waiting for the reader:
 * what it has no room for waits in s->outq, written as it makes room
 * (on_stdout), so a slow reader delays no request and no stamp.
 */
static void
flush_out(struct sender *s)
{
	if (s->raw) {
		hand_over(s);
		return;
	}
	if (!s->downstream_gone && outq_put(&s->outq, s->out.s, s->out.len) < 0)
		out_failed(s);
	else if (!s->downstream_gone && outq_pending(&s->outq) && !s->out_watched) {
		if (evloop_add(s->loop, 1, EVLOOP_OUT, on_stdout, s) < 0)
			die("epoll on '<stdout>':");
		s->out_watched = 1;
	}
	buf_reset(&s->out);
	if (s->out.cap > OUT_KEEP)
		buf_release(&s->out);	/* a huge record's room goes back */
	s->flushed_ns = clock_now_ns();
}

/* Write x's raw record and free it. */
void
sender_emit(struct sender *s, struct xfer *x)
{
	if (!s->downstream_gone)
		xfer_record(x, &s->out);
	if (x->err != XE_NONE)
		s->nerr++;
	ui_count(s, x);
	s->nnotsent += x->err == XE_NOTSENT;
	s->nstopped += x->err == XE_STOPPED || x->err == XE_NOTFIN;
	if (x->warmup && s->wpending)
		s->wpending--;
	s->ndone++;
	xfer_free(x);
	if (s->o->unbuffered || s->out.len >= 1 << 18)
		flush_out(s);
}

/* x ended with rc (either engine): its record goes out, its slot frees. */
void
sender_finish(struct sender *s, struct xfer *x, CURLcode rc)
{
	if (x->vj && vjob_step(s, x, rc))
		return;		/* a video job goes on: next poll or download */
	sched_remove(&s->timers, x);
	/*
	 * The record starts when the request's bytes went out (cb_prereq, or
	 * the native engine's first write), not when a connection for it was
	 * sought; one never sent keeps the moment it was handed over.
	 */
	if (x->sent_ns >= 0)
		x->start_ns = x->sent_ns;
	if (x->aprev)
		x->aprev->anext = x->anext;
	else
		s->active = x->anext;
	if (x->anext)
		x->anext->aprev = x->aprev;
	xfer_done(x, rc);
	sched_prefill_release(s, x);
	CURL *h = x->h;
	if (h) {
		curl_multi_remove_handle(s->m, h);
		if (s->o->reuse == REUSE_STICKY)
			curl_easy_setopt(h, CURLOPT_SHARE, NULL);	/* its session may end now */
	}
	sess_finish(s, x);
	sender_emit(s, x);
	s->inflight--;
	if (!h)
		return;
	if (s->npool == s->cappool) {
		s->cappool = s->cappool ? 2 * s->cappool : 64;
		s->pool = xreallocarray(s->pool, s->cappool, sizeof(*s->pool));
	}
	s->pool[s->npool++] = h;
}

static void
drain_done(struct sender *s)
{
	CURLMsg *msg;
	int left;

	while ((msg = curl_multi_info_read(s->m, &left))) {
		struct xfer *x = NULL;
		if (msg->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&x);
		sender_finish(s, x, msg->data.result);
	}
	h1conn_drain(s);
}

static void
cancel(struct sender *s, struct xfer *x, enum xfer_err e, const char *msg)
{
	x->cancel_ns = clock_now_ns();
	xfer_fail(x, e, 499, msg);
	if (!x->h)
		h1conn_abort(s, x);
	sender_finish(s, x, CURLE_ABORTED_BY_CALLBACK);
}

static void
cancel_due(struct sender *s, int64_t now)
{
	struct xfer *x;
	while ((x = sched_top(&s->timers)) && x->deadline <= now) {
		struct buf b = BUF_INIT(BUF_NOMAX);
		buf_addf(&b, "Request cancelled %.3fs after being sent",
			 (double)x->cancel_after_ns / 1e9);
		cancel(s, x, XE_CANCEL, buf_str(&b));
		buf_release(&b);
	}
}

/*
 * Cancel every request in flight; used when the run stops and its grace
 * (--benchmark-grace-period, --shutdown-grace-period, none after a second
 * signal) ran out. The original cancels those credits and records nothing
 * for them: here they are NotFinishedError, which aiperf-metrics leaves out
 * of every metric and count as it does NotSentError. A warmup request
 * (a signal during the warmup) stays a RequestCancellationError.
 */
static void
cancel_all(struct sender *s)
{
	const char *why = s->nsig ? "Request cancelled in flight: the run was interrupted"
				  : "Request cancelled in flight: the benchmark grace period ended";

	if (s->active)
		runlog(RUNLOG_INFO, "%s: cancelling %zu requests in flight (NotFinishedError)",
		       s->nsig ? "interrupted" : "the grace period ended", s->inflight);

	while (s->active)
		cancel(s, s->active, s->active->warmup ? XE_STOPPED : XE_NOTFIN,
		       s->active->warmup ? "Request cancelled because the run stopped" : why);
}

void
sender_not_sent(struct sender *s, struct xfer *x)
{
	int64_t now = clock_now_ns();
	x->credit_ns = x->start_ns = x->end_ns = now;
	xfer_fail(x, XE_NOTSENT, 0, "Request not sent: the run stopped first");
	sender_emit(s, x);
}

/*
 * Stop issuing requests: the ones read but not started are reported as
 * NotSentError now; those in flight get grace_ns to finish (-1: as long as
 * they need, 0: cancelled at once).
 */
void
sender_stop(struct sender *s, int64_t grace_ns)
{
	struct xfer *x;
	int64_t now = clock_now_ns();

	if (!s->stopping) {
		s->stopping = 1;
		if (grace_ns < 0)
			runlog(RUNLOG_INFO, "sending stopped; %zu requests in flight may finish",
			       s->inflight);
		else
			runlog(RUNLOG_INFO, "sending stopped; %zu requests in flight get %.3f s to finish",
			       s->inflight, (double)grace_ns / 1e9);
	}
	while ((x = input_pop(s)))
		sender_not_sent(s, x);
	sess_stop(s);
	s->next_due = -1;
	if (grace_ns >= 0 && (s->cancel_at < 0 || now + grace_ns < s->cancel_at))
		s->cancel_at = now + grace_ns;
}

static CURL *
pool_get(struct sender *s)
{
	if (s->npool)
		return s->pool[--s->npool];
	CURL *h = curl_easy_init();
	if (!h)
		die("cannot create a curl handle");
	return h;
}

static void
start(struct sender *s, struct xfer *x, int64_t now)
{
	const struct options *o = s->o;
	size_t u = sess_start(s, x);

	sess_body(x);
	x->url = url_join(s->bases[u], o->endpoint ? o->endpoint : x->path);
	if (x->at_ns >= 0)
		x->intended_ns = s->phase_start + x->at_ns;
	x->credit_ns = now;
	int native = h1conn_wants(s, s->bases[u]);
	if (!native && (xfer_setup(x, pool_get(s)) < 0 || ev_handle(s, x->h) < 0))
		die("cannot set up a curl handle");
	x->start_ns = clock_now_ns();
	if (native)
		h1conn_start(s, x);
	else if (curl_multi_add_handle(s->m, x->h) != CURLM_OK)
		die("cannot add a curl handle");
	x->anext = s->active;
	if (s->active)
		s->active->aprev = x;
	s->active = x;
	s->inflight++;
	s->nstarted++;
	sched_prefill_take(s, x);
	if (x->cancel_after_ns >= 0 && !x->warmup) {
		x->deadline = x->start_ns + x->cancel_after_ns;
		sched_push(&s->timers, x);
	}
}

/*
 * --warmup-duration: from warmup start + duration no warmup request
 * starts; those in flight get --warmup-grace-period more, then they are
 * cancelled (the original's time_left_in_seconds(include_grace_period)).
 * The next of these times, or -1.
 */
static int64_t
warmup_due(const struct sender *s)
{
	int64_t end = s->phase_start + s->o->warmup_ns;

	if (s->phase != 1 || !s->o->warmup_ns || s->stopping)
		return -1;
	if (!s->warmup_over)
		return end;
	if (s->o->wgrace_ns < 0 || !s->active)
		return -1;
	return end + s->o->wgrace_ns;
}

static void
warmup_timers(struct sender *s, int64_t now)
{
	int64_t due = warmup_due(s);

	if (due < 0 || now < due)
		return;
	if (!s->warmup_over) {
		runlog(RUNLOG_INFO, "warmup duration reached: no new warmup requests");
		warmup_stop(s);
		if ((due = warmup_due(s)) < 0 || now < due)
			return;
	}
	/* only warmup requests are in flight until profiling starts */
	if (s->active)
		runlog(RUNLOG_INFO, "the warmup grace period ended: cancelling %zu warmup requests",
		       s->inflight);
	while (s->active)
		cancel(s, s->active, XE_STOPPED,
		       "Request cancelled because the warmup grace period ended");
}

/*
 * A new phase starts when the previous one has fully drained (spec 5.7):
 * profiling waits for every warmup record, later turns included. Warmup
 * sessions the warmup count cut short then give their slots back.
 */
static int
enter_phase(struct sender *s, const struct xfer *x, int64_t *now)
{
	int ph = x->warmup ? 1 : 2;

	if (s->phase == ph)
		return 0;
	if (s->inflight || (ph == 2 && s->wpending))
		return -1;
	if (ph == 2)
		sess_sweep(s);
	/* the scrapers' reference between the phases, before the clock starts */
	if (ph == 2 && s->phase == 1 && s->o->ncues) {
		cue_scrapers(s);
		*now = clock_now_ns();
	}
	/* several senders: the phase starts for all of them at once */
	int64_t at = phase_sync(s, ph);
	if (at == -2)
		return -1;
	if (at >= 0)
		*now = clock_now_ns();
	runlog(RUNLOG_INFO, "%s phase started", ph == 1 ? "warmup" : "profiling");
	s->phase = ph;
	s->phase_start = at >= 0 ? at : *now;
	if (ph == 2 && s->o->duration_ns)
		s->stop_issue_at = s->phase_start + s->o->duration_ns;
	return 0;
}

/* Let curl send what was just added (handles start on its timer). */
static void
kick(struct sender *s)
{
	int running;
	s->curl_due = -1;
	curl_multi_socket_action(s->m, CURL_SOCKET_TIMEOUT, 0, &running);
}

static void
start_ready(struct sender *s)
{
	int64_t now = clock_now_ns();
	int started = 0;

	s->next_due = -1;
	while (!s->stopping) {
		if (!s->qhead && s->in_ready) {
			/* Parsing input takes a while: send what we have first. */
			if (started)
				kick(s), started = 0;
			input_pump(s);
			now = clock_now_ns();
		}
		warmup_timers(s, now);
		warmup_refill(s);
		struct xfer *x = s->qhead;
		if (!x || enter_phase(s, x, &now) < 0 || !sched_may_start(s, x, 1, now))
			break;
		int64_t due = sched_next_due(s, now);
		if (due - now > SPIN_NS) {
			s->next_due = due;
			break;
		}
		if (due > now)
			sched_wait_until(due);
		int timed = x->at_ns >= 0;
		start(s, input_pop(s), clock_now_ns());
		started++;
		/* A scheduled request goes out now, not after its batch. */
		if (timed)
			kick(s), started = 0;
		now = clock_now_ns();
	}
	if (started)
		kick(s);
}

/* Later turns whose delay after the previous turn has passed. */
static void
start_turns(struct sender *s, int64_t now)
{
	struct xfer *x;
	int started = 0;

	s->turns_held = 0;
	while (!s->stopping && (x = sched_top(&s->delays)) && x->deadline <= now) {
		if (!sched_may_start(s, x, 0, now)) {
			s->turns_held = 1;	/* until a prefill slot frees */
			break;
		}
		sched_remove(&s->delays, x);
		x->deadline = -1;
		start(s, x, now);
		started++;
	}
	if (started)
		kick(s);
}

static void
run_timers(struct sender *s)
{
	int64_t now = clock_now_ns();
	int running;

	if (s->curl_due >= 0 && now >= s->curl_due) {
		s->curl_due = -1;
		curl_multi_socket_action(s->m, CURL_SOCKET_TIMEOUT, 0, &running);
	}
	cancel_due(s, now);
	warmup_timers(s, now);
	h1conn_timers(s, now);
	s->ramp_due = -1;	/* start_turns and start_ready set it again */
	start_turns(s, now);
	if (s->nsig == 1 && s->stopping == 0)
		sender_stop(s, s->o->stop_grace_ns);
	if (s->nsig > 1)
		sender_stop(s, 0);
	if (!s->stopping && s->stop_issue_at >= 0 && now >= s->stop_issue_at)
		sender_stop(s, s->o->grace_ns);
	if (s->stopping && s->cancel_at >= 0 && now >= s->cancel_at)
		cancel_all(s);
}

static int64_t
min_due(int64_t a, int64_t b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return a < b ? a : b;
}

/* The earliest millisecond-grade deadline (curl, cancels, stops, output). */
static int64_t
next_wakeup(struct sender *s)
{
	int64_t t = min_due(s->curl_due, h1conn_due(s));
	struct xfer *x = sched_top(&s->timers);

	if (x)
		t = min_due(t, x->deadline);
	if ((x = sched_top(&s->delays)) && !s->turns_held)
		t = min_due(t, x->deadline);
	if (!s->stopping)
		t = min_due(t, s->ramp_due);
	if (s->stopping && s->cancel_at >= 0)
		t = min_due(t, s->cancel_at);
	if (!s->stopping && s->stop_issue_at >= 0)
		t = min_due(t, s->stop_issue_at);
	t = min_due(t, warmup_due(s));
	if (s->o->ui != UI_NONE)
		t = min_due(t, s->ui_next);
	if (s->out.len)
		t = min_due(t, s->flushed_ns + FLUSH_NS);
	return t;
}

/*
 * Sleep until a socket is ready or a deadline passes: millisecond-grade
 * deadlines through the pass's timeout, the next intended send time
 * through a loop timer (a timerfd, to the nanosecond; the last SPIN_NS
 * are spun in start_ready).
 */
static void
wait_events(struct sender *s)
{
	int64_t t = next_wakeup(s), now = clock_now_ns();
	int timeout = -1;

	if (s->out.len && now - s->flushed_ns >= FLUSH_NS)
		flush_out(s);	/* let downstream see records at least every FLUSH_NS */
	if (s->next_due >= 0) {
		if (s->next_due - SPIN_NS <= now)
			t = now;
		else
			evloop_timer_arm(s->loop, &s->wake, s->next_due - SPIN_NS);
	}
	if (t >= 0)
		timeout = t <= now ? 0 : (int)((t - now + 999999) / 1000000);
	/* Spinning saves the wake-up from sleep on every arrival: one core. */
	if (s->o->busy_poll && s->active)
		timeout = 0;
	/* Read on ahead of the send times between them (input_pump's passes). */
	if (input_wanted(s))
		timeout = 0;
	if (evloop_run_once(s->loop, timeout < 0 ? -1 : (int64_t)timeout * 1000000) < 0)
		die("epoll_wait:");
}

/*
 * --io: the native engine receives through io_uring where the kernel has
 * multishot receives (auto), else through epoll and read(2). libcurl's
 * sockets stay on epoll either way, so a run with no http:// URL for the
 * native engine keeps to epoll alone.
 */
static void
io_setup(struct sender *s)
{
	int native = 0;

	for (size_t i = 0; i < s->o->nurls; i++)
		native |= h1conn_wants(s, s->bases[i]);
	if (s->o->io == IO_EPOLL || (s->o->io == IO_AUTO && !native))
		return;
	if (evloop_uring(s->loop) < 0 && s->o->io == IO_URING)
		die("--io uring: io_uring multishot receive is not available:");
}

/* SIGHUP (a closed terminal) is SIGTERM, unless nohup(1) ignores it. */
static int
hup_taken(void)
{
	struct sigaction sa;

	return sigaction(SIGHUP, NULL, &sa) < 0 || sa.sa_handler != SIG_IGN;
}

static void
setup(struct sender *s)
{
	struct sigaction sa = { 0 };

	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	/* Signals arrive as loop events (a signalfd): no lost wake-ups. */
	if (!(s->loop = evloop_new(MAX_EVENTS)) ||
	    evloop_signal(s->loop, SIGINT, on_signal, s) < 0 ||
	    evloop_signal(s->loop, SIGTERM, on_signal, s) < 0 ||
	    (hup_taken() && evloop_signal(s->loop, SIGHUP, on_signal, s) < 0))
		die("epoll:");
	io_setup(s);
	s->wake = (struct evloop_timer)EVLOOP_TIMER_INIT(NULL, NULL);
	s->curl_due = s->next_due = s->ramp_due = -1;
	s->stop_issue_at = s->cancel_at = -1;
	s->sync_fd = -1;
	s->qmax = s->o->read_all ? SIZE_MAX : (size_t)s->o->read_ahead;
	buf_init(&s->out, BUF_NOMAX);
	s->doc = json_doc_new();
	s->mono0 = clock_now_ns();
	s->wall0 = clock_wall_ns();

	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK || !(s->m = curl_multi_init()))
		die("cannot initialize libcurl");
	long conns = s->o->concurrency ? s->o->concurrency : 1024;
	if (s->o->wconcurrency > conns)
		conns = s->o->wconcurrency;
	sched_fd_limit(s);
	/* Idle kept-alive connections hold descriptors too: at the cap,
	 * libcurl closes the oldest idle one before it opens another. */
	if ((size_t)conns > s->fd_cap)
		conns = (long)s->fd_cap;
	ev_multi(s);
	curl_multi_setopt(s->m, CURLMOPT_MAXCONNECTS, conns);
	if (s->fd_cap < (size_t)LONG_MAX)
		curl_multi_setopt(s->m, CURLMOPT_MAX_TOTAL_CONNECTIONS, (long)s->fd_cap);
	/* After the signals are blocked: the writer thread inherits that. */
	if (s->o->raw_file && !(s->raw = rawout_open(s->o->raw_file, s->o->raw_buffer)))
		die("cannot open '%s':", s->o->raw_file);
	if (!s->o->raw_file && outq_open(&s->outq, 1, s->o->out_buffer) < 0)
		die("cannot write '<stdout>':");
	input_open(s);
}

/*
 * The last records are in the raw file and it is closed; only then does
 * standard output, which carries nothing with --raw-file, reach its end
 * (a reader that follows the file takes that end as the file's).
 */
static void
raw_close(struct sender *s)
{
	struct rawout_stats st;
	int fd;

	if (rawout_close(s->raw, &st) < 0 && !s->downstream_gone) {
		error("cannot write '%s':", s->o->raw_file);
		s->status = 1;
	}
	s->raw = NULL;
	runlog(RUNLOG_INFO, "raw file '%s': %llu bytes, at most %zu queued",
	       s->o->raw_file, (unsigned long long)st.bytes, st.peak);
	if (st.waits)
		warn("writing '%s' fell behind the run: the sender waited %.3f s for it "
		     "(waits: %llu, the longest %.3f ms); a larger --raw-buffer or a faster "
		     "disk avoids that", s->o->raw_file, (double)st.wait_ns / 1e9,
		     (unsigned long long)st.waits, (double)st.max_wait_ns / 1e6);
	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd >= 0 && fd != 1) {
		dup2(fd, 1);
		close(fd);
	} else if (fd < 0) {
		close(1);
	}
}

/*
 * What the reader has not taken yet goes now, blocking: the run is over.
 * The waits say whether a slow reader held the run back all the same.
 */
static void
out_close(struct sender *s)
{
	struct outq *q = &s->outq;

	if (s->out_watched)
		evloop_del(s->loop, 1);
	s->out_watched = 0;
	if (outq_pending(q))
		runlog(RUNLOG_INFO, "the run is over; %zu bytes wait for the reader of "
		       "standard output", outq_pending(q));
	if (!s->downstream_gone && outq_drain(q) < 0)
		out_failed(s);
	runlog(RUNLOG_INFO, "standard output: at most %zu bytes waited for the reader", q->peak);
	if (q->waits)
		warn("the reader of standard output fell behind the run by --out-buffer "
		     "(%zu bytes): the sender waited %.3f s for it (waits: %llu, the longest "
		     "%.3f ms)", q->cap, (double)q->wait_ns / 1e9, (unsigned long long)q->waits,
		     (double)q->max_wait_ns / 1e6);
	outq_close(q);
}

static void
teardown(struct sender *s)
{
	h1conn_release(s);
	vjob_release(s);
	free(s->hdrtpl[0].text);
	free(s->hdrtpl[1].text);
	for (size_t i = 0; i < s->npool; i++)
		curl_easy_cleanup(s->pool[i]);
	free(s->pool);
	curl_multi_cleanup(s->m);
	curl_global_cleanup();
	heap_release(&s->timers);
	heap_release(&s->delays);
	free(s->fds);
	sess_release(s);
	warmup_release(s);
	input_close(s);
	if (s->sync_fd >= 0)
		close(s->sync_fd);
	json_doc_free(s->doc);
	dataurl_memo_release(&s->memo);
	buf_release(&s->out);
	evloop_free(s->loop);
}

static int
finished(const struct sender *s)
{
	return (s->in_state != 0 || s->stopping) && !s->qhead && !s->inflight &&
	       !s->nparked;
}

/* Read requests, send them, write one raw record each; returns the exit status. */
int
sender_run(struct sender *s)
{
	setup(s);
	if (s->o->read_all)
		input_read_all(s);
	s->ui_next = clock_now_ns();
	for (;;) {
		run_timers(s);
		drain_done(s);
		if (s->in_ready && !s->stopping)
			input_pump(s);
		uint64_t done = s->ndone;
		start_ready(s);
		drain_done(s);
		ui_update(s, 0);
		if (finished(s)) {
			if (s->o->phase_cue)
				phase_sync(s, 2);	/* let the other senders go on */
			break;
		}
		/* Requests that ended while starting others free slots now. */
		if (s->ndone != done && s->qhead && !s->stopping)
			continue;
		wait_events(s);
		drain_done(s);
	}
	flush_out(s);
	if (s->raw)
		raw_close(s);
	else
		out_close(s);
	ui_update(s, 1);
	runlog(RUNLOG_INFO, "%llu records written, %llu of them never sent (NotSentError)",
	       (unsigned long long)s->ndone, (unsigned long long)s->nnotsent);
	if (s->nsig)
		warn("interrupted: %llu requests ended, %llu of them cancelled in flight; "
		     "%llu read but never sent (NotSentError records)",
		     (unsigned long long)(s->ndone - s->nnotsent),
		     (unsigned long long)s->nstopped, (unsigned long long)s->nnotsent);
	teardown(s);
	return s->status;
}
