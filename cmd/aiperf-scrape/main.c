/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-scrape: poll Prometheus endpoints, one NDJSON sample record per scrape. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "cue.h"
#include "opt.h"
#include "runlog.h"
#include "scrape.h"
#include "util.h"

static volatile sig_atomic_t stop;	/* signals taken, up to 2 */
static volatile sig_atomic_t stop_sig;	/* the last one */
static int sig_pipe[2] = { -1, -1 };

enum {
	K_INTERVAL = 256, K_TIMEOUT, K_ONCE, K_CONTROL, K_MAXBODY, K_MAXSERIES,
	K_UNBUF, K_FIFO, K_CUE, K_ACK, K_NVML, K_HELP, K_VERSION,
};

#define SCRAPE_OPTS(o) { \
	{ "interval", K_INTERVAL, OPT_SECONDS, "s", OPT_TO(o->interval_ns), \
	  .lo = 0.001, .hi = 86400, .scale = 1e9 }, \
	{ "timeout", K_TIMEOUT, OPT_SECONDS, "s", OPT_TO(o->timeout_ns), \
	  .lo = 0.001, .hi = 3600, .scale = 1e9 }, \
	{ "once", K_ONCE, OPT_FLAG, NULL, OPT_TO(o->once) }, \
	{ "control-fd", K_CONTROL, OPT_INT, "n", OPT_TO(o->control_fd), \
	  .min = 0, .max = 1 << 20, .flags = OPT_BR }, \
	{ "control-fifo", K_FIFO, OPT_STR, "path", OPT_TO(o->control_fifo), .flags = OPT_BR | OPT_PRIVATE }, \
	{ "cue-fifo", K_CUE, OPT_STR, "path", OPT_TO(o->cue_fifo), .flags = OPT_PRIVATE }, \
	{ "ack-fifo", K_ACK, OPT_STR, "path", OPT_TO(o->ack_fifo), .flags = OPT_BR | OPT_PRIVATE }, \
	{ "max-body", K_MAXBODY, OPT_SIZE, "size", OPT_TO(o->max_body), \
	  .min = 1024, .max = 1LL << 30 }, \
	{ "max-series", K_MAXSERIES, OPT_INT, "n", OPT_TO(o->max_series), \
	  .min = 1, .max = 10000000 }, \
	{ "unbuffered", K_UNBUF, OPT_FLAG, NULL, OPT_TO(o->unbuffered), .flags = OPT_BR }, \
	{ "nvml", K_NVML, OPT_FLAG, NULL, OPT_TO(o->nvml) }, \
	{ "help", K_HELP, OPT_HELP, .flags = OPT_HIDE }, \
	{ "version", K_VERSION, OPT_VERSION, .flags = OPT_HIDE }, \
	{ 0 }, \
}

/*
 * --control-fifo: opened for reading without waiting for a writer. Linux
 * reports no hang-up on a FIFO that has never had a writer, so the scraper
 * runs until a writer has come and gone: the process that holds the FIFO
 * open (aiperf profile's sender) ends, however it ends.
 */
static void
open_fifo(struct options *o)
{
	struct stat st;

	o->control_fd = open(o->control_fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (o->control_fd < 0)
		die_usage("--control-fifo %s:", o->control_fifo);
	if (fstat(o->control_fd, &st) < 0 || !S_ISFIFO(st.st_mode))
		die_usage("--control-fifo %s: not a FIFO", o->control_fifo);
}

/*
 * --cue-fifo: opened read-write, so that it never reads EOF however often
 * a writer (aiperf-send --scrape-cue) comes and goes.
 */
static void
open_cue(struct options *o)
{
	struct stat st;

	o->cue_fd = cue_fifo_open(o->cue_fifo);
	if (o->cue_fd < 0)
		die_usage("--cue-fifo %s:", o->cue_fifo);
	if (fstat(o->cue_fd, &st) < 0 || !S_ISFIFO(st.st_mode))
		die_usage("--cue-fifo %s: not a FIFO", o->cue_fifo);
}

static int
parse_args(struct options *o, int argc, char **argv)
{
	struct opt tab[] = SCRAPE_OPTS(o);
	const struct opt_cmd cmd = { "aiperf-scrape", tab, "[url ...]", 14, NULL, NULL };
	struct opt_iter it;

	*o = (struct options){
		.interval_ns = 333000000, .timeout_ns = 10000000000,
		.control_fd = -1, .cue_fd = -1, .max_body = 16 << 20, .max_series = 100000,
	};
	opt_init(&it, &cmd, argc, argv);
	while (opt_next(&it) != -1)
		;
	if (it.ind == argc && !o->nvml)
		die_usage("no endpoint URL given (and no --nvml)");
	if (o->control_fd >= 0 && fcntl(o->control_fd, F_GETFD) < 0)
		die_usage("--control-fd %d is not an open file descriptor", o->control_fd);
	if (o->control_fifo && o->control_fd >= 0)
		die_usage("--control-fd and --control-fifo: one control at a time");
	if (o->control_fifo)
		open_fifo(o);
	if (!o->cue_fifo != !o->ack_fifo)
		die_usage("--cue-fifo and --ack-fifo go together");
	if (o->cue_fifo && o->once)
		die_usage("--cue-fifo cannot be used with --once");
	if (o->cue_fifo)
		open_cue(o);
	for (int i = it.ind; i < argc; i++)
		if (strncmp(argv[i], "http://", 7) && strncmp(argv[i], "https://", 8))
			die_usage("'%s' is not an http:// or https:// URL", argv[i]);
	return it.ind;
}

static void
on_signal(int sig)
{
	int saved = errno;
	/* a full pipe is fine: a wake-up is pending anyway */
	ssize_t n = write(sig_pipe[1], "", 1);

	(void)n;
	stop_sig = sig;
	if (stop < 2)
		stop++;
	errno = saved;
}

/* The scrapes in flight are dropped: the records written are flushed,
 * then the scraper dies by the signal, as its parent must see. */
static _Noreturn void
die_by_signal(void)
{
	fflush(stdout);
	signal(stop_sig, SIG_DFL);
	raise(stop_sig);
	_exit(128 + stop_sig);
}

static void
setup_signals(void)
{
	struct sigaction sa, hup;

	if (pipe(sig_pipe) < 0)
		die("pipe:");
	fcntl(sig_pipe[0], F_SETFL, O_NONBLOCK);
	fcntl(sig_pipe[1], F_SETFL, O_NONBLOCK);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a closed terminal is SIGTERM, unless nohup(1) ignores it */
	if (sigaction(SIGHUP, NULL, &hup) < 0 || hup.sa_handler != SIG_IGN)
		sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* Read what the control fd has; its EOF (or an error) stops the scraper. */
static void
read_control(struct scraper *s, short revents)
{
	char b[512];
	ssize_t n;

	if (!(revents & (POLLIN | POLLHUP | POLLERR)))
		return;
	n = read(s->o->control_fd, b, sizeof(b));
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
		stop = 1;
}

/*
 * The cue (--cue-fifo): every endpoint is scraped at once, one whose
 * scrape is in flight right after it; NVML is read now. Every line read
 * is a cue; those that come together share the scrapes.
 */
static void
read_cue(struct scraper *s, short revents)
{
	size_t lines;

	if (!(revents & POLLIN))
		return;
	if (!(lines = cue_count_lines(s->o->cue_fd)))
		return;
	runlog(RUNLOG_INFO, "cued: scraping every endpoint now");
	s->cues += (unsigned)lines;
	for (size_t i = 0; i < s->nep; i++) {
		struct endpoint *e = &s->ep[i];
		if (e->cue)
			continue;
		s->cue_left++;
		e->cue = 1;
		if (!e->busy) {
			endpoint_start(s, e);
			e->cue = 2;
		}
	}
	nvml_scrape(s, 1);
}

/* Every cued scrape has ended and is written: one "ack" line per cue. */
static void
ack_cue(struct scraper *s)
{
	long n;

	if (fflush(stdout) == EOF)
		die_write();
	n = cue_send(s->o->ack_fifo, CUE_ACK, strlen(CUE_ACK), s->cues);
	if (n < 0 || (unsigned long)n < s->cues)
		warn("cannot acknowledge the cue on '%s':", s->o->ack_fifo);
	s->cues = 0;
}

/* e's scrape ended: the cued one counts down, a cue waiting starts now. */
static void
cue_after(struct scraper *s, struct endpoint *e)
{
	if (e->cue == 2) {
		e->cue = 0;
		s->cue_left--;
	} else if (e->cue == 1) {
		endpoint_start(s, e);
		e->cue = 2;
	}
}

/* libcurl's work, its CPU time shared by the scrapes in flight. */
static void
perform(struct scraper *s)
{
	int64_t t0 = cpu_now_ns(), dt;
	int running;
	CURLMsg *msg;
	int left;

	curl_multi_perform(s->m, &running);
	dt = cpu_now_ns() - t0;
	for (size_t i = 0; i < s->nep && s->busy; i++)
		if (s->ep[i].busy)
			s->ep[i].cpu_ns += dt / (int64_t)s->busy;
	while ((msg = curl_multi_info_read(s->m, &left))) {
		struct endpoint *e = NULL;
		if (msg->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&e);
		endpoint_done(s, e, msg->data.result);
		cue_after(s, e);
	}
	if (s->cues && !s->cue_left)
		ack_cue(s);
}

/* Wait for sockets, the control fd or a signal, at most until `until`. */
static void
wait_io(struct scraper *s, int64_t until, int control)
{
	struct curl_waitfd fds[3] = { { sig_pipe[0], CURL_WAIT_POLLIN, 0 } };
	unsigned nfds = 1, ctl = 0, cue = 0;
	int64_t left = until - clock_mono_ns();
	char drain[64];

	if (control && s->o->control_fd >= 0) {
		ctl = nfds;
		fds[nfds++] = (struct curl_waitfd){ s->o->control_fd, CURL_WAIT_POLLIN, 0 };
	}
	if (control && s->o->cue_fd >= 0) {
		cue = nfds;
		fds[nfds++] = (struct curl_waitfd){ s->o->cue_fd, CURL_WAIT_POLLIN, 0 };
	}
	curl_multi_poll(s->m, fds, nfds, left > 0 ? (int)((left + 999999) / 1000000) : 0,
			NULL);
	while (read(sig_pipe[0], drain, sizeof(drain)) > 0)
		;
	/* --once has nothing to finish; else a second signal ends it now */
	if (stop >= (s->o->once ? 1 : 2))
		die_by_signal();
	if (ctl)
		read_control(s, fds[ctl].revents);
	if (cue && !stop)
		read_cue(s, fds[cue].revents);
	perform(s);
}

static void
start_idle(struct scraper *s)
{
	for (size_t i = 0; i < s->nep; i++)
		if (!s->ep[i].busy)
			endpoint_start(s, &s->ep[i]);
}

/* Every scrape in flight finishes (or times out). */
static void
drain(struct scraper *s)
{
	while (s->busy)
		wait_io(s, clock_mono_ns() + 100000000, 0);
}

/* Scrape on the interval until stopped; a busy endpoint skips its turn. */
static void
run(struct scraper *s)
{
	int64_t next = clock_mono_ns();

	while (!stop) {
		int64_t now = clock_mono_ns();
		if (now >= next) {
			start_idle(s);
			nvml_scrape(s, 0);
			next += s->o->interval_ns;
			if (next <= now)
				next = now + s->o->interval_ns;
		}
		wait_io(s, next, 1);
	}
}

int
main(int argc, char **argv)
{
	struct options o;
	struct scraper s = { .o = &o };
	int first;

	util_setprogname(argv[0]);
	first = parse_args(&o, argc, argv);
	setup_signals();
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK || !(s.m = curl_multi_init()))
		die("cannot initialize libcurl");
	s.nep = (size_t)(argc - first);
	s.ep = xcalloc(s.nep, sizeof(*s.ep));
	for (size_t i = 0; i < s.nep; i++) {
		endpoint_init(&s.ep[i], argv[first + (int)i], &s);
		runlog(RUNLOG_INFO, "scraping %s every %.3f s", s.ep[i].shown,
		       (double)o.interval_ns / 1e9);
	}
	buf_init(&s.out, BUF_NOMAX);
	buf_init(&s.metrics, BUF_NOMAX);
	s.mono0 = clock_now_ns();
	s.wall0 = clock_wall_ns();
	if (o.nvml)
		nvml_open();
	if (!o.once)
		run(&s);
	/* the final scrape: after the last one in flight */
	drain(&s);
	start_idle(&s);
	nvml_scrape(&s, 0);
	drain(&s);
	nvml_close();
	for (size_t i = 0; i < s.nep; i++)
		endpoint_release(&s.ep[i]);
	free(s.ep);
	curl_slist_free_all(s.headers);
	curl_multi_cleanup(s.m);
	curl_global_cleanup();
	buf_release(&s.out);
	buf_release(&s.metrics);
	return util_fshut(stdout, "stdout") ? 1 : 0;
}
