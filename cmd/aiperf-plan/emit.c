/* SPDX-License-Identifier: Apache-2.0 */
/* Shell assignments on standard output, quoted as git rev-parse --sq-quote quotes. */
#include "planner.h"

#include <string.h>
#include <unistd.h>

/* 'v', a ' inside as '\'' */
static void
sq(struct buf *b, const char *v)
{
	buf_addch(b, '\'');
	for (; *v; v++)
		if (*v == '\'')
			buf_addstr(b, "'\\''");
		else
			buf_addch(b, *v);
	buf_addch(b, '\'');
}

void
emit_str(struct buf *b, const char *name, const char *v)
{
	buf_addf(b, "%s=", name);
	sq(b, v ? v : "");
	buf_addch(b, '\n');
}

void
emit_long(struct buf *b, const char *name, long long v)
{
	buf_addf(b, "%s=%lld\n", name, v);
}

void
emit_argv(struct buf *b, const char *name, const struct plan_argv *a, size_t from)
{
	buf_addf(b, "%s=(", name);
	for (size_t i = from; i < a->n; i++) {
		buf_addstr(b, i > from ? " " : "");
		sq(b, a->v[i]);
	}
	buf_addstr(b, ")\n");
}

/* SET (the options given) and INERT (the inert ones' notes), by canonical name. */
void
emit_set(const struct planner *p, struct buf *b)
{
	/* global (-g): the script evals this inside a function */
	buf_addstr(b, "declare -gA SET=(");
	for (size_t i = 0; i < p->tab.n; i++) {
		if (!p->set[i])
			continue;
		buf_addch(b, '[');
		sq(b, p->tab.opts[i].name);
		buf_addstr(b, "]=");
		sq(b, p->set[i]);
		buf_addch(b, ' ');
	}
	buf_addstr(b, ")\ndeclare -gA INERT=(");
	for (size_t i = 0; i < p->tab.n; i++) {
		if (p->tab.opts[i].support != PROFTAB_INERT)
			continue;
		buf_addch(b, '[');
		sq(b, p->tab.opts[i].name);
		buf_addstr(b, "]=");
		sq(b, p->tab.opts[i].note ? p->tab.opts[i].note : "");
		buf_addch(b, ' ');
	}
	buf_addstr(b, ")\n");
}

/* b to standard output, all of it. */
void
emit_flush(struct buf *b)
{
	size_t off = 0;
	ssize_t k;

	while (off < b->len) {
		k = write(1, b->s + off, b->len - off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			die_write();
		off += (size_t)k;
	}
	b->len = 0;
}
