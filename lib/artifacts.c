/* SPDX-License-Identifier: Apache-2.0 */
/* The artifact files of a run: names (prefix and suffix rules), and which ones a run writes. */
#include "artifacts.h"

#include <stdlib.h>
#include <string.h>

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
artifacts_prefix_ok(const char *prefix)
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
	[ART_ACCURACY] = { "accuracy", "accuracy_results.csv", NULL },	/* no prefix */
};

/* pathlib's dir / name: a relative stem keeps its directories under dir,
 * an absolute one is the place itself. */
char *
artifacts_path(const char *dir, const char *prefix, enum artifact k)
{
	char *s = prefix ? stem(prefix) : NULL, *p;

	if (prefix && !s)
		return NULL;
	if (!s || !arts[k].ext)
		p = join(dir, arts[k].name, "");
	else
		p = s[0] == '/' ? xstrfmt("%s%s", s, arts[k].ext) : join(dir, s, arts[k].ext);
	free(s);
	return p;
}

int
artifacts_written(enum artifact k, enum level level, int slices, unsigned srv)
{
	switch (k) {
	case ART_SRV_JSON: return !!(srv & ARTIFACTS_SRV_BIT(ART_SRV_JSON));
	case ART_SRV_CSV: return !!(srv & ARTIFACTS_SRV_BIT(ART_SRV_CSV));
	case ART_SRV_JSONL: return !!(srv & ARTIFACTS_SRV_BIT(ART_SRV_JSONL));
	case ART_SRV_PARQUET: return 0;	/* no Parquet writer in this build */
	case ART_RECORDS: return level >= LEVEL_RECORDS;
	case ART_RAW: return level == LEVEL_RAW;
	case ART_SLICE_CSV: case ART_SLICE_JSON: return slices;
	case ART_GPU: return 0;	/* only with --gpu-samples and GPUs in them */
	case ART_ACCURACY: return 0;	/* only when the records were graded */
	default: return 1;
	}
}

int
artifacts_list(FILE *f, const char *dir, const char *prefix, enum level level, int slices,
	       unsigned srv, int gpu)
{
	if (prefix && !artifacts_prefix_ok(prefix))
		return -1;
	for (int pass = 0; pass < 2; pass++) {
		for (int k = 0; k < ART_N; k++) {
			if ((artifacts_written(k, level, slices, srv) || (k == ART_GPU && gpu)) ==
			    pass)
				continue;
			char *p = artifacts_path(dir, prefix, k);
			fprintf(f, "%s\t%s\n", pass ? "other" : arts[k].kind, p);
			free(p);
		}
	}
	return 0;
}
