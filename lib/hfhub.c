/* SPDX-License-Identifier: Apache-2.0 */
/* The HuggingFace hub cache and downloads into it with libcurl. */
#include "hfhub.h"

#include <curl/curl.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "util.h"

#ifndef AIPERF_VERSION
#define AIPERF_VERSION "0"
#endif

/* One download in progress: where it goes and what the headers said. */
struct dl {
	FILE *f;
	size_t got, max;
	int toobig, nresp, linked;
	char commit[80];	/* X-Repo-Commit, first seen */
	char etag[160];		/* X-Linked-Etag, else the first response's ETag */
};

/* The state of fetching a repository's files into the cache. */
struct fetch {
	const struct hfhub *h;
	const char *id, *rev;
	char *repo;		/* <cache>/models--ORG--NAME */
	char *commit;		/* NULL until the first file names it */
	char *err;
	size_t errlen;
};

static int seterr(char *err, size_t errlen, const char *fmt, ...) FMT(3, 4);
static char *pathf(const char *fmt, ...) FMT(1, 2);

static int
seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (errlen)
		vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static char *
pathf(const char *fmt, ...)
{
	va_list ap;
	int n;
	char *s;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		abort();
	s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

static int
is_word(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static int
is_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

/* A commit hash: 40 (sha1) or 64 (sha256) lower-case hex digits. */
static int
is_commit(const char *s)
{
	size_t n = strlen(s);

	return (n == 40 || n == 64) && is_hex(s, n);
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

static int
env_true(const char *name)
{
	const char *v = getenv(name);

	return v && (!strcmp(v, "1") || !strcasecmp(v, "on") ||
		     !strcasecmp(v, "yes") || !strcasecmp(v, "true"));
}

static const char *
env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
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
	const char *v = env("HF_TOKEN");
	char *path, *s;
	size_t len;

	if (v) {
		copy_line(h->token, sizeof(h->token), v);
		return;
	}
	path = env("HF_TOKEN_PATH") ? xstrdup(env("HF_TOKEN_PATH"))
				    : pathf("%s/token", home);
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
	if ((v = env("HF_HOME")))
		home = xstrdup(v);
	else if ((v = env("XDG_CACHE_HOME")))
		home = pathf("%s/huggingface", v);
	else
		home = pathf("%s/.cache/huggingface", env("HOME") ? env("HOME") : "");
	if ((v = env("HF_HUB_CACHE")))
		n = (size_t)snprintf(h->cache, sizeof(h->cache), "%s", v);
	else
		n = (size_t)snprintf(h->cache, sizeof(h->cache), "%s/hub", home);
	if (n >= sizeof(h->cache))
		h->cache[0] = '\0';	/* too long: no cache, fails at use */
	v = env("HF_ENDPOINT") ? env("HF_ENDPOINT") : "https://huggingface.co";
	n = (size_t)snprintf(h->endpoint, sizeof(h->endpoint), "%s", v);
	for (n = strlen(h->endpoint); n > 0 && h->endpoint[n - 1] == '/'; n--)
		h->endpoint[n - 1] = '\0';
	init_token(h, home);
	free(home);
	h->offline = env_true("HF_HUB_OFFLINE") || env_true("TRANSFORMERS_OFFLINE");
	h->max_bytes = HFHUB_MAX_BYTES;
	h->connect_timeout_s = 10;
	h->stall_timeout_s = 30;
}

static int
is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* mkdir -p; returns 0 or -1 with errno. */
static int
mkdirs(const char *path)
{
	char *p = xstrdup(path);
	struct stat st;
	int rc = 0;

	for (char *s = p + 1; *s && rc == 0; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) < 0 && errno != EEXIST)
			rc = -1;
		*s = '/';
	}
	if (rc == 0 && mkdir(p, 0777) < 0 && errno != EEXIST)
		rc = -1;
	if (rc == 0 && (stat(p, &st) < 0 || !S_ISDIR(st.st_mode)))
		rc = -1;
	free(p);
	return rc;
}

static char *
repo_dir(const struct hfhub *h, const char *id)
{
	const char *slash = strchr(id, '/');

	if (!slash)
		return pathf("%s/models--%s", h->cache, id);
	return pathf("%s/models--%.*s--%s", h->cache, (int)(slash - id), id,
		     slash + 1);
}

/* The commit that refs/<rev> names, or NULL when there is none. */
static char *
read_ref(const char *repo, const char *rev)
{
	char *path = pathf("%s/refs/%s", repo, rev), s[128];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	free(path);
	if (!f)
		return NULL;
	n = fread(s, 1, sizeof(s) - 1, f);
	fclose(f);
	s[n] = '\0';
	copy_line(s, sizeof(s), s);
	return is_commit(s) ? xstrdup(s) : NULL;
}

/* The cached snapshot holding file, or NULL. refs/<rev> names the
 * commit; without a ref, a snapshot named by rev itself counts (a commit
 * hash, or a revision the hub named no commit for), as in AIPerf. */
static char *
cached(const char *repo, const char *rev, const char *file)
{
	char *commit = read_ref(repo, rev);
	char *snap = pathf("%s/snapshots/%s", repo, commit ? commit : rev);
	char *path = pathf("%s/%s", snap, file);
	int ok = is_file(path);

	free(path);
	free(commit);
	if (ok)
		return snap;
	free(snap);
	return NULL;
}

/* An id without ORG may be cached under its canonical ORG/NAME (the hub
 * redirects "gpt2" to "openai-community/gpt2"): the only cached folder
 * models--*--NAME, compared without case, as AIPerf does. */
static char *
alias_dir(const struct hfhub *h, const char *id)
{
	size_t k = strlen(id);
	char *found = NULL;
	struct dirent *e;
	int n = 0;
	DIR *d;

	if (strchr(id, '/') || !(d = opendir(h->cache)))
		return NULL;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		const char *tail = e->d_name + len - k - 2;

		if (len < k + 11 || strncmp(e->d_name, "models--", 8) ||
		    strncmp(tail, "--", 2) || strcasecmp(tail + 2, id))
			continue;
		if (n++ == 0)
			found = pathf("%s/%s", h->cache, e->d_name);
	}
	closedir(d);
	if (n == 1)
		return found;
	free(found);
	return NULL;
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
	if (v >= n)
		v = 0;	/* overlong: invalid, rejected later */
	memcpy(out, p, v);
	out[v] = '\0';
	return 1;
}

/* Redirects bring several responses: keep the hub's own headers. */
static size_t
cb_header(char *p, size_t size, size_t n, void *ud)
{
	struct dl *d = ud;
	size_t len = size * n;
	char v[160];

	if (len >= 5 && !memcmp(p, "HTTP/", 5))
		d->nresp++;
	else if (!d->commit[0] && header(p, len, "x-repo-commit", v, sizeof(v)))
		snprintf(d->commit, sizeof(d->commit), "%.79s", v);
	else if (!d->linked &&
		 header(p, len, "x-linked-etag", d->etag, sizeof(d->etag)))
		d->linked = 1;
	else if (!d->linked && d->nresp == 1)
		header(p, len, "etag", d->etag, sizeof(d->etag));
	return len;
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
		return seterr(F->err, F->errlen, "cannot download '%s': "
			      "libcurl failed to start", url);
	if (F->h->token[0]) {
		char *a = pathf("Authorization: Bearer %s", F->h->token);

		hdr = curl_slist_append(hdr, a);
		free(a);
	}
	set_options(c, F->h, url, d, hdr, cerr);
	rc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
	curl_easy_cleanup(c);
	curl_slist_free_all(hdr);
	if (d->toobig || rc == CURLE_FILESIZE_EXCEEDED)
		return seterr(F->err, F->errlen, "cannot download '%s': larger "
			      "than %zu bytes", url, F->h->max_bytes);
	if (rc != CURLE_OK)
		return seterr(F->err, F->errlen, "cannot download '%s': %s "
			      "(to work offline use --tokenizer builtin, a local "
			      "path or a filled HuggingFace cache)", url,
			      cerr[0] ? cerr : curl_easy_strerror(rc));
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

/* Strip W/ and quotes from an ETag; return it if it is a safe file name. */
static const char *
blob_name(char *etag)
{
	char *s = etag;
	size_t n;

	if (!strncmp(s, "W/", 2))
		s += 2;
	if (*s == '"')
		s++;
	n = strlen(s);
	if (n && s[n - 1] == '"')
		s[--n] = '\0';
	if (n == 0 || n > 128)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!is_word(s[i]) && s[i] != '-')
			return NULL;
	return s;
}

/* Replace dst by a symlink to target, atomically. */
static int
link_atomic(const char *target, const char *dst)
{
	char *tmp = pathf("%s.%ld.tmp", dst, (long)getpid());
	int rc;

	unlink(tmp);
	rc = symlink(target, tmp);
	if (rc == 0 && (rc = rename(tmp, dst)) < 0)
		unlink(tmp);
	free(tmp);
	return rc;
}

/* Move the downloaded tmp to blobs/<etag> linked from the snapshot, as
 * huggingface_hub does; without a usable ETag, to the snapshot itself. */
static int
store(struct fetch *F, const char *file, const char *tmp, char *etag)
{
	char *snap = pathf("%s/snapshots/%s", F->repo, F->commit);
	char *dst = pathf("%s/%s", snap, file), *blob = NULL, *up = NULL;
	const char *name = blob_name(etag);
	int rc = -1;

	if (mkdirs(snap) < 0) {
		seterr(F->err, F->errlen, "cannot create '%s': %s", snap,
		       strerror(errno));
		goto out;
	}
	if (name) {
		struct buf b = BUF_INIT(BUF_NOMAX);

		buf_addstr(&b, "../..");
		for (const char *s = F->commit; *s; s++)
			if (*s == '/')
				buf_addstr(&b, "/..");
		up = buf_detach(&b, NULL);
		blob = pathf("%s/blobs/%s", F->repo, name);
	}
	if (name && rename(tmp, blob) == 0) {
		char *target = pathf("%s/blobs/%s", up, name);

		rc = link_atomic(target, dst);
		if (rc < 0)
			rc = rename(blob, dst);	/* no symlinks here */
		free(target);
	} else {
		rc = rename(tmp, dst);
	}
	if (rc < 0)
		seterr(F->err, F->errlen, "cannot write '%s': %s", dst,
		       strerror(errno));
out:
	free(up);
	free(blob);
	free(dst);
	free(snap);
	return rc;
}

/* Write refs/<rev> holding the commit (no newline), atomically. */
static int
write_ref(struct fetch *F)
{
	char *path = pathf("%s/refs/%s", F->repo, F->rev);
	char *tmp = pathf("%s/refs/.aiperf-XXXXXX", F->repo);
	char *slash = strrchr(path, '/');
	size_t n = strlen(F->commit);
	int fd = -1, rc = -1;

	*slash = '\0';
	if (mkdirs(path) < 0)
		goto out;
	*slash = '/';
	if ((fd = mkstemp(tmp)) < 0)
		goto out;
	if (write(fd, F->commit, n) != (ssize_t)n || close(fd) < 0) {
		fd = -1;
		unlink(tmp);
		goto out;
	}
	fd = -1;
	if ((rc = rename(tmp, path)) < 0)
		unlink(tmp);
out:
	if (fd >= 0)
		close(fd);
	*slash = '/';
	if (rc < 0)
		seterr(F->err, F->errlen, "cannot write '%s': %s", path,
		       strerror(errno));
	free(tmp);
	free(path);
	return rc;
}

/* Remember that the hub has no such file (.no_exist/<commit>/<file>), as
 * huggingface_hub does; best effort. */
static void
mark_missing(struct fetch *F, const char *file)
{
	char *dir = pathf("%s/.no_exist/%s", F->repo, F->commit);
	char *path = pathf("%s/%s", dir, file);
	int fd;

	if (mkdirs(dir) == 0 &&
	    (fd = open(path, O_WRONLY | O_CREAT, 0666)) >= 0)
		close(fd);
	free(path);
	free(dir);
}

/* The snapshot is named by X-Repo-Commit, or by the revision without it. */
static int
set_commit(struct fetch *F, const struct dl *d, const char *url)
{
	if (!d->commit[0]) {
		F->commit = xstrdup(F->rev);
		return 0;
	}
	if (!is_commit(d->commit))
		return seterr(F->err, F->errlen, "cannot download '%s': "
			      "invalid X-Repo-Commit header", url);
	F->commit = xstrdup(d->commit);
	return 0;
}

/* After the first file, the others come from the same commit. */
static int
fetch_file(struct fetch *F, const char *file, int required)
{
	char *seg = url_segment(F->commit ? F->commit : F->rev);
	char *url = pathf("%s/%s/resolve/%s/%s", F->h->endpoint, F->id, seg, file);
	char *dir = pathf("%s/blobs", F->repo);
	char *tmp = pathf("%s/.aiperf-XXXXXX", dir);
	struct dl d = { .max = F->h->max_bytes };
	long status = 0;
	int fd = -1, rc = -1;

	if (mkdirs(dir) < 0 || (fd = mkstemp(tmp)) < 0 ||
	    !(d.f = fdopen(fd, "wb"))) {
		seterr(F->err, F->errlen, "cannot create a file in '%s': %s",
		       dir, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		goto out;
	}
	rc = download(F, url, &d, &status);
	if (fclose(d.f) != 0 && rc == 0)
		rc = seterr(F->err, F->errlen, "cannot write '%s': %s", tmp,
			    strerror(errno));
	if (rc == 0 && status == 404 && !required && F->commit) {
		mark_missing(F, file);
	} else if (rc == 0 && status != 200) {
		rc = seterr(F->err, F->errlen, "cannot download '%s': HTTP %ld%s",
			    url, status, status_hint(status));
	} else if (rc == 0) {
		if (!F->commit)
			rc = set_commit(F, &d, url);
		if (rc == 0 && (rc = store(F, file, tmp, d.etag)) == 0)
			goto out;	/* tmp is gone: renamed */
	}
	unlink(tmp);
out:
	free(tmp);
	free(dir);
	free(url);
	free(seg);
	return rc;
}

static char *
fetch(const struct hfhub *h, const char *id, const char *rev,
      const char *const *files, size_t n, char *err, size_t errlen)
{
	struct fetch F = { h, id, rev, NULL, NULL, err, errlen };
	char *snap = NULL;
	int rc = 0;

	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		seterr(err, errlen, "cannot download '%s': libcurl failed to "
		       "start", id);
		return NULL;
	}
	F.repo = repo_dir(h, id);
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = fetch_file(&F, files[i], i == 0);
	if (rc == 0 && strcmp(F.commit, rev))
		rc = write_ref(&F);
	if (rc == 0)
		snap = pathf("%s/snapshots/%s", F.repo, F.commit);
	curl_global_cleanup();
	free(F.commit);
	free(F.repo);
	return snap;
}

char *
hfhub_resolve(const struct hfhub *h, const char *id, const char *rev,
	      const char *const *files, size_t n, char *err, size_t errlen)
{
	char *repo, *snap;

	if (!rev || !*rev)
		rev = "main";
	if (!hfhub_valid_id(id)) {
		seterr(err, errlen, "invalid HuggingFace id '%s'", id);
		return NULL;
	}
	if (!hfhub_valid_revision(rev)) {
		seterr(err, errlen, "invalid revision '%s' for '%s'", rev, id);
		return NULL;
	}
	if (n == 0 || !h->cache[0]) {
		seterr(err, errlen, "no HuggingFace cache folder for '%s'", id);
		return NULL;
	}
	repo = repo_dir(h, id);
	snap = cached(repo, rev, files[0]);
	free(repo);
	if (!snap && (repo = alias_dir(h, id))) {
		snap = cached(repo, rev, files[0]);
		free(repo);
	}
	if (snap)
		return snap;
	if (h->offline) {
		seterr(err, errlen, "'%s' (revision %s) is not in the HuggingFace "
		       "cache '%s' and the hub is off limits (HF_HUB_OFFLINE): use --tokenizer "
		       "builtin or a local path", id, rev, h->cache);
		return NULL;
	}
	return fetch(h, id, rev, files, n, err, errlen);
}
