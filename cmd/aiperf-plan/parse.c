/* SPDX-License-Identifier: Apache-2.0 */
/* The original's command line read as the table says: values, aliases, the CLI Command string. */
#include "planner.h"

#include <stdarg.h>
#include <string.h>

#include "endpoint.h"

void
usage_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", argv0);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", argv0);
	exit(2);
}

/* The original's CLI Command quoting: as is when plain, else 'value'. */
void
shell_quote(struct buf *b, const char *v)
{
	const char *plain = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=,+-";

	if (*v && strspn(v, plain) == strlen(v)) {
		buf_addstr(b, v);
		return;
	}
	buf_addch(b, '\'');
	for (; *v; v++)
		if (*v == '\'')
			buf_addstr(b, "'\\''");
		else
			buf_addch(b, *v);
	buf_addch(b, '\'');
}

static void
cli_add(struct planner *p, const char *canon, const char *value)
{
	if (canon) {
		buf_addch(&p->cli, ' ');
		buf_addstr(&p->cli, canon);
	}
	if (value) {
		buf_addch(&p->cli, ' ');
		shell_quote(&p->cli, value);
	}
}

/* name as aiperf-evalset calls it: without its "accuracy-" after the
 * dashes and a "no-" (--accuracy-tasks: --tasks, --no-accuracy-enable-cot:
 * --no-enable-cot). */
static char *
evalset_name(const char *name)
{
	size_t k = strncmp(name, "--no-", 5) ? 2 : 5;

	if (strncmp(name + k, "accuracy-", 9))
		return xstrdup(name);
	return xstrfmt("%.*s%s", (int)k, name, name + k + 9);
}

void
add_stage_arg(struct planner *p, const char *stages, const char *name, const char *value)
{
	struct plan_argv *to[] = { &p->gen, &p->send, &p->met, &p->exp, &p->syn, &p->acc };
	const char *letters = "gsmeya";

	for (size_t i = 0; i < 6; i++) {
		if (!strchr(stages, letters[i]))
			continue;
		if (letters[i] == 'a') {
			char *n = evalset_name(name);

			plan_argv_add(to[i], n);
			free(n);
		} else {
			plan_argv_add(to[i], name);
		}
		if (value)
			plan_argv_add(to[i], value);
	}
}

/* SET[canon] += s (and a newline when nl). */
static void
set_append(char **slot, const char *s, int nl)
{
	char *old = *slot;

	*slot = xstrfmt("%s%s%s", old ? old : "", s, nl ? "\n" : "");
	free(old);
}

static void
set_value(char **slot, const char *s)
{
	free(*slot);
	*slot = xstrdup(s);
}

/* The original's nargs="*": the words up to the next option, none included. */
static int
nargs_values(struct planner *p, const struct proftab_opt *o, char **slot, int argc, char **argv)
{
	int taken = 0;

	cli_add(p, o->name, NULL);
	set_append(slot, "", 0);
	while (taken < argc && argv[taken][0] != '-') {
		set_append(slot, argv[taken], 1);
		cli_add(p, NULL, argv[taken]);
		taken++;
	}
	return taken;
}

/* --model a,b: each a value (bash's IFS=, read -ra: up to a newline, one
 * empty field at the end dropped). */
static void
split_values(struct planner *p, const struct proftab_opt *o, char **slot, const char *value)
{
	char *line = first_line(value), *s = line, *comma;

	while (*s) {
		comma = strchr(s, ',');
		if (comma)
			*comma = '\0';
		set_append(slot, s, 1);
		add_stage_arg(p, o->stages, o->name, s);
		if (!comma)
			break;
		s = comma + 1;
	}
	free(line);
}

/* The words after the value up to the next option: values too. */
static int
word_values(struct planner *p, const struct proftab_opt *o, char **slot, int argc, char **argv)
{
	int taken = 0;
	const char *v;

	while (taken < argc && argv[taken][0] != '-') {
		v = o->nvalues ? choice(o, argv[taken]) : argv[taken];
		cli_add(p, NULL, v);
		set_append(slot, v, 1);
		add_stage_arg(p, o->stages, o->name, v);
		taken++;
	}
	return taken;
}

/* One value of o (given, or the next argument): how many arguments it took. */
static int
take_value(struct planner *p, const struct proftab_opt *o, const char *value, int argc,
	   char **argv)
{
	char **slot = &p->set[o - p->tab.opts];
	int taken = 0;

	if (!value) {
		if (argc < 1)
			usage_error("profile: option '%s' needs a value", o->name);
		value = argv[taken++];
	}
	if (o->nvalues)
		value = choice(o, value);
	/* as typed: aiperf-export redacts it (lib/redact.c, the one rule) */
	cli_add(p, o->name, value);
	if (o->kind == PROFTAB_LIST && (o->form & PROFTAB_SPLIT)) {
		split_values(p, o, slot, value);
		return taken;
	}
	if (o->kind == PROFTAB_LIST)
		set_append(slot, value, 1);
	else
		set_value(slot, value);
	add_stage_arg(p, o->stages, o->name, value);
	if (o->form & PROFTAB_WORDS)
		taken += word_values(p, o, slot, argc - taken, argv + taken);
	return taken;
}

static const struct proftab_opt *
lookup(struct planner *p, const char *name)
{
	const struct proftab_opt *o = proftab_find(&p->tab, name);

	if (o && o->support == PROFTAB_NO)
		usage_error("profile: option '%s' is not supported yet: %s", name,
			    o->note ? o->note : "");
	if (!o)
		usage_error("profile: unknown option '%s'", name);
	return o;
}

/* One option at argv[0]: how many arguments it took. */
static int
parse_one(struct planner *p, int argc, char **argv)
{
	char *arg = argv[0], *eq = NULL, *name;
	const struct proftab_opt *o;
	int taken;

	if (arg[0] == '-' && arg[1] == '-' && (eq = strchr(arg, '=')))
		name = xstrndup(arg, (size_t)(eq - arg));
	else
		name = xstrdup(arg);
	o = lookup(p, name);
	free(name);
	if (o->kind == PROFTAB_FLAG) {
		if (eq)
			usage_error("profile: option '%s' takes no value", o->name);
		set_value(&p->set[o - p->tab.opts], "1");
		cli_add(p, o->name, NULL);
		add_stage_arg(p, o->stages, o->name, NULL);
		return 1;
	}
	if (!eq && (o->form & PROFTAB_NARGS))
		return 1 + nargs_values(p, o, &p->set[o - p->tab.opts], argc - 1, argv + 1);
	taken = take_value(p, o, eq ? eq + 1 : NULL, argc - 1, argv + 1);
	return 1 + taken;
}

/* The original's tokenizer defaults to the (first) model name; it loads
 * none for an endpoint that neither tokenizes input nor produces tokens
 * (image_retrieval): the builtin one stands in, loading nothing. */
static void
default_tokenizer(struct planner *p)
{
	char *first;
	const struct endpoint_type *et = endpoint_find(get(p, "--endpoint-type"));

	if (is_set(p, "--tokenizer"))
		return;
	first = first_line(get(p, "--model"));
	add_stage_arg(p, "gm", "--tokenizer",
		      et && et->id == ENDPOINT_IMAGE_RETRIEVAL ? "builtin" : first);
	free(first);
}

int
parse_profile(struct planner *p, int argc, char **argv)
{
	for (int i = 0; i < argc;) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
		i += parse_one(p, argc - i, argv + i);
	}
	if (!*val(p, "--model", ""))
		usage_error("profile: --model is required");
	default_tokenizer(p);
	return 0;
}
