/* SPDX-License-Identifier: Apache-2.0 */
/* A user's jq program, compiled with libjq and run in a helper process that bounds its memory, time and output. */
#include "json/jqprog.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "json/jqexec.h"
#include "util.h"

struct jqprog {
	char *text;
	jq_state *jq;		/* a path program, run here; else NULL */
	struct jqexec x;	/* the helper of the others */
};

#define NEST_MAX 64

/*
 * Does prog end inside a string literal or its interpolation (or nest string interpolations
 * past NEST_MAX)? libjq 1.6 leaks its lexer's token there, so such a
 * program is refused before it reaches jq_compile(). Levels alternate:
 * even ones are code (counting parentheses), odd ones string text.
 */
static int
unterminated(const char *s)
{
	int paren[NEST_MAX + 1] = { 0 }, lv = 0;

	for (; *s; s++) {
		if (lv % 2 && *s == '\\') {
			if (s[1] == '(' && lv + 1 >= NEST_MAX)
				return 1;
			if (s[1] == '(')
				paren[++lv] = 0;
			if (s[1])
				s++;
		} else if (lv % 2) {
			lv -= *s == '"';
		} else if (*s == '#') {
			while (s[1] && s[1] != '\n')
				s++;
		} else if (*s == '"') {
			if (++lv >= NEST_MAX)
				return 1;
		} else if (*s == '(') {
			paren[lv]++;
		} else if (*s == ')' && !paren[lv] && lv) {
			lv--;
		} else if (*s == ')' && paren[lv]) {
			paren[lv]--;
		}
	}
	return lv > 0;
}

/*
 * The path recognizer (jqprog_is_path()) reads only the grammar below,
 * over text jq compiled: a path names one place, so its outputs do not
 * overlap. Text it refuses that jq would take as a path just goes to the
 * helper; it must never take anything else.
 */
static const char *
ws(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return s;
}

/* A string literal at s ('"') without interpolation: its end, or NULL. */
static const char *
string_end(const char *s)
{
	for (s++; *s && *s != '"'; s++)
		if (*s == '\\' && (*++s == '(' || !*s))
			return NULL;
	return *s ? s + 1 : NULL;
}

static const char *
integer(const char *s)
{
	const char *d = s + (*s == '-');
	size_t n = strspn(d, "0123456789");

	return n && n < 16 ? d + n : NULL;
}

/* The inside of one [ ] step at s: empty, "name", N, N:M, :M or N:. */
static const char *
bracket(const char *s)
{
	const char *e;

	s = ws(s);
	if (*s == '"')
		return (s = string_end(s)) ? ws(s) : NULL;
	if ((e = integer(s)))
		s = ws(e);
	if (*s != ':')
		return s;
	s = ws(s + 1);
	return (e = integer(s)) ? ws(e) : s;
}

#define IDENT "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789"

/* One path at s (".a?[0]..."): its end, or NULL. */
static const char *
path(const char *s)
{
	size_t k;

	if (*s != '.' || s[1] == '.')
		return NULL;
	while (*s == '.' || *s == '[' || *s == '?') {
		if (*s == '[') {
			if (!(s = bracket(s + 1)) || *s != ']')
				return NULL;
			s++;
		} else if (*s == '.' && s[1] == '"') {
			if (!(s = string_end(s + 1)))
				return NULL;
		} else if (*s == '.' && (k = strspn(s + 1, IDENT)) && !(s[1] >= '0' && s[1] <= '9')) {
			s += 1 + k;
		} else if (*s == '?' || s[1] == '[' || s[1] == '?' || !s[1] ||
			   strchr(" \t\r\n|]", s[1])) {
			s++;	/* a '?', or a '.' alone */
		} else {
			return NULL;
		}
	}
	return s;
}

/* Paths joined by '|': the end, or NULL. */
static const char *
pipeline(const char *s)
{
	while ((s = path(ws(s)))) {
		s = ws(s);
		if (*s != '|' || !strncmp(ws(s + 1), "select", 6))
			return s;
		s++;
	}
	return NULL;
}

int
jqprog_is_path(const char *s)
{
	static const char sel[] = "select(. != null)";

	s = ws(s);
	if (*s != '[')
		return (s = pipeline(s)) && !*ws(s);
	if (!(s = pipeline(s + 1)))
		return 0;
	if (*s == '|') {
		s = ws(s + 1);
		if (strncmp(s, sel, sizeof(sel) - 1) != 0)
			return 0;
		s = ws(s + sizeof(sel) - 1);
	}
	return *s == ']' && !*ws(s + 1);
}

struct jqprog *
jqprog_new(const char *prog, char *err, size_t errlen)
{
	struct jqprog *p;
	jq_state *jq;

	if (unterminated(prog)) {
		snprintf(err, errlen, "jq: error: unterminated string literal");
		return NULL;
	}
	if (!(jq = jqexec_compile(prog, err, errlen)))
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->x = (struct jqexec)JQEXEC_INIT;
	if (util_fastpath() && jqprog_is_path(prog)) {
		p->jq = jq;
	} else {
		jq_teardown(&jq);
		p->text = xstrdup(prog);
	}
	return p;
}

void
jqprog_free(struct jqprog *p)
{
	if (!p)
		return;
	if (p->jq)
		jq_teardown(&p->jq);
	jqexec_stop(&p->x);
	free(p->text);
	free(p);
}

int
jqprog_run(struct jqprog *p, const char *in, size_t n, struct buf *out,
	   char *err, size_t errlen)
{
	if (n > (size_t)INT32_MAX)
		return util_seterr(err, errlen, "jq input too large (over 2 GiB)"),
		       errno = E2BIG, -1;
	if (p->jq)
		return jqexec_here(p->jq, in, n, out, err, errlen);
	return jqexec_run(&p->x, p->text, in, n, out, err, errlen);
}
