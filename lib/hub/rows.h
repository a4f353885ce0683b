/* SPDX-License-Identifier: Apache-2.0 */
/* A hub dataset's rows, one JSON object a row: from a local folder, the cache, or the hub's dataset viewer. */
#ifndef AIPERF_HUB_ROWS_H
#define AIPERF_HUB_ROWS_H

#include <stddef.h>

/*
 * A split of a Hugging Face hub dataset is named by three parts: the
 * dataset id ("cais/mmlu", "gsm8k"), the config ("abstract_algebra",
 * "main", "default") and the split ("test", "dev", "train"). Its rows are
 * JSON objects with the hub's column names, in the hub's row order.
 *
 * The same layout serves a local folder and the cache, so that a cache
 * filled on one machine is a --accuracy-dataset-dir on another:
 *   ROOT/<dataset id>/<config>/<split>.jsonl    one row a line
 * Each part must be a safe path component (rows_valid_part): no "..",
 * no leading '.', no '/' but the one between a dataset id's two parts.
 *
 * rows_get() looks in src->dir (when set: there and nowhere else, the
 * offline source), else in src->cache, else (unless src->offline) asks
 * the hub's dataset viewer for the rows and stores them in src->cache
 * (atomically: a file there is always whole).
 */
struct rows_src {
	const char *dir;	/* a local folder: only there; NULL: none */
	const char *cache;	/* the cache root; NULL: no cache */
	const char *endpoint;	/* the dataset viewer's base URL (no
				 * trailing '/'); NULL: the default */
	const char *token;	/* HF_TOKEN for gated datasets; NULL: none */
	int offline;		/* no network: dir or cache only */
	size_t max_bytes;	/* cap on one split's rows; 0: ROWS_MAX_BYTES */
	/* called as rows arrive from the hub (total 0: not known yet) */
	void (*progress)(void *ud, const char *what, size_t got, size_t total);
	void *progress_ud;
	/* tries again after a failed page (429, 5xx, connection):
	 * 0: VIEWER_RETRIES, < 0: none; the first wait, doubled each
	 * time: 0: VIEWER_BACKOFF_MS */
	int retries;
	long backoff_ms;
	/* media columns (NULL-terminated; NULL: none) whose {"src": URL}
	 * cells are fetched and stored inline when rows come from the hub
	 * (lib/hub/rowmedia.h) */
	const char *const *media;
	/* 0: the whole split; else its first max_rows rows at most (a
	 * streaming dataset's prefix: rows_get) */
	size_t max_rows;
};

/*
 * The strings a rows_src filled from the environment points into: the
 * struct owns them (fixed arrays), nothing to free.
 */
struct rows_env {
	char cache[4096];
	char token[1024];
	char endpoint[1024];
};

/*
 * Fill *src (zeroed first) from the environment, its strings kept in *e:
 * the cache root $AIPERF_CACHE_DIR/datasets, else
 * $XDG_CACHE_HOME/aiperf/datasets, else $HOME/.cache/aiperf/datasets
 * (NULL when none is set, or the path is too long); the token as the hub
 * client reads it (HF_TOKEN, else the file HF_TOKEN_PATH or
 * $HF_HOME/token); offline when HF_HUB_OFFLINE or HF_DATASETS_OFFLINE is
 * 1, ON, YES or TRUE; the viewer's URL from AIPERF_HUB_ROWS_URL
 * (trailing '/' dropped). src->dir stays NULL.
 */
void rows_src_env(struct rows_src *src, struct rows_env *e);

/* a split, and one row: LiveCodeBench's release files are GiBs, its rows
 * (compressed test cases) up to tens of MiB */
#define ROWS_MAX_BYTES ((size_t)8 << 30)
#define ROWS_MAX_LINE ((size_t)512 << 20)

/* The rows of one split: row i is v[i][0..len[i]), a JSON object's text,
 * NUL-terminated. Owned by the struct (rows_free). */
struct rows {
	size_t n;
	char **v;
	size_t *len;
	/* where they came from: "dir", "cache" or "hub" */
	const char *from;
	size_t cap;		/* room in v and len (rows_add) */
	int prefix;		/* 1: the split has more rows (src->max_rows) */
};

/* Whether s is a safe dataset id (slash 1: "ORG/NAME" or "NAME"), config
 * or split name (slash 0). 1 or 0. */
int rows_valid_part(const char *s, int slash);

/* The path ROOT/<id>/<config>/<split>.jsonl, malloc'd; NULL when a part
 * is not valid. */
char *rows_path(const char *root, const char *id, const char *config,
		const char *split);

/*
 * Fill *out with the rows of id/config/split. Returns 0, or -1 with a
 * message in err naming the split and what went wrong (a missing file
 * names the path it looked for; a line that is not a JSON object names its
 * line number). Nothing is printed here. The cache is read and written
 * through lib/hub/rowcache.h: a link, FIFO or device in it is an error,
 * never followed; the hub is read through lib/hub/viewer.h, and when its
 * rows cannot be stored in the cache the call fails.
 */
int rows_get(const struct rows_src *src, const char *id, const char *config,
	     const char *split, struct rows *out, char *err, size_t errlen);

/*
 * With src->max_rows set, rows_get() returns at most that many rows, the
 * split's first, and asks the hub for no more: the whole split's file
 * when it is there, else ROOT/<id>/<config>/<split>.head.jsonl, a prefix
 * the cache keeps for this (a prefix too short is fetched again, longer;
 * offline it is what there is). out->prefix says the split has more.
 */

/*
 * A JSON Lines file at url (a file outside the hub: SpecBench's question
 * file on GitHub), kept as id/config/split: read from src->dir only when
 * set, else from src->cache, else (unless offline) downloaded (at most
 * src->max_bytes, no token sent), checked with rows_parse() and stored in
 * the cache ("url"). Returns 0, or -1 with a message in err.
 */
int rows_get_url(const struct rows_src *src, const char *url, const char *id,
		 const char *config, const char *split, struct rows *out,
		 char *err, size_t errlen);

/*
 * The rows of JSON Lines text s[0..n) (blank lines skipped, a "\r\n" end
 * taken), each a JSON object, into *out; name is for messages ("name:LINE:
 * why"); at most max_bytes of rows (0: ROWS_MAX_BYTES), ROWS_MAX_LINE a
 * line. Returns 0, or -1 with a message in err (*out empty).
 */
int rows_parse(const char *s, size_t n, const char *name, struct rows *out,
	       size_t max_bytes, char *err, size_t errlen);

/*
 * The rows of a JSON Lines file of dataset repository id at revision rev
 * (NULL: "main"), for a dataset whose cells are too large for the viewer
 * (livecodebench/code_generation_lite's test.jsonl ... test6.jsonl): file
 * is NAME.jsonl, one path component. With src->dir set, read there only,
 * as ROOT/<id>/<rev>/NAME.jsonl (the layout with rev for the config and
 * NAME for the split); else from the HuggingFace hub cache (hfhub_init():
 * HF_HUB_CACHE, HF_HOME) where it is ("cache"), else, unless offline,
 * downloaded into it from HF_ENDPOINT with hfhub_resolve() ("hub").
 * src->cache and src->endpoint are not used; src->token, when set, is
 * the token. Returns 0, or -1 with a message in err.
 */
int rows_get_file(const struct rows_src *src, const char *id, const char *rev,
		  const char *file, struct rows *out, char *err, size_t errlen);

/* Append the row text s[0..n) to r (copied). */
void rows_add(struct rows *r, const char *s, size_t n);

/* Read a rows file (the layout's FILE) into *out; name is for messages. */
int rows_read_file(const char *path, struct rows *out, size_t max_bytes,
		   char *err, size_t errlen);

void rows_free(struct rows *r);

#endif
