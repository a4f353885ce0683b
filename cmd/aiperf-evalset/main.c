/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-evalset: an accuracy benchmark's problems as problem records, the prompts built as the original builds them. */
#include "bench.h"

#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "accuracy/grade.h"
#include "buf.h"
#include "json/json.h"
#include "opt.h"
#include "rand/pystr.h"
#include "util.h"

#define SCHEMA "aiperf.problem/1"
#define MAX_TASKS 4096
#define DEFAULT_GENERATION_SIZE 100

static const char synopsis[] =
	"usage: aiperf-evalset --benchmark name [--tasks list ...] [--n-shots n]\n"
	"                      [--enable-cot | --no-enable-cot] [--system-prompt text]\n"
	"                      [--dataset-dir dir] [--cache-dir dir] [--hub-url url] [--offline]\n"
	"       aiperf-evalset --list\n";

struct options {
	const char *benchmark;
	const char *tasks[MAX_TASKS];
	size_t ntasks;
	int tasks_set;
	long long n_shots;	/* -1: the benchmark's default */
	int cot;		/* -1: the benchmark's default */
	const char *system_prompt;	/* NULL: the benchmark's default */
	const char *dir, *cache, *hub;
	int offline, list;
};

enum {
	K_BENCH = 256, K_TASKS, K_SHOTS, K_COT, K_NOCOT, K_SYS, K_DIR, K_CACHE,
	K_HUB, K_OFFLINE, K_LIST, K_HELP, K_VERSION,
};

/* --tasks a,b may repeat: each piece split at ',' and stripped (the
 * original's parse_str_or_list). */
static void
add_tasks(struct options *o, const char *arg)
{
	const char *p = arg;

	o->tasks_set = 1;
	for (;;) {
		const char *e = strchr(p, ','), *s;
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (o->ntasks == MAX_TASKS)
			die_usage("--tasks: more than %d names", MAX_TASKS);
		s = pystr_strip(p, &n);
		o->tasks[o->ntasks++] = xstrndup(s, n);
		if (!e)
			break;
		p = e + 1;
	}
}

/* The registry's names, for the option table's choices (--list-choices). */
static const char *const *
bench_names(void)
{
	static const char *v[32];
	size_t n = 0;

	while (benches[n] && n + 1 < sizeof(v) / sizeof(*v)) {
		v[n] = benches[n]->name;
		n++;
	}
	return v;
}

static void
parse_args(struct options *o, int argc, char **argv)
{
	struct opt tab[] = {
		{ "benchmark", K_BENCH, OPT_STR, "name", OPT_TO(o->benchmark), .flags = OPT_REQ | OPT_LOOSE,
		  .choices = bench_names() },
		{ "tasks", K_TASKS, OPT_STR, "list", .flags = 0 },
		{ "n-shots", K_SHOTS, OPT_INT, "n", OPT_TO(o->n_shots), .min = 0, .max = 32 },
		{ "enable-cot", K_COT, OPT_FLAG, .flags = 0 },
		{ "no-enable-cot", K_NOCOT, OPT_FLAG, .flags = OPT_OR },
		{ "system-prompt", K_SYS, OPT_STR, "text", OPT_TO(o->system_prompt) },
		{ "dataset-dir", K_DIR, OPT_STR, "dir", OPT_TO(o->dir) },
		{ "cache-dir", K_CACHE, OPT_STR, "dir", OPT_TO(o->cache) },
		{ "hub-url", K_HUB, OPT_STR, "url", OPT_TO(o->hub) },
		{ "offline", K_OFFLINE, OPT_FLAG, NULL, OPT_TO(o->offline) },
		{ "list", K_LIST, OPT_FLAG, NULL, OPT_TO(o->list) },
		{ "help", K_HELP, OPT_HELP, .flags = OPT_HIDE },
		{ "version", K_VERSION, OPT_VERSION, .flags = OPT_HIDE },
		{ 0 },
	};
	const struct opt_cmd cmd = { "aiperf-evalset", tab, NULL, 0, synopsis, NULL };
	struct opt_iter it;
	int c;

	*o = (struct options){ .n_shots = -1, .cot = -1 };
	opt_init(&it, &cmd, argc, argv);
	while ((c = opt_next(&it)) != -1) {
		if (c == K_TASKS)
			add_tasks(o, it.arg);
		else if (c == K_COT || c == K_NOCOT)
			o->cot = c == K_COT;
	}
	if (it.ind != argc)
		die_usage("unexpected argument '%s'", argv[it.ind]);
	if (!o->benchmark && !o->list)
		die_usage("--benchmark is required");
}

static _Noreturn void
unknown_benchmark(const char *name)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	for (size_t i = 0; benches[i]; i++)
		buf_addf(&b, "%s%s", i ? ", " : "", benches[i]->name);
	die_usage("unknown benchmark '%s'; expected one of %s", name, b.s);
}

static void
list_benches(void)
{
	for (size_t i = 0; benches[i]; i++)
		printf("%s\t%s\t%d\t%s\n", benches[i]->name, grade_default(benches[i]->name),
		       benches[i]->n_shots, benches[i]->cot ? "true" : "false");
}

/* Python's repr() of a str: '...' unless it holds a ' and no ". */
static void
py_repr(struct buf *b, const char *s)
{
	char q = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';

	buf_addch(b, q);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == (unsigned char)q || c == '\\')
			buf_addf(b, "\\%c", c);
		else if (c == '\n' || c == '\r' || c == '\t')
			buf_addf(b, "\\%c", c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
		else if (c < 0x20 || c == 0x7f)
			buf_addf(b, "\\x%02x", c);
		else
			buf_addch(b, c);
	}
	buf_addch(b, q);
}

/* The original's message for a benchmark that loaded nothing (its tasks
 * and n_shots as given: Python's list and None). */
static _Noreturn void
no_problems(const struct options *o, const struct bench *b)
{
	struct buf t = BUF_INIT(BUF_NOMAX);

	if (!o->tasks_set)
		buf_addstr(&t, "None");
	else
		for (size_t i = 0; i < o->ntasks; i++) {
			buf_addstr(&t, i ? ", " : "[");
			py_repr(&t, o->tasks[i]);
		}
	if (o->tasks_set)
		buf_addch(&t, ']');
	die("benchmark '%s' returned 0 problems (tasks=%s, n_shots=%s); check that "
	    "--accuracy-tasks names a valid subtask (see "
	    "docs/accuracy/accuracy-benchmarking.md) or omit the flag to evaluate "
	    "all tasks", b->name, t.s,
	    o->n_shots < 0 ? "None" : xstrfmt("%lld", o->n_shots));
}

static void
message(struct jw *w, const char *role, const char *content)
{
	jw_obj(w);
	jw_key(w, "role");
	jw_str(w, role);
	jw_key(w, "content");
	jw_str(w, content);
	jw_obj_end(w);
}

/* The chat form: the system prompt first, then the benchmark's messages
 * (or the one user message holding the prompt). */
static void
write_messages(struct jw *w, struct json_doc *doc, const struct problem *p,
	       const char *sys)
{
	jw_key(w, "messages");
	jw_arr(w);
	if (sys)
		message(w, "system", sys);
	if (p->messages) {
		char perr[128];
		struct json *v;

		json_doc_reset(doc);
		v = json_parse(doc, p->messages, strlen(p->messages), perr, sizeof(perr));
		if (v && v->type == JSON_ARRAY)
			for (struct json *m = v->child; m; m = m->next)
				jw_value(w, m);
		else
			die("problem %s: its messages are not a JSON array: %s", p->task, perr);
	} else {
		message(w, "user", p->prompt);
	}
	jw_arr_end(w);
}

/* One problem record (aiperf-records(5)); sys: the system prompt in
 * effect, or NULL. */
static void
write_problem(struct buf *b, struct json_doc *doc, size_t i,
	      const struct problem *p, const char *sys)
{
	struct jw w;

	buf_reset(b);
	jw_init(&w, b, 0);
	jw_obj(&w);
	jw_key(&w, "schema");
	jw_str(&w, SCHEMA);
	jw_key(&w, "index");
	jw_int(&w, (int64_t)i);
	jw_key(&w, "task");
	jw_str(&w, p->task);
	jw_key(&w, "gold");
	jw_str(&w, p->gold);
	jw_key(&w, "prompt");
	if (sys) {
		char *t = xstrfmt("%s\n\n%s", sys, p->prompt);

		jw_str(&w, t);
		free(t);
	} else {
		jw_str(&w, p->prompt);
	}
	write_messages(&w, doc, p, sys);
	jw_key(&w, "max_tokens");
	jw_int(&w, p->max_tokens < 0 ? DEFAULT_GENERATION_SIZE : p->max_tokens);
	jw_obj_end(&w);
	buf_addch(b, '\n');
	if (fwrite(b->s, 1, b->len, stdout) != b->len)
		die_write();
}

static void
progress(void *ud, const char *what, size_t got, size_t total)
{
	(void)ud;
	if (total)
		fprintf(stderr, "\r%s: %s: %zu/%zu", argv0, what, got, total);
	else
		fprintf(stderr, "\r%s: %s: %zu", argv0, what, got);
}

/* The benchmark's options: its defaults where none is given, its most
 * shots enforced (the original's AIME refuses more than 8). */
static struct bench_opts
resolve(const struct options *o, const struct bench *b, const struct rows_src *src)
{
	struct bench_opts bo = {
		.tasks = o->tasks_set ? o->tasks : NULL,
		.ntasks = o->ntasks,
		.n_shots = o->n_shots < 0 ? b->n_shots : (int)o->n_shots,
		.cot = o->cot < 0 ? b->cot : o->cot,
		.src = src,
	};

	if (b->max_shots >= 0 && bo.n_shots > b->max_shots)
		die_usage("benchmark '%s' supports at most %d few-shot examples (got %d)",
			  b->name, b->max_shots, bo.n_shots);
	return bo;
}

int
main(int argc, char **argv)
{
	struct options o;
	const struct bench *b;
	struct problem_set ps = { 0 };
	struct rows_src src;
	struct rows_env env;
	struct bench_opts bo;
	struct buf line = BUF_INIT(BUF_NOMAX);
	struct json_doc *doc;
	const char *sys;
	char err[8192];

	util_setprogname(argv[0]);
	signal(SIGPIPE, SIG_IGN);
	parse_args(&o, argc, argv);
	if (o.list) {
		list_benches();
		return util_fshut(stdout, "stdout") ? 1 : 0;
	}
	if (!(b = bench_find(o.benchmark)))
		unknown_benchmark(o.benchmark);
	/* the environment's (HF_TOKEN, HF_HUB_OFFLINE, the cache), the
	 * options over it */
	rows_src_env(&src, &env);
	src.dir = o.dir;
	if (o.cache)
		src.cache = o.cache;
	if (o.hub)
		src.endpoint = o.hub;
	if (o.offline)
		src.offline = 1;
	if (isatty(2))
		src.progress = progress;
	bo = resolve(&o, b, &src);
	if (b->load(&bo, &ps, err, sizeof(err)) < 0)
		die("%s", err);
	if (!ps.n)
		no_problems(&o, b);
	/* --system-prompt "" overrides the default with none */
	sys = o.system_prompt ? o.system_prompt : b->system_prompt;
	if (sys && !*sys)
		sys = NULL;
	doc = json_doc_new();
	for (size_t i = 0; i < ps.n; i++)
		write_problem(&line, doc, i, &ps.v[i], sys);
	if (isatty(2))
		fprintf(stderr, "\r%s: %s: %zu problems\n", argv0, b->name, ps.n);
	json_doc_free(doc);
	buf_release(&line);
	pset_release(&ps);
	for (size_t i = 0; i < o.ntasks; i++)
		free((char *)o.tasks[i]);
	return util_fshut(stdout, "stdout") ? 1 : 0;
}
