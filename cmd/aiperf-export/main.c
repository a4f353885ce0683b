/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-export: metric records in; console table, profile_export_aiperf.{json,csv} and records copy out. */
#include "export.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "lines.h"
#include "opt.h"
#include "outfile.h"
#include "rand/pystr.h"
#include "http/redact.h"
#include "runlog.h"
#include "srvmetrics.h"
#include "summary/stagecpu.h"
#include "gpucsv.h"
#include "util.h"

#define MAX_LINE ((size_t)64 << 20)
#define MAX_CONFIG ((size_t)16 << 20)
#define EXIT_INVALID 3

struct options {
	const char *artifact_dir, *prefix, *level, *goodput, *endpoint_type;
	const char *benchmark_id, *version, *cli_command, *input_config_path, *log_file;
	const char *run_info_path;	/* --run-info */
	const char *cancelled_if, *stage_cpu, *server_samples, *server_formats;
	unsigned srv;		/* SRV_* formats; 0 without --server-samples */
	const char **gpu_samples;
	int ngpu_samples, gpu_console;
	const char *gpu_metrics;	/* custom GPU metrics CSV */
	const struct endpoint_type *endpoint;
	int was_cancelled, no_console, show_trace, streaming, server_tokens;
	int check, list_files;
	enum level lvl;
	double max_error_rate, min_goodput_pct, cpu_seconds, target_rate, slice;
	char **files;
	int nfiles;
};

enum {
	O_ART = 256, O_PFX, O_LVL, O_GP, O_EPT, O_CFG, O_BID, O_VER, O_CLI, O_CAN,
	O_CANIF, O_NOC, O_MER, O_MGP, O_CPU, O_RATE, O_SLICE, O_LOG, O_TRACE,
	O_STREAM, O_UST, O_CHECK, O_LIST, O_SCPU, O_SRV, O_SRVF, O_GPUS, O_GPUC, O_GPUM, O_RUNINFO, O_HELP,
	O_VERSION,
};

/* By enum level; opt checks a value against it (and --list-choices lists it). */
static const char *const levels[] = { "summary", "records", "raw", NULL };

#define STR(arg, lv) OPT_STR, arg, OPT_TO(lv)
#define DBL(arg, lv, l, h) OPT_DOUBLE, arg, OPT_TO(lv), .lo = (l), .hi = (h)
#define ALIAS(name, key) { name, key, .flags = OPT_ALIAS }

/* The options in synopsis order, each followed by its other names. */
#define EXPORT_OPTS(o) { \
	{ "artifact-dir", O_ART, STR("dir", o->artifact_dir) }, \
	ALIAS("output-artifact-dir", O_ART), \
	{ "profile-export-prefix", O_PFX, STR("prefix", o->prefix) }, \
	ALIAS("profile-export-file", O_PFX), \
	{ "export-level", O_LVL, STR("summary | records | raw", o->level), .choices = levels, \
	  .flags = OPT_BR }, \
	ALIAS("profile-export-level", O_LVL), \
	{ "goodput", O_GP, STR("slos", o->goodput) }, \
	{ "endpoint-type", O_EPT, STR("type", o->endpoint_type), .flags = OPT_BR }, \
	{ "streaming", O_STREAM, OPT_FLAG, NULL, OPT_TO(o->streaming) }, \
	{ "use-server-token-count", O_UST, OPT_FLAG, NULL, OPT_TO(o->server_tokens) }, \
	{ "input-config", O_CFG, STR("file", o->input_config_path), .flags = OPT_BR }, \
	{ "benchmark-id", O_BID, STR("id", o->benchmark_id) }, \
	{ "run-info", O_RUNINFO, STR("file", o->run_info_path), .flags = OPT_BR }, \
	{ "aiperf-version", O_VER, STR("version", o->version) }, \
	{ "cli-command", O_CLI, STR("text", o->cli_command), .flags = OPT_BR }, \
	{ "was-cancelled", O_CAN, OPT_FLAG, NULL, OPT_TO(o->was_cancelled) }, \
	{ "was-cancelled-if", O_CANIF, STR("file", o->cancelled_if), .flags = OPT_BR | OPT_PRIVATE }, \
	{ "no-console", O_NOC, OPT_FLAG, NULL, OPT_TO(o->no_console) }, \
	{ "max-error-rate", O_MER, DBL("pct", o->max_error_rate, 0, 100), .flags = OPT_BR }, \
	{ "min-goodput-pct", O_MGP, DBL("pct", o->min_goodput_pct, 0, 100) }, \
	{ "client-cpu-seconds", O_CPU, DBL("s", o->cpu_seconds, 0, 1e12), .flags = OPT_BR }, \
	{ "target-request-rate", O_RATE, DBL("rate", o->target_rate, 0, 1e12) }, \
	{ "stage-cpu", O_SCPU, STR("file", o->stage_cpu), .flags = OPT_PRIVATE }, \
	{ "server-samples", O_SRV, STR("file", o->server_samples) }, \
	{ "server-metrics-formats", O_SRVF, STR("list", o->server_formats), .flags = OPT_BR }, \
	{ "gpu-samples", O_GPUS, OPT_STR, "file", .flags = OPT_BR }, \
	{ "gpu-console", O_GPUC, OPT_FLAG, NULL, OPT_TO(o->gpu_console) }, \
	{ "gpu-metrics", O_GPUM, STR("csv", o->gpu_metrics) }, \
	{ "slice-duration", O_SLICE, DBL("s", o->slice, 1e-9, 1e9), .flags = OPT_BR }, \
	{ "log-file", O_LOG, STR("path", o->log_file) }, \
	{ "show-trace-timing", O_TRACE, OPT_FLAG, NULL, OPT_TO(o->show_trace), \
	  .flags = OPT_BR }, \
	{ "check", O_CHECK, OPT_FLAG, NULL, OPT_TO(o->check) }, \
	{ "list-files", O_LIST, OPT_FLAG, NULL, OPT_TO(o->list_files), .flags = OPT_OR }, \
	{ "help", O_HELP, OPT_HELP, .flags = OPT_HIDE }, \
	{ "version", O_VERSION, OPT_VERSION, .flags = OPT_HIDE }, \
	{ 0 }, \
}

static void
gpu_metrics_warn(void *path, size_t lineno, const char *why)
{
	warn("warning: %s:%zu: %s; line skipped", (const char *)path, lineno, why);
}

/* --gpu-metrics: an unreadable file is a usage error, a bad line a warning. */
static void
gpu_metrics_read(const char *path, struct gpucsv *c)
{
	size_t n;
	char *s = util_readfile(path, MAX_CONFIG, &n);

	if (!s)
		die_usage("--gpu-metrics: cannot read '%s': %s", path,
			  errno == EFBIG ? "too large" : util_strerror(errno));
	gpucsv_parse(c, s, n, gpu_metrics_warn, (void *)path);
	free(s);
}

/* The choices as the other stages' option tables word them. */
static _Noreturn void
bad_endpoint_type(const char *name)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	endpoint_list(&b);
	die_usage("invalid value for --endpoint-type: '%s' (%s)", name, buf_str(&b));
}

static void
parse_args(int argc, char **argv, struct options *o)
{
	struct opt tab[] = EXPORT_OPTS(o);
	const struct opt_cmd cmd = { "aiperf-export", tab, "[file ...]", 0, NULL, NULL };
	struct opt_iter it;

	opt_init(&it, &cmd, argc, argv);
	int c;

	while ((c = opt_next(&it)) != -1)
		if (c == O_GPUS) {
			o->gpu_samples = xreallocarray(o->gpu_samples, (size_t)o->ngpu_samples + 1,
						       sizeof(*o->gpu_samples));
			o->gpu_samples[o->ngpu_samples++] = it.arg;
		}
	o->lvl = LEVEL_RAW + 1;
	for (int i = LEVEL_SUMMARY; i <= LEVEL_RAW; i++)
		if (!strcmp(o->level, levels[i]))
			o->lvl = i;
	if (o->lvl > LEVEL_RAW)
		die_usage("invalid value for --export-level: '%s' (summary, records or raw)", o->level);
	if (o->prefix && !artifacts_prefix_ok(o->prefix))
		die_usage("invalid value for --profile-export-prefix: '%s'", o->prefix);
	if (o->min_goodput_pct >= 0 && !o->goodput)
		die_usage("--min-goodput-pct needs --goodput");
	if (o->benchmark_id && !*o->benchmark_id)
		die_usage("--benchmark-id must not be empty");
	if (!(o->endpoint = endpoint_find(o->endpoint_type)))
		bad_endpoint_type(o->endpoint_type);
	char why[256];
	unsigned f;
	if (srv_formats(o->server_formats, &f, why, sizeof(why)) < 0)
		die_usage("%s", why);
	o->srv = o->server_samples ? f : 0;
	o->files = argv + it.ind;
	o->nfiles = argc - it.ind;
}


struct input {
	struct frec *fr;	/* NULL: no fast path (AIPERF_NO_FASTPATH) */
	struct agg *a;
	struct accsum *acc;
	struct slices *sl;
	struct linefile *copy;
};

static _Noreturn void
copy_failed(const struct linefile *lf)
{
	die("cannot write '%s': %s (it holds the first %zu records, whole)",
	    lf->path, util_strerror(errno), lf->lines);
}

static void
read_input(struct lines *l, struct input *in)
{
	const struct json *r;
	const char *s;
	size_t n;
	int rc;
	char why[256];

	while ((rc = lines_next(l, &s, &n)) == 1) {
		if (pystr_isblank(s, n))
			continue;
		int k = -1;

		if (in->fr && frec_scan(in->fr, s, n) == 0)
			k = agg_fast(in->a, in->fr);
		if (k >= 0) {
			if (k == 1 && slices_add_fast(in->sl, in->a, in->fr, why, sizeof(why)) < 0)
				k = -1;
		} else {
			k = agg_line(in->a, s, n, &r, why, sizeof(why));
			if (k == 1 && slices_add(in->sl, in->a, r, why, sizeof(why)) < 0)
				k = -1;
		}
		if (k == 1 && acc_line(in->acc, s, n, why, sizeof(why)) < 0)
			k = -1;
		if (k < 0)
			die("%s:%zu: %s", l->name, l->lineno, why);
		if (k == 1 && in->copy && linefile_put(in->copy, s, n) < 0)
			copy_failed(in->copy);
	}
	if (rc < 0) {
		if (errno == ENOBUFS)
			die("%s:%zu: line longer than %zu bytes", l->name, l->lineno, MAX_LINE);
		die("%s:", l->name);
	}
}

static void
read_all(const struct options *o, struct input *in)
{
	struct lines l;

	if (!o->nfiles) {
		lines_fdopen(&l, 0, "<stdin>", MAX_LINE);
		read_input(&l, in);
		lines_close(&l);
	}
	for (int i = 0; i < o->nfiles; i++) {
		if (lines_open_stream(&l, o->files[i], MAX_LINE) < 0)
			die("cannot open '%s':", o->files[i]);
		read_input(&l, in);
		lines_close(&l);
	}
}

static void
check_config(const char *path, const char *text)
{
	char err[128];
	struct json_doc *d = json_doc_new();
	struct json *v = json_parse(d, text, strlen(text), err, sizeof(err));

	if (!v || v->type != JSON_OBJECT)
		die("%s: %s", path, v ? "not a JSON object" : err);
	json_doc_free(d);
}

/* EXIT STATUS 3: the run is not one CI should trust. */
static int
verdict(const struct options *o, const struct summary *sm)
{
	size_t total = sm->valid + sm->errors;
	const struct result *good = summary_find(sm, "good_request_count");

	if (!sm->valid) {
		if (sm->errors)
			warn("every request failed (%zu of %zu)", sm->errors, total);
		else
			warn("no profiling records in the input");
		return EXIT_INVALID;
	}
	if (o->max_error_rate >= 0 && 100.0 * (double)sm->errors / (double)total > o->max_error_rate) {
		warn("error rate %.2f%% exceeds --max-error-rate %g%%",
		     100.0 * (double)sm->errors / (double)total, o->max_error_rate);
		return EXIT_INVALID;
	}
	if (o->min_goodput_pct >= 0 && good &&
	    100.0 * good->st.avg / (double)sm->valid < o->min_goodput_pct) {
		warn("good requests %.2f%% below --min-goodput-pct %g%%",
		     100.0 * good->st.avg / (double)sm->valid, o->min_goodput_pct);
		return EXIT_INVALID;
	}
	return 0;
}

/*
 * --stage-cpu: the other stages' CPU in the measured window, from the
 * wrapper's samples. The sampler writes "end" when the sender is gone,
 * which may be a moment after this stage read its last record: it is
 * waited for (2 s at most). Anything wrong is a warning, not a failure.
 */
static void
stage_cpu(const char *path, const struct summary *sm, struct stagecpu *sc)
{
	char *text = NULL, why[160];
	size_t len = 0;

	for (int i = 0; i < 200; i++) {
		free(text);
		text = util_readfile(path, (size_t)64 << 20, &len);
		if (text && stagecpu_complete(text, len))
			break;
		struct timespec ts = { 0, 10000000 };
		nanosleep(&ts, NULL);
	}
	if (!text)
		warn("--stage-cpu: cannot read '%s':", path);
	else if (!sm->have_start || !sm->have_end)
		;	/* no window: nothing to say */
	else if (stagecpu_parse(sc, text, len, sm->start_ns, sm->end_ns, why, sizeof(why)) < 0)
		warn("--stage-cpu: %s: %s", path, why);
	free(text);
}

/*
 * --server-samples: waited for (FILE_WAIT_S at most) when it does not
 * exist yet: aiperf profile moves the scraper's records into place when
 * the scraper has ended, which may be a moment after the records ended.
 */
#define FILE_WAIT_S 20

/* Written whole under a new name, never through a link (lib/outfile). */
static char *
srv_write(const char *path, const struct srv *s, const struct exportopts *eo, int csv)
{
	struct outfile of;
	FILE *f = outfile_fopen(&of, AT_FDCWD, path);

	if (!f)
		die("cannot create '%s':", path);
	if ((csv ? srv_csv(f, s, eo) : srv_json(f, s, eo)) < 0) {
		outfile_discard(&of);
		die("cannot write '%s':", path);
	}
	if (outfile_commit(&of) < 0)
		die("cannot write '%s':", path);
	return files_absolute(path);
}

/*
 * --server-samples: read aiperf-scrape's records (waiting for the file the
 * wrapper moves into place once the scraper has ended) and aggregate them
 * over the profiling window into s; 0, or -1 with nothing to write.
 */
static int
server_metrics_read(const struct options *o, const struct summary *sm, struct srv *s,
		    char *p[3])
{
	static const enum artifact art[3] = { ART_SRV_JSON, ART_SRV_CSV, ART_SRV_JSONL };
	static const unsigned bit[3] = { SRV_JSON, SRV_CSV, SRV_JSONL };

	if (o->srv & SRV_PARQUET)
		warn("server metrics: format parquet is not available in this build "
		     "(no Parquet library); the other formats are written");
	for (int i = 0; i < 20 * FILE_WAIT_S && access(o->server_samples, F_OK) < 0; i++) {
		struct timespec ts = { 0, 50000000 };
		nanosleep(&ts, NULL);
	}
	if (!sm->have_start || !sm->have_end) {
		warn("server metrics: no profiling window (no profiling records): no server metrics files");
		return -1;
	}
	for (int i = 0; i < 3; i++)
		if (o->srv & bit[i])
			p[i] = artifacts_path(o->artifact_dir, o->prefix, art[i]);
	if (srv_read(s, o->server_samples, p[2]) < 0)
		return -1;
	srv_window(s, sm->start_ns, sm->end_ns, o->artifact_dir ? o->slice : 0);
	srv_compute(s);
	for (size_t i = 0; i < s->nep; i++)
		if (!s->ep[i].fetches)
			warn("server metrics: no successful scrape of %s", s->ep[i].url);
	return 0;
}

/* The server metrics files (JSON and CSV; the JSONL went out as read). */
static void
server_metrics_write(const struct srv *s, char *p[3], const struct exportopts *eo)
{
	for (int i = 0; i < 2; i++) {
		if (!p[i])
			continue;
		char *abs = srv_write(p[i], s, eo, i == 1);
		runlog(RUNLOG_INFO, "Server metrics %s: %s", i ? "CSV" : "JSON", abs);
		free(abs);
	}
}

int
main(int argc, char **argv)
{
	struct options o = { .level = "records", .version = "0.7.0",
			     .endpoint_type = endpoint_get(ENDPOINT_CHAT)->name,
			     .max_error_rate = -1, .min_goodput_pct = -1,
			     .cpu_seconds = -1, .target_rate = -1,
			     .server_formats = "json csv" };
	struct exportopts eo = { 0 };
	char id[37], why[256], title[128];
	struct files fl;
	struct slices sl;
	struct summary sm;
	struct agg a;
	char *cfg = NULL, *ri = NULL;
	size_t cfglen;

	util_setprogname(argv[0]);
	signal(SIGPIPE, SIG_IGN);
	parse_args(argc, argv, &o);
	agg_init(&a);
	/* Everything is checked before the first record is read (--check). */
	const struct runcfg run = { o.endpoint, o.streaming, o.server_tokens };
	if (o.goodput && agg_goodput(&a, o.goodput, &run, why, sizeof(why)) < 0)
		die_usage("%s", why);
	if (o.input_config_path && !(cfg = util_readfile(o.input_config_path, MAX_CONFIG, &cfglen)))
		die("cannot read '%s':", o.input_config_path);
	if (cfg)
		check_config(o.input_config_path, cfg);
	if (o.run_info_path && !(ri = util_readfile(o.run_info_path, MAX_CONFIG, &cfglen)))
		die("cannot read '%s':", o.run_info_path);
	if (ri)
		check_config(o.run_info_path, ri);
	struct gpucsv gcsv = { NULL, 0 };
	if (o.gpu_metrics)
		gpu_metrics_read(o.gpu_metrics, &gcsv);
	if (o.check || o.list_files) {
		gpucsv_release(&gcsv);
		if (o.list_files && o.artifact_dir)
			artifacts_list(stdout, o.artifact_dir, o.prefix, o.lvl, o.slice > 0,
				   o.srv, o.ngpu_samples > 0);
		agg_release(&a);
		free(cfg);
		free(ri);
		free(o.gpu_samples);
		return util_fshut(stdout, "stdout") ? 1 : 0;
	}
	if (!o.benchmark_id)
		util_uuid4(id);
	/* The console line and every file get the command without its secrets. */
	struct buf cli = BUF_INIT(BUF_NOMAX);
	if (o.cli_command && redact_cli(&cli, o.cli_command, strlen(o.cli_command)) > 0)
		o.cli_command = buf_str(&cli);
	if (o.cli_command)
		runlog(RUNLOG_INFO, "CLI Command: %s", o.cli_command);
	snprintf(title, sizeof(title), "NVIDIA AIPerf | %s", o.endpoint->metrics_title);
	eo = (struct exportopts){ .title = title,
		.benchmark_id = o.benchmark_id ? o.benchmark_id : id,
		.version = o.version, .cli_command = o.cli_command,
		.input_config = cfg, .run_info = ri, .was_cancelled = o.was_cancelled,
		.show_trace = o.show_trace,
		.log_file = o.log_file ? files_absolute(o.log_file) : NULL };
	slices_init(&sl, o.artifact_dir ? o.slice : 0);
	files_open(&fl, o.artifact_dir, o.prefix, o.lvl, sl.width_ns != 0);
	struct frec fr;
	struct accsum acc;
	acc_init(&acc);
	struct input in = { util_fastpath() ? &fr : NULL, &a, &acc, &sl, fl.records };
	if (in.fr)
		frec_init(&fr);
	read_all(&o, &in);
	if (in.fr)
		frec_release(&fr);
	/* Whoever stopped the run made the file before the input could end. */
	if (o.cancelled_if && access(o.cancelled_if, F_OK) == 0)
		eo.was_cancelled = 1;
	if (fl.records && linefile_close(fl.records) < 0)
		copy_failed(fl.records);
	agg_summary(&a, &sm);
	runlog(RUNLOG_INFO, "%zu profiling requests: %zu valid, %zu errors (%zu warmup records left out)",
	       sm.valid + sm.errors, sm.valid, sm.errors, sm.warmup);
	client_summary(&a.cl, &sm, &eo.cs, o.cpu_seconds, o.target_rate);
	if (o.stage_cpu)
		stage_cpu(o.stage_cpu, &sm, &eo.cs.others);
	struct srv srv;
	char *srvp[3] = { NULL, NULL, NULL };
	int have_srv = 0;
	srv_init(&srv);
	if (o.srv && o.artifact_dir &&
	    server_metrics_read(&o, &sm, &srv, srvp) == 0) {
		have_srv = 1;
		client_scraper(&a.cl, &sm, srv.spans, srv.nspans, &eo.cs);
	}
	struct gpus gpu;
	gpu_init(&gpu);
	gpu_custom(&gpu, &gcsv, o.gpu_metrics);
	for (int i = 0; i < o.ngpu_samples; i++)
		gpu_read(&gpu, o.gpu_samples[i]);
	gpu_window(&gpu, sm.have_start, sm.start_ns, sm.have_end, sm.end_ns);
	eo.gpu = &gpu;
	eo.gpu_console = o.gpu_console;
	acc_finish(&acc);
	eo.acc = &acc;
	files_write(&fl, &sm, &sl, &eo);
	char *acc_path = NULL;
	if (fl.json && (acc_path = acc_csv(&acc, o.artifact_dir))) {
		char *abs = files_absolute(acc_path);

		runlog(RUNLOG_INFO, "Accuracy results exported to %s", abs);
		free(acc_path);
		acc_path = abs;
	}
	if (have_srv)
		server_metrics_write(&srv, srvp, &eo);
	for (int i = 0; i < 3; i++)
		free(srvp[i]);
	srv_release(&srv);
	if (!o.no_console)
		table_print(stdout, &sm, &eo, acc_path);
	int rc = 1;
	if (util_fshut(stdout, "stdout") == 0) {
		client_warn(&eo.cs, &sm, o.cpu_seconds);
		rc = verdict(&o, &sm);
	}
	summary_release(&sm);
	gpu_release(&gpu);
	gpucsv_release(&gcsv);
	free(o.gpu_samples);
	agg_release(&a);
	slices_release(&sl);
	free(acc_path);
	acc_release(&acc);
	files_release(&fl, &eo);
	free((char *)eo.log_file);
	free(cfg);
	free(ri);
	buf_release(&cli);
	return rc;
}
