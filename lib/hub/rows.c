/* SPDX-License-Identifier: Apache-2.0 */
/* A hub dataset's rows: the local-folder layout and its reader (the hub and the cache come next). */
#include "hub/rows.h"

#include <errno.h>
#include <string.h>

#include "json/json.h"
#include "lines.h"
#include "rand/pystr.h"
#include "util.h"

int
rows_valid_part(const char *s, int slash)
{
	const char *p;
	int slashes = 0;

	if (!s || !*s || strlen(s) > 255)
		return 0;
	for (p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '/') {
			if (!slash || ++slashes > 1 || p == s || !p[1])
				return 0;
			if (p[1] == '.')
				return 0;
			continue;
		}
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'))
			return 0;
	}
	return s[0] != '.' && !strstr(s, "..");
}

char *
rows_path(const char *root, const char *id, const char *config,
	  const char *split)
{
	if (!root || !rows_valid_part(id, 1) || !rows_valid_part(config, 0) ||
	    !rows_valid_part(split, 0))
		return NULL;
	return xstrfmt("%s/%s/%s/%s.jsonl", root, id, config, split);
}

static void
rows_add(struct rows *r, size_t *cap, const char *s, size_t n)
{
	if (r->n == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		r->v = xreallocarray(r->v, *cap, sizeof(*r->v));
		r->len = xreallocarray(r->len, *cap, sizeof(*r->len));
	}
	r->v[r->n] = xstrndup(s, n);
	r->len[r->n++] = n;
}

int
rows_read_file(const char *path, struct rows *out, size_t max_bytes,
	       char *err, size_t errlen)
{
	struct lines l;
	struct json_doc *doc;
	const char *s;
	size_t n, cap = 0, total = 0;
	int rc;
	char perr[256];

	*out = (struct rows){ .from = "dir" };
	if (!max_bytes)
		max_bytes = ROWS_MAX_BYTES;
	if (lines_open(&l, path, ROWS_MAX_LINE) < 0)
		return util_seterr(err, errlen, "%s: %s", path,
				   util_strerror(errno));
	doc = json_doc_new();
	while ((rc = lines_next(&l, &s, &n)) > 0) {
		struct json *v;

		if (pystr_isblank(s, n))
			continue;
		if ((total += n + 1) > max_bytes) {
			rc = util_seterr(err, errlen, "%s: more than %zu bytes of rows",
					 path, max_bytes);
			goto fail;
		}
		json_doc_reset(doc);
		v = json_parse(doc, s, n, perr, sizeof(perr));
		if (!v || v->type != JSON_OBJECT) {
			rc = util_seterr(err, errlen, "%s:%zu: %s", path, l.lineno,
					 v ? "a row must be a JSON object" : perr);
			goto fail;
		}
		rows_add(out, &cap, s, n);
	}
	if (rc < 0) {
		rc = util_seterr(err, errlen, "%s:%zu: %s", path, l.lineno + 1,
				 errno == ENOBUFS ? "line too long" :
				 util_strerror(errno));
		goto fail;
	}
	json_doc_free(doc);
	lines_close(&l);
	return 0;
fail:
	json_doc_free(doc);
	lines_close(&l);
	rows_free(out);
	return rc;
}

int
rows_get(const struct rows_src *src, const char *id, const char *config,
	 const char *split, struct rows *out, char *err, size_t errlen)
{
	char *path;
	int rc;

	*out = (struct rows){ 0 };
	if (!rows_valid_part(id, 1) || !rows_valid_part(config, 0) ||
	    !rows_valid_part(split, 0))
		return util_seterr(err, errlen, "%s/%s/%s: not a valid dataset, config or split name",
				   id ? id : "", config ? config : "", split ? split : "");
	if (!src->dir)
		return util_seterr(err, errlen, "%s/%s/%s: no dataset folder given, and the hub is not read yet",
				   id, config, split);
	path = rows_path(src->dir, id, config, split);
	rc = rows_read_file(path, out, src->max_bytes, err, errlen);
	free(path);
	return rc;
}

void
rows_free(struct rows *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->v[i]);
	free(r->v);
	free(r->len);
	*r = (struct rows){ 0 };
}
