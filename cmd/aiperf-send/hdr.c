/* SPDX-License-Identifier: Apache-2.0 */
/* -H values: 'Name:Value' strings and JSON objects into the request's header lines. */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "json/json.h"
#include "send.h"
#include "util.h"

/* An HTTP token character (RFC 9110 tchar): what a header name is made of. */
static int
tchar(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* The name: a token. */
static int
name_ok(const char *name, size_t n, char *why, size_t wl)
{
	if (!n) {
		snprintf(why, wl, "empty header name");
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (!tchar((unsigned char)name[i])) {
			snprintf(why, wl, "invalid header name '%.*s'", (int)(n < 64 ? n : 64), name);
			return -1;
		}
	return 0;
}

/*
 * Headers that frame the request body or manage the connection belong to
 * the engines: a user's Content-Length beside ours (or instead of it, on
 * libcurl) would frame the body wrongly, and the others would contradict
 * --connection-reuse-strategy or the parser (HTTP/2 forbids them all).
 */
static int
own_ok(const char *name, size_t n, char *why, size_t wl)
{
	static const char *const own[] = {
		"content-length", "transfer-encoding", "connection", "keep-alive",
		"te", "upgrade",
	};

	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (strlen(own[i]) == n && !strncasecmp(name, own[i], n)) {
			snprintf(why, wl, "header '%.*s' cannot be set with -H or a "
				 "record's headers: the sender "
				 "frames each request and manages its connections itself",
				 (int)n, name);
			return -1;
		}
	return 0;
}

int
hdr_check(const char *name, size_t nl, const char *v, size_t n, char *why,
	  size_t wl)
{
	if (name_ok(name, nl, why, wl) < 0 || own_ok(name, nl, why, wl) < 0)
		return -1;
	/* the value is never printed: it may be a credential */
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)v[i];
		if ((c < 0x20 && c != '\t') || c == 0x7f) {
			snprintf(why, wl, "invalid header '%.*s': the value holds a "
				 "control character", (int)nl, name);
			return -1;
		}
	}
	return 0;
}

/* *s[0..n) without its spaces and tabs at both ends: *s moves, the length is returned. */
static size_t
trim(const char **s, size_t n)
{
	while (n && (**s == ' ' || **s == '\t')) {
		(*s)++;
		n--;
	}
	while (n && ((*s)[n - 1] == ' ' || (*s)[n - 1] == '\t'))
		n--;
	return n;
}

size_t
hdr_name_len(const char *line)
{
	return strcspn(line, ":;");
}

/*
 * The line for libcurl's header list (the native engine reads it the same
 * way): "Name: value", or "Name;" for an empty value ("Name:" would remove
 * the header instead of sending it empty). A later header of the same name
 * (exactly, as the original's dict has it) replaces the earlier one in place;
 * Host in any case, as a request has one Host (it replaces the engines').
 */
static void
add_line(struct options *o, const char *name, size_t nl, const char *v, size_t n)
{
	char *line = n ? xstrfmt("%.*s: %.*s", (int)nl, name, (int)n, v)
		       : xstrfmt("%.*s;", (int)nl, name);

	int host = nl == 4 && !strncasecmp(name, "host", 4);

	for (size_t i = 0; i < o->nheaders; i++)
		if (hdr_name_len(o->headers[i]) == nl &&
		    (host ? !strncasecmp(o->headers[i], name, nl)
			  : !memcmp(o->headers[i], name, nl))) {
			free(o->headers[i]);
			o->headers[i] = line;
			return;
		}
	o->headers = xreallocarray(o->headers, o->nheaders + 1, sizeof(*o->headers));
	o->headers[o->nheaders++] = line;
}

static void
add_pair(struct options *o, const char *name, size_t nl, const char *v, size_t n)
{
	nl = trim(&name, nl);
	n = trim(&v, n);
	char why[256];

	if (hdr_check(name, nl, v, n, why, sizeof(why)) < 0)
		die_usage("%s%s", strncmp(why, "empty", 5) ? "" : "invalid header: ", why);
	add_line(o, name, nl, v, n);
}

static const char *
type_name(enum json_type t)
{
	switch (t) {
	case JSON_NULL: return "null";
	case JSON_FALSE:
	case JSON_TRUE: return "a boolean";
	case JSON_NUMBER: return "a number";
	case JSON_ARRAY: return "an array";
	case JSON_OBJECT: return "an object";
	default: return "a string";
	}
}

/*
 * A JSON object: each member a header, in order. Values must be strings, as
 * the original's configuration (a str to str mapping) demands; nothing is
 * stringified. The text is not echoed in messages: it may hold a credential.
 */
static void
add_json(struct options *o, const char *arg)
{
	/* static: on a usage error's way out the parse is still reachable */
	static struct json_doc *d;
	char err[128];
	const struct json *v;

	d = json_doc_new();
	v = json_parse(d, arg, strlen(arg), err, sizeof(err));
	if (!v || v->type != JSON_OBJECT)
		die_usage("invalid header JSON: %s", v ? "not an object" : err);
	/* cppcheck-suppress nullPointerRedundantCheck ; die_usage() does not return */
	for (const struct json *m = v->child; m; m = m->next) {
		char why[256];

		if (name_ok(m->key, m->keylen, why, sizeof(why)) < 0)
			die_usage("%s%s", strncmp(why, "empty", 5) ? "" : "invalid header: ", why);
		if (m->type != JSON_STRING)
			die_usage("invalid header '%.*s': the value must be a string, not %s",
				  (int)m->keylen, m->key, type_name(m->type));
		add_pair(o, m->key, m->keylen, m->str, m->len);
	}
	json_doc_free(d);
	d = NULL;
}

/* Whether every comma-separated piece of s has a colon after a token name. */
static int
all_pairs(const char *s)
{
	for (;;) {
		size_t n = strcspn(s, ","), c = strcspn(s, ":");
		const char *name = s;
		if (c >= n)
			return 0;
		c = trim(&name, c);
		for (size_t i = 0; i < c; i++)
			if (!tchar((unsigned char)name[i]))
				return 0;
		if (!c || !s[n])
			return c != 0;
		s += n + 1;
	}
}

/*
 * "Name:Value" splits at its first colon, both sides trimmed. The original
 * also splits a string at commas into several pairs; that is done when
 * every piece is a pair, so "A:1,B:2" is two headers as there, while a
 * value with commas ("Accept: a, b"), which the original refuses, is kept
 * whole.
 */
static void
add_str(struct options *o, const char *arg)
{
	int split = strchr(arg, ',') && all_pairs(arg);
	const char *s = arg;

	for (;;) {
		size_t n = split ? strcspn(s, ",") : strlen(s), c = strcspn(s, ":");
		if (c >= n)
			die_usage("invalid header '%.*s': expected 'Name:Value' or a JSON object",
				  (int)n, s);
		add_pair(o, s, c, s + c + 1, n - c - 1);
		if (!s[n])
			return;
		s += n + 1;
	}
}

void
hdr_add(struct options *o, const char *arg)
{
	if (arg[0] == '{')
		add_json(o, arg);
	else
		add_str(o, arg);
}

void
hdr_release(struct options *o)
{
	for (size_t i = 0; i < o->nheaders; i++)
		free(o->headers[i]);
	free(o->headers);
	o->headers = NULL;
	o->nheaders = 0;
}
