/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf profile --help, generated from the options table: a section a group. */
#include "planner.h"

#include <string.h>

#define HELP_WIDTH 78
#define HELP_INDENT 13

static const char head[] =
	"usage: aiperf profile -m MODEL [options]\n"
	"       aiperf profile --help\n"
	"\n"
	"aiperf profile options (the original's names and aliases):\n";

static const char foot[] =
	"Choices may be written in any case, with dashes or underscores.\n"
	"See aiperf(7) (man/aiperf.7) for the pipeline and every stage's man page.\n"
	"The options, with those of the original not supported yet and the issue\n"
	"that brings each: profile-options.tsv in the data folder (data/ in the\n"
	"source tree).\n";

/* "-m/--model/--model-names CHOICE|CHOICE": short names first. */
static void
item_of(const struct proftab_opt *o, struct buf *b)
{
	for (size_t i = 0; i < o->naliases; i++)
		if (o->aliases[i][1] != '-')
			buf_addf(b, "%s/", o->aliases[i]);
	buf_addstr(b, o->name);
	for (size_t i = 0; i < o->naliases; i++)
		if (o->aliases[i][1] == '-')
			buf_addf(b, "/%s", o->aliases[i]);
	for (size_t i = 0; i < o->nvalues; i++)
		buf_addf(b, "%c%s", i ? '|' : ' ', o->values[i]);
}

/* Appends item (and its comma) to the section's lines, wrapping at
 * HELP_WIDTH: between items, else after a '/', '|' or ' ' of a long one. */
static void
put_item(struct buf *b, size_t *col, const char *item, int first, int last)
{
	char *s = last ? xstrdup(item) : xstrfmt("%s,", item);
	size_t n;

	if (!first && *col + 1 + strlen(s) > HELP_WIDTH) {
		buf_addf(b, "\n%*s", HELP_INDENT, "");
		*col = HELP_INDENT;
	} else if (!first) {
		buf_addch(b, ' ');
		(*col)++;
	}
	for (const char *t = s; *t; t += n) {
		n = strcspn(t, "/| ");
		n += t[n] != '\0';
		if (*col > HELP_INDENT && *col + n - (t[n - 1] == ' ') > HELP_WIDTH) {
			while (b->len && b->s[b->len - 1] == ' ')
				b->len--;
			buf_addf(b, "\n%*s", HELP_INDENT, "");
			*col = HELP_INDENT;
		}
		buf_add(b, t, n);
		*col += n;
	}
	free(s);
}

static int
in_group(const struct proftab_opt *o, const char *group)
{
	return o->support != PROFTAB_NO && o->group && !strcmp(o->group, group);
}

static void
section(const struct proftab *t, const char *group, struct buf *b)
{
	size_t col, last = 0;
	struct buf item;
	int first = 1;

	for (size_t i = 0; i < t->n; i++)
		if (in_group(&t->opts[i], group))
			last = i;
	buf_addf(b, "  %s:", group);
	col = strlen(group) + 3;
	do
		buf_addch(b, ' ');
	while (++col < HELP_INDENT);
	buf_init(&item, BUF_NOMAX);
	for (size_t i = 0; i < t->n; i++) {
		if (!in_group(&t->opts[i], group))
			continue;
		buf_reset(&item);
		item_of(&t->opts[i], &item);
		put_item(b, &col, buf_str(&item), first, i == last);
		first = 0;
	}
	buf_release(&item);
	buf_addch(b, '\n');
}

static int
seen_before(const struct proftab *t, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (in_group(&t->opts[k], t->opts[i].group))
			return 1;
	return 0;
}

void
help_text(const struct proftab *t, struct buf *b)
{
	buf_addstr(b, head);
	for (size_t i = 0; i < t->n; i++)
		if (in_group(&t->opts[i], t->opts[i].group ? t->opts[i].group : "") &&
		    !seen_before(t, i))
			section(t, t->opts[i].group, b);
	buf_addstr(b, foot);
}

/* One option in mdoc: ".Fl m , -model , -model-names Cm a | b ," */
static void
mdoc_item(const struct proftab_opt *o, int last, struct buf *b)
{
	buf_addstr(b, ".Fl");
	for (size_t i = 0; i < o->naliases; i++)
		if (o->aliases[i][1] != '-')
			buf_addf(b, " %s ,", o->aliases[i] + 1);
	buf_addf(b, " %s", o->name + 1);
	for (size_t i = 0; i < o->naliases; i++)
		if (o->aliases[i][1] == '-')
			buf_addf(b, " , %s", o->aliases[i] + 1);
	for (size_t i = 0; i < o->nvalues; i++)
		buf_addf(b, "%s\\&%s", i ? " | " : " Cm ", o->values[i]);
	buf_addstr(b, last ? "\n" : " ,\n");
}

static void
mdoc_section(const struct proftab *t, const char *group, struct buf *b)
{
	size_t last = 0;

	for (size_t i = 0; i < t->n; i++)
		if (in_group(&t->opts[i], group))
			last = i;
	buf_addf(b, ".It %s\n", group);
	for (size_t i = 0; i < t->n; i++)
		if (in_group(&t->opts[i], group))
			mdoc_item(&t->opts[i], i == last, b);
}

void
help_mdoc(const struct proftab *t, struct buf *b)
{
	buf_addstr(b, ".Bl -tag -width Ds\n");
	for (size_t i = 0; i < t->n; i++)
		if (in_group(&t->opts[i], t->opts[i].group ? t->opts[i].group : "") &&
		    !seen_before(t, i))
			mdoc_section(t, t->opts[i].group, b);
	buf_addstr(b, ".El\n");
}
