/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-supervise: aiperf profile's supervisor: carries out the plan aiperf-plan wrote. */
#define _GNU_SOURCE
#include "supervise.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char synopsis[] =
	"usage: aiperf-supervise --plan file [--control-fifo fifo]\n";

struct options {
	const char *plan_file;
	const char *control_fifo;
};

static _Noreturn void
usage(FILE *f, int status)
{
	fputs(synopsis, f);
	if (f == stderr)
		fprintf(stderr, "Try 'aiperf-supervise --help' for more information.\n");
	exit(status);
}

static void
parse_args(int argc, char **argv, struct options *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help"))
			usage(stdout, 0);
		else if (!strcmp(a, "--version"))
			printf("aiperf-supervise %s\n", AIPERF_VERSION), exit(0);
		else if (!strcmp(a, "--plan") && i + 1 < argc)
			o->plan_file = argv[++i];
		else if (!strcmp(a, "--control-fifo") && i + 1 < argc)
			o->control_fifo = argv[++i];
		else
			usage(stderr, 2);
	}
	if (!o->plan_file)
		usage(stderr, 2);
}

/* Descriptors 0, 1 and 2 open (/dev/null where closed), so that no pipe takes their place. */
static void
std_fds(void)
{
	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDWR) != fd)
			exit(1);
}

void
sv_say(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "aiperf profile: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void
sv_log(enum runlog_level level, const char *fmt, ...)
{
	const char *name = argv0;
	va_list ap;

	argv0 = "aiperf.profile";
	va_start(ap, fmt);
	runlog_v(level, fmt, ap);
	va_end(ap);
	argv0 = name;
}

/* The control FIFO, for reading without waiting for a writer; usage error if not one. */
static int
control_open(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		die_usage("--control-fifo '%s':", path);
	if (fstat(fd, &st) < 0 || !S_ISFIFO(st.st_mode)) {
		close(fd);
		die_usage("--control-fifo '%s': not a FIFO", path);
	}
	return fd;
}

/* The directory this program was run from, as named (a link not followed), or NULL. */
static char *
self_dir(const char *name)
{
	const char *path = getenv("PATH"), *p, *colon;

	if (strchr(name, '/'))
		return xstrndup(name, (size_t)(strrchr(name, '/') - name));
	for (p = path; p && *p; p = colon + 1) {
		char *dir, *file;
		int ok;

		colon = strchrnul(p, ':');
		dir = xstrndup(p, (size_t)(colon - p));
		file = xstrfmt("%s/%s", *dir ? dir : ".", name);
		ok = access(file, X_OK) == 0;
		free(file);
		if (ok)
			return dir;
		free(dir);
		if (!*colon)
			break;
	}
	return NULL;
}

/* The plan's tools are looked for beside this program first, then on PATH. */
static void
path_setup(const char *name)
{
	const char *path = getenv("PATH");
	char *dir = self_dir(name), *v;

	if (!dir)
		return;
	v = xstrfmt("%s%s%s", dir, path && *path ? ":" : "", path ? path : "");
	setenv("PATH", v, 1);
	free(v);
	free(dir);
}

/* The stages' log (lib/runlog.h), set before the first line is written. */
static void
log_setup(const struct plan *p)
{
	if (p->log_file) {
		setenv("AIPERF_LOG_FILE", p->log_file, 1);
		setenv("AIPERF_LOG_LEVEL", p->log_level ? p->log_level : "INFO", 1);
	} else {
		unsetenv("AIPERF_LOG_FILE");
	}
}

static void
load(struct sv *sv, const struct options *o)
{
	char err[512];

	plan_init(&sv->p);
	if (plan_load(&sv->p, o->plan_file, err, sizeof(err)) < 0)
		die_usage("--plan: %s", err);
	if (!sv->p.nsenders || !sv->p.metrics.n || !sv->p.export.n)
		die_usage("--plan '%s': no senders, metrics or export", o->plan_file);
	for (size_t k = 0; k < sv->p.nsenders; k++)
		if (!sv->p.senders[k].gen.n || !sv->p.senders[k].send.n ||
		    !sv->p.senders[k].spool)
			die_usage("--plan '%s': sender %zu without gen, send or spool",
				  o->plan_file, k + 1);
	for (size_t i = 0; i < sv->p.nscrapers; i++)
		if (!sv->p.scrapers[i].argv.n || !sv->p.scrapers[i].out)
			die_usage("--plan '%s': scraper %zu without argv or out", o->plan_file,
				  i + 1);
	if (!sv->p.run_dir || !sv->p.cancelled)
		die_usage("--plan '%s': no run_dir or cancelled", o->plan_file);
}

int
main(int argc, char **argv)
{
	struct options o = { 0 };
	struct sv sv = { 0 };
	int st;

	util_setprogname("aiperf-supervise");
	std_fds();
	spawn_init();
	parse_args(argc, argv, &o);
	signal(SIGPIPE, SIG_IGN);
	unsetenv("AIPERF_LOG_FILE");
	load(&sv, &o);
	sv.plan_file = o.plan_file;
	sv.ctl_fd = o.control_fifo ? control_open(o.control_fifo) : -1;
	log_setup(&sv.p);
	path_setup(argv[0]);
	util_setprogname("aiperf profile");
	st = run_supervise(&sv);
	fflush(stdout);
	return st;
}
