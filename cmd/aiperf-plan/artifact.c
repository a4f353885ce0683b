/* SPDX-License-Identifier: Apache-2.0 */
/* The artifact directory's name, as the original names it, and the folder made. */
#include "planner.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "endpoint.h"

/* Python's str(float(x)) for plain decimals (10 -> 10.0), as awk reads x. */
char *
py_float(const char *x)
{
	char s[64];
	double v = strtod(x, NULL);

	if (v == 0)
		v = 0;
	snprintf(s, sizeof(s), "%.15g", v);
	if (!strpbrk(s, ".e"))
		return xstrfmt("%s.0", s);
	return xstrdup(s);
}

/* The models' count: lines with something on them. */
static size_t
count_models(const char *models)
{
	size_t n = 0;
	const char *s = models;

	while (*s) {
		size_t len = strcspn(s, "\n");

		n += len > 0;
		s += len + (s[len] == '\n');
	}
	return n;
}

static char *
stimulus_of(const struct planner *p, const char *mode)
{
	const char *c = val(p, "--concurrency", NULL), *rate = val(p, "--request-rate", NULL);
	char *f, *s;

	if (mode && !strcmp(mode, "fixed_schedule"))
		return xstrdup("fixed_schedule");
	if (mode && !strcmp(mode, "user_centric_rate")) {
		f = py_float(val(p, "--user-centric-rate", ""));
		s = xstrfmt("user_centric-users%s-qps%s", val(p, "--num-users", ""), f);
		free(f);
		return s;
	}
	if (!rate)
		return xstrfmt("concurrency%s", c ? c : "1");
	f = py_float(rate);
	s = c ? xstrfmt("concurrency%s-request_rate%s", c, f) : xstrfmt("request_rate%s", f);
	free(f);
	return s;
}

char *
artifact_subdir(const struct planner *p, const char *mode)
{
	const char *models = get(p, "--model");
	char *name = first_line(models), *stim = stimulus_of(p, mode), *r;

	for (char *c = name; *c; c++)
		if (*c == '/')
			*c = '_';
	r = xstrfmt("%s%s-openai-%s-%s", name, count_models(models) > 1 ? "_multi" : "",
		    val(p, "--endpoint-type", endpoint_get(ENDPOINT_CHAT)->name), stim);
	free(name);
	free(stim);
	return r;
}

/* path with its "." and ".." taken away as cd does it (logically). */
static char *
logical(const char *path)
{
	char *s = xstrdup(path), *out = xmalloc(strlen(path) + 2), *tok, *save;
	size_t n = 0;

	for (tok = strtok_r(s, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
		if (!strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..")) {
			while (n > 0 && out[--n] != '/')
				;
			continue;
		}
		out[n++] = '/';
		memcpy(out + n, tok, strlen(tok));
		n += strlen(tok);
	}
	if (n == 0)
		out[n++] = '/';
	out[n] = '\0';
	free(s);
	return out;
}

/* dir as `cd DIR && pwd` names it. */
char *
absolute(const char *dir)
{
	char cwd[PATH_MAX], *full, *r;
	const char *pwd = getenv("PWD");
	struct stat a, b;

	if (dir[0] == '/')
		return logical(dir);
	if (!(pwd && pwd[0] == '/' && stat(pwd, &a) == 0 && stat(".", &b) == 0 &&
	      a.st_dev == b.st_dev && a.st_ino == b.st_ino)) {
		if (!getcwd(cwd, sizeof(cwd)))
			die("cannot find the current directory:");
		pwd = cwd;
	}
	full = xstrfmt("%s/%s", pwd, dir);
	r = logical(full);
	free(full);
	return r;
}

/* The artifact directory and its logs/ made, its name absolute. */
void
artifact_dir(struct planner *p)
{
	char *logs = xstrfmt("%s/logs", p->dir), *abs;
	struct stat st;

	/* mkdir(1) itself, for its message */
	if (run_tool((char *[]){ (char *)"mkdir", (char *)"-p", logs, NULL }, "/dev/null", NULL,
		     NULL))
		die("cannot create '%s'", p->dir);
	if (lstat(logs, &st) == 0 && S_ISLNK(st.st_mode))
		die("'%s/logs' is a symbolic link: not followed", p->dir);
	free(logs);
	abs = absolute(p->dir);
	free(p->dir);
	p->dir = abs;
}
