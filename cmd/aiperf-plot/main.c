/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-plot: artifact directories in; PNG and SVG plots (gnuplot) and one report.html out. */
#include "plot.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cfg.h"
#include "opt.h"
#include "util.h"

#define MAX_DEPTH 4
#define MAX_RUNS 1000

struct options {
	const char **paths;
	size_t npaths;
	const char *output, *config, *host, *theme_name;
	char *output_default;	/* <first path>/plots, owned */
	enum theme theme;
	int dashboard, verbose, port, refresh;
	int from_stdin;		/* metric records on stdin */
	struct plotcfg cfg;	/* --config: which plots; NULL below without it */
	const struct plotcfg *pc;
};

enum {
	O_PATHS = 256, O_EMPTY, O_OUTPUT, O_THEME, O_CONFIG, O_VERBOSE, O_NOVERBOSE,
	O_DASH, O_NODASH, O_HOST, O_PORT, O_REFRESH, O_HELP, O_VERSION,
};

static const char *const themes[] = { "light", "dark", NULL };

#define PLOT_OPTS(o) { \
	{ "paths", O_PATHS, OPT_STR, "dir", .syn = "[--paths dir ...]" }, \
	{ "empty-paths", O_EMPTY, OPT_FLAG, .flags = OPT_HIDE }, \
	{ "output", O_OUTPUT, OPT_STR, "dir", OPT_TO(o->output) }, \
	{ "theme", O_THEME, OPT_STR, "light | dark", OPT_TO(o->theme_name), .choices = themes }, \
	{ "config", O_CONFIG, OPT_STR, "file", OPT_TO(o->config), .flags = OPT_BR }, \
	{ "verbose", O_VERBOSE, OPT_FLAG, NULL, OPT_TO(o->verbose) }, \
	{ "no-verbose", O_NOVERBOSE, OPT_FLAG, .flags = OPT_HIDE }, \
	{ "dashboard", O_DASH, OPT_FLAG, NULL, OPT_TO(o->dashboard), .flags = OPT_BR }, \
	{ "no-dashboard", O_NODASH, OPT_FLAG, .flags = OPT_HIDE }, \
	{ "host", O_HOST, OPT_STR, "host", OPT_TO(o->host) }, \
	{ "port", O_PORT, OPT_INT, "port", OPT_TO(o->port), .min = 0, .max = 65535 }, \
	{ "refresh", O_REFRESH, OPT_INT, "seconds", OPT_TO(o->refresh), .min = 1, .max = 3600 }, \
	{ "help", O_HELP, OPT_HELP, .flags = OPT_HIDE }, \
	{ "version", O_VERSION, OPT_VERSION, .flags = OPT_HIDE }, \
	{ 0 }, \
}

static void
add_path(struct options *o, const char *p)
{
	o->paths = xreallocarray(o->paths, o->npaths + 1, sizeof(*o->paths));
	o->paths[o->npaths++] = p;
}

/* No --paths: records are read from stdin when it is a pipe or a file. */
static int
stdin_is_data(void)
{
	struct stat st;

	return fstat(0, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISREG(st.st_mode) ||
				      S_ISSOCK(st.st_mode));
}

static void
parse_args(struct options *o, int argc, char **argv)
{
	struct opt tab[] = PLOT_OPTS(o);
	const struct opt_cmd cmd = { "aiperf-plot", tab, "[dir ...]", 0, NULL, NULL };
	struct opt_iter it;
	int c;

	*o = (struct options){ .host = "127.0.0.1", .port = 8050, .refresh = 5,
			       .theme_name = "light" };
	opt_init(&it, &cmd, argc, argv);
	while ((c = opt_next(&it)) != -1) {
		switch (c) {
		case O_PATHS: add_path(o, it.arg); break;
		case O_EMPTY: o->npaths = 0; break;
		case O_NOVERBOSE: o->verbose = 0; break;
		case O_NODASH: o->dashboard = 0; break;
		default: break;
		}
	}
	/* --paths takes a list, as the original's: the words after it */
	for (; it.ind < argc; it.ind++)
		add_path(o, argv[it.ind]);
	o->theme = strcmp(o->theme_name, "dark") ? THEME_LIGHT : THEME_DARK;
	if (!o->npaths && !o->dashboard && stdin_is_data())
		add_path(o, "-");
	if (!o->npaths)
		add_path(o, "artifacts");
	o->from_stdin = !strcmp(o->paths[0], "-");
	if (o->from_stdin && (o->npaths > 1 || o->dashboard))
		die_usage("'--paths -' (records on stdin) goes alone and without --dashboard");
	if (!o->output)
		o->output = o->output_default = o->from_stdin ? xstrdup("plots") :
						 xstrfmt("%s/plots", o->paths[0]);
}


struct found {
	char **dirs;
	size_t n;
	char **aggs;		/* folders holding profile_export_aiperf_aggregate.json */
	size_t naggs;
};

#define AGG_FILE "profile_export_aiperf_aggregate.json"

/* The output folder and its parents, or -1 with a message. */
static int
make_output(const char *dir)
{
	if (util_mkdirs(dir) < 0)
		return error("cannot create '%s':", dir);
	return 0;
}

static int
has_file(const char *dir, const char *file)
{
	struct stat st;
	char *p = xstrfmt("%s/%s", dir, file);
	int ok = stat(p, &st) == 0 && !S_ISDIR(st.st_mode);	/* as run.c's exists() */

	free(p);
	return ok;
}

static int
by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Runs are folders holding profile_export files; others are searched below. */
static void
discover(struct found *f, const char *path, int depth)
{
	struct dirent **e;
	struct stat st;
	int n, i;

	if (f->n >= MAX_RUNS)
		return;
	if (run_is_dir(path)) {
		char *d = xstrdup(path);
		size_t len = strlen(d);

		while (len > 1 && d[len - 1] == '/')
			d[--len] = '\0';
		for (i = 0; i < (int)f->n; i++)	/* a run named twice counts once */
			if (!strcmp(f->dirs[i], d)) {
				free(d);
				return;
			}
		f->dirs = xreallocarray(f->dirs, f->n + 1, sizeof(*f->dirs));
		f->dirs[f->n++] = d;
		return;
	}
	if (has_file(path, AGG_FILE)) {	/* aggregate/ of --num-profile-runs */
		for (i = 0; i < (int)f->naggs; i++)
			if (!strcmp(f->aggs[i], path))
				return;
		f->aggs = xreallocarray(f->aggs, f->naggs + 1, sizeof(*f->aggs));
		f->aggs[f->naggs++] = xstrdup(path);
		return;
	}
	if (depth >= MAX_DEPTH || stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		return;
	if ((n = scandir(path, &e, NULL, by_name)) < 0)
		return;
	for (i = 0; i < n; i++) {
		if (e[i]->d_name[0] != '.') {
			char *sub = xstrfmt("%s/%s", path, e[i]->d_name);

			discover(f, sub, depth + 1);
			free(sub);
		}
		free(e[i]);
	}
	free(e);
}

static void
found_release(struct found *f)
{
	while (f->n)
		free(f->dirs[--f->n]);
	free(f->dirs);
	f->dirs = NULL;
	while (f->naggs)
		free(f->aggs[--f->naggs]);
	free(f->aggs);
	f->aggs = NULL;
}

static int
by_concurrency(const void *a, const void *b)
{
	const struct run *x = *(struct run *const *)a, *y = *(struct run *const *)b;

	if (x->concurrency != y->concurrency)
		return x->concurrency < y->concurrency ? -1 : 1;
	return strcmp(x->dir, y->dir);
}

struct state {
	const struct options *o;
	char *signature;
	int nruns;
	size_t naggs;		/* aggregate/ folders read */
};

/* What the folders hold now: run folders and their files' sizes and times. */
static char *
signature(const struct found *f)
{
	static const char *const files[] = {
		"profile_export_aiperf.json", "profile_export.jsonl",
		"profile_export_aiperf_timeslices.json", "server_metrics_export.json",
		"gpu_telemetry_export.jsonl", NULL,
	};
	struct buf b;
	struct stat st;
	size_t i;
	int k;

	buf_init(&b, (size_t)64 << 20);
	for (i = 0; i < f->n; i++)
		for (k = 0; files[k]; k++) {
			char *p = xstrfmt("%s/%s", f->dirs[i], files[k]);

			if (stat(p, &st) == 0)
				buf_addf(&b, "%s %lld %lld.%09ld\n", p, (long long)st.st_size,
					 (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
			free(p);
		}
	for (i = 0; i < f->naggs; i++) {
		char *p = xstrfmt("%s/%s", f->aggs[i], AGG_FILE);

		if (stat(p, &st) == 0)
			buf_addf(&b, "%s %lld %lld.%09ld\n", p, (long long)st.st_size,
				 (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
		free(p);
	}
	buf_addch(&b, 0);
	return buf_detach(&b, NULL);
}

/* A subfolder name for run i's own plots: its name, made unique. */
static char *
run_sub(struct run *const *runs, size_t i)
{
	char *s, *c;
	size_t j;

	for (j = 0; j < i; j++)
		if (!strcmp(runs[j]->name, runs[i]->name))
			break;
	s = j < i ? xstrfmt("runs/%s-%zu", runs[i]->name, i + 1) :
		    xstrfmt("runs/%s", runs[i]->name);
	for (c = s + 5; *c; c++)	/* a name the dashboard serves */
		if (!(strchr("-_.", *c) || (*c >= 'a' && *c <= 'z') ||
		      (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')) || (c == s + 5 && *c == '.'))
			*c = '_';
	return s;
}

/* Run i's own plots in its section's folder runs/NAME under the output
 * folder at (runs: that runs/, opened on first use). */
static int
render_section(const struct options *o, int at, int *runs, struct section *sec)
{
	char *dir = xstrfmt("%s/%s", o->output, sec->sub), *rpath;
	int fd = -1, rc = 0;
	size_t j;

	rpath = xstrfmt("%s/runs", o->output);
	if (*runs < 0 && (*runs = outdir_sub(at, o->output, "runs")) < 0)
		rc = -1;
	else if ((fd = outdir_sub(*runs, rpath, sec->sub + 5)) < 0)
		rc = -1;
	for (j = 0; j < sec->figs.n && rc == 0; j++)
		rc = gp_render(sec->figs.v[j], fd, dir, o->theme);
	if (fd >= 0)
		close(fd);
	free(rpath);
	free(dir);
	return rc;
}

static void
sections_free(struct section *secs, size_t n)
{
	size_t i;

	for (i = 0; secs && i < n; i++) {
		figs_release(&secs[i].figs);
		free(secs[i].sub);
	}
	free(secs);
}

/* The sweep plots of each path that is a sweep's artifact folder. */
static int
add_sweeps(const struct options *o, struct figs *figs)
{
	int rc = 0;

	for (size_t i = 0; i < o->npaths && !o->from_stdin; i++) {
		char *d = sweep_dir(o->paths[i]);

		if (d && figs_sweep(figs, d) < 0)
			rc = -1;
		free(d);
	}
	return rc;
}

/* Render every figure and the report of runs already read (freed here).
 * Several runs: the comparisons in the output folder, and each run's
 * single-run plots in runs/NAME/ under it. Returns the number of runs, or -1. */
static int
render_runs(const struct options *o, struct run **runs, size_t n, struct aggs *aggs, int rc)
{
	struct figs figs = { 0 };
	struct section *secs = NULL;
	size_t i, nplots;
	int at = -1, rfd = -1;

	qsort(runs, n, sizeof(*runs), by_concurrency);
	if (n == 1)
		figs_single(&figs, runs[0], o->pc);
	else if (n > 1)
		figs_multi(&figs, runs, n, o->pc);
	if (add_sweeps(o, &figs) < 0)
		rc = -1;
	if (rc == 0 && (at = open(o->output, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		rc = error("cannot open '%s':", o->output);
	for (i = 0; i < figs.n && rc == 0; i++)
		rc = gp_render(figs.v[i], at, o->output, o->theme);
	nplots = figs.n;
	if (n > 1) {
		secs = xcalloc(n, sizeof(*secs));
		for (i = 0; i < n && rc == 0; i++) {
			secs[i].run = runs[i];
			figs_single(&secs[i].figs, runs[i], o->pc);
			if (!secs[i].figs.n)
				continue;
			secs[i].sub = run_sub(runs, i);
			rc = render_section(o, at, &rfd, &secs[i]);
			nplots += secs[i].figs.n;
		}
	}
	if (rc == 0)
		rc = report_write(at, o->output, runs, n, &figs, secs, aggs,
				  o->theme, o->dashboard ? o->refresh : 0);
	if (rc == 0 && o->verbose)
		fprintf(stderr, "%s: %zu plots of %zu runs in '%s'\n", argv0, nplots, n,
			o->output);
	if (rfd >= 0)
		close(rfd);
	if (at >= 0)
		close(at);
	figs_release(&figs);
	sections_free(secs, n);
	for (i = 0; i < n; i++)
		run_free(runs[i]);
	free(runs);
	return rc < 0 ? -1 : (int)n;
}

/* Read the runs and aggregates found, and render them. */
static int
render(struct state *s, const struct found *f)
{
	const struct options *o = s->o;
	struct run **runs = xcalloc(f->n ? f->n : 1, sizeof(*runs));
	struct aggs aggs = { 0 };
	size_t i, n = 0;
	int rc = 0;

	for (i = 0; i < f->n; i++)
		if ((runs[n] = run_load(f->dirs[i])))
			n++;
		else if (!o->dashboard)
			rc = -1;
	for (i = 0; i < f->naggs; i++)
		if (aggs_load(&aggs, f->aggs[i]) < 0 && !o->dashboard)
			rc = -1;
	rc = render_runs(o, runs, n, &aggs, rc);
	s->naggs = aggs.n;
	aggs_release(&aggs);
	return rc;
}

static void
find_runs(const struct options *o, struct found *f)
{
	size_t i;

	for (i = 0; i < o->npaths; i++)
		discover(f, o->paths[i], 0);
}

/* The dashboard's poll: re-render when the folders changed. */
static void
rescan(void *arg)
{
	struct state *s = arg;
	struct found f = { 0 };
	char *sig;

	find_runs(s->o, &f);
	sig = signature(&f);
	if (strcmp(sig, s->signature)) {
		free(s->signature);
		s->signature = sig;
		s->nruns = render(s, &f);
		if (s->nruns >= 0)
			fprintf(stderr, "%s: report updated: %d runs%s\n", argv0, s->nruns,
				s->naggs ? ", confidence intervals" : "");
		sig = NULL;
	}
	free(sig);
	found_release(&f);
}

int
main(int argc, char **argv)
{
	struct options o;
	struct state s = { &o, NULL, 0, 0 };
	struct found f = { 0 };
	struct stat st;
	size_t i;
	int rc = 0;

	util_setprogname(argv[0]);
	signal(SIGPIPE, SIG_IGN);
	parse_args(&o, argc, argv);
	if (!gp_available())
		die("gnuplot not found on PATH: install it (Debian: gnuplot-nox)");
	if (o.config) {
		char err[1024];

		if (cfg_load(&o.cfg, o.config, err, sizeof(err)) < 0)
			die("%s", err);
		o.pc = &o.cfg;
	}
	for (i = 0; i < o.npaths && !o.from_stdin; i++)
		if (stat(o.paths[i], &st) < 0 && !o.dashboard)
			die("cannot open '%s':", o.paths[i]);
	if (o.from_stdin) {
		struct run **one = xcalloc(1, sizeof(*one));
		struct aggs none = { 0 };

		if (!(one[0] = run_load_stdin())) {
			free(one);
			rc = 1;
		} else if (render_runs(&o, one, 1, &none, make_output(o.output)) < 0) {
			rc = 1;	/* render_runs frees the run either way */
		}
		if (rc == 0)
			printf("%s/report.html\n", o.output);
		goto out;
	}
	if (make_output(o.output) < 0)
		return 1;
	find_runs(&o, &f);
	if (!f.n && !o.dashboard)
		die("no profiling runs in '%s'%s (folders with profile_export_aiperf.json)",
		    o.paths[0], o.npaths > 1 ? " and the other paths" : "");
	s.signature = signature(&f);
	s.nruns = render(&s, &f);
	found_release(&f);
	if (s.nruns < 0 && !o.dashboard)
		rc = 1;
	else if (o.dashboard)
		rc = serve_run(o.host, o.port, o.output, rescan, &s, o.refresh) < 0;
	if (rc == 0 && !o.dashboard)
		printf("%s/report.html\n", o.output);
out:
	cfg_release(&o.cfg);
	free(s.signature);
	free(o.output_default);
	free(o.paths);
	if (util_fshut(stdout, "stdout") < 0)
		rc = 1;
	return rc;
}
