/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-export: metric records in; console table, profile_export_aiperf.{json,csv} and records copy out. */
#include "export.h"

#include <getopt.h>
#include <signal.h>
#include <unistd.h>

#include "lines.h"
#include "rand/pystr.h"
#include "http/redact.h"
#include "util.h"

#define MAX_LINE ((size_t)64 << 20)
#define MAX_CONFIG ((size_t)16 << 20)
#define EXIT_INVALID 3

struct options {
	const char *artifact_dir, *prefix, *level, *goodput, *endpoint_type;
	const char *benchmark_id, *version, *cli_command, *input_config_path, *log_file;
	const char *cancelled_if;
	int was_cancelled, no_console, show_trace;
	double max_error_rate, min_goodput_pct, cpu_seconds, target_rate, slice;
	char **files;
	int nfiles;
};

_Noreturn static void
usage(FILE *f, int status)
{
	fputs("usage: aiperf-export [--artifact-dir dir] [--profile-export-prefix prefix]\n"
	      "                     [--export-level summary | records | raw] [--goodput slos]\n"
	      "                     [--endpoint-type type] [--input-config file]\n"
	      "                     [--benchmark-id id] [--aiperf-version version]\n"
	      "                     [--cli-command text] [--was-cancelled]\n"
	      "                     [--was-cancelled-if file] [--no-console]\n"
	      "                     [--max-error-rate pct] [--min-goodput-pct pct]\n"
	      "                     [--client-cpu-seconds s] [--target-request-rate rate]\n"
	      "                     [--slice-duration s] [--log-file path]\n"
	      "                     [--show-trace-timing] [file ...]\n", f);
	exit(status);
}

static void
parse_args(int argc, char **argv, struct options *o)
{
	enum { O_ART = 256, O_PFX, O_LVL, O_GP, O_EPT, O_CFG, O_BID, O_VER,
	       O_CLI, O_CAN, O_CANIF, O_NOC, O_MER, O_MGP, O_CPU, O_RATE, O_SLICE, O_LOG, O_TRACE, O_HELP, O_VERSION };
	static const struct option lo[] = {
		{ "artifact-dir", required_argument, NULL, O_ART },
		{ "output-artifact-dir", required_argument, NULL, O_ART },
		{ "profile-export-prefix", required_argument, NULL, O_PFX },
		{ "profile-export-file", required_argument, NULL, O_PFX },
		{ "export-level", required_argument, NULL, O_LVL },
		{ "profile-export-level", required_argument, NULL, O_LVL },
		{ "goodput", required_argument, NULL, O_GP },
		{ "endpoint-type", required_argument, NULL, O_EPT },
		{ "input-config", required_argument, NULL, O_CFG },
		{ "benchmark-id", required_argument, NULL, O_BID },
		{ "aiperf-version", required_argument, NULL, O_VER },
		{ "cli-command", required_argument, NULL, O_CLI },
		{ "was-cancelled", no_argument, NULL, O_CAN },
		{ "was-cancelled-if", required_argument, NULL, O_CANIF },
		{ "no-console", no_argument, NULL, O_NOC },
		{ "max-error-rate", required_argument, NULL, O_MER },
		{ "min-goodput-pct", required_argument, NULL, O_MGP },
		{ "client-cpu-seconds", required_argument, NULL, O_CPU },
		{ "target-request-rate", required_argument, NULL, O_RATE },
		{ "slice-duration", required_argument, NULL, O_SLICE },
		{ "log-file", required_argument, NULL, O_LOG },
		{ "show-trace-timing", no_argument, NULL, O_TRACE },
		{ "help", no_argument, NULL, O_HELP },
		{ "version", no_argument, NULL, O_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case O_ART: o->artifact_dir = optarg; break;
		case O_PFX: o->prefix = optarg; break;
		case O_LVL: o->level = optarg; break;
		case O_GP: o->goodput = optarg; break;
		case O_EPT: o->endpoint_type = optarg; break;
		case O_CFG: o->input_config_path = optarg; break;
		case O_BID: o->benchmark_id = optarg; break;
		case O_VER: o->version = optarg; break;
		case O_CLI: o->cli_command = optarg; break;
		case O_CAN: o->was_cancelled = 1; break;
		case O_CANIF: o->cancelled_if = optarg; break;
		case O_NOC: o->no_console = 1; break;
		case O_MER: o->max_error_rate = opt_double("--max-error-rate", optarg, 0, 100); break;
		case O_MGP: o->min_goodput_pct = opt_double("--min-goodput-pct", optarg, 0, 100); break;
		case O_CPU: o->cpu_seconds = opt_double("--client-cpu-seconds", optarg, 0, 1e12); break;
		case O_RATE: o->target_rate = opt_double("--target-request-rate", optarg, 0, 1e12); break;
		case O_SLICE: o->slice = opt_double("--slice-duration", optarg, 1e-9, 1e9); break;
		case O_LOG: o->log_file = optarg; break;
		case O_TRACE: o->show_trace = 1; break;
		case O_HELP: usage(stdout, 0);
		case O_VERSION: puts("aiperf-export " AIPERF_VERSION); exit(0);
		default: usage(stderr, 2);
		}
	}
	if (strcmp(o->level, "summary") && strcmp(o->level, "records") && strcmp(o->level, "raw"))
		die_usage("invalid value for --export-level: '%s' (summary, records or raw)", o->level);
	if (o->min_goodput_pct >= 0 && !o->goodput)
		die_usage("--min-goodput-pct needs --goodput");
	if (o->benchmark_id && !*o->benchmark_id)
		die_usage("--benchmark-id must not be empty");
	o->files = argv + optind;
	o->nfiles = argc - optind;
}

/* Random (version 4) UUID text from /dev/urandom. */
static void
uuid4(char out[37])
{
	unsigned char r[16];
	FILE *f = fopen("/dev/urandom", "rb");

	size_t got = f ? fread(r, 1, sizeof(r), f) : 0;

	if (f)
		fclose(f);
	if (got != sizeof(r))
		die("cannot read /dev/urandom");
	r[6] = (unsigned char)((r[6] & 0x0F) | 0x40);
	r[8] = (unsigned char)((r[8] & 0x3F) | 0x80);
	for (int i = 0, k = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[k++] = '-';
		snprintf(out + k, 3, "%02x", r[i]);
		k += 2;
	}
	out[36] = '\0';
}

static const char *
metrics_title(const char *t)
{
	static const char *const map[][2] = {
		{ "embeddings", "Embeddings Metrics" },
		{ "nim_embeddings", "NIM Embeddings Metrics" },
		{ "cohere_rankings", "Ranking Metrics" },
		{ "hf_tei_rankings", "Ranking Metrics" },
		{ "nim_rankings", "Rankings Metrics" },
		{ "image_generation", "Image Generation Metrics" },
		{ "video_generation", "Video Generation Metrics" },
		{ "image_retrieval", "Image Retrieval Metrics" },
		{ "solido_rag", "SOLIDO RAG Metrics" },
	};

	for (size_t i = 0; t && i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(map[i][0], t))
			return map[i][1];
	return "LLM Metrics";
}

struct input {
	struct agg *a;
	struct slices *sl;
	struct linefile *copy;
};

static _Noreturn void
copy_failed(const struct linefile *lf)
{
	die("cannot write '%s': %s (it holds the first %zu records, whole)",
	    lf->path, strerror(errno), lf->lines);
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
		int k = agg_line(in->a, s, n, &r, why, sizeof(why));
		if (k == 1 && slices_add(in->sl, in->a, r, why, sizeof(why)) < 0)
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
		if (lines_open(&l, o->files[i], MAX_LINE) < 0)
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

int
main(int argc, char **argv)
{
	struct options o = { .level = "records", .version = "0.7.0",
			     .max_error_rate = -1, .min_goodput_pct = -1,
			     .cpu_seconds = -1, .target_rate = -1 };
	struct exportopts eo = { 0 };
	char id[37], why[256], title[128];
	struct files fl;
	struct slices sl;
	struct summary sm;
	struct agg a;
	char *cfg = NULL;
	size_t cfglen;

	util_setprogname(argv[0]);
	signal(SIGPIPE, SIG_IGN);
	parse_args(argc, argv, &o);
	agg_init(&a);
	if (o.goodput && agg_goodput(&a, o.goodput, why, sizeof(why)) < 0)
		die_usage("%s", why);
	if (o.input_config_path && !(cfg = util_readfile(o.input_config_path, MAX_CONFIG, &cfglen)))
		die("cannot read '%s':", o.input_config_path);
	if (cfg)
		check_config(o.input_config_path, cfg);
	if (!o.benchmark_id)
		uuid4(id);
	/* The console line and every file get the command without its secrets. */
	struct buf cli = BUF_INIT(BUF_NOMAX);
	if (o.cli_command && redact_cli(&cli, o.cli_command, strlen(o.cli_command)) > 0)
		o.cli_command = buf_str(&cli);
	snprintf(title, sizeof(title), "NVIDIA AIPerf | %s", metrics_title(o.endpoint_type));
	eo = (struct exportopts){ .title = title,
		.benchmark_id = o.benchmark_id ? o.benchmark_id : id,
		.version = o.version, .cli_command = o.cli_command,
		.input_config = cfg, .was_cancelled = o.was_cancelled,
		.show_trace = o.show_trace,
		.log_file = o.log_file ? files_absolute(o.log_file) : NULL };
	slices_init(&sl, o.artifact_dir ? o.slice : 0);
	files_open(&fl, o.artifact_dir, o.prefix, strcmp(o.level, "summary") != 0,
		   sl.width_ns != 0);
	struct input in = { &a, &sl, fl.records };
	read_all(&o, &in);
	/* Whoever stopped the run made the file before the input could end. */
	if (o.cancelled_if && access(o.cancelled_if, F_OK) == 0)
		eo.was_cancelled = 1;
	if (fl.records && linefile_close(fl.records) < 0) {
		fl.rec.path = fl.jsonl;
		copy_failed(fl.records);
	}
	agg_summary(&a, &sm);
	client_summary(&a.cl, &sm, &eo.cs, o.cpu_seconds, o.target_rate);
	files_write(&fl, &sm, &sl, &eo);
	if (!o.no_console)
		table_print(stdout, &sm, &eo);
	int rc = 1;
	if (util_fshut(stdout, "stdout") == 0) {
		client_warn(&eo.cs, &sm, o.cpu_seconds);
		rc = verdict(&o, &sm);
	}
	summary_release(&sm);
	agg_release(&a);
	slices_release(&sl);
	files_release(&fl, &eo);
	free((char *)eo.log_file);
	free(cfg);
	buf_release(&cli);
	return rc;
}
