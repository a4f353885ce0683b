/* SPDX-License-Identifier: Apache-2.0 */
/* A user's jq program, compiled once with libjq and run over JSON text. */
#include "json/jqprog.h"

#include <stdio.h>
#include <string.h>

#include <jq.h>

#include "util.h"

struct jqprog {
	jq_state *jq;
	char msg[512];		/* the first compile message, for err */
	int nmsg;
};

/* jq's message callback owns msg (jq 1.6 frees nothing after calling). */
static void
on_message(void *data, jv msg)
{
	struct jqprog *p = data;

	msg = jq_format_error(msg);
	if (!p->nmsg++ && jv_get_kind(msg) == JV_KIND_STRING)
		snprintf(p->msg, sizeof(p->msg), "%s", jv_string_value(msg));
	jv_free(msg);
}

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

struct jqprog *
jqprog_new(const char *prog, char *err, size_t errlen)
{
	struct jqprog *p;

	if (unterminated(prog)) {
		snprintf(err, errlen, "jq: error: unterminated string literal");
		return NULL;
	}
	p = xcalloc(1, sizeof(*p));

	p->jq = jq_init();
	if (!p->jq) {
		free(p);
		snprintf(err, errlen, "cannot start jq");
		return NULL;
	}
	jq_set_error_cb(p->jq, on_message, p);
	if (!jq_compile(p->jq, prog)) {
		snprintf(err, errlen, "%s", p->nmsg ? p->msg : "jq: error: does not compile");
		jqprog_free(p);
		return NULL;
	}
	return p;
}

void
jqprog_free(struct jqprog *p)
{
	if (!p)
		return;
	jq_teardown(&p->jq);
	free(p);
}

/* The message of an invalid jv (consumed), as jq prints it. */
static void
invalid_msg(jv v, const char *what, char *err, size_t errlen)
{
	jv m = jv_invalid_get_msg(v);

	if (jv_get_kind(m) == JV_KIND_STRING) {
		snprintf(err, errlen, "%s: %s", what, jv_string_value(m));
	} else if (jv_get_kind(m) != JV_KIND_NULL) {
		jv d = jv_dump_string(jv_copy(m), 0);

		snprintf(err, errlen, "%s: %s (not a string)", what, jv_string_value(d));
		jv_free(d);
	} else {
		snprintf(err, errlen, "%s", what);
	}
	jv_free(m);
}

static int
dump(jv v, struct buf *out, char *err, size_t errlen)
{
	jv s = jv_dump_string(v, 0);
	int rc = buf_addstr(out, jv_string_value(s));

	jv_free(s);
	if (rc < 0)
		snprintf(err, errlen, "jq output too large");
	return rc;
}

int
jqprog_run(struct jqprog *p, const char *in, size_t n, struct buf *out,
	   char *err, size_t errlen)
{
	jv input, v;
	int count = 0;

	if (n > (size_t)INT32_MAX) {
		snprintf(err, errlen, "jq input too large");
		return -1;
	}
	input = jv_parse_sized(in, (int)n);
	if (!jv_is_valid(input)) {
		invalid_msg(input, "jq input is not JSON", err, errlen);
		return -1;
	}
	jq_start(p->jq, input, 0);
	while (count < 2 && jv_is_valid(v = jq_next(p->jq))) {
		if (!count++ && dump(v, out, err, errlen) < 0)
			return -1;
		if (count > 1)
			jv_free(v);
	}
	if (count == 2)
		return 2;
	if (jv_invalid_has_msg(jv_copy(v))) {
		if (count)
			return jv_free(v), count;
		invalid_msg(v, "jq: error", err, errlen);
		return -1;
	}
	jv_free(v);
	return count;
}
