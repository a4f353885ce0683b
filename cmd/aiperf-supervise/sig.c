/* SPDX-License-Identifier: Apache-2.0 */
/* Signals and the control FIFO: one path from the first instruction to the export's last byte. */
#define _GNU_SOURCE
#include "supervise.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static const char *const what[] = {
	"no new requests; those in flight finish",
	"requests in flight cancelled",
	"the stages killed",
};

static const char *
sig_name(int sig)
{
	return sig == SIGINT ? "INT" : sig == SIGTERM ? "TERM" : sig == SIGHUP ? "HUP" : "?";
}

int
sig_from_name(const char *s, size_t n)
{
	if (n == 3 && !memcmp(s, "INT", 3))
		return SIGINT;
	if (n == 4 && !memcmp(s, "TERM", 4))
		return SIGTERM;
	if (n == 3 && !memcmp(s, "HUP", 3))
		return SIGHUP;
	return 0;
}

static void
kill_kind(struct sv *sv, enum kid_kind kind, int sig)
{
	for (size_t i = 0; i < sv->nkids; i++)
		if (sv->kids[i].kind == kind && sv->kids[i].status < 0)
			kill(sv->kids[i].pid, sig);
}

/* The first signal: the run is cancelled, and says so (the dashboard's notice file). */
static void
first_signal(struct sv *sv)
{
	const char *msg = "aiperf profile: interrupted: stopping (again to cancel requests "
			  "in flight)\n";
	int fd;

	fd = open(sv->p.cancelled, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
	if (fd >= 0)
		close(fd);
	fd = sv->p.notice ? open(sv->p.notice, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
				 0666) : -1;
	if (write(fd >= 0 ? fd : 2, msg, strlen(msg)) < 0)
		return;
	if (fd >= 0)
		close(fd);
}

/* Delivery number n of sig to the running stages (the senders have started). */
static void
act(struct sv *sv, int sig, int n)
{
	int to_send = sig == SIGINT ? SIGINT : SIGTERM;

	if (n > 2) {
		report_killed(sv);
		sv->killed = 1;
		if (sv->pgid > 0)
			kill(-sv->pgid, SIGKILL);
		scrape_kill(sv);
		return;
	}
	kill_kind(sv, KID_SEND, to_send);
	if (n == 2)
		kill_kind(sv, KID_GEN, SIGTERM);
}

void
sig_received(struct sv *sv, int sig)
{
	int n = ++sv->nsig;

	if (n == 1) {
		sv->first_sig = sig;
		if (!sv->senders_ended) {
			sv->caught = 1;
			first_signal(sv);
		}
	}
	sv_log(RUNLOG_WARNING, "SIG%s (%d): %s", sig_name(sig), n, what[n > 2 ? 2 : n - 1]);
	if (n > 2 && !sv->started) {
		sv->killed = 1;
		scrape_kill(sv);
		return;
	}
	if (!sv->started) {
		sv->pending++;
		sv->start_now = 1;
		return;
	}
	act(sv, sig, n);
}

void
sig_deliver_pending(struct sv *sv)
{
	for (int n = 1; n <= sv->pending; n++)
		act(sv, sv->first_sig, n);
	sv->pending = 0;
}

static void
on_signal(struct evloop *l, int sig, void *ud)
{
	struct sv *sv = ud;

	(void)l;
	if (sig == SIGCHLD)
		kids_reap(sv);
	else
		sig_received(sv, sig);
}

/* The script has gone: the run goes on to its end; the scratch folder is ours to remove. */
static void
control_gone(struct sv *sv)
{
	evloop_forget(sv->l, sv->ctl_fd);
	xclose(&sv->ctl_fd);
	sv->script_gone = 1;
	sv_log(RUNLOG_DEBUG, "the control FIFO has no writer left: the run goes on alone");
}

/* One line of the control FIFO: a signal's name; anything else is ignored. */
static void
control_line(struct sv *sv, const char *s, size_t n)
{
	int sig = sig_from_name(s, n);

	if (sig)
		sig_received(sv, sig);
	else
		sv_log(RUNLOG_WARNING, "the control FIFO: a line that names no signal ignored");
}

static void
control_bytes(struct sv *sv, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (b[i] != '\n') {
			if (sv->ctl_len < sizeof(sv->ctl_line))
				sv->ctl_line[sv->ctl_len] = b[i];
			sv->ctl_len++;
			continue;
		}
		control_line(sv, sv->ctl_line, sv->ctl_len > sizeof(sv->ctl_line) ? 0 :
			     sv->ctl_len);
		sv->ctl_len = 0;
	}
}

static void
on_control(struct evloop *l, int fd, unsigned events, void *ud)
{
	struct sv *sv = ud;
	char b[512];
	ssize_t n;

	(void)l;
	(void)events;
	n = read(fd, b, sizeof(b));
	if (n > 0)
		control_bytes(sv, b, (size_t)n);
	else if (n == 0 || (errno != EAGAIN && errno != EINTR))
		control_gone(sv);
}

void
sig_setup(struct sv *sv)
{
	const int sigs[] = { SIGCHLD, SIGINT, SIGTERM, SIGHUP };

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (evloop_signal(sv->l, sigs[i], on_signal, sv) < 0)
			die("cannot watch signal %d:", sigs[i]);
	if (sv->ctl_fd < 0)
		return;
	if (evloop_add(sv->l, sv->ctl_fd, EVLOOP_IN, on_control, sv) < 0)
		die("cannot watch the control FIFO:");
	/* a FIFO without a writer when it was opened never reports its end: read now */
	on_control(sv->l, sv->ctl_fd, EVLOOP_IN, sv);
}
