/* SPDX-License-Identifier: Apache-2.0 */
/* A config file's values as a tree that can be changed: normalized, merged, swept, rendered. */
#ifndef AIPERF_CFG_TREE_H
#define AIPERF_CFG_TREE_H

#include <stddef.h>

#include "buf.h"
#include "json/json.h"

enum cnode_type { CN_NULL, CN_FALSE, CN_TRUE, CN_NUM, CN_STR, CN_ARR, CN_OBJ };

/* One value; an object's members and an array's elements are kids (an
 * object member's name is its key). Strings and numbers keep their text. */
struct cnode {
	enum cnode_type type;
	char *s;	/* a string's bytes, a number's text (NUL-terminated) */
	size_t len;
	char *key;	/* the member's name inside an object */
	struct cnode **kids;
	size_t n, cap;
};

struct cnode *cnode_from_json(const struct json *v);
/* v's JSON text (a number, a string, true...) as a node; NULL if not JSON. */
struct cnode *cnode_parse(const char *s, size_t n);
struct cnode *cnode_new(enum cnode_type t);
struct cnode *cnode_str(const char *s, size_t n);
struct cnode *cnode_clone(const struct cnode *c);
void cnode_free(struct cnode *c);

/* The member key of an object (NULL: none or not an object). */
struct cnode *cnode_get(const struct cnode *obj, const char *key);
/* obj's member key set to v (replacing and freeing one there, else
 * added last); v is owned by obj now. */
void cnode_set(struct cnode *obj, const char *key, struct cnode *v);
/* obj's member key taken out (the caller owns it), or NULL. */
struct cnode *cnode_take(struct cnode *obj, const char *key);
void cnode_push(struct cnode *arr, struct cnode *v);
/* the array element whose "name" member is the string name */
struct cnode *cnode_named(const struct cnode *arr, const char *name);
/* a string member's text, or NULL */
const char *cnode_strval(const struct cnode *obj, const char *key);

/* JSON text (indent 0: one line) appended to out. */
void cnode_json(const struct cnode *c, struct buf *out, int indent);
/* A scalar as Python's str() prints it (the original's labels): True,
 * False, None, 10.0, text as it is; a container as its JSON. */
void cnode_pystr(const struct cnode *c, struct buf *out);
/* YAML text, block style, indent spaces a level deeper than depth. */
void cnode_yaml(const struct cnode *c, struct buf *out, int depth);

#endif
