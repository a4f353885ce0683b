/* SPDX-License-Identifier: Apache-2.0 */
/* An accuracy run (--accuracy-benchmark): its options checked, its problems written by aiperf-evalset, the stages told. */
#include "planner.h"

#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "accuracy/grade.h"
#include "outfile.h"

/* The options that mean nothing without --accuracy-benchmark, by the
 * original's field names (its message lists them sorted by those). */
static const struct {
	const char *field, *opt, *neg;
} dependent[] = {
	{ "dataset_dir", "--accuracy-dataset-dir", NULL },
	{ "enable_cot", "--accuracy-enable-cot", "--no-accuracy-enable-cot" },
	{ "grader", "--accuracy-grader", NULL },
	{ "n_shots", "--accuracy-n-shots", NULL },
	{ "system_prompt", "--accuracy-system-prompt", NULL },
	{ "tasks", "--accuracy-tasks", NULL },
	{ "verbose", "--accuracy-verbose", NULL },
};

#define NDEP (sizeof(dependent) / sizeof(*dependent))

/* o's documented choices, ", "-joined, sorted as the original lists
 * what is available. */
static char *
choices(const struct proftab_opt *o)
{
	struct buf b;
	char **v = xcalloc(o->nvalues ? o->nvalues : 1, sizeof(*v));

	memcpy(v, o->values, o->nvalues * sizeof(*v));
	for (size_t i = 1; i < o->nvalues; i++)
		for (size_t j = i; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
			char *t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	buf_init(&b, BUF_NOMAX);
	for (size_t i = 0; i < o->nvalues; i++)
		buf_addf(&b, "%s%s", i ? ", " : "", v[i]);
	free(v);
	return buf_detach(&b, NULL);
}

/* The value of o given, checked against its choices (any case, '-' or
 * '_' as choice() reads it): the table's own string. */
static const char *
checked_choice(const struct planner *p, const char *canon)
{
	const struct proftab_opt *o = opt_get(p, canon);
	char *v = first_line(get(p, canon)), *known, msg[512];
	const char *c = choice(o, v);

	for (size_t i = 0; i < o->nvalues; i++)
		if (!strcmp(c, o->values[i])) {
			free(v);
			return o->values[i];
		}
	known = choices(o);
	snprintf(msg, sizeof(msg), "profile: invalid value for %s: '%.200s' (%s)", canon, v, known);
	free(known);
	free(v);
	usage_error("%s", msg);
}

/* Without --accuracy-benchmark, any other --accuracy-* option is the
 * original's error (AccuracyConfig's validator, its words). */
static void
check_dependent(const struct planner *p)
{
	struct buf b;
	size_t n = 0;

	buf_init(&b, BUF_NOMAX);
	for (size_t i = 0; i < NDEP; i++) {
		if (!is_set(p, dependent[i].opt) &&
		    !(dependent[i].neg && is_set(p, dependent[i].neg)))
			continue;
		buf_addf(&b, "%s%s", n++ ? ", " : "", dependent[i].opt);
	}
	if (n) {
		char *known = choices(opt_get(p, "--accuracy-benchmark")), msg[1024];

		snprintf(msg, sizeof(msg), "profile: Accuracy options %s were set but "
			 "--accuracy-benchmark is not. Accuracy mode requires "
			 "--accuracy-benchmark to select a benchmark; otherwise these flags "
			 "are silently ignored. Available benchmarks: %s.", buf_str(&b), known);
		free(known);
		buf_release(&b);
		usage_error("%s", msg);
	}
	buf_release(&b);
}

int
accuracy_on(const struct planner *p)
{
	return is_set(p, "--accuracy-benchmark");
}

void
accuracy_check(struct planner *p)
{
	const char *bench, *grader, *sampling;
	long long n;
	const char *why;

	if (!accuracy_on(p)) {
		check_dependent(p);
		return;
	}
	bench = checked_choice(p, "--accuracy-benchmark");
	if (is_set(p, "--accuracy-n-shots") &&
	    util_strtonum(get(p, "--accuracy-n-shots"), 0, 32, &n, &why) < 0)
		usage_error("profile: invalid value for --accuracy-n-shots: '%s' (an integer from 0 to 32)",
			    get(p, "--accuracy-n-shots"));
	if (is_set(p, "--accuracy-enable-cot") && is_set(p, "--no-accuracy-enable-cot"))
		usage_error("profile: --accuracy-enable-cot and --no-accuracy-enable-cot cannot be used together");
	grader = is_set(p, "--accuracy-grader") ? checked_choice(p, "--accuracy-grader") :
						  grade_default(bench);
	if (!grade_lookup(grader))
		usage_error("profile: the %s grader is not built here", grader);
	/* the original's DatasetManager: problem i is request i, in order */
	if (is_set(p, "--fixed-schedule"))
		usage_error("profile: Accuracy mode requires sequential request order; "
			    "fixed-schedule timing is not supported in accuracy mode.");
	sampling = val(p, "--dataset-sampling-strategy", "sequential");
	if (strcmp(choice(opt_get(p, "--dataset-sampling-strategy"), sampling), "sequential"))
		usage_error("profile: Accuracy mode requires sequential request order; "
			    "'%s' sampling is not supported. "
			    "Set the dataset's sampling strategy to 'sequential'.", sampling);
	/* the original ignores them then: refused here, as nothing is
	 * ignored silently */
	if (is_set(p, "--input-file") || is_set(p, "--public-dataset"))
		usage_error("profile: %s cannot be used with --accuracy-benchmark: "
			    "the benchmark's problems are the requests",
			    is_set(p, "--input-file") ? "--input-file" : "--public-dataset");
}

/*
 * aiperf-evalset writes the benchmark's problems into the scratch folder
 * (gone with it); aiperf-gen sends them and aiperf-metrics grades the
 * replies against them. Its messages (a download's progress, an unknown
 * task) go to our standard error as they come.
 */
void
accuracy_prepare(struct planner *p)
{
	char exe[PATH_MAX];
	char *path, **v;
	int fd[3] = { -1, -1, -1 }, e, st;
	pid_t pid;

	if (!accuracy_on(p))
		return;
	path = xstrfmt("%s/accuracy_problems.jsonl", p->run);
	v = xcalloc(p->acc.n + 2, sizeof(*v));
	v[0] = (char *)"aiperf-evalset";
	memcpy(v + 1, p->acc.v, p->acc.n * sizeof(*v));
	if ((fd[1] = outfile_fresh(AT_FDCWD, path)) < 0)
		die("cannot create '%s':", path);
	fd[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	pid = spawn_tool(tool_path("aiperf-evalset", exe, sizeof(exe)), v, fd, &e);
	close(fd[0]);
	close(fd[1]);
	if (pid < 0)
		die("cannot run 'aiperf-evalset': %s", util_strerror(e));
	if ((st = tool_wait(pid)))
		exit(st == 2 ? 2 : 1);
	/* aiperf-metrics takes its grading options with the problems only */
	add_stage_arg(p, "gm", "--accuracy-problems", path);
	add_stage_arg(p, "m", "--accuracy-grader",
		      is_set(p, "--accuracy-grader") ? checked_choice(p, "--accuracy-grader") :
						       grade_default(checked_choice(p, "--accuracy-benchmark")));
	if (is_set(p, "--accuracy-verbose"))
		add_stage_arg(p, "m", "--accuracy-verbose", NULL);
	free(v);
	free(path);
}
