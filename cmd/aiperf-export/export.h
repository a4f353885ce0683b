/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-export internals: the run summary built from metric records and its writers. */
#ifndef AIPERF_EXPORT_H
#define AIPERF_EXPORT_H

#include "artifacts.h"
#include "linefile.h"
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "json/json.h"
#include "stats/metricdef.h"
#include "stats/stats.h"
#include "stagecpu.h"
#include "gpu.h"
#include "fastrec.h"

/*
 * struct agg owns everything it accumulates (value arrays, error groups,
 * goodput SLOs); agg_release() frees it. struct summary borrows from the
 * agg it was built from and lives no longer than it.
 */

/* One result, in display units. */
struct result {
	const struct metricdef *def;
	int dist;		/* 1: distribution (all stats); 0: scalar, avg only */
	struct stats st;
};

struct errgroup {
	int has_code;
	int64_t code;
	char *type;		/* NULL when absent */
	char *message;
	size_t count;
};

struct slo {
	const struct metricdef *def;
	size_t idx;		/* index into metricdefs */
	double base;		/* threshold in base units */
};

/* Client health (beyond the original): from each record's "aiperf" object. */
struct client {
	struct stats_vec lateness;	/* ns: actual - intended send */
	struct stats_vec intended;	/* ns: request latency from the intended send */
	struct stats_vec delay;		/* ns: arrival - server send stamp */
	struct stats_vec late_at;	/* per lateness value its request_start_ns (NaN: none) */
	int64_t first_start, last_start;
	size_t starts;
	/* sender CPU: cpu_ns of every record, warmup included */
	int64_t cpu_min, cpu_max, cpu_end_min, cpu_end_max;
	size_t cpu_n, records;
};

struct agg {
	struct stats_vec *vals;	/* per metricdef, base units */
	double *sums;		/* running sums in insertion order */
	struct slo *slo;
	size_t nslo;
	size_t valid, errors, warmup, good, usage_discrepancies;
	int have_usage_diff;
	int64_t min_req, max_resp, start_ns, end_ns;
	int have_req, have_resp, have_start, have_end;
	struct errgroup *errs;
	size_t nerrs, caperrs;
	struct json_doc *doc;
	struct client cl;
};

struct summary {
	struct result *res;	/* in metricdefs (computation) order */
	size_t nres;
	const struct errgroup *errs;
	size_t nerrs;
	size_t valid, errors, warmup;
	int64_t start_ns, end_ns;
	int have_start, have_end;
	const struct result *duration;	/* benchmark_duration or NULL */
};

/* Client health figures; a negative value (or count 0) is unknown. */
struct pmax {
	size_t n;
	double p50, p99, max;	/* ms */
};

/* One scrape of aiperf-scrape (--server-samples), wall-clock ns. */
struct scrape_span {
	int64_t start, end;	/* the scrape's send to its end */
	int64_t cpu;		/* its CPU time, ns; -1: unknown */
};

struct clientsum {
	struct pmax lateness, intended, delay;
	/* the scraper in the window: scrapes, CPU per scrape (us), and the
	 * schedule lateness of requests whose [intended, actual send] meets a
	 * scrape and of the others */
	size_t scrapes;
	double scrape_cpu_avg_us, scrape_cpu_max_us;
	struct pmax late_scraping, late_otherwise;
	double cpu_us_per_request, achieved_rate, target_rate;
	double cpu_busy;	/* sender CPU / wall time between records, or -1 */
	struct stagecpu others;	/* the other stages' CPU in the window (n 0: unknown) */
};

struct exportopts {
	const char *title;
	const char *benchmark_id;
	const char *version;
	const char *cli_command;
	const char *input_config;	/* JSON text or NULL */
	int was_cancelled;
	int show_trace;		/* --show-trace-timing */
	const char *json_path, *csv_path;	/* written files, for the end lines */
	const char *slice_csv_path, *slice_json_path;
	const char *log_file;
	struct clientsum cs;
	const struct gpus *gpu;	/* --gpu-samples, or NULL */
	int gpu_console;	/* --gpu-console */
	const char *gpu_path;	/* gpu_telemetry_export.jsonl written */
};

/* config.c: endpoint types (static table) and --goodput. */
struct endpoint {
	const char *name;
	const char *title;	/* the console table's, after "NVIDIA AIPerf | " */
	unsigned caps;		/* produces tokens, tokenizes input, streams */
};

/* What the run measured, for the original's metric filters. */
struct runcfg {
	const struct endpoint *endpoint;	/* NULL: take every SLO tag */
	int streaming;		/* --streaming (off for an endpoint that cannot) */
	int server_tokens;	/* --use-server-token-count */
};

/* The entry for an --endpoint-type name, or NULL. */
const struct endpoint *endpoint_find(const char *name);
/* The known names, ", " separated, into out. */
void endpoint_names(char *out, size_t n);
/*
 * Parse "tag:value ..." (or a JSON object) into a's SLOs; 0, or -1 with
 * the original's message in why: an unknown tag, or a metric rc rules out.
 */
int agg_goodput(struct agg *a, const char *spec, const struct runcfg *rc, char *why,
		size_t whylen);

/* agg.c */
void agg_init(struct agg *a);
void agg_release(struct agg *a);
/* Add one metric record line. 1 = profiling record, 0 = warmup (dropped),
 * -1 = malformed (message in why). *rec: the parsed line, valid until the
 * next call. */
int agg_line(struct agg *a, const char *s, size_t n, const struct json **rec,
	     char *why, size_t whylen);
/* Add one parsed record (as agg_line). */
int agg_record(struct agg *a, const struct json *r, char *why, size_t whylen);
/* Add a record frec_scan() read, as agg_record() would: 1, 0 (warmup), or
 * -1 when the JSON path must take it (a would be left unchanged). */
int agg_fast(struct agg *a, const struct frec *fr);
void agg_copy_slos(struct agg *dst, const struct agg *src);
void agg_summary(struct agg *a, struct summary *sm);
void summary_release(struct summary *sm);
const struct result *summary_find(const struct summary *sm, const char *tag);
/* Base value back from a display value written as base * factor. */
double agg_to_base(double display, double factor);

/* client.c */
void client_init(struct client *c);
void client_release(struct client *c);
/* Add one profiling record's facts; -1 with why on a malformed "aiperf". */
int client_record(struct client *c, const struct json *rec, char *why, size_t whylen);
/* Add any record's sender CPU stamp (warmup too); -1 with why when malformed. */
int client_cpu(struct client *c, const struct json *rec, char *why, size_t whylen);
/* The same for a record frec_scan() read (client_fast_full() first:
 * nonzero when the JSON path must take it). */
int client_fast_full(const struct client *c, const struct frec *fr);
void client_fast_cpu(struct client *c, const struct frec *fr);
void client_fast_record(struct client *c, const struct frec *fr);
void client_summary(struct client *c, const struct summary *sm, struct clientsum *cs,
		    double cpu_seconds, double target_rate);
int client_known(const struct clientsum *cs);
void client_json(struct jw *w, const struct clientsum *cs);
void client_console(FILE *f, const struct clientsum *cs);
void client_warn(const struct clientsum *cs, const struct summary *sm, double cpu_seconds);
/* The scraper's share of client health from its scrapes (any order;
 * sp is reordered and overwritten). */
void client_scraper(const struct client *c, const struct summary *sm, struct scrape_span *sp,
		    size_t n, struct clientsum *cs);

/* slices.c: --slice-duration timeslices, each summarised as a run of its own. */
struct slice {
	int64_t idx;		/* floor(request_start_ns / width) */
	struct agg a;
	struct summary sm;	/* after slices_finish() */
};

struct slices {
	int64_t width_ns;	/* 0: off */
	struct slice *v;
	size_t n, cap;
	int done;
};

void slices_init(struct slices *sl, double seconds);
void slices_release(struct slices *sl);
/* Add a profiling record to its slice; -1 with why past the slice cap. */
int slices_add(struct slices *sl, const struct agg *proto, const struct json *r,
	       char *why, size_t whylen);
/* The same for a record frec_scan() read (agg_fast() took it). */
int slices_add_fast(struct slices *sl, const struct agg *proto, const struct frec *fr,
		    char *why, size_t whylen);
/* Summarise every slice (once: statistics sort the values). */
void slices_finish(struct slices *sl);
int slices_json(FILE *f, struct slices *sl, const struct exportopts *o);
int slices_csv(FILE *f, struct slices *sl);

/* json.c helpers shared with slices.c */
void json_metric(struct jw *w, const struct result *r);
int json_input_config(struct jw *w, const char *text);
int result_exported(const struct result *r);
/* datetime.fromtimestamp(ns / 1e9).isoformat() */
void iso_local(int64_t ns, char out[64]);

/* files.c */
struct files {
	char *json, *csv, *jsonl, *slice_csv, *slice_json;	/* NULL: not written */
	char *gpu;		/* gpu_telemetry_export.jsonl */
	struct linefile *records;	/* the profile_export.jsonl copy, open while reading */
	struct linefile rec;
};

/* Create dir (and each file's directory); open the records copy. */
void files_open(struct files *fl, const char *dir, const char *prefix, enum level level,
		int slices);
/* Write the summaries (and timeslices); set eo's paths for the end lines. */
void files_write(const struct files *fl, const struct summary *sm, struct slices *sl,
		 struct exportopts *eo);
void files_release(struct files *fl, struct exportopts *eo);
/* path made absolute against the working directory (malloc'd) */
char *files_absolute(const char *path);

/* validate.c: aiperf-validate(1), run as aiperf-export --validate ARGS. */
int validate_main(int argc, char **argv);

/* vcmp.c: reading our CSV back, comparing files with recomputed texts. */
struct csvrow {
	char **f;		/* fields, unquoted, NUL-terminated */
	size_t n;		/* 0 for an empty line */
};

struct csv {
	struct csvrow *rows;
	size_t n;
};

/* Parse s[0..n) as csv.writer writes it (CRLF, minimal quoting): 0, or -1
 * with why naming the line. csv_release() frees c, either way. */
int csv_read(const char *s, size_t n, struct csv *c, char *why, size_t whylen);
void csv_release(struct csv *c);
/* 0 when got has want's lines and texts, numbers within a rounding of
 * %.2f; column skipcol (or -1) is not compared. -1 with why at the first
 * difference, which names want as coming from src ("the records"). */
int csv_compare(const struct csv *got, const struct csv *want, int skipcol, const char *src,
		char *why, size_t whylen);
/* 0 when got equals want (numbers within 1e-9 relative, objects in the
 * same key order), leaving out got's and want's top-level keys in skip
 * (NULL-terminated); else -1 with why naming the first difference. */
int json_compare(const struct json *got, const struct json *want, const char *const *skip,
		 const char *src, char *why, size_t whylen);

/* table.c */
void table_print(FILE *f, const struct summary *sm, const struct exportopts *o);

/* json.c */
int json_export(FILE *f, const struct summary *sm, const struct exportopts *o);

/* csv.c */
int csv_export(FILE *f, const struct summary *sm, const struct gpus *g);

#endif
