/* SPDX-License-Identifier: Apache-2.0 */
/* The artifact files: names (prefix and suffix rules), directory creation, writing. */
#include "export.h"

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/* The stem from --profile-export-prefix: last component, a known suffix stripped. */
static char *
stem(const char *prefix)
{
	static const char *const sfx[] = { "_timeslices.csv", "_timeslices.json",
		"_gpu_telemetry.jsonl", "_raw.jsonl", ".jsonl", ".json", ".csv" };
	const char *base = strrchr(prefix, '/') ? strrchr(prefix, '/') + 1 : prefix;
	size_t n = strlen(base);

	for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		size_t k = strlen(sfx[i]);
		if (n > k && !strcmp(base + n - k, sfx[i])) {
			n -= k;
			break;
		}
	}
	if (!n)
		die_usage("invalid value for --profile-export-prefix: '%s'", prefix);
	return xstrndup(base, n);
}

static char *
join(const char *dir, const char *name, const char *ext)
{
	size_t n = strlen(dir) + strlen(name) + strlen(ext) + 2;
	char *p = xmalloc(n);

	snprintf(p, n, "%s/%s%s", dir, name, ext);
	return p;
}

static void
mkdirs(const char *dir)
{
	char *p = xstrdup(dir);

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) < 0 && errno != EEXIST)
			die("cannot create '%s':", p);
		*s = '/';
	}
	if (mkdir(p, 0777) < 0 && errno != EEXIST)
		die("cannot create '%s':", p);
	free(p);
}

void
files_open(struct files *fl, const char *dir, const char *prefix, int records,
	   int slices)
{
	memset(fl, 0, sizeof(*fl));
	if (!dir)
		return;
	mkdirs(dir);
	char *s = prefix ? stem(prefix) : NULL;
	const char *sum = s ? s : "profile_export_aiperf";
	fl->json = join(dir, sum, ".json");
	fl->csv = join(dir, sum, ".csv");
	if (slices) {
		fl->slice_csv = join(dir, sum, "_timeslices.csv");
		fl->slice_json = join(dir, sum, "_timeslices.json");
	}
	if (records) {
		fl->jsonl = join(dir, s ? s : "profile_export", ".jsonl");
		if (linefile_open(&fl->rec, fl->jsonl) < 0)
			die("cannot open '%s':", fl->jsonl);
		fl->records = &fl->rec;
	}
	free(s);
}

/* The absolute path (as pathlib's resolve() prints it, short of symlinks). */
char *
files_absolute(const char *path)
{
	char cwd[PATH_MAX];

	if (path[0] == '/')
		return xstrdup(path);
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	if (!getcwd(cwd, sizeof(cwd)))
		return xstrdup(path);
	return join(cwd, path, "");
}

enum kind { K_JSON, K_CSV, K_SLICE_JSON, K_SLICE_CSV };

/* Each summary file is written whole or not at all: to a temporary name
 * beside it, renamed over the old one once complete. */
static const char *
write_one(const char *path, enum kind k, const struct summary *sm,
	  struct slices *sl, const struct exportopts *eo)
{
	size_t n = strlen(path) + 5;
	char *tmp = xmalloc(n);

	snprintf(tmp, n, "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	int rc = 0;

	if (!f)
		die("cannot open '%s':", tmp);
	switch (k) {
	case K_JSON: rc = json_export(f, sm, eo); break;
	case K_CSV: rc = csv_export(f, sm); break;
	case K_SLICE_JSON: rc = slices_json(f, sl, eo); break;
	case K_SLICE_CSV: rc = slices_csv(f, sl); break;
	}
	int bad = rc < 0 || fflush(f) == EOF, err = errno;
	if (fclose(f) == EOF && !bad)
		bad = 1, err = errno;
	if (!bad && rename(tmp, path) < 0)
		bad = 1, err = errno;
	if (bad) {
		unlink(tmp);
		errno = err;
		die("cannot write '%s':", path);
	}
	free(tmp);
	return files_absolute(path);
}

void
files_write(const struct files *fl, const struct summary *sm, struct slices *sl,
	    struct exportopts *eo)
{
	if (!fl->json)
		return;
	eo->json_path = write_one(fl->json, K_JSON, sm, sl, eo);
	eo->csv_path = write_one(fl->csv, K_CSV, sm, sl, eo);
	if (!fl->slice_csv)
		return;
	slices_finish(sl);
	eo->slice_csv_path = write_one(fl->slice_csv, K_SLICE_CSV, sm, sl, eo);
	eo->slice_json_path = write_one(fl->slice_json, K_SLICE_JSON, sm, sl, eo);
}

void
files_release(struct files *fl, struct exportopts *eo)
{
	free((char *)eo->json_path);
	free((char *)eo->csv_path);
	free((char *)eo->slice_csv_path);
	free((char *)eo->slice_json_path);
	free(fl->json);
	free(fl->csv);
	free(fl->jsonl);
	free(fl->slice_csv);
	free(fl->slice_json);
}
