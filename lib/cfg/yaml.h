/* SPDX-License-Identifier: Apache-2.0 */
/* A YAML config file read as PyYAML's safe_load reads it, into a JSON tree, with ${VAR} substituted. */
#ifndef AIPERF_CFG_YAML_H
#define AIPERF_CFG_YAML_H

#include <stddef.h>

#include "json/json.h"

#define CFGYAML_MAX_FILE (4u << 20)	/* bytes of YAML */
#define CFGYAML_MAX_TREE (64u << 20)	/* bytes of JSON, aliases expanded */
#define CFGYAML_MAX_DEPTH 64

/*
 * The file's one document as a JSON tree (root: an object), typed as
 * PyYAML's safe_load types YAML 1.1: plain null, ~ and nothing are null;
 * true/false/yes/no/on/off (as lower, Title or UPPER case) booleans;
 * decimal, 0x, 0o/0 octal and 0b integers (with _), numbers with a dot,
 * .inf and .nan floats (inf and nan refused: JSON has neither); quoted
 * and block scalars strings. Merge keys (<<: *anchor) merge as PyYAML's;
 * aliases are expanded (their tree bounded by CFGYAML_MAX_TREE, nesting by
 * CFGYAML_MAX_DEPTH, so a cycle or an alias bomb is an error). A duplicate
 * key, a key that is not a string, an empty file or one that is not a
 * mapping is an error. In every string value ${VAR} is the environment's
 * VAR (unset: an error) and ${VAR:default} the default where VAR is unset;
 * a value that is one ${...} whole is typed as the original types it
 * (true/false, an integer, a number, else a string).
 * Each value's line is kept by its path ("benchmark.phases.0.rate").
 */
struct cfgyaml {
	struct json_doc *doc;
	struct json *root;
	char **paths;	/* the values' paths, each with its line */
	long *lines;
	size_t n, cap;
};

/* path: a regular file of at most CFGYAML_MAX_FILE bytes. Returns 0, or -1
 * with the message in err ("LINE:COL: ..." where the YAML says where). */
int cfgyaml_load(struct cfgyaml *y, const char *path, char *err, size_t errlen);
int cfgyaml_parse(struct cfgyaml *y, const char *s, size_t n, char *err, size_t errlen);
void cfgyaml_release(struct cfgyaml *y);

/* The line of the value at path (1-based), or 0 when none is known. */
long cfgyaml_line(const struct cfgyaml *y, const char *path);

/*
 * ${VAR} and ${VAR:default} in s[0..n) substituted into out (appended).
 * Returns 1 when s is one ${...} whole, 0 when it is not, -1 with a
 * message in err (an unset VAR with no default, an unterminated "${").
 */
int cfgyaml_env(const char *s, size_t n, struct buf *out, char *err, size_t errlen);

/* The JSON text of a scalar's text typed as the original types a value
 * that was one ${...} (and a rendered {{ }}): true/false in any case, an
 * integer (Python int()), a number (float()), else the string. */
void cfgyaml_coerce(const char *s, size_t n, struct buf *out);

#endif
