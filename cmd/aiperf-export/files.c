/* SPDX-License-Identifier: Apache-2.0 */
/* The artifact files: names (prefix and suffix rules), directory creation, writing. */
#include "export.h"
#include "srvmetrics.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "util.h"

/* str(PurePosixPath(p)): empty and "." components dropped, no trailing '/'. */
static char *
normalize(const char *p)
{
	char *out = xmalloc(strlen(p) + 2);
	size_t k = 0;

	if (*p == '/')
		out[k++] = '/';
	while (*p) {
		size_t n = strcspn(p, "/");
		if (n && !(n == 1 && *p == '.')) {
			if (k && out[k - 1] != '/')
				out[k++] = '/';
			memcpy(out + k, p, n);
			k += n;
		}
		p += n + (p[n] == '/');
	}
	out[k] = '\0';
	return out;
}

/*
 * The stem from --profile-export-prefix, as the original's OutputConfig
 * makes it: the path with the first known suffix (in this order) stripped.
 * NULL when nothing names a file (an empty last component, ".", "..").
 */
static char *
stem(const char *prefix)
{
	static const char *const sfx[] = { "_server_metrics.parquet",
		"_server_metrics.jsonl", "_server_metrics.json", "_server_metrics.csv",
		"_gpu_telemetry.jsonl", "_timeslices.csv", "_timeslices.json",
		"_raw.jsonl", ".parquet", ".csv", ".json", ".jsonl" };
	char *s = normalize(prefix);
	size_t n = strlen(s);

	for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		size_t k = strlen(sfx[i]);
		if (n >= k && !strcmp(s + n - k, sfx[i])) {
			s[n -= k] = '\0';
			break;
		}
	}
	const char *base = strrchr(s, '/') ? strrchr(s, '/') + 1 : s;
	if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
		free(s);
		return NULL;
	}
	return s;
}

int
files_prefix_ok(const char *prefix)
{
	char *s = stem(prefix);

	free(s);
	return s != NULL;
}

static char *
join(const char *dir, const char *name, const char *ext)
{
	size_t n = strlen(dir) + strlen(name) + strlen(ext) + 2;
	char *p = xmalloc(n);

	snprintf(p, n, "%s/%s%s", dir, name, ext);
	return p;
}

static const struct {
	const char *kind, *name, *ext;	/* default name; ext after a stem */
} arts[ART_N] = {
	[ART_JSON] = { "json", "profile_export_aiperf.json", ".json" },
	[ART_CSV] = { "csv", "profile_export_aiperf.csv", ".csv" },
	[ART_RECORDS] = { "records", "profile_export.jsonl", ".jsonl" },
	[ART_RAW] = { "raw", "profile_export_raw.jsonl", "_raw.jsonl" },
	[ART_SLICE_CSV] = { "timeslices_csv", "profile_export_aiperf_timeslices.csv",
			    "_timeslices.csv" },
	[ART_SLICE_JSON] = { "timeslices_json", "profile_export_aiperf_timeslices.json",
			     "_timeslices.json" },
	[ART_SRV_JSON] = { "server_json", "server_metrics_export.json", "_server_metrics.json" },
	[ART_SRV_CSV] = { "server_csv", "server_metrics_export.csv", "_server_metrics.csv" },
	[ART_SRV_JSONL] = { "server_jsonl", "server_metrics_export.jsonl",
			    "_server_metrics.jsonl" },
	[ART_SRV_PARQUET] = { "server_parquet", "server_metrics_export.parquet",
			      "_server_metrics.parquet" },
	[ART_GPU] = { "gpu_telemetry", "gpu_telemetry_export.jsonl", "_gpu_telemetry.jsonl" },
};

/* pathlib's dir / name: a relative stem keeps its directories under dir,
 * an absolute one is the place itself. */
char *
files_path(const char *dir, const char *prefix, enum artifact k)
{
	if (!prefix)
		return join(dir, arts[k].name, "");
	char *s = stem(prefix);
	if (s) {
		char *p = s[0] == '/' ? xstrfmt("%s%s", s, arts[k].ext)
				      : join(dir, s, arts[k].ext);
		free(s);
		return p;
	}
	die_usage("invalid value for --profile-export-prefix: '%s'", prefix);
}

int
files_written(enum artifact k, enum level level, int slices, unsigned srv)
{
	switch (k) {
	case ART_SRV_JSON: return !!(srv & SRV_JSON);
	case ART_SRV_CSV: return !!(srv & SRV_CSV);
	case ART_SRV_JSONL: return !!(srv & SRV_JSONL);
	case ART_SRV_PARQUET: return 0;	/* no Parquet writer in this build */
	case ART_RECORDS: return level >= LEVEL_RECORDS;
	case ART_RAW: return level == LEVEL_RAW;
	case ART_SLICE_CSV: case ART_SLICE_JSON: return slices;
	case ART_GPU: return 0;	/* only with --gpu-samples and GPUs in them */
	default: return 1;
	}
}

void
files_list(FILE *f, const char *dir, const char *prefix, enum level level, int slices,
	   unsigned srv, int gpu)
{
	for (int pass = 0; pass < 2; pass++) {
		for (int k = 0; k < ART_N; k++) {
			if ((files_written(k, level, slices, srv) || (k == ART_GPU && gpu)) == pass)
				continue;
			char *p = files_path(dir, prefix, k);
			fprintf(f, "%s\t%s\n", pass ? "other" : arts[k].kind, p);
			free(p);
		}
	}
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

/* The path's directory and its parents. */
static void
mkparent(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash || slash == path)
		return;
	char *d = xstrndup(path, (size_t)(slash - path));
	mkdirs(d);
	free(d);
}

static char *
file_at(const char *dir, const char *prefix, enum artifact k)
{
	char *p = files_path(dir, prefix, k);

	mkparent(p);
	return p;
}

void
files_open(struct files *fl, const char *dir, const char *prefix, enum level level,
	   int slices)
{
	memset(fl, 0, sizeof(*fl));
	if (!dir)
		return;
	mkdirs(dir);
	fl->json = file_at(dir, prefix, ART_JSON);
	fl->csv = file_at(dir, prefix, ART_CSV);
	if (slices) {
		fl->slice_csv = file_at(dir, prefix, ART_SLICE_CSV);
		fl->slice_json = file_at(dir, prefix, ART_SLICE_JSON);
	}
	fl->gpu = file_at(dir, prefix, ART_GPU);
	if (files_written(ART_RECORDS, level, slices, 0)) {
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
	return join(cwd, path, "");
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
	case K_CSV: rc = csv_export(f, sm, eo->gpu); break;
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
