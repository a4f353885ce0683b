/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-ui: the full-screen dashboard (ncurses) on standard error. */
#include "ui.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static SCREEN *scr;
static FILE *out, *in;
static int tty;

int
ui_dash_start(int fd)
{
	int d = dup(fd);

	if (d < 0 || !(out = fdopen(d, "w"))) {
		if (d >= 0)
			close(d);
		return -1;
	}
	if (!(in = fopen("/dev/null", "r")) || !(scr = newterm(NULL, out, in))) {
		if (in)
			fclose(in);
		fclose(out);
		in = out = NULL;
		return -1;
	}
	tty = fd;
	set_term(scr);
	noecho();
	curs_set(0);
	if (has_colors()) {
		start_color();
		use_default_colors();
		init_pair(1, COLOR_CYAN, -1);
		init_pair(2, COLOR_RED, -1);
	}
	return 0;
}

void
ui_dash_resize(void)
{
	struct winsize ws;

	if (scr && ioctl(tty, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col)
		resizeterm(ws.ws_row, ws.ws_col);
}

void
ui_dash_end(void)
{
	if (!scr)
		return;
	curs_set(1);
	endwin();
	fflush(out);
	delscreen(scr);
	scr = NULL;
	fclose(out);
	fclose(in);
	out = in = NULL;
}

static void
title(int y, int x, const char *s)
{
	attron(A_BOLD | COLOR_PAIR(1));
	mvprintw(y, x, "%s", s);
	attroff(A_BOLD | COLOR_PAIR(1));
}

static void
clock_text(double s, char *b, size_t size)
{
	/* 99:59:59 at most (and no conversion of a huge or NaN double) */
	long t = !(s > 0) ? 0 : s > 359999 ? 359999 : (long)s;

	snprintf(b, size, "%02ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

static void
bar(int y, int x, int width, double f)
{
	int fill = f < 0 ? 0 : (int)(f * width + 0.5);

	mvaddch(y, x, '[');
	for (int i = 0; i < width; i++)
		addch(i < fill ? '#' : '.');
	addch(']');
}

static void
dist_row(int y, const char *name, const struct ui_dist *d)
{
	if (!d->n) {
		mvprintw(y, 2, "%-22s %12s %12s %12s %12s %10s", name, "-", "-", "-", "-", "0");
		return;
	}
	mvprintw(y, 2, "%-22s %12.2f %12.2f %12.2f %12.2f %10lld", name, d->p50, d->p90,
		 d->p99, d->max, (long long)d->n);
}

void
ui_dash_draw(const struct ui_state *st)
{
	char el[32], eta_s[32], line[160];
	int warm = !strcmp(st->phase, "warmup"), y;
	const struct ui_phase *p = warm ? &st->warm : &st->prof;
	double eta, f = ui_fraction(st, warm, &eta);

	if (!scr)
		return;
	erase();
	clock_text(st->elapsed_s, el, sizeof(el));
	if (eta < 0)
		snprintf(eta_s, sizeof(eta_s), "--:--:--");
	else
		clock_text(eta + 0.5, eta_s, sizeof(eta_s));
	attron(A_REVERSE);
	mvhline(0, 0, ' ', COLS);
	mvprintw(0, 1, "aiperf profile   phase: %-9s   elapsed %s   ETA %s%s", st->phase, el,
		 eta_s, st->end ? "   (done)" : "");
	attroff(A_REVERSE);
	if (st->notice[0]) {	/* the wrapper's: interrupted, stopping */
		attron(A_BOLD | COLOR_PAIR(2));
		mvprintw(1, 1, "%.*s", COLS > 2 ? COLS - 2 : 0, st->notice);
		attroff(A_BOLD | COLOR_PAIR(2));
	}

	title(2, 0, "Progress");
	mvprintw(3, 2, "%-10s", "Warmup");
	bar(3, 13, 40, ui_fraction(st, 1, &eta));
	mvprintw(3, 56, "%lld done, %lld errors", (long long)st->warm.done,
		 (long long)st->warm.errors);
	mvprintw(4, 2, "%-10s", "Profiling");
	bar(4, 13, 40, warm ? 0 : f);
	if (st->request_count > 0)
		snprintf(line, sizeof(line), "%lld / %lld requests", (long long)st->prof.done,
			 (long long)st->request_count);
	else if (st->duration_s > 0)
		snprintf(line, sizeof(line), "%.1f s / %g s, %lld requests", st->prof.span_s,
			 st->duration_s, (long long)st->prof.done);
	else
		snprintf(line, sizeof(line), "%lld requests", (long long)st->prof.done);
	mvprintw(4, 56, "%s", line);

	title(6, 0, "Requests");
	mvprintw(7, 2, "Completed          %12lld", (long long)p->done - p->errors);
	mvprintw(8, 2, "Errors             ");
	if (p->errors)
		attron(COLOR_PAIR(2) | A_BOLD);
	printw("%12lld", (long long)p->errors);
	if (p->errors)
		attroff(COLOR_PAIR(2) | A_BOLD);
	mvprintw(9, 2, "Request throughput %12.1f requests/s", p->request_rate);
	mvprintw(10, 2, "Output throughput  %12.1f tokens/s", p->token_rate);

	title(12, 0, "Latency so far (ms)");
	attron(A_UNDERLINE);
	mvprintw(13, 2, "%-22s %12s %12s %12s %12s %10s", "metric", "p50", "p90", "p99", "max",
		 "n");
	attroff(A_UNDERLINE);
	dist_row(14, "Time to first token", &st->ttft);
	dist_row(15, "Inter token latency", &st->itl);
	dist_row(16, "Request latency", &st->lat);

	title(18, 0, "Client health");
	if (st->late.n)
		mvprintw(19, 2, "Schedule lateness (us) p50 %.1f  p90 %.1f  p99 %.1f  max %.1f",
			 st->late.p50, st->late.p90, st->late.p99, st->late.max);
	else
		mvprintw(19, 2, "Schedule lateness (us) -");
	if (st->sender_cpu >= 0 && st->senders > 1)
		mvprintw(20, 2, "aiperf-send CPU        %.1f%% of a core (%d senders)",
			 st->sender_cpu, st->senders);
	else if (st->sender_cpu >= 0)
		mvprintw(20, 2, "aiperf-send CPU        %.1f%% of a core", st->sender_cpu);
	else
		mvprintw(20, 2, "aiperf-send CPU        -");
	mvprintw(21, 2, "Status lines read      %d", st->lines);

	title(23, 0, "Errors by type");
	y = 24;
	if (!st->ntypes)
		mvprintw(y++, 2, "none");
	for (int i = 0; i < st->ntypes && y < LINES - 2; i++)
		mvprintw(y++, 2, "%10lld  %.90s", (long long)st->types[i].n, st->types[i].name);
	if (LINES > y + 1) {
		attron(A_DIM);
		mvprintw(LINES - 1, 1, "Ctrl-C stops the run (the artifacts are still written)");
		attroff(A_DIM);
	}
	refresh();
}
