/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-ui: aiperf-metrics' status lines in, a live view of the run on standard error out. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "clock.h"
#include "opt.h"
#include "ui.h"
#include "util.h"

#define LINE_MAX_BYTES 65536

enum { V_SIMPLE, V_DASHBOARD };

struct options {
	int view;
	long long request_count, warmup_count;
	double duration, warmup_duration, interval;
	const char *sender_pid_file, *notice_file;
	const char **sender_pid_files;	/* each --sender-pid-file */
	size_t nsenders;
};

enum {
	K_UI = 256, K_RC, K_WRC, K_DUR, K_WDUR, K_INTERVAL, K_SENDER, K_NOTICE, K_VERSION,
};

static const char *const views[] = { "simple", "dashboard", NULL };

#define UI_OPTS(o) { \
	{ "ui-type", K_UI, OPT_CHOICE, "type", OPT_TO(o->view), .choices = views }, \
	{ "request-count", K_RC, OPT_INT, "n", OPT_TO(o->request_count), .min = 0, \
	  .max = 1LL << 62 }, \
	{ "warmup-request-count", K_WRC, OPT_INT, "n", OPT_TO(o->warmup_count), .min = 0, \
	  .max = 1LL << 62, .flags = OPT_BR }, \
	{ "benchmark-duration", K_DUR, OPT_DOUBLE, "s", OPT_TO(o->duration), .lo = 0, \
	  .hi = 1e9 }, \
	{ "warmup-duration", K_WDUR, OPT_DOUBLE, "s", OPT_TO(o->warmup_duration), .lo = 0, \
	  .hi = 1e9, .flags = OPT_BR }, \
	{ "interval", K_INTERVAL, OPT_DOUBLE, "s", OPT_TO(o->interval), .lo = 0.1, \
	  .hi = 86400, .flags = OPT_BR }, \
	{ "sender-pid-file", K_SENDER, OPT_STR, "file", OPT_TO(o->sender_pid_file), .flags = OPT_PRIVATE }, \
	{ "notice-file", K_NOTICE, OPT_STR, "file", OPT_TO(o->notice_file), .flags = OPT_PRIVATE }, \
	{ "help", 'h', OPT_HELP, .flags = OPT_HIDE }, \
	{ "version", K_VERSION, OPT_VERSION, .flags = OPT_HIDE }, \
	{ 0 }, \
}

static volatile sig_atomic_t got_sig, got_winch;

static void
on_sig(int sig)
{
	got_sig = sig;
}

static void
on_winch(int sig)
{
	(void)sig;
	got_winch = 1;
}

static void
parse_args(struct options *o, int argc, char **argv)
{
	struct opt tab[] = UI_OPTS(o);
	const struct opt_cmd cmd = { "aiperf-ui", tab, NULL, 0, NULL, NULL };
	struct opt_iter it;

	int c;

	opt_init(&it, &cmd, argc, argv);
	while ((c = opt_next(&it)) != -1)
		if (c == K_SENDER) {
			o->sender_pid_files = xreallocarray(o->sender_pid_files,
							    o->nsenders + 1,
							    sizeof(*o->sender_pid_files));
			o->sender_pid_files[o->nsenders++] = it.arg;
		}
	if (it.ind < argc)
		die_usage("unexpected operand '%s' (the status lines come on standard input)",
			  argv[it.ind]);
}

enum mode { M_PLAIN, M_SIMPLE, M_DASH };

static void
plain(const struct ui_state *st)
{
	char line[512];

	ui_plain_line(st, line, sizeof(line));
	fprintf(stderr, "%s\n", line);
	fflush(stderr);
}

/* Leave the screen as it was, with the last state as a plain line, and
 * the notice under it (it was only on the dashboard until now). */
static void
finish(enum mode m, const struct ui_state *st, const char *notice_file)
{
	if (m == M_DASH) {
		ui_dash_end();
		if (st->lines)
			plain(st);
	} else if (m == M_SIMPLE) {
		if (st->lines)
			ui_simple_end(st, 2);
	} else if (st->lines) {
		plain(st);
	}
	if (st->notice[0]) {
		fprintf(stderr, "%s\n", st->notice);
		fflush(stderr);
		unlink(notice_file);	/* shown: the wrapper need not */
	}
}

int
main(int argc, char **argv)
{
	struct options o = { .view = V_DASHBOARD, .interval = 10 };
	struct ui_state st;
	struct buf in;
	enum mode m;
	int64_t t0, next_draw = 0, last_draw = 0, next_plain, next_cpu = 0, now;
	struct ui_cpu cpu;
	int fresh = 0, eof = 0;
	struct sigaction sa;

	util_setprogname("aiperf-ui");
	parse_args(&o, argc, argv);
	memset(&st, 0, sizeof(st));
	st.request_count = o.request_count;
	st.warmup_count = o.warmup_count;
	st.duration_s = o.duration;
	st.warmup_duration_s = o.warmup_duration;
	st.sender_cpu = -1;
	ui_cpu_init(&cpu, o.sender_pid_files, o.nsenders);
	buf_init(&in, LINE_MAX_BYTES);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_winch;
	sigaction(SIGWINCH, &sa, NULL);
	/* a stage of a background job may still set up the terminal */
	signal(SIGTTOU, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	m = !isatty(2) ? M_PLAIN : o.view == V_SIMPLE ? M_SIMPLE : M_DASH;
	if (m == M_DASH && ui_dash_start(2) < 0)
		m = M_PLAIN;
	t0 = clock_mono_ns();
	next_plain = t0 + (int64_t)(o.interval * 1e9);
	while (!eof && !st.end && !got_sig) {
		struct pollfd pfd = { .fd = 0, .events = POLLIN };
		char chunk[8192];
		ssize_t n;

		if (poll(&pfd, 1, 250) < 0 && errno != EINTR)
			die("poll:");
		if (pfd.revents) {
			n = read(0, chunk, sizeof(chunk));
			if (n < 0 && errno != EINTR && errno != EAGAIN)
				die("cannot read the status lines:");
			if (n == 0)
				eof = 1;
			if (n > 0 && buf_add(&in, chunk, (size_t)n) < 0)
				buf_reset(&in);	/* no line is that long: start over */
			for (char *nl; in.len && (nl = memchr(in.s, '\n', in.len));) {
				size_t len = (size_t)(nl - in.s) + 1;

				fresh |= ui_parse(&st, in.s, len - 1) == 0;
				memmove(in.s, in.s + len, in.len - len);
				in.len -= len;
			}
		}
		now = clock_mono_ns();
		st.elapsed_s = (double)(now - t0) / 1e9;
		if (now >= next_cpu) {	/* a share over half a second; the last kept */
			double c = ui_cpu_sample(&cpu, now);

			if (c >= 0) {
				st.sender_cpu = c;
				st.senders = cpu.alive;
				fresh |= m != M_PLAIN;	/* plain lines do not show it */
			}
			next_cpu = now + 500000000;
		}
		if (m == M_DASH)
			fresh |= ui_notice_read(&st, o.notice_file);
		if (got_winch) {
			got_winch = 0;
			ui_dash_resize();
			fresh = 1;
		}
		if (m == M_PLAIN) {
			if (fresh && now >= next_plain) {
				plain(&st);
				next_plain = now + (int64_t)(o.interval * 1e9);
				fresh = 0;
			}
		} else if (now >= next_draw && (m == M_DASH || st.lines) &&
			   (fresh || (m == M_DASH && now >= last_draw + 1000000000))) {
			/* new numbers (twice a second at most, as they come), else
			 * the dashboard's clock once a second: few wake-ups for the
			 * terminal; the simple view waits for the first status line
			 * (a sender CPU sample before it must not take its turn) */
			if (m == M_DASH)
				ui_dash_draw(&st);
			else
				ui_simple_draw(&st, 2);
			last_draw = now;
			next_draw = now + 250000000;
			fresh = 0;
		}
	}
	if (m == M_DASH && !got_sig)
		ui_dash_draw(&st);
	if (m == M_DASH || o.notice_file)
		ui_notice_read(&st, o.notice_file);
	finish(m, &st, o.notice_file);
	buf_release(&in);
	ui_cpu_release(&cpu);
	free(o.sender_pid_files);
	if (got_sig) {
		signal(got_sig, SIG_DFL);
		raise(got_sig);
	}
	return 0;
}
