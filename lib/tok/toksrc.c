/* SPDX-License-Identifier: Apache-2.0 */
/* Where a tokenizer comes from: names, paths, the HuggingFace cache and hub. */
#include "tok/toksrc.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tok/hfhub.h"
#include "util.h"

#ifndef AIPERF_DATADIR
#define AIPERF_DATADIR "/usr/local/share/aiperf"
#endif

static char *fail(char *err, size_t errlen, const char *fmt, ...) FMT(3, 4);

static char *
fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (errlen)
		vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return NULL;
}

static int
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int
is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* prefix/rel into out, if it is a directory. */
static int
try_dir(char *out, size_t n, const char *prefix, const char *rel)
{
	if ((size_t)snprintf(out, n, "%s/%s", prefix, rel) >= n)
		return -1;
	return is_dir(out) ? 0 : -1;
}

/* /proc/self/exe is canonical, so the folder above the binary's folder
 * is simply the path less its last two components. */
const char *
toksrc_datadir(void)
{
	static char dir[PATH_MAX];
	const char *v = getenv("AIPERF_DATA_DIR");
	char exe[PATH_MAX], *slash;
	ssize_t n;

	if (v && *v && (size_t)snprintf(dir, sizeof(dir), "%s", v) < sizeof(dir))
		return dir;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		for (int i = 0; i < 2 && (slash = strrchr(exe, '/')); i++)
			*slash = '\0';
		if (try_dir(dir, sizeof(dir), exe, "data") == 0 ||
		    try_dir(dir, sizeof(dir), exe, "share/aiperf") == 0)
			return dir;
	}
	return AIPERF_DATADIR;
}

/* A shipped tiktoken rank file: DATADIR/NAME.tiktoken.zst or .tiktoken. */
static char *
shipped(const char *name, char *err, size_t errlen)
{
	const char *dir = toksrc_datadir();
	size_t n = strlen(dir) + strlen(name) + sizeof("/.tiktoken.zst");
	char *path = xmalloc(n);

	snprintf(path, n, "%s/%s.tiktoken.zst", dir, name);
	if (is_file(path))
		return path;
	snprintf(path, n, "%s/%s.tiktoken", dir, name);
	if (is_file(path))
		return path;
	free(path);
	return fail(err, errlen, "tokenizer '%s' is not in the data folder '%s' "
		    "(set AIPERF_DATA_DIR to the folder holding %s.tiktoken.zst)",
		    name, dir, name);
}

/* A folder must hold tokenizer.json[.zst]; tok_open reads the rest. */
static char *
local(const char *path, char *err, size_t errlen)
{
	size_t n = strlen(path) + sizeof("/tokenizer.json.zst");
	char *p;
	int ok;

	if (is_file(path))
		return xstrdup(path);
	if (!is_dir(path))
		return fail(err, errlen, "tokenizer '%s' is not a file or a folder",
			    path);
	p = xmalloc(n);
	snprintf(p, n, "%s/tokenizer.json", path);
	ok = is_file(p);
	snprintf(p, n, "%s/tokenizer.json.zst", path);
	ok = ok || is_file(p);
	free(p);
	if (!ok)
		return fail(err, errlen, "folder '%s' holds no tokenizer.json or "
			    "tokenizer.json.zst", path);
	return xstrdup(path);
}

static int
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/* Names that can only mean a local file, never a hub id. */
static int
is_pathlike(const char *s)
{
	return s[0] == '/' || s[0] == '.' || s[0] == '~' ||
	       ends_with(s, ".json") || ends_with(s, ".zst") ||
	       ends_with(s, ".tiktoken");
}

static char *
hub(const char *id, const char *revision, char *err, size_t errlen)
{
	static const char *const files[] = {
		"tokenizer.json", "tokenizer_config.json",
	};
	struct hfhub h;

	hfhub_init(&h);
	return hfhub_resolve(&h, id, revision, files, 2, err, errlen);
}

char *
toksrc_resolve(const char *spec, const char *revision, char *err,
	       size_t errlen)
{
	struct stat st;
	int e;

	if (!spec || !*spec)
		return fail(err, errlen, "empty tokenizer name");
	if (!strcmp(spec, "builtin"))
		return shipped("o200k_base", err, errlen);
	if (!strcmp(spec, "o200k_base") || !strcmp(spec, "cl100k_base"))
		return shipped(spec, err, errlen);
	if (!strcmp(spec, "o200k_harmony") || !strcmp(spec, "p50k_base") ||
	    !strcmp(spec, "p50k_edit") || !strcmp(spec, "r50k_base"))
		return fail(err, errlen, "tiktoken encoding '%s' is not shipped "
			    "(o200k_base and cl100k_base are)", spec);
	if (stat(spec, &st) == 0)
		return local(spec, err, errlen);
	e = errno;
	if (is_pathlike(spec))
		return fail(err, errlen, "cannot open tokenizer '%s': %s", spec,
			    util_strerror(e));
	if (!hfhub_valid_id(spec))
		return fail(err, errlen, "tokenizer '%s' is not a file or folder, "
			    "nor builtin, o200k_base, cl100k_base or a "
			    "HuggingFace id such as Qwen/Qwen3-0.6B", spec);
	return hub(spec, revision, err, errlen);
}

struct tok *
tok_load(const char *spec, const char *revision, char *err, size_t errlen)
{
	char *path = toksrc_resolve(spec, revision, err, errlen);
	struct tok *t;

	if (!path)
		return NULL;
	t = tok_open(path, err, errlen);
	free(path);
	/* The original's builtin adapter encodes with allowed_special="all". */
	if (t && !strcmp(spec, "builtin"))
		tok_allow_specials(t);
	return t;
}
