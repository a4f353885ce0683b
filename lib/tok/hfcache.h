/* SPDX-License-Identifier: Apache-2.0 */
/* The HuggingFace hub cache on disk, in the layout Python's huggingface_hub uses. */
#ifndef AIPERF_HFCACHE_H
#define AIPERF_HFCACHE_H

#include <stddef.h>

/*
 * Repository ORG/NAME lives in <cache>/models--ORG--NAME/ ("repo" below):
 * refs/<revision> holds a commit hash, snapshots/<commit>/<file> are
 * relative symlinks into blobs/<etag>, and .no_exist/<commit>/<file> marks
 * files the hub does not have. Ids, revisions and commits must be checked
 * by the caller first (hfhub_valid_id, hfhub_valid_revision,
 * hfcache_is_commit): they become path components here. Functions
 * returning char * return a malloc'd path the caller frees, or NULL;
 * functions returning int return 0, or -1 with a message in err.
 */

/* Whether s is a commit hash: 40 or 64 lower-case hex digits. */
int hfcache_is_commit(const char *s);

/* <cache>/models--ORG--NAME for id. */
char *hfcache_repo(const char *cache, const char *id);
/* <cache>/KIND--ORG--NAME for a repository of that kind: "models",
 * "datasets" or "spaces" (huggingface_hub's repo_folder_name). */
char *hfcache_repo_kind(const char *cache, const char *kind, const char *id);
/* For an id without ORG, the only <cache>/models--*--NAME (case ignored);
 * NULL when there is none or more than one. */
char *hfcache_alias(const char *cache, const char *id);
/* The snapshot folder holding file at rev: the one refs/<rev> names, else
 * snapshots/<rev> itself. NULL when the file is not there. */
char *hfcache_snapshot(const char *repo, const char *rev, const char *file);

/* A new temporary file in repo/blobs/: returns its descriptor and puts its
 * malloc'd path in *path, or -1. */
int hfcache_tmpfile(const char *repo, char **path, char *err, size_t errlen);
/* Move the finished tmp into snapshots/<commit>/<file>: to blobs/<etag>
 * with a relative link when etag (quotes and W/ allowed) is a safe name,
 * else directly. Each step is a rename. */
int hfcache_store(const char *repo, const char *commit, const char *file,
		  const char *tmp, const char *etag, char *err, size_t errlen);
/* Write refs/<rev> holding commit, with no newline, atomically. */
int hfcache_write_ref(const char *repo, const char *rev, const char *commit,
		      char *err, size_t errlen);
/* Create .no_exist/<commit>/<file>; best effort. */
void hfcache_mark_missing(const char *repo, const char *commit,
			  const char *file);

#endif
