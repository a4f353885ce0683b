/* SPDX-License-Identifier: Apache-2.0 */
/* A benchmark's rows: one split loaded, its columns read as the original's Python reads them. */
#include "row.h"

#include <stdarg.h>
#include <stdio.h>

#include "json/pyval.h"
#include "util.h"

int
split_load(struct split *s, const struct bench_opts *o, const char *id,
	   const char *config, const char *name, char *err, size_t errlen)
{
	*s = (struct split){ .id = id, .config = config, .name = name };
	if (rows_get(o->src, id, config, name, &s->rows, err, errlen) < 0)
		return -1;
	s->doc = json_doc_new();
	return 0;
}

void
split_own(struct split *s, const char *id, const char *config,
	  const char *name, struct rows *rows)
{
	*s = (struct split){ .id = id, .config = config, .name = name,
			     .rows = *rows, .doc = json_doc_new() };
	*rows = (struct rows){ 0 };
}

void
split_release(struct split *s)
{
	rows_free(&s->rows);
	json_doc_free(s->doc);
	*s = (struct split){ 0 };
}

int
split_err(const struct split *s, char *err, size_t errlen, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return util_seterr(err, errlen, "%s/%s/%s: row %zu: %s", s->id,
			   s->config, s->name, s->at, msg);
}

int
split_row(struct split *s, size_t i, char *err, size_t errlen)
{
	char perr[256];

	s->at = i;
	json_doc_reset(s->doc);
	s->row = json_parse(s->doc, s->rows.v[i], s->rows.len[i], perr, sizeof(perr));
	if (!s->row || s->row->type != JSON_OBJECT)
		return split_err(s, err, errlen, "%s", s->row ? "not a JSON object" : perr);
	return 0;
}

const char *
split_str(const struct split *s, const char *col, char *err, size_t errlen)
{
	const struct json *v = json_get(s->row, col);

	if (!v) {
		split_err(s, err, errlen, "no column '%s'", col);
		return NULL;
	}
	if (v->type != JSON_STRING) {
		split_err(s, err, errlen, "column '%s' is not a string", col);
		return NULL;
	}
	if (memchr(v->str, '\0', v->len)) {
		split_err(s, err, errlen, "column '%s' holds a NUL character", col);
		return NULL;
	}
	return v->str;
}

int
py_str(const struct json *v, struct buf *out)
{
	if (v->type == JSON_STRING && memchr(v->str, '\0', v->len))
		return -1;
	return pyval_str(v, out);
}

int
split_pystr(const struct split *s, const char *col, const char *dflt,
	    struct buf *out, char *err, size_t errlen)
{
	const struct json *v = json_get(s->row, col);

	if (!v && !dflt)
		return split_err(s, err, errlen, "no column '%s'", col);
	if (!v)
		return buf_addstr(out, dflt), 0;
	if (py_str(v, out) < 0)
		return split_err(s, err, errlen, "column '%s' is %s", col,
				 v->type == JSON_STRING ? "a string with a NUL character" :
				 "not a string, number, boolean or null");
	return 0;
}

int
load_plain(const struct bench_opts *o, const char *id, const char *config,
	   const char *split, const char *problem_col, const char *answer_col,
	   const char *task, long long max_tokens, struct problem_set *out,
	   char *err, size_t errlen)
{
	struct split s;
	struct buf gold = BUF_INIT(BUF_NOMAX);
	int rc = 0;

	if (split_load(&s, o, id, config, split, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < s.rows.n && !rc; i++) {
		const char *problem;

		buf_reset(&gold);
		if ((rc = split_row(&s, i, err, errlen)) < 0 ||
		    !(problem = split_str(&s, problem_col, err, errlen)) ||
		    (rc = split_pystr(&s, answer_col, NULL, &gold, err, errlen)) < 0) {
			rc = -1;
			break;
		}
		pset_add(out, task, buf_str(&gold), problem, NULL, max_tokens);
	}
	buf_release(&gold);
	split_release(&s);
	return rc;
}
