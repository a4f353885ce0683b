/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-aggregate: confidence statistics across run directories (spec 8). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "cell.h"
#include "collate.h"
#include "rundir.h"
#include "json/json.h"
#include "opt.h"
#include "outfile.h"
#include "runagg.h"
#include "recipe.h"
#include "sweep.h"
#include "sweepplan.h"
#include "stats/ks.h"
#include "util.h"

#define JSON_MAX (64u << 20)	/* a run's summary JSON */

enum { K_LEVEL = 256, K_OUT, K_EXPORT, K_CHECK, K_METRIC, K_STAT, K_THRESH,
	K_RECORDS, K_COLLATED, K_COOLDOWN, K_SWEEP, K_CELL };

static const char *const modes[] = { "ci_width", "cv", "distribution", NULL };
enum mode { M_CI_WIDTH, M_CV, M_DISTRIBUTION, M_NONE = -1 };

struct options {
	double level;
	const char *out;
	const char *export_file;
	const char *records_file;
	long long mode;
	const char *metric;
	const char *stat;
	double threshold;
	int have_threshold;
	int collated;
	double cooldown;
	long long cell;		/* --cell, -1 when not given */
	const char *sweep;
};

static struct options o = {
	.level = 0.95, .export_file = "profile_export_aiperf.json",
	.records_file = "profile_export.jsonl", .mode = M_NONE,
	.stat = "avg", .threshold = 0.10, .cell = -1,
};

static const struct opt opts[] = {
	{ "confidence-level", K_LEVEL, OPT_DOUBLE, "x", OPT_TO(o.level),
		.lo = 0, .hi = 1 },
	{ "output-dir", 'o', OPT_STR, "dir", OPT_TO(o.out), .flags = OPT_BOTH },
	{ "export-file", K_EXPORT, OPT_STR, "name", OPT_TO(o.export_file) },
	{ "records-file", K_RECORDS, OPT_STR, "name", OPT_TO(o.records_file) },
	{ "collated", K_COLLATED, OPT_FLAG, NULL, OPT_TO(o.collated), .flags = OPT_BR },
	{ "cooldown-seconds", K_COOLDOWN, OPT_DOUBLE, "s", OPT_TO(o.cooldown),
		.lo = 0, .hi = 1e9 },
	{ "check-convergence", K_CHECK, OPT_CHOICE, "mode", OPT_TO(o.mode),
		.choices = modes, .flags = OPT_BR | OPT_LOOSE },
	{ "metric", K_METRIC, OPT_STR, "name", OPT_TO(o.metric) },
	{ "stat", K_STAT, OPT_STR, "stat", OPT_TO(o.stat) },
	{ "threshold", K_THRESH, OPT_DOUBLE, "x", OPT_TO(o.threshold),
		.lo = 0, .hi = 1 },
	{ "sweep", K_SWEEP, OPT_STR, "plan", OPT_TO(o.sweep) },
	{ "cell", K_CELL, OPT_INT, "j", OPT_TO(o.cell), .min = 0, .max = 1 << 30 },
	{ "help", 'h', OPT_HELP, .flags = OPT_BR },
	{ "version", 'V', OPT_VERSION, .flags = OPT_OR },
	{ 0 },
};

static const struct opt_cmd cmd = {
	"aiperf-aggregate", opts, "dir ...", 0, NULL, NULL,
};

/* The options into o; returns the first operand's index. */
static int
parse_args(int argc, char **argv)
{
	struct opt_iter it;
	int k;

	opt_init(&it, &cmd, argc, argv);
	while ((k = opt_next(&it)) != -1) {
		if (k == K_THRESH)
			o.have_threshold = 1;
		if ((k == K_LEVEL || k == K_THRESH) && (it.d <= 0 || it.d >= 1))
			die_usage("invalid value for --%s: '%s' (must be between 0 "
				  "and 1, exclusive)", k == K_LEVEL ?
				  "confidence-level" : "threshold", it.arg);
	}
	if (o.sweep && (it.ind < argc || o.mode != M_NONE || o.collated))
		die_usage("--sweep takes no run directory, --check-convergence "
			  "or --collated");
	if (o.cell >= 0 && !o.sweep)
		die_usage("--cell needs --sweep");
	if (o.sweep)
		return it.ind;
	if (it.ind >= argc)
		die_usage("no run directory given");
	if (o.mode != M_NONE && !o.metric)
		die_usage("--check-convergence needs --metric");
	if (o.mode == M_NONE && o.metric)
		die_usage("--metric only applies with --check-convergence");
	if (o.collated && !o.out)
		die_usage("--collated needs --output-dir");
	return it.ind;
}

/* The run's label: DIR's last component. */
static char *
label_of(const char *dir)
{
	size_t n = strlen(dir);
	const char *s;
	char *l;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	for (s = dir + n; s > dir && s[-1] != '/'; s--)
		;
	l = xmalloc((size_t)(dir + n - s) + 1);
	memcpy(l, s, (size_t)(dir + n - s));
	l[dir + n - s] = '\0';
	return l;
}

static void
add_dir(struct runagg *a, const char *dir)
{
	char *label = label_of(dir), *p, *text;
	char why[512];
	struct stat sb;
	size_t len;

	if (stat(dir, &sb) < 0 || !S_ISDIR(sb.st_mode)) {
		snprintf(why, sizeof(why), "no run directory '%s'", dir);
		goto failed;
	}
	if (rundir_failed(dir, why, sizeof(why)))
		goto failed;
	p = rundir_path(dir, o.export_file);
	text = util_readfile(p, JSON_MAX, &len);
	free(p);
	if (!text) {
		snprintf(why, sizeof(why), "%s %s: %s", errno == ENOENT ? "missing" :
			 "cannot read", o.export_file, util_strerror(errno));
		goto failed;
	}
	if (runagg_add_json(a, label, text, len, why, sizeof(why)) < 0)
		warn("%s: %s", dir, why);
	free(text);
	free(label);
	return;
failed:
	warn("%s: %s", dir, why);
	if (runagg_add_failed(a, label, why) < 0)
		die("more than %d runs", RUNAGG_MAX_RUNS);
	free(label);
}

/* s with its control bytes shown as '?', for a message: s is from a run's file. */
static char *
printable(const char *s)
{
	char *t = xstrdup(s);

	for (char *c = t; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return t;
}

/* Each run left out of statistics (of METRIC only, unless NULL), named. */
static void
warn_left_out(const struct runagg *a, char **dirs, const char *metric)
{
	struct runagg_note n;

	for (size_t i = 0; runagg_left_out(a, i, &n); i++) {
		struct buf st = BUF_INIT(BUF_NOMAX);
		char *m, *why;

		if (metric && strcmp(metric, n.metric))
			continue;
		for (size_t s = 0; s < n.nstats; s++)
			buf_addf(&st, "%s%s", s ? ", " : "", n.stats[s]);
		m = printable(n.metric);
		why = printable(n.why);
		warn("%s: left out of '%s' (%s): %s", dirs[n.run], m, buf_str(&st), why);
		free(m);
		free(why);
		buf_release(&st);
	}
}

/* DIR/NAME: the JSON in b and a newline, or (b NULL) a's CSV; written
 * whole under a new name and renamed over NAME, never through a link
 * planted there (lib/outfile). */
static void
write_out(const char *dir, const char *name, const struct runagg *a, const struct buf *b)
{
	char *p = rundir_path(dir, name);
	struct outfile of;
	FILE *f = outfile_fopen(&of, AT_FDCWD, p);

	if (!f)
		die("cannot create '%s':", p);
	if (b) {
		fwrite(b->s, 1, b->len, f);
		fputc('\n', f);
	} else {
		runagg_csv(a, f);
	}
	if (outfile_commit(&of) < 0)
		die("cannot write '%s':", p);
	free(p);
}

static void
write_file(const char *dir, const char *name, const struct runagg *a, int csv)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	if (!csv)
		runagg_json(a, AIPERF_VERSION, &b);
	write_out(dir, name, a, csv ? NULL : &b);
	buf_release(&b);
}

/* Each run left out of WHAT, by the collated records c, named. */
static void
warn_collate(const struct collate *c, char **dirs, const char *what)
{
	const char *metric, *why;
	size_t run;

	for (size_t i = 0; collate_left_out(c, i, &run, &metric, &why); i++) {
		char *m = metric ? printable(metric) : NULL, *w = printable(why);

		warn("%s: left out of %s%s%s%s: %s", dirs[run], what, m ? " of '" : "",
		     m ? m : "", m ? "'" : "", w);
		free(m);
		free(w);
	}
}

/* A collate of the successful runs' records (of METRIC, unless NULL). */
static struct collate *
read_records(const struct runagg *a, char **dirs, const char *metric)
{
	struct collate *c = collate_new(metric);
	const char *err;

	for (size_t i = 0; runagg_label(a, i, &err); i++)
		if (!err)
			(void)collate_add_run(c, dirs[i], o.records_file, i);
	return c;
}

/* DIR/profile_export_aiperf_collated.json from the runs' records. */
static void
write_collated(const char *dir, const struct runagg *a, char **dirs)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct collate *c = read_records(a, dirs, NULL);

	warn_collate(c, dirs, "the collated records");
	collate_json(&b, c, a, o.cooldown, AIPERF_VERSION);
	write_out(dir, "profile_export_aiperf_collated.json", a, &b);
	collate_free(c);
	buf_release(&b);
}

static int
aggregate(int n, char **dirs)
{
	struct runagg *a = runagg_new(o.level);
	char err[600];

	for (int i = 0; i < n; i++)
		add_dir(a, dirs[i]);
	if (runagg_finish(a, err, sizeof(err)) < 0) {
		warn_left_out(a, dirs, NULL);
		runagg_free(a);
		die("%s", err);
	}
	warn_left_out(a, dirs, NULL);
	if (o.out) {
		if (mkdir(o.out, 0777) < 0 && errno != EEXIST)
			die("cannot create '%s':", o.out);
		write_file(o.out, "profile_export_aiperf_aggregate.json", a, 0);
		write_file(o.out, "profile_export_aiperf_aggregate.csv", a, 1);
		if (o.collated)
			write_collated(o.out, a, dirs);
	} else {
		struct buf b = BUF_INIT(BUF_NOMAX);

		runagg_json(a, AIPERF_VERSION, &b);
		fwrite(b.s, 1, b.len, stdout);
		putchar('\n');
		buf_release(&b);
	}
	runagg_free(a);
	return util_fshut(stdout, "stdout") < 0;
}

/*
 * The original's DistributionConvergence: the metric's per-request values
 * of the last successful run against those of the runs before it. A run
 * whose records cannot be read is left out, named; when it is the last,
 * there is nothing to test: not converged.
 */
static int
distribution(char **dirs, const struct runagg *a)
{
	struct buf prior = BUF_INIT(BUF_NOMAX), lastv = BUF_INIT(BUF_NOMAX);
	struct collate *c = collate_new(o.metric);
	size_t k = 0, last = SIZE_MAX;
	const char *err;
	double p = 1, d = 0;
	int conv = 0;

	for (size_t i = 0; runagg_label(a, i, &err); i++)
		if (!err)
			last = i;
	for (size_t i = 0; runagg_label(a, i, &err); i++) {
		const double *v = NULL;
		size_t n;

		if (err || collate_add_run(c, dirs[i], o.records_file, i) < 0)
			continue;
		k++;
		if ((n = collate_values(c, o.metric, i, &v)))
			buf_add(i == last ? &lastv : &prior, v, n * sizeof(*v));
	}
	warn_collate(c, dirs, "the distribution test");
	if (k >= 3 && lastv.len / sizeof(double) >= 2 && prior.len / sizeof(double) >= 2) {
		/* ks_2samp() sorts both in place */
		p = ks_2samp((double *)(void *)prior.s, prior.len / sizeof(double),
			     (double *)(void *)lastv.s, lastv.len / sizeof(double), &d);
		conv = p > o.threshold;
	}
	printf("%s distribution runs=%zu D=%.6g p=%.6g threshold=%g\n",
	       conv ? "converged" : "not-converged", k, d, p, o.threshold);
	collate_free(c);
	buf_release(&prior);
	buf_release(&lastv);
	return conv;
}

/* The original's CIWidthConvergence and CVConvergence (at least 3 runs). */
static int
summary_mode(const struct runagg *a)
{
	double v[RUNAGG_MAX_RUNS], sum = 0, ss = 0, mean, std, ratio = NAN;
	size_t n = runagg_values(a, o.metric, o.stat, v, RUNAGG_MAX_RUNS);
	int conv = 0;

	for (size_t i = 0; i < n; i++)
		sum += v[i];
	mean = n ? sum / (double)n : 0;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	if (n >= 3 && mean != 0) {
		std = sqrt(ss / (double)(n - 1));
		if (o.mode == M_CV)
			ratio = std / mean;
		else
			ratio = 2 * runagg_t_critical(o.level, n) * std /
				sqrt((double)n) / mean;
		conv = ratio < o.threshold;
	}
	printf("%s %s runs=%zu value=%.6g threshold=%g\n",
	       conv ? "converged" : "not-converged", modes[o.mode], n, ratio,
	       o.threshold);
	return conv;
}

static int
check_convergence(int n, char **dirs)
{
	struct runagg *a = runagg_new(o.level);

	for (int i = 0; i < n; i++)
		add_dir(a, dirs[i]);
	if (o.mode == M_DISTRIBUTION) {
		distribution(dirs, a);
	} else {
		char err[600];

		/* the values in their units; fewer than 3 runs: not converged */
		(void)runagg_finish(a, err, sizeof(err));
		warn_left_out(a, dirs, o.metric);
		summary_mode(a);
	}
	runagg_free(a);
	return util_fshut(stdout, "stdout") < 0;
}

/* The plan's folder: PATH up to its last '/', or ".". */
static char *
folder_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *d;

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	d = xmalloc((size_t)(slash - path) + 1);
	memcpy(d, path, (size_t)(slash - path));
	d[slash - path] = '\0';
	return d;
}

static void
write_sweep(const char *dir, const char *name, const struct sweep *s)
{
	char *p = rundir_path(dir, name);
	struct outfile of;
	FILE *f = outfile_fopen(&of, AT_FDCWD, p);
	struct buf b = BUF_INIT(BUF_NOMAX);

	if (!f)
		die("cannot create '%s':", p);
	if (strstr(name, ".csv")) {
		sweep_csv(s, f);
	} else {
		sweep_json(s, &b);	/* the original's: no final newline */
		fwrite(b.s, 1, b.len, f);
	}
	if (outfile_commit(&of) < 0)
		die("cannot write '%s':", p);
	buf_release(&b);
	free(p);
}

/* The default place: <base>/aggregate/sweep_aggregate (repeated, trials
 * > 1), else <base>/sweep_aggregate. */
static char *
sweep_dir(const struct sweepplan *p, const char *base)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	if (p->trials > 1 && !p->independent) {
		buf_addf(&b, "%s/aggregate", base);
		if (mkdir(buf_str(&b), 0777) < 0 && errno != EEXIST)
			die("cannot create '%s':", buf_str(&b));
		buf_addstr(&b, "/sweep_aggregate");
	} else {
		buf_addf(&b, "%s/sweep_aggregate", base);
	}
	return buf_detach(&b, NULL);
}

static int
sweep(void)
{
	char err[600], *base, *out;
	size_t len;
	char *text = util_readfile(o.sweep, SWEEPPLAN_MAX_BYTES, &len);
	struct sweepplan *p;
	struct sweep s;

	if (!text)
		die("cannot read '%s': %s", o.sweep, util_strerror(errno));
	if (!(p = sweepplan_parse(text, len, err, sizeof(err)))) {
		error("%s: %s", o.sweep, err);
		free(text);
		return 1;
	}
	base = folder_of(o.sweep);
	if (o.cell >= 0) {
		int rc = sweep_cell_line(p, base, o.cell, o.export_file, stdout);

		sweepplan_free(p);
		free(text);
		free(base);
		return rc ? rc : util_fshut(stdout, "stdout") < 0;
	}
	sweep_collect(&s, p, base, o.export_file, AIPERF_VERSION);
	recipe_sla(&s);
	if (!s.nc) {
		warn("%s: no successful run in any variation: no sweep aggregate",
		     o.sweep);
	} else {
		out = o.out ? xstrdup(o.out) : sweep_dir(p, base);
		if (mkdir(out, 0777) < 0 && errno != EEXIST)
			die("cannot create '%s':", out);
		write_sweep(out, "profile_export_aiperf_sweep.json", &s);
		write_sweep(out, "profile_export_aiperf_sweep.csv", &s);
		recipe_post_process(&s, out);
		free(out);
	}
	sweep_free(&s);
	sweepplan_free(p);
	free(text);
	free(base);
	return util_fshut(stdout, "stdout") < 0;
}

int
main(int argc, char **argv)
{
	int ind;

	util_setprogname(argv[0]);
	signal(SIGPIPE, SIG_IGN);
	ind = parse_args(argc, argv);
	if (o.sweep)
		return sweep();
	if (o.mode != M_NONE)
		return check_convergence(argc - ind, argv + ind);
	return aggregate(argc - ind, argv + ind);
}
