/* SPDX-License-Identifier: Apache-2.0 */
/* The deterministic JSON writer: orjson/pydantic text for what the tools write. */
#ifndef AIPERF_JW_H
#define AIPERF_JW_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"

struct json;

/*
 * struct jw appends to a caller-owned struct buf and inserts the commas
 * itself; it owns nothing. Strings are escaped as orjson does (only '"',
 * '\\' and control characters; UTF-8 passes through). indent > 0
 * pretty-prints the way Python's json/pydantic do with that indent.
 */
/* Deterministic writer. */
struct jw {
	struct buf *b;
	int indent;
	int depth;
	int need_comma;
	int after_key;
};

void jw_init(struct jw *w, struct buf *b, int indent);
void jw_obj(struct jw *w);
void jw_obj_end(struct jw *w);
void jw_arr(struct jw *w);
void jw_arr_end(struct jw *w);
void jw_key(struct jw *w, const char *key);
void jw_keyn(struct jw *w, const char *key, size_t n);
void jw_str(struct jw *w, const char *s);
void jw_strn(struct jw *w, const char *s, size_t n);
void jw_int(struct jw *w, int64_t v);
void jw_bool(struct jw *w, int v);
void jw_null(struct jw *w);
/* Float in orjson form (1.5, 10.0, 1e-7, 1e16); NaN and infinities as null. */
void jw_double(struct jw *w, double v);
/* Float in pydantic form (as jw_double but 1e+16). */
void jw_double_py(struct jw *w, double v);
/* Write a parsed value again, compactly, numbers as in their source. */
void jw_value(struct jw *w, const struct json *v);
/* As jw_value, each number written by num instead (NULL: as in its source). */
typedef void (*jw_num_fn)(struct jw *w, const struct json *num);
void jw_value_with(struct jw *w, const struct json *v, jw_num_fn num);
/* Write text that already is one JSON value. */
void jw_raw(struct jw *w, const char *s, size_t n);

/* Append s as a quoted, escaped JSON string to b. */
void json_quote(struct buf *b, const char *s, size_t n);

#endif
