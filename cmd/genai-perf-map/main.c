/* SPDX-License-Identifier: Apache-2.0 */
/* genai-perf-map: GenAI-Perf's command line and config file as aiperf profile's options. */
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "gapmap.h"
#include "gaptab.h"
#include "gapyaml.h"
#include "util.h"

#ifndef AIPERF_DATADIR
#define AIPERF_DATADIR "/usr/local/share/aiperf"
#endif
#define TABLE "genai-perf-options.tsv"

static const char synopsis[] =
	"usage: genai-perf-map profile|analyze [--] genai-perf-option ...\n"
	"       genai-perf-map config -f file [--override-config] [genai-perf-option | key=value ...]\n"
	"       genai-perf-map --table\n";

static _Noreturn void
usage(FILE *f, int status)
{
	fputs(synopsis, f);
	if (f == stderr)
		fprintf(stderr, "Try 'genai-perf-map --help' for more information.\n");
	exit(status);
}

static int
is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* $AIPERF_DATA_DIR, ../data and ../share/aiperf beside this binary (links
 * resolved), then DATADIR: as aiperf-plan finds its table. */
static char *
table_file(void)
{
	char exe[PATH_MAX], *slash, *path;
	const char *env = getenv("AIPERF_DATA_DIR");
	ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *beside[] = { "/../data/", "/../share/aiperf/" };

	if (env && *env && is_file(path = xstrfmt("%s/" TABLE, env)))
		return path;
	if (k > 0 && (exe[k] = '\0', slash = strrchr(exe, '/'))) {
		*slash = '\0';
		for (size_t i = 0; i < 2; i++) {
			if (is_file(path = xstrfmt("%s%s" TABLE, exe, beside[i])))
				return path;
			free(path);
		}
	}
	if (is_file(path = xstrfmt("%s/" TABLE, AIPERF_DATADIR)))
		return path;
	die("cannot find " TABLE " (set AIPERF_DATA_DIR to the folder holding it)");
}

static void
table_load(struct gaptab *t)
{
	char *path = table_file(), *s;
	size_t n, bad;

	if (!(s = util_readfile(path, GAPTAB_MAX_FILE, &n)))
		die("cannot read '%s':", path);
	gaptab_init(t);
	if (gaptab_parse(t, s, n, &bad) < 0) {
		if (bad)
			die("%s:%zu: malformed line", path, bad);
		die("%s: too large", path);
	}
	free(s);
	free(path);
}

/* 'v', a ' inside as '\'' */
static void
sq(struct buf *b, const char *v)
{
	buf_addch(b, '\'');
	for (; *v; v++)
		if (*v == '\'')
			buf_addstr(b, "'\\''");
		else
			buf_addch(b, *v);
	buf_addch(b, '\'');
}

static void
emit(const struct gapmap *m, int sweep)
{
	static const char *const actions[] = { "run", "help", "version" };
	struct buf b;
	size_t n;
	char **v = gapmap_argv(m, &n);

	for (size_t i = 0; i < m->nwarn; i++)
		warn("%s", m->warnings[i]);
	buf_init(&b, BUF_NOMAX);
	buf_addstr(&b, "ARGS=(");
	for (size_t i = 0; i < n; i++) {
		buf_addstr(&b, i ? " " : "");
		sq(&b, v[i]);
		free(v[i]);
	}
	free(v);
	buf_addf(&b, ")\nPLOTS=%d\nSWEEP=%d\nDRY_RUN=%d\nACTION=%s\n", m->plots, sweep, m->dry_run,
		 actions[m->action]);
	if (fwrite(b.s, 1, b.len, stdout) != b.len)
		die_write();
	buf_release(&b);
}

static void
check(struct gapmap *m, int rc)
{
	if (rc < 0)
		die_usage("%s", m->err);
}

/* The words of config's command line but -f FILE, --override-config and
 * --dry-run (before any "--"), into rest; the file's name. */
static const char *
config_words(struct gapmap *m, int argc, char **argv, char **rest, int *nrest, int *override)
{
	const char *file = NULL;
	int i = 0, pass = 0;

	*nrest = 0;
	for (; i < argc; i++) {
		const char *a = argv[i];

		pass |= !strcmp(a, "--");
		if (!pass && (!strcmp(a, "-f") || !strcmp(a, "--file")) && i + 1 < argc)
			file = argv[++i];
		else if (!pass && !strcmp(a, "--override-config"))
			*override = 1;
		else if (!pass && !strcmp(a, "--dry-run"))
			m->dry_run = 1;
		else
			rest[(*nrest)++] = argv[i];
	}
	if (!file)
		die_usage("config: the config file is required (-f file)");
	return file;
}

/* config -f FILE [--override-config [options | key=value ...]] */
static int
config(struct gapmap *m, int argc, char **argv)
{
	char **rest = xcalloc((size_t)argc + 1, sizeof(*rest)), *s;
	int nrest, override = 0;
	const char *file = config_words(m, argc, argv, rest, &nrest, &override);
	size_t n;

	if (!(s = util_readfile(file, GAPYAML_MAX_FILE, &n)))
		die("cannot read '%s':", file);
	if (gapyaml_load(m, s, n) < 0)
		die_usage("%s: %s", file, m->err);
	free(s);
	if (nrest && !override && strcmp(rest[0], "-h") && strcmp(rest[0], "--help"))
		die_usage("to override the config file from the command line, "
			  "--override-config must be set");
	m->keyvals = 1;
	check(m, gapmap_args(m, nrest, rest));
	free(rest);
	return m->sweep_type != NULL;
}

int
main(int argc, char **argv)
{
	struct gaptab t;
	struct gapmap m;
	const char *cmd = argc > 1 ? argv[1] : "";
	int sweep = 0, skip;

	util_setprogname("genai-perf");
	if (!strcmp(cmd, "--help"))
		usage(stdout, 0);
	if (strcmp(cmd, "profile") && strcmp(cmd, "analyze") && strcmp(cmd, "config") &&
	    strcmp(cmd, "--table"))
		usage(stderr, 2);
	table_load(&t);
	if (!strcmp(cmd, "--table")) {
		printf("%zu rows\n", t.n);
		gaptab_release(&t);
		return 0;
	}
	gapmap_init(&m, &t);
	skip = argc > 2 && !strcmp(argv[2], "--");
	if (!strcmp(cmd, "config")) {
		sweep = config(&m, argc - 2, argv + 2);
	} else {
		m.analyze = !strcmp(cmd, "analyze");
		sweep = m.analyze;
		check(&m, gapmap_args(&m, argc - 2 - skip, argv + 2 + skip));
	}
	if (sweep && m.action == GAPMAP_RUN)
		check(&m, gapmap_sweep(&m));
	emit(&m, sweep);
	gapmap_release(&m);
	gaptab_release(&t);
	return util_fshut(stdout, "stdout") < 0;
}
