/* SPDX-License-Identifier: Apache-2.0 */
/* Option tables: getopt_long arguments, synopsis and bash completion from one array. */
#include "opt.h"

#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "buf.h"
#include "http/redact.h"
#include "runlog.h"
#include "stats/units.h"
#include "util.h"

static int
takes_arg(const struct opt *o)
{
	return o->kind != OPT_FLAG && o->kind != OPT_HELP &&
	       o->kind != OPT_VERSION;
}

static size_t
count(const struct opt_cmd *cmd)
{
	size_t n = 0;

	while (cmd->opts[n].name || cmd->opts[n].key)
		n++;
	return n;
}

const struct opt *
opt_find(const struct opt_cmd *cmd, int key)
{
	for (const struct opt *o = cmd->opts; o->name || o->key; o++)
		if (o->key == key && !(o->flags & OPT_ALIAS))
			return o;
	return NULL;
}

/* The entry an alias stands for; o itself otherwise. */
static const struct opt *
canon(const struct opt_cmd *cmd, const struct opt *o)
{
	const struct opt *c = o->flags & OPT_ALIAS ? opt_find(cmd, o->key) : o;

	if (!c)
		abort();	/* a table bug: an alias of nothing */
	return c;
}

/* getopt_long's arguments, in table order (its ambiguity messages list them so). */
static void
build(struct opt_iter *it)
{
	size_t n = count(it->cmd), k = 0, s = 0;

	it->lo = xcalloc(n + 1, sizeof(*it->lo));
	it->shorts = xcalloc(2 * n + 1, 1);
	for (const struct opt *o = it->cmd->opts; o->name || o->key; o++) {
		if (o->name)
			it->lo[k++] = (struct option){ o->name,
				takes_arg(canon(it->cmd, o)) ? required_argument :
							       no_argument,
				NULL, o->key };
		if (o->key > 0 && o->key < 256 && !strchr(it->shorts, o->key)) {
			it->shorts[s++] = (char)o->key;
			if (takes_arg(o))
				it->shorts[s++] = ':';
		}
	}
}

/* --list-choices NAME: the values of the option named NAME, one a line. */
static void
list_choices(const struct opt_cmd *cmd, const char *name, FILE *f)
{
	const char *n = strncmp(name, "--", 2) ? name : name + 2;
	const struct opt *o = cmd->opts;

	while ((o->name || o->key) && !(o->name && !strcmp(o->name, n)))
		o++;
	if (!o->name)
		die_usage("--list-choices: unknown option '--%s'", n);
	o = canon(cmd, o);
	if (!o->choices)
		die_usage("--list-choices: --%s has no list of values", n);
	for (const char *const *c = o->choices; c && *c; c++)
		fprintf(f, "%s\n", *c);
}

/* --list-private: the supervisor's options, one a line. */
static void
list_private(const struct opt_cmd *cmd, FILE *f)
{
	for (const struct opt *o = cmd->opts; o->name || o->key; o++)
		if (o->name && (canon(cmd, o)->flags & OPT_PRIVATE))
			fprintf(f, "--%s\n", o->name);
}

/* The run log's DEBUG line: the command line, its secrets redacted by the
 * one rule (http/redact.h). */
static void
log_argv(int argc, char **argv)
{
	struct buf out = BUF_INIT(BUF_NOMAX);

	if (!runlog_enabled(RUNLOG_DEBUG))
		return;
	redact_argv(&out, argc, (const char *const *)argv);
	runlog(RUNLOG_DEBUG, "command line: %s", buf_str(&out));
	buf_release(&out);
}

void
opt_init(struct opt_iter *it, const struct opt_cmd *cmd, int argc, char **argv)
{
	*it = (struct opt_iter){ .cmd = cmd, .argc = argc, .argv = argv };
	if (argc > 1 && !strcmp(argv[1], "--completion")) {
		if (argc != 3 || strcmp(argv[2], "bash"))
			die_usage("--completion takes one argument: 'bash'");
		opt_complete_bash(cmd, stdout);
		exit(util_fshut(stdout, "stdout") ? 1 : 0);
	}
	if (argc > 1 && !strcmp(argv[1], "--list-choices")) {
		if (argc != 3)
			die_usage("--list-choices takes one argument: an option's name");
		list_choices(cmd, argv[2], stdout);
		exit(util_fshut(stdout, "stdout") ? 1 : 0);
	}
	if (argc > 1 && !strcmp(argv[1], "--list-private")) {
		if (argc != 2)
			die_usage("--list-private takes no argument");
		list_private(cmd, stdout);
		exit(util_fshut(stdout, "stdout") ? 1 : 0);
	}
	log_argv(argc, argv);
	build(it);
}

static void
store(const struct opt *o, long long v)
{
	if (!o->to)
		return;
	if (o->size == sizeof(int32_t)) {
		int32_t x = (int32_t)v;
		memcpy(o->to, &x, sizeof(x));
	} else if (o->size == sizeof(int64_t)) {
		int64_t x = (int64_t)v;
		memcpy(o->to, &x, sizeof(x));
	} else {
		abort();	/* a table bug: an integer of another width */
	}
}

static long long
parse_size(const char *name, const struct opt *o, const char *arg)
{
	uint64_t v;
	const char *why;

	if (units_bytes(arg, (uint64_t)o->max, &v, &why) < 0 ||
	    v < (uint64_t)o->min)
		die_usage("invalid value for %s: '%s'", name, arg);
	return (long long)v;
}

/* OPT_LOOSE: a choice in any case, '-' for '_'. */
static int
choice_is(const struct opt *o, const char *a, const char *name)
{
	return o->flags & OPT_LOOSE ? util_choice_eq(a, name) : !strcmp(a, name);
}

static long long
parse_choice(const char *name, const struct opt *o, const char *arg)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	for (int i = 0; o->choices[i]; i++)
		if (choice_is(o, arg, o->choices[i]))
			return i;
	for (int i = 0; o->later && o->later[i] && o->later[i + 1]; i += 2)
		if (choice_is(o, arg, o->later[i]) && o->later[i + 1][0] == '=')
			die_usage("%s %s: %s", name, arg, o->later[i + 1] + 1);
		else if (choice_is(o, arg, o->later[i]))
			die_usage("%s %s is not supported yet: %s", name, arg, o->later[i + 1]);
	for (int i = 0; o->choices[i]; i++)
		buf_addf(&b, "%s%s", i ? ", " : "", o->choices[i]);
	die_usage("invalid value for %s: '%s' (%s)", name, arg, buf_str(&b));
}

/* Converts it->arg for o into it->i / it->d and stores it. */
static void
convert(struct opt_iter *it, const struct opt *o)
{
	char name[128];

	snprintf(name, sizeof(name), "--%s", o->name);
	switch (o->kind) {
	case OPT_FLAG: store(o, 1); break;
	case OPT_STR:
		if (o->choices)
			it->i = parse_choice(name, o, it->arg);
		if (o->to)
			*(const char **)o->to = it->arg;
		break;
	case OPT_INT: store(o, it->i = opt_int(name, it->arg, o->min, o->max)); break;
	case OPT_SIZE: store(o, it->i = parse_size(name, o, it->arg)); break;
	case OPT_CHOICE: store(o, it->i = parse_choice(name, o, it->arg)); break;
	case OPT_DOUBLE:
		it->d = opt_double(name, it->arg, o->lo, o->hi);
		if (o->to)
			*(double *)o->to = it->d;
		break;
	case OPT_SECONDS:
		if ((o->flags & OPT_INF) && !strcmp(it->arg, "inf"))
			it->i = -1;
		else
			it->i = llround(opt_double(name, it->arg, o->lo, o->hi) * o->scale);
		store(o, it->i);
		break;
	case OPT_HELP: opt_usage_exit(it->cmd, stdout, 0);
	case OPT_VERSION:
		printf("%s %s\n", it->cmd->name, AIPERF_VERSION);
		exit(0);
	}
}

int
opt_next(struct opt_iter *it)
{
	const struct opt *o;
	int c = getopt_long(it->argc, it->argv, it->shorts, it->lo, NULL);

	if (c == -1) {
		it->ind = optind;
		free(it->lo);
		free(it->shorts);
		it->lo = NULL;
		it->shorts = NULL;
		return -1;
	}
	o = opt_find(it->cmd, c);
	if (!o && it->cmd->bad)
		die_usage("%s", it->cmd->bad);
	if (!o)
		opt_usage_exit(it->cmd, stderr, 2);
	it->arg = optarg;
	convert(it, o);
	return c;
}

/* One synopsis item, without the brackets. */
static void
item(struct buf *b, const struct opt *o)
{
	if (o->flags & (OPT_SHORT | OPT_BOTH))
		buf_addf(b, "-%c", o->key);
	if (o->flags & OPT_BOTH)
		buf_addstr(b, " | ");
	if (!(o->flags & OPT_SHORT))
		buf_addf(b, "--%s", o->name);
	if (o->arg) {
		buf_addf(b, " %s", o->arg);
	} else if (o->choices) {
		for (int i = 0; o->choices[i]; i++)
			buf_addf(b, "%c%s", i ? '|' : ' ', o->choices[i]);
	}
}

static void
synopsis(struct buf *b, const struct opt_cmd *cmd)
{
	int indent = cmd->indent ? cmd->indent : (int)strlen(cmd->name) + 8;
	unsigned br = 0;

	buf_addf(b, "usage: %s", cmd->name);
	for (const struct opt *o = cmd->opts; o->name || o->key; o++) {
		int req = o->flags & OPT_REQ;

		/* an item left out passes its line break on */
		if (o->flags & (OPT_ALIAS | OPT_HIDE | OPT_PRIVATE)) {
			br |= o->flags & OPT_BR;
			continue;
		}
		if (o->flags & OPT_OR) {
			b->len--;	/* the previous item's ']' */
			buf_addstr(b, " | ");
		} else if ((o->flags & OPT_BR) || br) {
			buf_addf(b, "\n%*s", indent, "");
		} else {
			buf_addch(b, ' ');
		}
		br = 0;
		if (o->syn) {
			buf_addstr(b, o->syn);
			continue;
		}
		if (!req && !(o->flags & OPT_OR))
			buf_addch(b, '[');
		item(b, o);
		if (!req)
			buf_addch(b, ']');
	}
	if (cmd->operands)
		buf_addf(b, " %s", cmd->operands);
	buf_addch(b, '\n');
}

void
opt_usage(const struct opt_cmd *cmd, FILE *f)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	if (cmd->usage) {
		fputs(cmd->usage, f);
		return;
	}
	synopsis(&b, cmd);
	fputs(buf_str(&b), f);
	buf_release(&b);
}

void
opt_usage_exit(const struct opt_cmd *cmd, FILE *f, int status)
{
	opt_usage(cmd, f);
	exit(status);
}

/* What completes an option's argument: 'f' files, 'd' directories, 'w' choices, 0 nothing. */
static int
arg_class(const struct opt *o)
{
	if (o->choices)
		return 'w';
	if (!o->arg)
		return 0;
	if (!strcmp(o->arg, "file") || !strcmp(o->arg, "F") || !strcmp(o->arg, "FILE"))
		return 'f';
	return strcmp(o->arg, "dir") ? 0 : 'd';
}

/* One case pattern: the options of class cls that take an argument. */
static int
pattern(struct buf *b, const struct opt_cmd *cmd, int cls)
{
	int n = 0;

	for (const struct opt *o = cmd->opts; o->name || o->key; o++) {
		const struct opt *c = canon(cmd, o);

		if (!takes_arg(c) || arg_class(c) != cls || (c->flags & OPT_PRIVATE))
			continue;
		buf_addstr(b, n++ ? "|" : "\t");
		if (o->key > 0 && o->key < 256 && !(o->flags & OPT_ALIAS))
			buf_addf(b, "-%c|", o->key);	/* once, with the canonical name */
		buf_addf(b, "--%s", o->name);
	}
	return n;
}

/* "-k|--name|--alias": every name of the canonical entry c. */
static void
all_names(struct buf *b, const struct opt_cmd *cmd, const struct opt *c)
{
	const char *sep = "";

	if (c->key > 0 && c->key < 256) {
		buf_addf(b, "-%c", c->key);
		sep = "|";
	}
	for (const struct opt *o = cmd->opts; o->name || o->key; o++) {
		if (o->name && canon(cmd, o) == c) {
			buf_addf(b, "%s--%s", sep, o->name);
			sep = "|";
		}
	}
}

static void
complete_args(struct buf *b, const struct opt_cmd *cmd)
{
	if (pattern(b, cmd, 'f'))
		buf_addstr(b, ") COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n");
	if (pattern(b, cmd, 'd'))
		buf_addstr(b, ") COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n");
	if (pattern(b, cmd, 0))
		buf_addstr(b, ") return ;;\n");
	for (const struct opt *o = cmd->opts; o->name || o->key; o++) {
		if (!o->choices || (o->flags & (OPT_ALIAS | OPT_PRIVATE)))
			continue;
		buf_addch(b, '\t');
		all_names(b, cmd, o);
		buf_addstr(b, ") COMPREPLY=($(compgen -W '");
		for (int i = 0; o->choices[i]; i++)
			buf_addf(b, "%s%s", i ? " " : "", o->choices[i]);
		buf_addstr(b, "' -- \"$cur\")); return ;;\n");
	}
}

/* The two case statements completing one command's words. */
static void
complete_body(struct buf *b, const struct opt_cmd *cmd)
{
	buf_addstr(b, "\tcase $prev in\n");
	complete_args(b, cmd);
	buf_addstr(b, "\tesac\n\tcase $cur in\n\t-*) COMPREPLY=($(compgen -W '");
	for (const struct opt *o = cmd->opts; o->name || o->key; o++) {
		if (o->flags & (OPT_ALIAS | OPT_PRIVATE))
			continue;
		if (o->key > 0 && o->key < 256)
			buf_addf(b, " -%c", o->key);
		if (o->name)
			buf_addf(b, " --%s", o->name);
	}
	buf_addstr(b, "' -- \"$cur\")) ;;\n");
	if (cmd->operands)
		buf_addstr(b, "\t*) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n");
	buf_addstr(b, "\tesac\n");
}

/* "_aiperf_send" from "aiperf-send" */
static void
function_name(char *fn, size_t n, const char *tool)
{
	snprintf(fn, n, "_%s", tool);
	for (char *p = fn; *p; p++)
		if (*p == '-')
			*p = '_';
}

#define HEAD "%s()\n{\n\tlocal cur=${COMP_WORDS[COMP_CWORD]} " \
	     "prev=${COMP_WORDS[COMP_CWORD-1]}\n\tCOMPREPLY=()\n"

void
opt_complete_bash(const struct opt_cmd *cmd, FILE *f)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	char fn[128];

	function_name(fn, sizeof(fn), cmd->name);
	buf_addf(&b, "# bash completion for %s (generated from its option table)\n"
		 HEAD, cmd->name, fn);
	complete_body(&b, cmd);
	buf_addf(&b, "}\ncomplete -F %s %s\n", fn, cmd->name);
	fputs(buf_str(&b), f);
	buf_release(&b);
}

void
opt_complete_bash_subs(const char *tool, const char *const *names,
		       const struct opt_cmd *const *subs, size_t n, FILE *f)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	char fn[128];

	function_name(fn, sizeof(fn), tool);
	buf_addf(&b, "# bash completion for %s (generated from its option tables)\n"
		 HEAD "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
		 "\t\tCOMPREPLY=($(compgen -W '", tool, fn);
	for (size_t i = 0; i < n; i++)
		buf_addf(&b, "%s ", names[i]);
	buf_addstr(&b, "--help --version' -- \"$cur\"))\n\t\treturn\n\tfi\n"
		   "\tcase ${COMP_WORDS[1]} in\n");
	for (size_t i = 0; i < n; i++) {
		buf_addf(&b, "\t%s)\n", names[i]);
		complete_body(&b, subs[i]);
		buf_addstr(&b, "\t;;\n");
	}
	buf_addf(&b, "\tesac\n}\ncomplete -F %s %s\n", fn, tool);
	fputs(buf_str(&b), f);
	buf_release(&b);
}
