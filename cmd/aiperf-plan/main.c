/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-plan: aiperf profile's planner: the options parsed and checked, every stage's command line. */
#include "planner.h"

#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>


static const char synopsis[] =
	"usage: aiperf-plan [--run-dir dir] [--plan file] [--] profile-option ...\n"
	"       aiperf-plan --multi-run [--] profile-option ...\n"
	"       aiperf-plan --profile-help | --profile-man\n";

struct options {
	const char *plan_file;
	const char *run_dir;
	int multi_run;
	int profile_help;	/* 1: text, 2: mdoc */
};

static _Noreturn void
usage(FILE *f, int status)
{
	fputs(synopsis, f);
	if (f == stderr)
		fprintf(stderr, "Try 'aiperf-plan --help' for more information.\n");
	exit(status);
}

static int
parse_args(int argc, char **argv, struct options *o)
{
	int i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		} else if (!strcmp(a, "--help")) {
			usage(stdout, 0);
		} else if (!strcmp(a, "--profile-help")) {
			o->profile_help = 1;
		} else if (!strcmp(a, "--profile-man")) {
			o->profile_help = 2;
		} else if (!strcmp(a, "--multi-run")) {
			o->multi_run = 1;
		} else if ((!strcmp(a, "--plan") || !strcmp(a, "--run-dir")) && i + 1 < argc) {
			*(a[2] == 'p' ? &o->plan_file : &o->run_dir) = argv[++i];
		} else {
			break;
		}
	}
	if (o->plan_file && !o->run_dir)
		usage(stderr, 2);
	return i;
}

enum help { HELP_SHELL, HELP_TEXT, HELP_MDOC };

/* aiperf profile --help: as shell code (git rev-parse --parseopt's way),
 * as text, or as mdoc. */
static _Noreturn void
emit_help(const struct planner *p, enum help how)
{
	struct buf b;

	buf_init(&b, BUF_NOMAX);
	if (how == HELP_SHELL)
		buf_addstr(&b, "cat <<'AIPERF_PLAN_HELP'\n");
	if (how == HELP_MDOC)
		help_mdoc(&p->tab, &b);
	else
		help_text(&p->tab, &b);
	if (how == HELP_SHELL)
		buf_addstr(&b, "AIPERF_PLAN_HELP\nexit 0\n");
	emit_flush(&b);
	exit(0);
}

/* aiperf-gen --print-timing-mode: the dataset and timing options checked. */
static void
timing_mode(struct planner *p)
{
	char **v = xcalloc(p->gen.n + 3, sizeof(*v));
	struct buf out;
	int st;

	v[0] = (char *)"aiperf-gen";
	if (p->gen.n)
		memcpy(v + 1, p->gen.v, p->gen.n * sizeof(*v));
	v[p->gen.n + 1] = (char *)"--print-timing-mode";
	buf_init(&out, 1 << 20);
	if ((st = run_tool(v, NULL, &out, NULL)))
		exit(st);
	while (out.len && out.s[out.len - 1] == '\n')
		out.len--;
	buf_addch(&out, '\0');
	p->mode = buf_detach(&out, NULL);
	free(v);
}

static void
checks(struct planner *p)
{
	const char *input = val(p, "--input-file", "");

	check_export_level(p);
	check_load_options(p);
	check_wrapper_options(p);
	cpu_list(p);
	workers_resolve(p);
	hosts_resolve(p);
	ports_check(p);
	accuracy_check(p);
	if (*input)
		add_stage_arg(p, "g", "--input-file", input);
	timing_mode(p);
	check_stage("aiperf-send", &p->send, NULL);
	check_stage("aiperf-metrics", &p->met, NULL);
	server_metrics_urls(p);
	server_metrics_formats(p);
	check_stage("aiperf-export", &p->exp, "--check");
	gpu_telemetry_setup(p);
}

/* b into a new file at path (the run folder's: none of it a link). */
static void
write_file(const char *path, const struct buf *b, int mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	ssize_t k;

	if (fd < 0)
		die("cannot create '%s':", path);
	k = write(fd, b->s, b->len);
	if (k < 0 || (size_t)k != b->len || close(fd) < 0)
		die("cannot write '%s':", path);
}

static void
input_config(const struct planner *p)
{
	struct buf b;
	char *path = xstrfmt("%s/input_config.json", p->run);

	buf_init(&b, BUF_NOMAX);
	write_input_config(p, &b);
	write_file(path, &b, 0666);
	buf_release(&b);
	free(path);
}

static void
run_info_file(const struct planner *p)
{
	struct buf b;
	char *path = xstrfmt("%s/run_info.json", p->run);

	buf_init(&b, BUF_NOMAX);
	run_info(p, &b);
	write_file(path, &b, 0666);
	buf_release(&b);
	free(path);
}

/* The synthesis options: --input-file rewritten through aiperf-trace synthesize. */
static void
synthesis(struct planner *p)
{
	if (!p->syn.n || !*val(p, "--input-file", ""))
		return;
	if (*val(p, "--isl-block-size", ""))
		add_stage_arg(p, "y", "--block-size", get(p, "--isl-block-size"));
	if (*val(p, "--random-seed", ""))
		add_stage_arg(p, "y", "--random-seed", get(p, "--random-seed"));
	free(p->gen.v[p->gen.n - 1]);
	/* in the scratch folder: gone with it (artifacts_prepare makes it) */
	p->gen.v[p->gen.n - 1] = xstrfmt("%s/synthesized_input.jsonl", p->run);
}

static void
emit_common(const struct planner *p, struct buf *b)
{
	char num[32];

	emit_set(p, b);
	emit_argv(b, "GEN", &p->gen, 0);
	emit_argv(b, "SEND", &p->send, 0);
	emit_argv(b, "MET", &p->met, 0);
	emit_argv(b, "EXP", &p->exp, 0);
	emit_str(b, "CLI", buf_str(&p->cli));
	emit_str(b, "LOGLEVEL", p->loglevel);
	emit_long(b, "WORKERS", p->workers);
	emit_str(b, "START_AT", p->start_at);
	snprintf(num, sizeof(num), "%lld", p->start_ns);
	emit_str(b, "START_NS", p->start_ns ? num : "");
	snprintf(num, sizeof(num), "%ld", p->n_shards);
	emit_str(b, "N_SHARDS", p->n_shards ? num : "");
	emit_str(b, "mode", p->mode);
	emit_str(b, "dir", p->dir);
	if (p->raw)
		emit_str(b, "RAW", p->raw);
	emit_argv(b, "SRV_URLS", &p->srv_urls, 0);
	emit_argv(b, "GPU_URLS", &p->gpu_urls, 0);
	emit_long(b, "GPU_NVML", p->gpu_nvml);
}

static void
write_plan(const struct plan *plan, const char *path)
{
	struct buf b;

	buf_init(&b, BUF_NOMAX);
	plan_write(plan, &b);
	write_file(path, &b, 0600);
	buf_release(&b);
}

static void
profile_plan(struct planner *p, int argc, char **argv, const struct options *o)
{
	struct plan plan;
	struct buf b;
	const char *dir;

	if (parse_profile(p, argc, argv))
		emit_help(p, HELP_SHELL);
	checks(p);
	dir = val(p, "--artifact-dir", "");
	if (*dir) {
		p->dir = xstrdup(dir);
	} else {
		char *sub = artifact_subdir(p, p->mode);

		p->dir = xstrfmt("artifacts/%s", sub);
		free(sub);
	}
	buf_init(&b, BUF_NOMAX);
	plan_init(&plan);
	if (p->run) {
		artifact_dir(p);
		synthesis(p);
		artifacts_prepare(p);
		accuracy_prepare(p);
		input_config(p);
		run_info_file(p);
	}
	emit_common(p, &b);
	if (p->run && !is_set(p, "--from-records")) {
		pipeline_plan(p, &plan);
		if (o->plan_file)
			write_plan(&plan, o->plan_file);
	}
	emit_flush(&b);
	buf_release(&b);
	plan_release(&plan);
}

int
main(int argc, char **argv)
{
	struct options o = { 0 };
	struct planner p = { 0 };
	struct buf out;
	int i;

	signals_hold();
	util_setprogname("aiperf-plan");
	argv0_path = argv[0];
	i = parse_args(argc, argv, &o);
	util_setprogname("aiperf profile");
	table_load(&p);
	if (o.profile_help)
		emit_help(&p, o.profile_help == 2 ? HELP_MDOC : HELP_TEXT);
	buf_init(&p.cli, BUF_NOMAX);
	buf_addstr(&p.cli, "aiperf profile");
	p.loglevel = "INFO";
	p.workers = 1;
	p.run = o.run_dir;
	buf_init(&out, BUF_NOMAX);
	argc -= i;
	argv = cfgfile_expand(&p, &argc, argv + i);
	i = 0;
	if (o.multi_run) {
		if (!multi_run_plan(&p, argc - i, argv + i, &out))
			emit_long(&out, "MR_N", 0);
		emit_flush(&out);
	} else {
		profile_plan(&p, argc - i, argv + i, &o);
	}
	buf_release(&out);
	cfgfile_release(&p);
	planner_release(&p);
	return 0;
}
