/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-hub: a hub dataset split's rows as NDJSON, or a folder of them for an offline machine. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "hub/rowcache.h"
#include "hub/rows.h"
#include "util.h"

static const char synopsis[] =
	"usage: aiperf-hub rows [--dataset-dir dir] [--cache-dir dir] [--hub-url url] [--offline]\n"
	"                       [--retries n] [--repo-file] id config split\n"
	"       aiperf-hub fetch [--cache-dir dir] [--hub-url url] [--offline] [--retries n]\n"
	"                        [--repo-file] --to dir id config split ...\n";

struct options {
	int fetch;		/* the fetch command, else rows */
	const char *dataset_dir, *cache_dir, *hub_url, *to;
	int offline, repo_file;
	int retries;		/* -1: the default */
	const char *id, *config;
	char **splits;
	int nsplits;
};

enum { O_DIR = 256, O_CACHE, O_URL, O_OFFLINE, O_RETRIES, O_REPO, O_TO, O_HELP };

static const struct option longopts[] = {
	{ "dataset-dir", required_argument, NULL, O_DIR },
	{ "cache-dir", required_argument, NULL, O_CACHE },
	{ "hub-url", required_argument, NULL, O_URL },
	{ "offline", no_argument, NULL, O_OFFLINE },
	{ "retries", required_argument, NULL, O_RETRIES },
	{ "repo-file", no_argument, NULL, O_REPO },
	{ "to", required_argument, NULL, O_TO },
	{ "help", no_argument, NULL, O_HELP },
	{ 0 },
};

static _Noreturn void
usage(FILE *f, int status)
{
	fputs(synopsis, f);
	exit(status);
}

static void
take_option(struct options *o, int c)
{
	switch (c) {
	case O_DIR: o->dataset_dir = optarg; break;
	case O_CACHE: o->cache_dir = optarg; break;
	case O_URL: o->hub_url = optarg; break;
	case O_OFFLINE: o->offline = 1; break;
	case O_RETRIES: o->retries = (int)opt_int("--retries", optarg, 0, 20); break;
	case O_REPO: o->repo_file = 1; break;
	case O_TO: o->to = optarg; break;
	case O_HELP: usage(stdout, 0);
	default: usage(stderr, 2);
	}
}

static void
parse_args(struct options *o, int argc, char **argv)
{
	int c;

	*o = (struct options){ .retries = -1 };
	if (argc > 1 && !strcmp(argv[1], "--help"))
		usage(stdout, 0);
	if (argc < 2 || (strcmp(argv[1], "rows") && strcmp(argv[1], "fetch")))
		usage(stderr, 2);
	o->fetch = !strcmp(argv[1], "fetch");
	argc--, argv++;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1)
		take_option(o, c);
	if (argc - optind < 3 || (!o->fetch && argc - optind != 3))
		usage(stderr, 2);
	if (o->fetch && !o->to)
		die_usage("fetch needs --to dir, the folder to fill");
	if (o->fetch && o->dataset_dir)
		die_usage("--dataset-dir is for rows; fetch fills --to dir");
	if (!o->fetch && o->to)
		die_usage("--to is for fetch");
	o->id = argv[optind];
	o->config = argv[optind + 1];
	o->splits = argv + optind + 2;
	o->nsplits = argc - optind - 2;
}

/* Progress on a terminal: one line redrawn, at most 10 times a second. */
struct progress {
	int64_t last;
	int shown;
};

static void
on_progress(void *ud, const char *what, size_t got, size_t total)
{
	struct progress *p = ud;
	int64_t now = clock_mono_ns();

	if (now - p->last < 100000000 && got != total)
		return;
	p->last = now;
	p->shown = 1;
	if (total)
		fprintf(stderr, "\r%s: %s: %zu of %zu\033[K", argv0, what, got, total);
	else
		fprintf(stderr, "\r%s: %s: %zu\033[K", argv0, what, got);
	fflush(stderr);
}

static void
setup(struct rows_src *src, struct rows_env *env, const struct options *o,
      struct progress *p)
{
	rows_src_env(src, env);
	src->dir = o->dataset_dir;
	if (o->cache_dir)
		src->cache = o->cache_dir;
	if (o->hub_url)
		src->endpoint = o->hub_url;
	if (o->offline)
		src->offline = 1;
	if (o->retries >= 0)
		src->retries = o->retries ? o->retries : -1;
	if (isatty(2)) {
		src->progress = on_progress;
		src->progress_ud = p;
	}
}

/* One split's rows (a repository's NAME.jsonl with --repo-file, config
 * then the revision); exits with the message on failure. */
static void
get(const struct rows_src *src, const struct options *o, const char *split,
    struct rows *r)
{
	char err[2048];
	int rc = o->repo_file
		 ? rows_get_file(src, o->id, o->config, split, r, err, sizeof(err))
		 : rows_get(src, o->id, o->config, split, r, err, sizeof(err));
	const struct progress *p = src->progress_ud;

	if (p && p->shown)
		fputc('\n', stderr);
	if (rc < 0)
		die("%s", err);
	if (src->progress)
		fprintf(stderr, "%s: %s/%s/%s: %zu rows from the %s\n", argv0, o->id,
			o->config, split, r->n, r->from);
}

static void
print_rows(const struct rows *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (fwrite(r->v[i], 1, r->len[i], stdout) != r->len[i] ||
		    putchar('\n') == EOF)
			break;
}

/* The split's place in --to's layout: NAME.jsonl of --repo-file is NAME. */
static char *
layout_name(const struct options *o, const char *split)
{
	size_t n = strlen(split);

	if (o->repo_file && n > 6 && !strcmp(split + n - 6, ".jsonl"))
		return xstrndup(split, n - 6);
	return xstrdup(split);
}

static void
fetch_one(const struct rows_src *src, const struct options *o,
	  const char *split)
{
	struct rows r;
	char err[2048], *name = layout_name(o, split);

	get(src, o, split, &r);
	if (rowcache_store(o->to, o->id, o->config, name, &r, err, sizeof(err)) < 0)
		die("%s", err);
	rows_free(&r);
	free(name);
}

int
main(int argc, char **argv)
{
	struct options o;
	struct rows_src src;
	struct rows_env env;
	struct progress p = { 0 };
	struct rows r;

	util_setprogname(argv[0]);
	signal(SIGPIPE, SIG_IGN);
	parse_args(&o, argc, argv);
	setup(&src, &env, &o, &p);
	if (o.fetch) {
		for (int i = 0; i < o.nsplits; i++)
			fetch_one(&src, &o, o.splits[i]);
		return 0;
	}
	get(&src, &o, o.splits[0], &r);
	print_rows(&r);
	rows_free(&r);
	return util_fshut(stdout, "stdout") < 0;
}
