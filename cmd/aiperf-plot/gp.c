/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-plot: gnuplot scripts for figures, run to PNG and SVG. */
#include "plot.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

#define WIDTH 1000
#define HEIGHT 560

struct colors {
	const char *bg, *fg, *grid;
};

static const struct colors themes[] = {
	[THEME_LIGHT] = { "#ffffff", "#222222", "#dddddd" },
	[THEME_DARK] = { "#1e1e1e", "#e0e0e0", "#444444" },
};

/* Tableau 10: readable on white and on near-black. */
static const char *const palette[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};

int
gp_available(void)
{
	const char *p = getenv("PATH"), *e;
	char file[4096];
	int n;

	if (!p)
		p = "/usr/bin:/bin";
	for (;;) {	/* an empty entry is the current directory */
		e = strchr(p, ':');
		n = e ? (int)(e - p) : (int)strlen(p);
		snprintf(file, sizeof(file), "%.*s/gnuplot", n ? n : 1, n ? p : ".");
		if (access(file, X_OK) == 0)
			return 1;
		if (!e)
			return 0;
		p = e + 1;
	}
}

/* A gnuplot double-quoted string. */
static void
quote(struct buf *b, const char *s)
{
	buf_addch(b, '"');
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			buf_addch(b, '\\');
		buf_addch(b, *s == '\n' ? ' ' : *s);
	}
	buf_addch(b, '"');
}

static const char *
style(enum fig_style s)
{
	switch (s) {
	case STYLE_BOXES: return "boxes";
	case STYLE_LINES: return "lines lw 2";
	case STYLE_POINTS: return "points pt 7 ps 0.6";
	case STYLE_LINESPOINTS: return "linespoints pt 7 ps 0.7 lw 1.5";
	case STYLE_STEPS: return "steps lw 1.5";
	case STYLE_LABELS: return "labels offset 0,1";
	}
	return "lines";
}

static void
plot_cmd(struct buf *b, const struct fig *f, const struct colors *c)
{
	int i, color = 0;

	buf_addstr(b, "plot ");
	for (i = 0; i < f->nblocks; i++) {
		const struct block *k = &f->blocks[i];

		buf_addf(b, "%s'data/%s.dat' index %d using %s%s with %s", i ? ", \\\n     " : "",
			 f->name, k->index, k->using, k->y2 ? " axes x1y2" : "", style(k->style));
		if (k->style == STYLE_LABELS) {
			buf_addf(b, " textcolor rgb '%s' notitle", c->fg);
			continue;
		}
		buf_addf(b, " lc rgb '%s' ", k->color ? k->color : palette[color++ % 10]);
		if (k->title) {
			buf_addstr(b, "title ");
			quote(b, k->title);
		} else {
			buf_addstr(b, "notitle");
		}
	}
	buf_addch(b, '\n');
}

static void
script(struct buf *b, const struct fig *f, enum theme theme)
{
	const struct colors *c = &themes[theme];
	int i, y2 = 0, keys = 0;

	for (i = 0; i < f->nblocks; i++) {
		y2 |= f->blocks[i].y2;
		keys += f->blocks[i].title != NULL;
	}
	buf_addf(b, "# %s: made by aiperf-plot from data/%s.dat; run in the plots folder\n",
		 f->name, f->name);
	buf_addf(b, "set terminal pngcairo noenhanced size %d,%d background '%s' font 'sans,11'\n",
		 WIDTH, HEIGHT, c->bg);
	buf_addf(b, "set output '%s.png'\n", f->name);
	buf_addstr(b, "set encoding utf8\nset title ");
	quote(b, f->title);
	buf_addf(b, " textcolor rgb '%s'\nset xlabel ", c->fg);
	quote(b, f->xlabel);
	buf_addf(b, " textcolor rgb '%s'\nset ylabel ", c->fg);
	quote(b, f->ylabel);
	buf_addf(b, " textcolor rgb '%s'\n", c->fg);
	if (y2) {
		buf_addstr(b, "set y2label ");
		quote(b, f->y2label ? f->y2label : "");
		buf_addf(b, " textcolor rgb '%s'\nset ytics nomirror\nset y2tics\n", c->fg);
	}
	buf_addf(b, "set border lc rgb '%s'\nset tics textcolor rgb '%s'\n", c->fg, c->fg);
	/* many series: the key goes under the plot, off the data */
	buf_addf(b, "set key %s textcolor rgb '%s'\n", keys > 4 ? "below left" : "top right",
		 c->fg);
	buf_addf(b, "set grid lc rgb '%s'\nset style fill solid 0.6 border\n", c->grid);
	if (f->xtics)
		buf_addstr(b, "set xtics rotate by -30\nset offsets 0.3, 0.3, 0, 0\n");
	buf_addstr(b, "set yrange [0:*]\n");
	if (y2)
		buf_addstr(b, "set y2range [0:*]\n");
	plot_cmd(b, f, c);
	buf_addf(b, "set terminal svg noenhanced size %d,%d background '%s' font 'sans,11'\n",
		 WIDTH, HEIGHT, c->bg);
	buf_addf(b, "set output '%s.svg'\nreplot\nset output\n", f->name);
}

/* gnuplot's messages, kept in data/NAME.log: shown when it fails. */
static void
show_log(const char *work, const char *name)
{
	char *p = xstrfmt("%s/data/%s.log", work, name), *s;
	size_t n;

	if ((s = util_readfile(p, (size_t)1 << 20, &n)) && n)
		fprintf(stderr, "%s", s);
	free(s);
	free(p);
}

/* The child: in the work folder, messages into data/NAME.log (a new file),
 * the signals a dashboard blocks for its loop unblocked again. */
static _Noreturn void
exec_gnuplot(int work, int data, const char *name, const char *gp)
{
	char *log = xstrfmt("%s.log", name);
	sigset_t none;
	int fd;

	if (fchdir(work) < 0)
		_exit(126);
	if ((fd = open("/dev/null", O_RDONLY)) >= 0)
		dup2(fd, 0);
	if ((fd = openat(data, log, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0666)) >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execlp("gnuplot", "gnuplot", gp, (char *)NULL);
	_exit(127);
}

/* Run "gnuplot data/NAME.gp" in the work folder (named path), whose data/
 * goes to dir/data/. */
static int
run_gnuplot(int work, int data, const char *path, const char *dir, const char *name)
{
	char *gp = xstrfmt("data/%s.gp", name);
	pid_t pid;
	int st, rc = 0;

	fflush(NULL);
	if ((pid = fork()) < 0) {
		free(gp);
		return error("fork:");
	}
	if (pid == 0)
		exec_gnuplot(work, data, name, gp);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			st = -1;
			rc = error("waitpid:");
			break;
		}
	if (rc == 0 && (!WIFEXITED(st) || WEXITSTATUS(st) != 0)) {
		show_log(path, name);
		rc = error(WIFEXITED(st) && WEXITSTATUS(st) == 127 ?
			   "cannot run gnuplot on '%s/%s'" : "gnuplot failed on '%s/%s'",
			   dir, gp);
	}
	free(gp);
	return rc;
}

/* Move NAME.ext from folder from into to (named topath). */
static int
publish(int from, const char *name, const char *ext, int to, const char *topath)
{
	char *file = xstrfmt("%s.%s", name, ext);
	int rc = outdir_move(from, file, to, topath);

	free(file);
	return rc;
}

/* What gnuplot made in the work folder, moved into dir: the data, script
 * and log into data/ always (to see or rerun a failure), the plots when
 * it succeeded (rc 0). */
static int
publish_all(int work, int wdata, int at, const char *dir, const char *name, int rc)
{
	char *dpath = xstrfmt("%s/data", dir);
	int data = outdir_sub(at, dir, "data");

	if (data < 0 || publish(wdata, name, "dat", data, dpath) < 0 ||
	    publish(wdata, name, "gp", data, dpath) < 0 ||
	    publish(wdata, name, "log", data, dpath) < 0)
		rc = -1;
	if (rc == 0 && (publish(work, name, "png", at, dir) < 0 ||
			publish(work, name, "svg", at, dir) < 0))
		rc = -1;
	if (data >= 0)
		close(data);
	free(dpath);
	return rc;
}

int
gp_render(const struct fig *f, int at, const char *dir, enum theme theme)
{
	char *tmp, *path = NULL, *dpath = NULL, *file = NULL;
	int work, wdata = -1, rc = -1;
	struct buf b;

	buf_init(&b, (size_t)1 << 20);
	if ((work = outdir_mktemp(at, dir, f->name, &tmp)) < 0)
		goto out;
	path = xstrfmt("%s/%s", dir, tmp);
	dpath = xstrfmt("%s/data", path);
	if ((wdata = outdir_sub(work, path, "data")) < 0)
		goto out;
	file = xstrfmt("%s.dat", f->name);
	if (outdir_write(wdata, dpath, file, f->data.s, f->data.len) < 0)
		goto out;
	free(file);
	file = xstrfmt("%s.gp", f->name);
	script(&b, f, theme);
	if (outdir_write(wdata, dpath, file, b.s, b.len) < 0)
		goto out;
	rc = run_gnuplot(work, wdata, path, dir, f->name);
	rc = publish_all(work, wdata, at, dir, f->name, rc);
out:
	if (wdata >= 0)
		close(wdata);
	outdir_rmtemp(at, tmp, work);
	free(file);
	free(dpath);
	free(path);
	buf_release(&b);
	return rc;
}
