/* SPDX-License-Identifier: Apache-2.0 */
/* The HuggingFace hub: its local cache (the layout Python's huggingface_hub uses) and downloads into it. */
#ifndef AIPERF_HFHUB_H
#define AIPERF_HFHUB_H

#include <stddef.h>
#include <stdint.h>

/*
 * A struct hfhub says where the cache is and how to reach the hub.
 * hfhub_init() fills it from the environment as huggingface_hub does; the
 * struct owns its strings (fixed arrays), so there is nothing to free.
 * Functions returning char * return a malloc'd path the caller frees, or
 * NULL with a message in err. Nothing here prints; the token never
 * appears in a message.
 */
struct hfhub {
	char cache[4096];	/* the hub cache root, e.g. ~/.cache/huggingface/hub */
	char endpoint[1024];	/* HF_ENDPOINT without a trailing '/' */
	char token[1024];	/* HF_TOKEN or $HF_HOME/token, "" for none */
	int offline;		/* HF_HUB_OFFLINE, TRANSFORMERS_OFFLINE: no network */
	size_t max_bytes;	/* cap on one downloaded file */
	long connect_timeout_s;
	long stall_timeout_s;	/* give up when nothing arrives for this long */
	/* Set by the caller after hfhub_init() (which leaves them 0/NULL): */
	int dataset;		/* a dataset repository: datasets--ORG--NAME in
				 * the cache, <endpoint>/datasets/<id>/resolve/ */
	const char *hint;	/* how to do without the hub, ending the offline
				 * and network messages; NULL: the tokenizer's */
	/* called while a file downloads (total 0: not known yet) */
	void (*progress)(void *ud, const char *file, uint64_t got,
			 uint64_t total);
	void *progress_ud;
};

#define HFHUB_MAX_BYTES ((size_t)512 << 20)

void hfhub_init(struct hfhub *h);

/* Whether id is a hub repository id, "NAME" or "ORG/NAME" (the rules of
 * huggingface_hub's validate_repo_id: [A-Za-z0-9_.-], no "--" or "..").
 * Returns 1 or 0. */
int hfhub_valid_id(const char *id);
/* Whether rev is a safe revision: a branch, tag, "refs/pr/N" or commit. */
int hfhub_valid_revision(const char *rev);

/*
 * What a download's response headers say about the file, fed one header
 * line at a time as libcurl hands them over (status lines included, one per
 * response of a redirect chain): the first X-Repo-Commit, the X-Linked-Etag,
 * else the ETag of the first response. A value too long for its field, or
 * holding a NUL byte, is kept empty (rejected later); values hold no CR, LF
 * or edge blanks.
 * Start from a zeroed struct.
 */
struct hfhub_meta {
	int nresp, linked;
	char commit[80];
	char etag[160];
};

void hfhub_meta_line(struct hfhub_meta *m, const char *line, size_t len);

/*
 * The snapshot folder of repository id at revision rev (NULL: "main")
 * holding files[0] (required) and, where the hub has them, files[1..n-1].
 * Looks in the cache first (snapshots/ named by refs/<rev>, else by rev
 * itself; for a model id without ORG, also the only models--*--NAME there);
 * otherwise, unless offline, downloads the files from
 * <endpoint>/<id>/resolve/<rev>/<file> into blobs/, links them from
 * snapshots/<commit>/ and writes refs/<rev>, each step atomic.
 */
char *hfhub_resolve(const struct hfhub *h, const char *id, const char *rev,
		    const char *const *files, size_t n, char *err,
		    size_t errlen);

#endif
