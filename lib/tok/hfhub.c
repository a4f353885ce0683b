/* SPDX-License-Identifier: Apache-2.0 */
/* The HuggingFace hub: environment, ids, and downloads into the cache with libcurl. */
#include "tok/hfhub.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "buf.h"
#include "tok/hfcache.h"
#include "util.h"

#ifndef AIPERF_VERSION
#define AIPERF_VERSION "0"
#endif

/* One download in progress: where it goes and what the headers said. */
struct dl {
	FILE *f;
	size_t got, max;
	int toobig;
	struct hfhub_meta m;
	const struct hfhub *h;
	const char *file;
};

#define TOKENIZER_HINT "use --tokenizer builtin, a local path or a filled " \
	"HuggingFace cache"

/* The caller's way around the hub, for the messages. */
static const char *
hint(const struct hfhub *h)
{
	return h->hint ? h->hint : TOKENIZER_HINT;
}

/* The state of fetching a repository's files into the cache. */
struct fetch {
	const struct hfhub *h;
	const char *id, *rev;
	char *repo;		/* <cache>/models--ORG--NAME */
	char *commit;		/* NULL until the first file names it */
	char *err;
	size_t errlen;
};

static int
is_word(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static int
valid_name(const char *s, size_t n)
{
	if (n == 0 || n > 96 || !is_word(s[0]) || !is_word(s[n - 1]))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!is_word(s[i]) && s[i] != '-' && s[i] != '.')
			return 0;
	return 1;
}

int
hfhub_valid_id(const char *id)
{
	const char *slash = strchr(id, '/');
	size_t n = strlen(id);

	if (strstr(id, "--") || strstr(id, "..") ||
	    (n >= 4 && !strcmp(id + n - 4, ".git")))
		return 0;
	if (!slash)
		return valid_name(id, n);
	return valid_name(id, (size_t)(slash - id)) &&
	       valid_name(slash + 1, n - (size_t)(slash - id) - 1);
}

/* Components of [A-Za-z0-9._+=-], none empty or starting with '.'. */
int
hfhub_valid_revision(const char *rev)
{
	size_t n = strlen(rev);
	int start = 1;

	if (n == 0 || n > 255 || strstr(rev, ".."))
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = rev[i];

		if (c == '/') {
			if (start)
				return 0;
			start = 1;
			continue;
		}
		if ((start && c == '.') ||
		    !(is_word(c) || strchr(".+=-", c)))
			return 0;
		start = 0;
	}
	return !start;
}

/* Copy the first line of s, trimmed, into out (cap n); "" if it won't fit. */
static void
copy_line(char *out, size_t n, const char *s)
{
	size_t len;

	while (*s == ' ' || *s == '\t')
		s++;
	len = strcspn(s, "\r\n");
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if (len >= n)
		len = 0;
	memmove(out, s, len);
	out[len] = '\0';
}

static void
init_token(struct hfhub *h, const char *home)
{
	const char *v = util_env("HF_TOKEN");
	char *path, *s;
	size_t len;

	if (v) {
		copy_line(h->token, sizeof(h->token), v);
		return;
	}
	path = util_env("HF_TOKEN_PATH") ? xstrdup(util_env("HF_TOKEN_PATH"))
				    : xstrfmt("%s/token", home);
	s = util_readfile(path, 4096, &len);
	if (s)
		copy_line(h->token, sizeof(h->token), s);
	free(s);
	free(path);
}

void
hfhub_init(struct hfhub *h)
{
	const char *v;
	char *home;
	size_t n;

	memset(h, 0, sizeof(*h));
	if ((v = util_env("HF_HOME")))
		home = xstrdup(v);
	else if ((v = util_env("XDG_CACHE_HOME")))
		home = xstrfmt("%s/huggingface", v);
	else
		home = xstrfmt("%s/.cache/huggingface", util_env("HOME") ? util_env("HOME") : "");
	if ((v = util_env("HF_HUB_CACHE")))
		n = (size_t)snprintf(h->cache, sizeof(h->cache), "%s", v);
	else
		n = (size_t)snprintf(h->cache, sizeof(h->cache), "%s/hub", home);
	if (n >= sizeof(h->cache))
		h->cache[0] = '\0';	/* too long: no cache, fails at use */
	v = util_env("HF_ENDPOINT") ? util_env("HF_ENDPOINT") : "https://huggingface.co";
	if ((size_t)snprintf(h->endpoint, sizeof(h->endpoint), "%s", v) >=
	    sizeof(h->endpoint))
		h->endpoint[0] = '\0';
	for (n = strlen(h->endpoint); n > 0 && h->endpoint[n - 1] == '/'; n--)
		h->endpoint[n - 1] = '\0';
	init_token(h, home);
	free(home);
	h->offline = util_env_true("HF_HUB_OFFLINE") || util_env_true("TRANSFORMERS_OFFLINE");
	h->max_bytes = HFHUB_MAX_BYTES;
	h->connect_timeout_s = 10;
	h->stall_timeout_s = 30;
}

static size_t
cb_write(char *p, size_t size, size_t n, void *ud)
{
	struct dl *d = ud;

	n *= size;
	if (n > d->max - d->got) {
		d->toobig = 1;
		return 0;
	}
	d->got += n;
	return fwrite(p, 1, n, d->f);
}

/* If the header line p is "name: value", copy value into out (cap n). */
static int
header(const char *p, size_t len, const char *name, char *out, size_t n)
{
	size_t k = strlen(name), v;

	if (len <= k || p[k] != ':' || strncasecmp(p, name, k))
		return 0;
	p += k + 1;
	len -= k + 1;
	while (len && (*p == ' ' || *p == '\t'))
		p++, len--;
	for (v = 0; v < len && p[v] != '\r' && p[v] != '\n'; v++)
		;
	while (v && (p[v - 1] == ' ' || p[v - 1] == '\t'))
		v--;
	if (v >= n || memchr(p, '\0', v))
		v = 0;	/* overlong or holding a NUL: invalid, rejected later */
	memcpy(out, p, v);
	out[v] = '\0';
	return 1;
}

/* Redirects bring several responses: keep the hub's own headers. */
void
hfhub_meta_line(struct hfhub_meta *m, const char *p, size_t len)
{
	if (len >= 5 && !memcmp(p, "HTTP/", 5)) {
		m->nresp++;
		return;
	}
	if (!m->commit[0] &&
	    header(p, len, "x-repo-commit", m->commit, sizeof(m->commit)))
		return;
	if (!m->linked && header(p, len, "x-linked-etag", m->etag, sizeof(m->etag)))
		m->linked = 1;
	else if (!m->linked && m->nresp == 1)
		header(p, len, "etag", m->etag, sizeof(m->etag));
}

static size_t
cb_header(char *p, size_t size, size_t n, void *ud)
{
	struct dl *d = ud;

	hfhub_meta_line(&d->m, p, size * n);
	return size * n;
}

static int
cb_progress(void *ud, curl_off_t total, curl_off_t now, curl_off_t ut,
	    curl_off_t un)
{
	struct dl *d = ud;

	(void)ut;
	(void)un;
	d->h->progress(d->h->progress_ud, d->file, (uint64_t)(now > 0 ? now : 0),
		       (uint64_t)(total > 0 ? total : 0));
	return 0;
}

static void
set_options(CURL *c, const struct hfhub *h, const char *url, struct dl *d,
	    struct curl_slist *hdr, char *cerr)
{
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_MAXREDIRS, 10L);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, h->connect_timeout_s);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, h->stall_timeout_s);
	curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)h->max_bytes);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "aiperf/" AIPERF_VERSION);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, cerr);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, cb_write);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, d);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, cb_header);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, d);
	if (h->progress) {
		curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, cb_progress);
		curl_easy_setopt(c, CURLOPT_XFERINFODATA, d);
		curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	}
}

/* GET url into d->f; *status gets the final HTTP status. curl keeps a
 * custom Authorization header off redirects to other hosts (a CDN). */
static int
download(struct fetch *F, const char *url, struct dl *d, long *status)
{
	CURL *c = curl_easy_init();
	struct curl_slist *hdr = NULL;
	char cerr[CURL_ERROR_SIZE] = "";
	CURLcode rc;

	if (!c)
		return util_seterr(F->err, F->errlen, "cannot download '%s': "
			      "libcurl failed to start", url);
	if (F->h->token[0]) {
		char *a = xstrfmt("Authorization: Bearer %s", F->h->token);

		hdr = curl_slist_append(hdr, a);
		free(a);
	}
	set_options(c, F->h, url, d, hdr, cerr);
	rc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
	curl_easy_cleanup(c);
	curl_slist_free_all(hdr);
	if (d->toobig || rc == CURLE_FILESIZE_EXCEEDED)
		return util_seterr(F->err, F->errlen, "cannot download '%s': larger "
			      "than %zu bytes", url, F->h->max_bytes);
	if (rc != CURLE_OK)
		return util_seterr(F->err, F->errlen, "cannot download '%s': %s "
			      "(to work offline %s)", url,
			      cerr[0] ? cerr : curl_easy_strerror(rc), hint(F->h));
	return 0;
}

static const char *
status_hint(long status)
{
	switch (status) {
	case 401:
	case 403:
		return " (no such repository, or a private or gated one: "
		       "check the id, or set HF_TOKEN to a token with access)";
	case 404:
		return " (no such repository, revision or file)";
	case 429:
		return " (rate limited: retry later, or set HF_TOKEN)";
	default:
		return "";
	}
}

/* The revision as one URL path segment (huggingface_hub quotes '/'). */
static char *
url_segment(const char *s)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	for (; *s; s++) {
		if (is_word(*s) || *s == '-' || *s == '.')
			buf_addch(&b, *s);
		else
			buf_addf(&b, "%%%02X", (unsigned char)*s);
	}
	return buf_detach(&b, NULL);
}

/* The snapshot is named by X-Repo-Commit, or by the revision without it. */
static int
set_commit(struct fetch *F, const struct dl *d, const char *url)
{
	if (!d->m.commit[0]) {
		F->commit = xstrdup(F->rev);
		return 0;
	}
	if (!hfcache_is_commit(d->m.commit))
		return util_seterr(F->err, F->errlen, "cannot download '%s': "
			      "invalid X-Repo-Commit header", url);
	F->commit = xstrdup(d->m.commit);
	return 0;
}

/* Keep what came: a 404 for an optional file is a marker, a 200 a file. */
static int
keep(struct fetch *F, const char *file, int required, const char *url,
     long status, const struct dl *d, const char *tmp)
{
	if (status == 404 && !required && F->commit) {
		hfcache_mark_missing(F->repo, F->commit, file);
		return 1;
	}
	if (status != 200)
		return util_seterr(F->err, F->errlen, "cannot download '%s': HTTP %ld%s",
			      url, status, status_hint(status));
	if (!F->commit && set_commit(F, d, url) < 0)
		return -1;
	return hfcache_store(F->repo, F->commit, file, tmp, d->m.etag, F->err,
			     F->errlen);
}

/* After the first file, the others come from the same commit. */
static int
fetch_file(struct fetch *F, const char *file, int required)
{
	char *seg = url_segment(F->commit ? F->commit : F->rev);
	char *url = xstrfmt("%s/%s%s/resolve/%s/%s", F->h->endpoint,
			    F->h->dataset ? "datasets/" : "", F->id, seg, file);
	struct dl d = { .max = F->h->max_bytes, .h = F->h, .file = file };
	char *tmp = NULL;
	long status = 0;
	int fd, rc = -1;

	fd = hfcache_tmpfile(F->repo, &tmp, F->err, F->errlen);
	if (fd >= 0 && !(d.f = fdopen(fd, "wb"))) {
		util_seterr(F->err, F->errlen, "cannot write '%s': %s", tmp,
		       util_strerror(errno));
		close(fd);
	}
	if (d.f) {
		rc = download(F, url, &d, &status);
		if (fclose(d.f) != 0 && rc == 0)
			rc = util_seterr(F->err, F->errlen, "cannot write '%s': %s",
				    tmp, util_strerror(errno));
		if (rc == 0)
			rc = keep(F, file, required, url, status, &d, tmp);
	}
	if (tmp && rc != 0)	/* else renamed into the cache */
		unlink(tmp);
	free(tmp);
	free(url);
	free(seg);
	return rc < 0 ? -1 : 0;
}

static char *
repo_dir(const struct hfhub *h, const char *id)
{
	return hfcache_repo_kind(h->cache, h->dataset ? "datasets" : "models", id);
}

static char *
fetch(const struct hfhub *h, const char *id, const char *rev,
      const char *const *files, size_t n, char *err, size_t errlen)
{
	struct fetch F = { h, id, rev, NULL, NULL, err, errlen };
	char *snap = NULL;
	int rc = 0;

	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		util_seterr(err, errlen, "cannot download '%s': libcurl failed to "
		       "start", id);
		return NULL;
	}
	F.repo = repo_dir(h, id);
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = fetch_file(&F, files[i], i == 0);
	if (rc == 0 && strcmp(F.commit, rev))
		rc = hfcache_write_ref(F.repo, rev, F.commit, err, errlen);
	if (rc == 0)
		snap = xstrfmt("%s/snapshots/%s", F.repo, F.commit);
	curl_global_cleanup();
	free(F.commit);
	free(F.repo);
	return snap;
}

/* The cached snapshot, under the id or, for a model id without ORG, its
 * alias. */
static char *
cached(const struct hfhub *h, const char *id, const char *rev,
       const char *file)
{
	char *repo = repo_dir(h, id);
	char *snap = hfcache_snapshot(repo, rev, file);

	free(repo);
	if (!snap && !h->dataset && (repo = hfcache_alias(h->cache, id))) {
		snap = hfcache_snapshot(repo, rev, file);
		free(repo);
	}
	return snap;
}

char *
hfhub_resolve(const struct hfhub *h, const char *id, const char *rev,
	      const char *const *files, size_t n, char *err, size_t errlen)
{
	char *snap;

	if (!rev || !*rev)
		rev = "main";
	if (!hfhub_valid_id(id)) {
		util_seterr(err, errlen, "invalid HuggingFace id '%s'", id);
		return NULL;
	}
	if (!hfhub_valid_revision(rev)) {
		util_seterr(err, errlen, "invalid revision '%s' for '%s'", rev, id);
		return NULL;
	}
	if (n == 0 || !h->cache[0]) {
		util_seterr(err, errlen, "no HuggingFace cache folder for '%s'", id);
		return NULL;
	}
	if ((snap = cached(h, id, rev, files[0])))
		return snap;
	if (h->offline) {
		util_seterr(err, errlen, "'%s' (revision %s) is not in the HuggingFace "
		       "cache '%s' and the hub is off limits (HF_HUB_OFFLINE): "
		       "%s", id, rev, h->cache,
		       h->hint ? h->hint : "use --tokenizer builtin or a local path");
		return NULL;
	}
	return fetch(h, id, rev, files, n, err, errlen);
}
