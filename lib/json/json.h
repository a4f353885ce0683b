/* SPDX-License-Identifier: Apache-2.0 */
/* JSON values: a strict parser that keeps number text exact. */
#ifndef AIPERF_JSON_H
#define AIPERF_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "buf.h"

/*
 * Every value of one parse lives in a struct json_doc arena and
 * is freed with it; values are read-only borrowed pointers. Numbers keep
 * their source text, so 64-bit nanosecond timestamps survive a round trip
 * exactly (why this is not cJSON, whose numbers are doubles). Strings are
 * unescaped to UTF-8 and NUL-terminated (they may contain NUL: use len).
 * Objects keep member order; duplicate keys are kept, json_get() returns
 * the last one (as Python's json does).
 * The writer (struct jw) is lib/json/jw.h, included here for the callers that
 * parse and write.
 */
enum json_type {
	JSON_NULL,
	JSON_FALSE,
	JSON_TRUE,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

struct json {
	enum json_type type;
	size_t len;		/* string bytes, number text length, child count */
	const char *str;	/* string bytes or number text */
	const char *key;	/* member name when inside an object */
	size_t keylen;
	struct json *child;	/* first element or member */
	struct json *next;	/* next sibling */
};

struct json_doc;

#define JSON_MAX_DEPTH 512

struct json_doc *json_doc_new(void);
/* Forget every value parsed so far but keep the arena memory for reuse. */
void json_doc_reset(struct json_doc *d);
void json_doc_free(struct json_doc *d);

/*
 * Parse exactly one JSON value spanning s[0..n) (surrounding whitespace
 * allowed). Returns the root, or NULL with a message such as
 * "at byte 12: expected ':'" in err and errno ELOOP when the value nests
 * arrays and objects deeper than JSON_MAX_DEPTH, ENOMEM when the memory
 * for its tree could not be had (the process goes on: a response's tree
 * is the response's failure; json_doc_nomem() tells the bytes asked),
 * else EINVAL.
 */
struct json *json_parse(struct json_doc *d, const char *s, size_t n,
			char *err, size_t errlen);
/* The bytes the last parse into d failed to allocate (ENOMEM), else 0. */
size_t json_doc_nomem(const struct json_doc *d);

/*
 * json_parse(), but the value of each member of the root object named key
 * is first offered to fn (text from the value's first byte to the end of
 * input): fn returns the value's length when it takes it (the caller then
 * reads it; the tree holds an empty array there, and fn must take only
 * valid JSON, so that the parse fails as json_parse() would), or 0 to
 * leave it to the parser. Each call starts over (a key may repeat).
 */
struct json_hook {
	const char *key;
	size_t keylen;
	size_t (*fn)(void *ctx, const char *s, size_t n);
	void *ctx;
};
struct json *json_parse_hook(struct json_doc *d, const char *s, size_t n,
			     char *err, size_t errlen, const struct json_hook *hook);

/* Lookups return NULL when v is NULL, of the wrong type, or lacks the item. */
/* json_get() with the key's length (a key with an inner NUL). */
struct json *json_getn(const struct json *obj, const char *key, size_t n);
/* Inline so that a literal key's length is known when compiling. */
static inline struct json *
json_get(const struct json *obj, const char *key)
{
	return json_getn(obj, key, strlen(key));
}
struct json *json_at(const struct json *arr, size_t i);
/* Follow a dotted path of object keys ("usage.prompt_tokens"). */
struct json *json_path(const struct json *v, const char *path);

int json_is_str(const struct json *v);
int json_is_num(const struct json *v);
/* 0 on success; -1 when v is not a number or (int64) not an exact integer. */
int json_int64(const struct json *v, int64_t *out);
int json_double(const struct json *v, double *out);
/* The string's bytes, or NULL when v is not a string. */
const char *json_str(const struct json *v, size_t *len);
/* Return the string, or dflt when v is not a string. */
const char *json_str_or(const struct json *v, const char *dflt);
int json_truthy(const struct json *v);
/* Whether v is an array whose every element is an object (an empty one too). */
int json_is_obj_array(const struct json *v);

#include "json/jw.h"

#endif
