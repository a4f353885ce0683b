/* SPDX-License-Identifier: Apache-2.0 */
/* The artifact files (named by lib/artifacts): directory creation, writing. */
#include "export.h"
#include "srvmetrics.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "util.h"


/* The path's directory and its parents. */
static void
mkparent(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash || slash == path)
		return;
	char *d = xstrndup(path, (size_t)(slash - path));
	if (util_mkdirs(d) < 0)
		die("cannot create '%s':", d);
	free(d);
}

static char *
file_at(const char *dir, const char *prefix, enum artifact k)
{
	char *p = artifacts_path(dir, prefix, k);

	if (p) {
		mkparent(p);
		return p;
	}
	die_usage("invalid value for --profile-export-prefix: '%s'", prefix);
}

void
files_open(struct files *fl, const char *dir, const char *prefix, enum level level,
	   int slices)
{
	memset(fl, 0, sizeof(*fl));
	if (!dir)
		return;
	if (util_mkdirs(dir) < 0)
		die("cannot create '%s':", dir);
	fl->json = file_at(dir, prefix, ART_JSON);
	fl->csv = file_at(dir, prefix, ART_CSV);
	if (slices) {
		fl->slice_csv = file_at(dir, prefix, ART_SLICE_CSV);
		fl->slice_json = file_at(dir, prefix, ART_SLICE_JSON);
	}
	fl->gpu = file_at(dir, prefix, ART_GPU);
	if (artifacts_written(ART_RECORDS, level, slices, 0)) {
		fl->jsonl = file_at(dir, prefix, ART_RECORDS);
		if (linefile_open(&fl->rec, fl->jsonl, LINEFILE_FRESH) < 0)
			die("cannot open '%s':", fl->jsonl);
		fl->records = &fl->rec;
	}
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
	return xstrfmt("%s/%s", cwd, path);
}

enum kind { K_JSON, K_CSV, K_SLICE_JSON, K_SLICE_CSV, K_GPU };

/* Each summary file is written whole or not at all, and never through a
 * link at its name: to a new hidden name beside it (lib/outfile), renamed
 * over the old one once complete. */
static const char *
write_one(const char *path, enum kind k, const struct summary *sm,
	  struct slices *sl, const struct exportopts *eo)
{
	struct outfile of;
	FILE *f = outfile_fopen(&of, AT_FDCWD, path);
	int rc = 0;

	if (!f)
		die("cannot create '%s':", path);
	switch (k) {
	case K_JSON: rc = json_export(f, sm, eo); break;
	case K_CSV: rc = csv_export(f, sm, eo->gpu, eo->acc); break;
	case K_GPU: rc = gpu_jsonl(f, eo->gpu); break;
	case K_SLICE_JSON: rc = slices_json(f, sl, eo); break;
	case K_SLICE_CSV: rc = slices_csv(f, sl); break;
	}
	if (rc < 0)
		outfile_discard(&of);
	if (rc < 0 || outfile_commit(&of) < 0)
		die("cannot write '%s':", path);
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
	if (gpu_have(eo->gpu))
		eo->gpu_path = write_one(fl->gpu, K_GPU, sm, sl, eo);
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
	free((char *)eo->gpu_path);
	free(fl->gpu);
	free(fl->json);
	free(fl->csv);
	free(fl->jsonl);
	free(fl->slice_csv);
	free(fl->slice_json);
}
