/* SPDX-License-Identifier: Apache-2.0 */
/* A hub dataset's rows: the layout, its reader, and the order of the sources (folder, cache, hub). */
#include "hub/rows.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "hub/rowcache.h"
#include "hub/rowmedia.h"
#include "hub/viewer.h"
#include "json/json.h"
#include "lines.h"
#include "rand/pystr.h"
#include "tok/hfhub.h"
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

void
rows_add(struct rows *r, const char *s, size_t n)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 256;
		r->v = xreallocarray(r->v, r->cap, sizeof(*r->v));
		r->len = xreallocarray(r->len, r->cap, sizeof(*r->len));
	}
	r->v[r->n] = xstrndup(s, n);
	r->len[r->n++] = n;
}

/* A line read: its row checked and kept (blank lines skipped). */
struct take {
	struct json_doc *doc;
	const char *name;
	size_t total, max_bytes, max_rows;
	int more;		/* a row past max_rows was seen */
};

/* 1: kept or skipped, 0: the row after max_rows (stop), -1: an error. */
static int
take_line(struct take *t, const char *s, size_t n, size_t lineno,
	  struct rows *out, char *err, size_t errlen)
{
	struct json *v;
	char perr[256];

	if (pystr_isblank(s, n))
		return 1;
	if (t->max_rows && out->n >= t->max_rows) {
		t->more = 1;
		return 0;
	}
	if ((t->total += n + 1) > t->max_bytes)
		return util_seterr(err, errlen, "%s: more than %zu bytes of rows",
				   t->name, t->max_bytes);
	json_doc_reset(t->doc);
	v = json_parse(t->doc, s, n, perr, sizeof(perr));
	if (!v || v->type != JSON_OBJECT)
		return util_seterr(err, errlen, "%s:%zu: %s", t->name, lineno,
				   v ? "a row must be a JSON object" : perr);
	rows_add(out, s, n);
	return 1;
}

static void
take_init(struct take *t, const char *name, size_t max_bytes, size_t max_rows)
{
	*t = (struct take){ json_doc_new(), name, 0,
			    max_bytes ? max_bytes : ROWS_MAX_BYTES, max_rows, 0 };
}

/* Read the rows of l (named name in messages) into *out, at most
 * max_rows (0: all). */
static int
read_lines(struct lines *l, const char *name, struct rows *out,
	   size_t max_bytes, size_t max_rows, char *err, size_t errlen)
{
	struct take t;
	const char *s;
	size_t n;
	int rc;

	take_init(&t, name, max_bytes, max_rows);
	while ((rc = lines_next(l, &s, &n)) > 0) {
		int k = take_line(&t, s, n, l->lineno, out, err, errlen);

		if (k <= 0) {
			rc = k < 0 ? -2 : 0;
			break;
		}
	}
	if (rc == -1)
		util_seterr(err, errlen, "%s:%zu: %s", name, l->lineno + 1,
			    errno == ENOBUFS ? "line too long" : util_strerror(errno));
	json_doc_free(t.doc);
	if (rc < 0)
		rows_free(out);
	else
		out->prefix = t.more;
	return rc < 0 ? -1 : 0;
}

int
rows_parse(const char *s, size_t n, const char *name, struct rows *out,
	   size_t max_bytes, char *err, size_t errlen)
{
	struct take t;
	size_t lineno = 0;
	int rc = 0;

	*out = (struct rows){ 0 };
	take_init(&t, name, max_bytes, 0);
	while (n && rc == 0) {
		const char *nl = memchr(s, '\n', n);
		size_t len = nl ? (size_t)(nl - s) : n;

		lineno++;
		if (len > ROWS_MAX_LINE) {
			rc = util_seterr(err, errlen, "%s:%zu: line too long", name, lineno);
			break;
		}
		if (take_line(&t, s, len && s[len - 1] == '\r' ? len - 1 : len,
			      lineno, out, err, errlen) < 0)
			rc = -1;
		s += len + (nl != NULL);
		n -= len + (nl != NULL);
	}
	json_doc_free(t.doc);
	if (rc < 0)
		rows_free(out);
	return rc;
}

/* rows_read_file() of at most max_rows rows (0: all). */
static int
read_file_max(const char *path, struct rows *out, size_t max_bytes,
	      size_t max_rows, char *err, size_t errlen)
{
	struct lines l;
	int rc;

	*out = (struct rows){ .from = "dir" };
	if (lines_open(&l, path, ROWS_MAX_LINE) < 0)
		return util_seterr(err, errlen, "%s: %s", path,
				   util_strerror(errno));
	rc = read_lines(&l, path, out, max_bytes, max_rows, err, errlen);
	lines_close(&l);
	if (rc == 0)
		out->from = "dir";
	return rc;
}

int
rows_read_file(const char *path, struct rows *out, size_t max_bytes,
	       char *err, size_t errlen)
{
	return read_file_max(path, out, max_bytes, 0, err, errlen);
}

/* The split from the cache: 1 when read, 0 when it is not there. */
static int
from_cache(const struct rows_src *src, const char *id, const char *config,
	   const char *split, struct rows *out, char *err, size_t errlen)
{
	char *path = rows_path(src->cache, id, config, split);
	int fd = rowcache_open(src->cache, id, config, split, err, errlen), rc;
	struct lines l;

	if (fd < 0) {
		free(path);
		return fd == -2 ? 0 : -1;
	}
	lines_fdopen(&l, fd, path, ROWS_MAX_LINE);
	rc = read_lines(&l, path, out, src->max_bytes, src->max_rows, err, errlen);
	lines_close(&l);
	close(fd);
	free(path);
	if (rc < 0)
		return -1;
	out->from = "cache";
	return 1;
}

/* From the viewer, then into the cache; a cache that cannot be written
 * fails the call (its message says why), the rows are not kept. */
static int
from_hub(const struct rows_src *src, const char *id, const char *config,
	 const char *split, struct rows *out, char *err, size_t errlen)
{
	char *head = xstrfmt("%s.head", split);
	int rc = 0;

	if (viewer_rows(src, id, config, split, out, err, errlen) < 0) {
		free(head);
		return -1;
	}
	if (rowmedia_inline(src, out, err, errlen) < 0) {
		free(head);
		rows_free(out);
		return -1;
	}
	if (src->cache && rowcache_store(src->cache, id, config,
					 out->prefix ? head : split, out, err, errlen) < 0) {
		rows_free(out);
		rc = -1;
	} else {
		out->from = "hub";
	}
	free(head);
	return rc;
}

/* A prefix from the cache's head file: 1 when it is there and long
 * enough (or all there is, offline), 0 when not, -1 on error. */
static int
from_head(const struct rows_src *src, const char *id, const char *config,
	  const char *split, struct rows *out, char *err, size_t errlen)
{
	char *head = xstrfmt("%s.head", split);
	int rc = 0;

	if (rows_valid_part(head, 0))
		rc = from_cache(src, id, config, head, out, err, errlen);
	free(head);
	if (rc <= 0)
		return rc;
	if (out->n >= src->max_rows || src->offline) {
		out->prefix = 1;
		return 1;
	}
	rows_free(out);
	return 0;
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
	if (src->dir) {
		path = rows_path(src->dir, id, config, split);
		rc = read_file_max(path, out, src->max_bytes, src->max_rows, err, errlen);
		free(path);
		return rc;
	}
	if (src->cache &&
	    (rc = from_cache(src, id, config, split, out, err, errlen)) != 0)
		return rc < 0 ? -1 : 0;
	if (src->cache && src->max_rows &&
	    (rc = from_head(src, id, config, split, out, err, errlen)) != 0)
		return rc < 0 ? -1 : 0;
	if (src->offline)
		return util_seterr(err, errlen, "%s/%s/%s: not in the cache '%s' and "
				   "the hub is off limits (offline): fill a folder with "
				   "aiperf-hub fetch on a machine that has the network, "
				   "and give it as the dataset folder", id, config,
				   split, src->cache ? src->cache : "(none)");
	return from_hub(src, id, config, split, out, err, errlen);
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

static void
env_cache(struct rows_env *e)
{
	size_t cap = sizeof(e->cache);
	int n = -1;

	if (util_env("AIPERF_CACHE_DIR"))
		n = snprintf(e->cache, cap, "%s/datasets", util_env("AIPERF_CACHE_DIR"));
	else if (util_env("XDG_CACHE_HOME"))
		n = snprintf(e->cache, cap, "%s/aiperf/datasets", util_env("XDG_CACHE_HOME"));
	else if (util_env("HOME"))
		n = snprintf(e->cache, cap, "%s/.cache/aiperf/datasets", util_env("HOME"));
	if (n < 0 || (size_t)n >= cap)
		e->cache[0] = '\0';
}

void
rows_src_env(struct rows_src *src, struct rows_env *e)
{
	struct hfhub h;
	const char *v = util_env("AIPERF_HUB_ROWS_URL");
	size_t n;

	memset(src, 0, sizeof(*src));
	memset(e, 0, sizeof(*e));
	env_cache(e);
	hfhub_init(&h);
	memcpy(e->token, h.token, sizeof(e->token));
	if (v && strlen(v) < sizeof(e->endpoint)) {
		memcpy(e->endpoint, v, strlen(v) + 1);
		for (n = strlen(e->endpoint); n > 0 && e->endpoint[n - 1] == '/'; n--)
			e->endpoint[n - 1] = '\0';
	}
	src->cache = e->cache[0] ? e->cache : NULL;
	src->token = e->token[0] ? e->token : NULL;
	src->endpoint = e->endpoint[0] ? e->endpoint : NULL;
	src->offline = util_env_true("HF_HUB_OFFLINE") || util_env_true("HF_DATASETS_OFFLINE");
}

/* NAME of NAME.jsonl, malloc'd, when it is a valid part; else NULL. */
static char *
file_stem(const char *file)
{
	size_t n = file ? strlen(file) : 0;
	char *stem;

	if (n <= 6 || strcmp(file + n - 6, ".jsonl"))
		return NULL;
	stem = xstrndup(file, n - 6);
	if (!rows_valid_part(stem, 0)) {
		free(stem);
		return NULL;
	}
	return stem;
}

static void
on_file_progress(void *ud, const char *file, uint64_t got, uint64_t total)
{
	const struct rows_src *src = ud;

	src->progress(src->progress_ud, file, (size_t)got, (size_t)total);
}

/* The file's snapshot folder: the hub cache first, then the hub. */
static char *
resolve_file(const struct rows_src *src, const char *id, const char *rev,
	     const char *file, const char **from, char *err, size_t errlen)
{
	const char *files[] = { file };
	struct hfhub h;
	char *snap;
	int env_offline;

	hfhub_init(&h);
	env_offline = h.offline;
	h.dataset = 1;
	h.hint = "fill a folder with aiperf-hub fetch --repo-file on a machine "
		 "that has the network, and give it as the dataset folder";
	h.max_bytes = src->max_bytes ? src->max_bytes : ROWS_MAX_BYTES;
	if (src->token && strlen(src->token) < sizeof(h.token))
		memcpy(h.token, src->token, strlen(src->token) + 1);
	if (src->progress) {
		h.progress = on_file_progress;
		h.progress_ud = (void *)src;
	}
	h.offline = 1;
	*from = "cache";
	snap = hfhub_resolve(&h, id, rev, files, 1, err, errlen);
	if (!snap && !src->offline && !env_offline) {
		h.offline = 0;
		*from = "hub";
		snap = hfhub_resolve(&h, id, rev, files, 1, err, errlen);
	}
	return snap;
}

int
rows_get_file(const struct rows_src *src, const char *id, const char *rev,
	      const char *file, struct rows *out, char *err, size_t errlen)
{
	char *stem = file_stem(file), *path, *snap;
	const char *from;
	int rc;

	*out = (struct rows){ 0 };
	if (!rev)
		rev = "main";
	if (!stem || !rows_valid_part(id, 1) || !rows_valid_part(rev, 0)) {
		free(stem);
		return util_seterr(err, errlen, "%s@%s/%s: not a valid dataset id, "
				   "revision or NAME.jsonl file", id ? id : "",
				   rev, file ? file : "");
	}
	if (src->dir) {
		path = rows_path(src->dir, id, rev, stem);
		free(stem);
		rc = rows_read_file(path, out, src->max_bytes, err, errlen);
		free(path);
		return rc;
	}
	free(stem);
	if (!(snap = resolve_file(src, id, rev, file, &from, err, errlen)))
		return -1;
	path = xstrfmt("%s/%s", snap, file);
	rc = rows_read_file(path, out, src->max_bytes, err, errlen);
	free(path);
	free(snap);
	if (rc == 0)
		out->from = from;
	return rc;
}

int
rows_get_url(const struct rows_src *src, const char *url, const char *id,
	     const char *config, const char *split, struct rows *out,
	     char *err, size_t errlen)
{
	struct rows_src plain = *src;
	struct buf body;
	int rc;

	plain.max_rows = 0;
	plain.token = NULL;
	if (src->dir || src->offline || !url)
		return rows_get(&plain, id, config, split, out, err, errlen);
	*out = (struct rows){ 0 };
	if (!rows_valid_part(id, 1) || !rows_valid_part(config, 0) ||
	    !rows_valid_part(split, 0))
		return util_seterr(err, errlen, "%s/%s/%s: not a valid dataset, config or split name",
				   id, config, split);
	if (src->cache && (rc = from_cache(&plain, id, config, split, out, err, errlen)) != 0)
		return rc < 0 ? -1 : 0;
	buf_init(&body, src->max_bytes ? src->max_bytes : ROWS_MAX_BYTES);
	rc = viewer_get(&plain, url, &body, err, errlen);
	if (rc == 0)
		rc = rows_parse(body.s ? body.s : "", body.len, url, out,
				src->max_bytes, err, errlen);
	if (rc == 0 && src->cache &&
	    (rc = rowcache_store(src->cache, id, config, split, out, err, errlen)) < 0)
		rows_free(out);
	if (rc == 0)
		out->from = "url";
	buf_release(&body);
	return rc;
}
