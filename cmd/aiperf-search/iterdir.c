/* SPDX-License-Identifier: Apache-2.0 */
/* An iteration directory read back: one run, or profile_runs/run_NNNN/ trials, each with its exit_status. */
#include "search.h"

#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>

#include "util.h"

#define MAX_JSON (256u << 20)
#define MAX_TRIALS 1000

static int
is_file(const char *dir, const char *name)
{
	char *p = xstrfmt("%s/%s", dir, name);
	struct stat st;
	int ok = stat(p, &st) == 0 && S_ISREG(st.st_mode);

	free(p);
	return ok;
}

/* The run's exit_status line: its value, 0 when the file is absent, -1 when unreadable. */
static long long
exit_status(const char *dir)
{
	char *p = xstrfmt("%s/exit_status", dir), *s;
	long long v;
	size_t n;
	const char *why;

	s = util_readfile(p, 64, &n);
	free(p);
	if (!s)
		return errno == ENOENT ? 0 : -1;
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\r'))
		s[--n] = '\0';
	if (util_strtonum(s, 0, 255, &v, &why) < 0)
		v = -1;
	free(s);
	return v;
}

static void
fail(struct trial *t, char *why)
{
	t->success = 0;
	t->error = why;
}

static int
read_summary(struct trial *t)
{
	char *p = xstrfmt("%s/profile_export_aiperf.json", t->dir), *s;
	char err[128];
	size_t n;

	s = util_readfile(p, MAX_JSON, &n);
	if (!s) {
		fail(t, xstrdup("No metrics found in artifacts - run may have failed to complete"));
		free(p);
		return 0;
	}
	t->doc = json_doc_new();
	t->root = json_parse(t->doc, s, n, err, sizeof(err));
	free(s);
	if (!t->root || t->root->type != JSON_OBJECT) {
		error("'%s': %s", p, t->root ? "not a JSON object" : err);
		free(p);
		return -1;
	}
	free(p);
	return 1;
}

/* The original's LocalExecutor: a non-zero exit, no summary or no request fails. */
static int
trial_load(struct trial *t, const char *dir)
{
	long long rc = exit_status(dir);
	double n = 0, bad = 0;
	int r;

	t->dir = xstrdup(dir);
	if (rc != 0 && rc != 3) {
		fail(t, xstrfmt("Benchmark failed with exit code %lld", rc));
		return 0;
	}
	if ((r = read_summary(t)) <= 0)
		return r;
	t->success = 1;
	if (trial_value(t, "request_count", "avg", &n) < 0 || n == 0) {
		if (trial_value(t, "error_request_count", "avg", &bad) == 0 && bad > 0)
			fail(t, xstrfmt("All %d requests failed", (int)bad));
		else
			fail(t, xstrdup("No requests completed"));
	}
	return 0;
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* dir/profile_runs/run_* in name order, into names (malloc'd). */
static size_t
list_runs(const char *dir, char ***names)
{
	char *p = xstrfmt("%s/profile_runs", dir);
	DIR *d = opendir(p);
	struct dirent *e;
	size_t n = 0;

	*names = NULL;
	while (d && (e = readdir(d)) && n < MAX_TRIALS) {
		if (strncmp(e->d_name, "run_", 4) && strncmp(e->d_name, "trial_", 6))
			continue;
		*names = xreallocarray(*names, n + 1, sizeof(**names));
		(*names)[n++] = xstrfmt("%s/%s", p, e->d_name);
	}
	if (d)
		closedir(d);
	free(p);
	if (n)
		qsort(*names, n, sizeof(**names), cmpstr);
	return n;
}

int
iter_load(struct iter *it, const char *dir)
{
	struct stat st;
	char **names;
	size_t n;
	int rc = 0;

	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return error("cannot read iteration '%s':", dir);
	if (is_file(dir, "profile_export_aiperf.json") || is_file(dir, "exit_status") ||
	    !(n = list_runs(dir, &names))) {
		it->trials = xcalloc(1, sizeof(*it->trials));
		it->ntrials = 1;
		return trial_load(&it->trials[0], dir);
	}
	it->trials = xcalloc(n, sizeof(*it->trials));
	it->ntrials = n;
	for (size_t i = 0; i < n; i++) {
		if (rc == 0 && trial_load(&it->trials[i], names[i]) < 0)
			rc = -1;
		free(names[i]);
	}
	free(names);
	return rc;
}

long long
trial_concurrency(const struct trial *t)
{
	int64_t v;

	if (!t->root)
		return -1;
	if (json_int64(json_path(t->root, "input_config.loadgen.concurrency"), &v) < 0)
		return -1;
	return v;
}

void
iter_release(struct iter *it)
{
	for (size_t i = 0; i < it->ntrials; i++) {
		free(it->trials[i].dir);
		free(it->trials[i].error);
		if (it->trials[i].doc)
			json_doc_free(it->trials[i].doc);
	}
	free(it->trials);
	it->trials = NULL;
	it->ntrials = 0;
}
