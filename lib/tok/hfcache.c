/* SPDX-License-Identifier: Apache-2.0 */
/* The HuggingFace hub cache: look-ups and atomic stores. */
#include "tok/hfcache.h"

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
#include "outfile.h"
#include "util.h"

int
hfcache_is_commit(const char *s)
{
	size_t n = strlen(s);

	if (n != 40 && n != 64)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

static int
is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}


char *
hfcache_repo_kind(const char *cache, const char *kind, const char *id)
{
	const char *slash = strchr(id, '/');

	if (!slash)
		return xstrfmt("%s/%s--%s", cache, kind, id);
	return xstrfmt("%s/%s--%.*s--%s", cache, kind, (int)(slash - id), id,
		     slash + 1);
}

char *
hfcache_repo(const char *cache, const char *id)
{
	return hfcache_repo_kind(cache, "models", id);
}

/* The hub redirects "gpt2" to "openai-community/gpt2", and Python caches
 * it under either name; AIPerf takes the only match. */
char *
hfcache_alias(const char *cache, const char *id)
{
	size_t k = strlen(id);
	char *found = NULL;
	struct dirent *e;
	int n = 0;
	DIR *d;

	if (strchr(id, '/') || !(d = opendir(cache)))
		return NULL;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		const char *tail = e->d_name + len - k - 2;

		if (len < k + 11 || strncmp(e->d_name, "models--", 8) ||
		    strncmp(tail, "--", 2) || strcasecmp(tail + 2, id))
			continue;
		if (n++ == 0)
			found = xstrfmt("%s/%s", cache, e->d_name);
	}
	closedir(d);
	if (n == 1)
		return found;
	free(found);
	return NULL;
}

/* The commit that refs/<rev> names, or NULL when there is none. */
static char *
read_ref(const char *repo, const char *rev)
{
	char *path = xstrfmt("%s/refs/%s", repo, rev), s[128];
	FILE *f = fopen(path, "r");
	size_t n;

	free(path);
	if (!f)
		return NULL;
	n = fread(s, 1, sizeof(s) - 1, f);
	fclose(f);
	while (n > 0 && strchr(" \t\r\n", s[n - 1]))
		n--;
	s[n] = '\0';
	return hfcache_is_commit(s) ? xstrdup(s) : NULL;
}

char *
hfcache_snapshot(const char *repo, const char *rev, const char *file)
{
	char *commit = read_ref(repo, rev);
	char *snap = xstrfmt("%s/snapshots/%s", repo, commit ? commit : rev);
	char *path = xstrfmt("%s/%s", snap, file);
	int ok = is_file(path);

	free(path);
	free(commit);
	if (ok)
		return snap;
	free(snap);
	return NULL;
}

int
hfcache_tmpfile(const char *repo, char **path, char *err, size_t errlen)
{
	char *dir = xstrfmt("%s/blobs", repo);
	int fd = -1;

	*path = xstrfmt("%s/.aiperf-XXXXXX", dir);
	if (util_mkdirs(dir) < 0 || (fd = mkstemp(*path)) < 0) {
		util_seterr(err, errlen, "cannot create a file in '%s': %s", dir,
		       util_strerror(errno));
		free(*path);
		*path = NULL;
	}
	free(dir);
	return fd;
}

/* The ETag without W/ and quotes, if it is a safe file name; else "". */
static void
blob_name(char *out, size_t n, const char *etag)
{
	size_t len;

	if (!strncmp(etag, "W/", 2))
		etag += 2;
	if (*etag == '"')
		etag++;
	len = strcspn(etag, "\"");
	if (len == 0 || len >= n || len > 128)
		len = 0;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_-", etag[i]))
			len = 0;
	memcpy(out, etag, len);
	out[len] = '\0';
}

/* Replace dst by a symlink to target, atomically. */
static int
link_atomic(const char *target, const char *dst)
{
	char *tmp = xstrfmt("%s.%ld.tmp", dst, (long)getpid());
	int rc;

	unlink(tmp);
	rc = symlink(target, tmp);
	if (rc == 0 && (rc = rename(tmp, dst)) < 0)
		unlink(tmp);
	free(tmp);
	return rc;
}

/* blobs/<name> linked from snapshots/<commit>/<file>: "../.." and one more
 * ".." per '/' in the commit (a revision such as refs/pr/1). */
static int
store_blob(const char *repo, const char *commit, const char *dst,
	   const char *tmp, const char *name)
{
	char *blob = xstrfmt("%s/blobs/%s", repo, name);
	struct buf up = BUF_INIT(BUF_NOMAX);
	int rc;

	buf_addstr(&up, "../..");
	for (const char *s = commit; *s; s++)
		if (*s == '/')
			buf_addstr(&up, "/..");
	buf_addf(&up, "/blobs/%s", name);
	if ((rc = rename(tmp, blob)) == 0 && link_atomic(up.s, dst) < 0)
		rc = rename(blob, dst);	/* no symlinks here */
	buf_release(&up);
	free(blob);
	return rc;
}

int
hfcache_store(const char *repo, const char *commit, const char *file,
	      const char *tmp, const char *etag, char *err, size_t errlen)
{
	char *snap = xstrfmt("%s/snapshots/%s", repo, commit);
	char *dst = xstrfmt("%s/%s", snap, file);
	char name[160];
	int rc;

	blob_name(name, sizeof(name), etag);
	if (util_mkdirs(snap) < 0)
		rc = util_seterr(err, errlen, "cannot create '%s': %s", snap,
			    util_strerror(errno));
	else if ((rc = name[0] ? store_blob(repo, commit, dst, tmp, name)
			       : rename(tmp, dst)) < 0)
		util_seterr(err, errlen, "cannot write '%s': %s", dst, util_strerror(errno));
	free(dst);
	free(snap);
	return rc;
}

int
hfcache_write_ref(const char *repo, const char *rev, const char *commit,
		  char *err, size_t errlen)
{
	char *path = xstrfmt("%s/refs/%s", repo, rev);
	char *dir = xstrndup(path, (size_t)(strrchr(path, '/') - path));
	int rc = util_mkdirs(dir);

	if (rc == 0)
		rc = outfile_write(AT_FDCWD, path, commit, strlen(commit));
	if (rc < 0)
		util_seterr(err, errlen, "cannot write '%s': %s", path,
		       util_strerror(errno));
	free(dir);
	free(path);
	return rc;
}

void
hfcache_mark_missing(const char *repo, const char *commit, const char *file)
{
	char *dir = xstrfmt("%s/.no_exist/%s", repo, commit);
	char *path = xstrfmt("%s/%s", dir, file);
	int fd;

	if (util_mkdirs(dir) == 0 &&
	    (fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666)) >= 0)
		close(fd);
	free(path);
	free(dir);
}
