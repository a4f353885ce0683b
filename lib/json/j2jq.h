/* SPDX-License-Identifier: Apache-2.0 */
/* The original's Jinja2 payload templates and JMESPath response fields, translated to jq. */
#ifndef AIPERF_J2JQ_H
#define AIPERF_J2JQ_H

#include <stddef.h>

#include "buf.h"

/*
 * --endpoint-type template takes jq programs; these translate the forms
 * users of the original write. Both append the jq text to out and return 0,
 * or return -1 with a message in err that names the form refused and shows
 * its jq equivalent. Nothing is allocated but out's growth.
 */

/* Does src[0..n) hold a Jinja2 tag ("{{" or "{%")? Else it is jq. */
int j2jq_is_jinja(const char *src, size_t n);

/*
 * A Jinja2 template whose rendering is JSON, as a jq program over the
 * template variables object: the text around the tags is kept, and
 * {{ path }}, {{ path|tojson }}, {{ path|lower }} and {{ path|upper }}
 * become (.path) outside JSON strings and \(.path) inside them, where path
 * is a variable (one of j2jq_vars) followed by .name, [N] and ['key']
 * steps. {# comments #} are dropped and '-' trims whitespace as in Jinja2;
 * statements ({% ... %}), other filters and other expressions are refused.
 */
int j2jq_template(const char *src, size_t n, struct buf *out, char *err,
		  size_t errlen);

/*
 * A response field: one starting with '.' or any other character that
 * cannot start a JMESPath identifier is a jq program, kept as it is; else
 * a JMESPath path of identifiers ("quoted" ones too), [N], [*] and []
 * steps (one projection), translated with '?' on each step so that a
 * missing or mistyped step yields nothing, as JMESPath's null.
 */
int j2jq_path(const char *src, size_t n, struct buf *out, char *err,
	      size_t errlen);

/* The template variables, NULL-terminated. */
extern const char *const j2jq_vars[];

#endif
