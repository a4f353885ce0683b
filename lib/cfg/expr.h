/* SPDX-License-Identifier: Apache-2.0 */
/* The {{ expr }} templates of the YAML config files: a Jinja2 subset, rendered and coerced as the original does. */
#ifndef AIPERF_CFGEXPR_H
#define AIPERF_CFGEXPR_H

#include <stddef.h>
#include "buf.h"

/* Parentheses, unary operators and arguments nest at most this deep. */
#define CFGEXPR_MAX_DEPTH 64

/*
 * Looks a dotted name ("a", "phases.profiling.rate") up: returns 0 with
 * the value's JSON text appended to out (a number, string, true, false,
 * null, or an array or object, which the expression may subscript), 1
 * when the name is undefined, or -1 with a message already in err.
 * a.b.c that is undefined is asked again as a.b, then a, whose object is
 * then walked, so a lookup may know only the top-level names.
 */
typedef int (*cfgexpr_lookup_fn)(void *ctx, const char *name, struct buf *out,
				 char *err, size_t errlen);

/* Whether s[0..n) holds a "{{" ... "}}" block. */
int cfgexpr_has(const char *s, size_t n);

/*
 * Render s[0..n) as Jinja2 with StrictUndefined would: the text with each
 * {{ expr }} replaced by its value's str() ({{- and -}} strip the white
 * space beside them, {# comments #} go, one trailing newline goes), then
 * coerce that text as the original does: "true"/"false" in any case
 * become booleans, else what Python's int() reads an integer, else what
 * float() reads a float, else the text stays a string. The result's JSON
 * text (12, 1.5, 1e+16, true, or a quoted, escaped string) is appended to
 * out. Returns 0, or -1 with a message in err ("undefined variable 'x'",
 * "division by zero", "unterminated '{{'", "at 'x +': expected an
 * operand") and out as it was. Nothing is kept between calls.
 *
 * The expressions: int (64-bit: overflow is an error), float, string
 * (Python escapes), true/false/none in either case; names with .attr and
 * [key] or [index]; ( ); unary - +; ** * / // % + - ~ with Jinja2's
 * precedence (** is left-associative and binds looser than unary minus:
 * -2 ** 2 is 4, 2 ** 3 ** 2 is 64; ~ binds tighter than + -); == != < <=
 * > >= (chained); not, and, or (Python's: 0 or 5 is 5); A if C else B;
 * "is [not] defined/undefined/none"; the filters int, float, round, abs,
 * string, default (d), length (count), min and max. {% %} blocks are an
 * error. Strings are at most 1 MiB each and 16 MiB in all.
 */
int cfgexpr_render(const char *s, size_t n, cfgexpr_lookup_fn lookup, void *ctx,
		   struct buf *out, char *err, size_t errlen);

#endif
