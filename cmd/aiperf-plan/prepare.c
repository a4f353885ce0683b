/* SPDX-License-Identifier: Apache-2.0 */
/* The artifact directory made ready for the run: an earlier run's files gone, the log anew, the synthesized input. */
#include "planner.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

/* The names the wrapper writes itself, beside those aiperf-export lists
 * (.synthesized_input.jsonl: where earlier versions left the synthesized
 * input, now in the scratch folder). */
static const char *const own[] = {
	"inputs.json", "logs/aiperf.log", "logs/shards.txt", ".input_config.json",
	".synthesized_input.jsonl", SPILL,
};

/* The files this run writes (aiperf-export --list-files: "KIND\tPATH"
 * lines) into paths; p->raw the raw records' one, or /dev/null. */
static void
listed_files(struct planner *p, struct plan_argv *paths)
{
	char **v = xcalloc(p->exp.n + 5, sizeof(*v));
	struct buf out;
	char *line, *nl, *tab;

	v[0] = (char *)"aiperf-export";
	v[1] = (char *)"--list-files";
	if (p->exp.n)
		memcpy(v + 2, p->exp.v, p->exp.n * sizeof(*v));
	v[p->exp.n + 2] = (char *)"--artifact-dir";
	v[p->exp.n + 3] = p->dir;
	buf_init(&out, 1 << 20);
	if (run_tool(v, "/dev/null", &out, NULL))
		die("aiperf-export --list-files failed");
	buf_addch(&out, '\0');
	for (line = out.s; line && *line; line = nl) {
		if ((nl = strchr(line, '\n')))
			*nl++ = '\0';
		if (!(tab = strchr(line, '\t')) || !tab[1])
			continue;
		if (!strncmp(line, "raw\t", 4))
			plan_set(&p->raw, tab + 1);
		plan_argv_add(paths, tab + 1);
	}
	if (!p->raw)
		p->raw = xstrdup("/dev/null");
	buf_release(&out);
	free(v);
}

/* Removes the files an earlier run wrote into the artifact directory (the
 * names this run writes, the wrapper's own), so that none is mistaken for
 * this run's, and says which. A link at a name goes too (the link, never
 * what it points to): no stage writes through it. */
static void
clean(struct planner *p, struct plan_argv *paths)
{
	size_t len = strlen(p->dir);
	struct buf gone;
	struct stat st;

	for (size_t i = 0; i < sizeof(own) / sizeof(*own); i++) {
		char *f = xstrfmt("%s/%s", p->dir, own[i]);

		plan_argv_add(paths, f);
		free(f);
	}
	buf_init(&gone, BUF_NOMAX);
	for (size_t i = 0; i < paths->n; i++) {
		const char *f = paths->v[i];

		if (lstat(f, &st) < 0 || !(S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)))
			continue;
		if (unlink(f) < 0 && errno != ENOENT)
			die("cannot remove '%s':", f);
		buf_addstr(&gone, gone.len ? ", " : "");
		buf_addstr(&gone, strncmp(f, p->dir, len) || f[len] != '/' ? f : f + len + 1);
	}
	if (gone.len)
		warn("removed the files of an earlier run from %s: %s", p->dir, buf_str(&gone));
	buf_release(&gone);
}

/* path made anew, empty, never through a link: whatever is at its name is
 * removed (a link itself), then it is created exclusively. Its fd. */
static int
new_file(const char *path)
{
	int fd = outfile_fresh(AT_FDCWD, path);

	if (fd < 0)
		die("cannot create '%s':", path);
	return fd;
}

/* The synthesis options rewrite --input-file through aiperf-trace
 * synthesize (sessions grouped as the loader groups them) into the file
 * aiperf-gen reads (synthesis()). */
static void
synthesize(struct planner *p)
{
	const char *to = p->gen.v[p->gen.n - 1], *input = get(p, "--input-file");
	char exe[PATH_MAX];
	char **v = xcalloc(p->syn.n + 5, sizeof(*v));
	int fd[3] = { -1, -1, -1 }, e;
	pid_t pid;

	v[0] = (char *)"aiperf-trace";
	v[1] = (char *)"synthesize";
	v[2] = (char *)"--group-sessions";
	memcpy(v + 3, p->syn.v, p->syn.n * sizeof(*v));
	v[p->syn.n + 3] = (char *)input;
	fd[1] = new_file(to);
	pid = spawn_tool(tool_path("aiperf-trace", exe, sizeof(exe)), v, fd, &e);
	close(fd[1]);
	if (pid < 0)
		die("cannot run 'aiperf-trace': %s", util_strerror(e));
	if (tool_wait(pid))
		die("cannot synthesize '%s'", input);
	free(v);
}

void
artifacts_prepare(struct planner *p)
{
	struct plan_argv paths = { 0 };
	char *logf, *slash;

	listed_files(p, &paths);
	clean(p, &paths);
	plan_argv_release(&paths);
	/* aiperf-metrics opens the raw file while aiperf-export may not yet
	 * have made the prefix's directories */
	if (strcmp(p->raw, "/dev/null") && (slash = strrchr(p->raw, '/')) && slash != p->raw) {
		char *d = xstrndup(p->raw, (size_t)(slash - p->raw));

		if (run_tool((char *[]){ (char *)"mkdir", (char *)"-p", d, NULL }, "/dev/null",
			     NULL, NULL))
			die("cannot create '%s'", d);
		free(d);
	}
	logf = xstrfmt("%s/logs/aiperf.log", p->dir);
	close(new_file(logf));
	free(logf);
	if (p->syn.n && *val(p, "--input-file", ""))
		synthesize(p);
}
