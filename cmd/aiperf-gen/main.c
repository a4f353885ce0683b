/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-gen: synthetic request records (dataset + schedule) on stdout. */
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <unistd.h>

#include "gen.h"
#include "rand/pystr.h"
#include "tok/toksrc.h"
#include "util.h"

static const char usage_text[] =
	"usage: aiperf-gen -m model [-b n] [--concurrency n] [--corpus file]\n"
	"                  [--endpoint path] [--endpoint-type type]\n"
	"                  [--extra-inputs key:value | json] [--inputs-json file]\n"
	"                  [--input-file file] [--custom-dataset-type type]\n"
	"                  [--isl-block-size n] [--fixed-schedule]\n"
	"                  [--fixed-schedule-auto-offset]\n"
	"                  [--fixed-schedule-start-offset ms]\n"
	"                  [--fixed-schedule-end-offset ms] [--no-fixed-schedule]\n"
	"                  [--print-timing-mode] [--isl n] [--isl-stddev x]\n"
	"                  [--model-selection-strategy round_robin | random]\n"
	"                  [--num-dataset-entries n] [--osl n] [--osl-stddev x]\n"
	"                  [--random-seed n] [--request-count n] [--request-rate r]\n"
	"                  [--arrival-pattern pattern] [--arrival-smoothness k]\n"
	"                  [--request-rate-ramp-duration s] [--user-centric-rate q]\n"
	"                  [--num-users n] [--request-cancellation-rate pct]\n"
	"                  [--request-cancellation-delay s] [--session-turns-mean x]\n"
	"                  [--session-turns-stddev x] [--session-turn-delay-mean ms]\n"
	"                  [--session-turn-delay-stddev ms] [--session-delay-ratio x]\n"
	"                  [--shard k/n] [--streaming] [--tokenizer name]\n"
	"                  [--tokenizer-revision rev] [--tokenizer-trust-remote-code]\n"
	"                  [--use-legacy-max-tokens] [--use-server-token-count]\n"
	"                  [--warmup-request-count n] [--warmup-request-rate r]\n"
	"                  [--warmup-arrival-pattern pattern] [--warmup-duration s]\n"
	"                  [--num-warmup-sessions n] [--warmup-grace-period s]\n"
	"                  [--warmup-request-rate-ramp-duration s]\n";

static _Noreturn void
usage(FILE *f, int status)
{
	fputs(usage_text, f);
	exit(status);
}

enum {
	O_STRATEGY = 256, O_ETYPE, O_ENDPOINT, O_STREAMING, O_ISL, O_ISLSD,
	O_OSL, O_OSLSD, O_LEGACY, O_SERVERTOK, O_ENTRIES, O_COUNT, O_CONC,
	O_WARMUP, O_SEED, O_EXTRA, O_TOK, O_TOKREV, O_TOKTRUST, O_INPUTS,
	O_SHARD, O_CORPUS, O_HELP, O_VERSION, O_TURNS, O_TURNSSD, O_DELAY,
	O_DELAYSD, O_DELAYRATIO, O_RATE, O_PATTERN, O_SMOOTH, O_WRATE,
	O_WPATTERN, O_CRATE, O_CDELAY, O_FILE, O_CTYPE, O_BLOCK, O_FIXED,
	O_NOFIXED, O_AUTOOFF, O_STARTOFF, O_ENDOFF, O_PRINTMODE, O_RAMP,
	O_UCRATE, O_USERS, O_WDUR, O_WSESS, O_WGRACE, O_WRAMP,
};

static const struct option longopts[] = {
	{ "model", required_argument, NULL, 'm' },
	{ "model-names", required_argument, NULL, 'm' },
	{ "model-selection-strategy", required_argument, NULL, O_STRATEGY },
	{ "endpoint-type", required_argument, NULL, O_ETYPE },
	{ "endpoint", required_argument, NULL, O_ENDPOINT },
	{ "custom-endpoint", required_argument, NULL, O_ENDPOINT },
	{ "streaming", no_argument, NULL, O_STREAMING },
	{ "isl", required_argument, NULL, O_ISL },
	{ "synthetic-input-tokens-mean", required_argument, NULL, O_ISL },
	{ "prompt-input-tokens-mean", required_argument, NULL, O_ISL },
	{ "isl-stddev", required_argument, NULL, O_ISLSD },
	{ "synthetic-input-tokens-stddev", required_argument, NULL, O_ISLSD },
	{ "prompt-input-tokens-stddev", required_argument, NULL, O_ISLSD },
	{ "osl", required_argument, NULL, O_OSL },
	{ "output-tokens-mean", required_argument, NULL, O_OSL },
	{ "prompt-output-tokens-mean", required_argument, NULL, O_OSL },
	{ "osl-stddev", required_argument, NULL, O_OSLSD },
	{ "output-tokens-stddev", required_argument, NULL, O_OSLSD },
	{ "prompt-output-tokens-stddev", required_argument, NULL, O_OSLSD },
	{ "use-legacy-max-tokens", no_argument, NULL, O_LEGACY },
	{ "use-server-token-count", no_argument, NULL, O_SERVERTOK },
	{ "num-dataset-entries", required_argument, NULL, O_ENTRIES },
	{ "num-prompts", required_argument, NULL, O_ENTRIES },
	{ "request-count", required_argument, NULL, O_COUNT },
	{ "num-requests", required_argument, NULL, O_COUNT },
	{ "concurrency", required_argument, NULL, O_CONC },
	{ "warmup-request-count", required_argument, NULL, O_WARMUP },
	{ "num-warmup-requests", required_argument, NULL, O_WARMUP },
	{ "random-seed", required_argument, NULL, O_SEED },
	{ "extra-inputs", required_argument, NULL, O_EXTRA },
	{ "tokenizer", required_argument, NULL, O_TOK },
	{ "tokenizer-revision", required_argument, NULL, O_TOKREV },
	{ "tokenizer-trust-remote-code", no_argument, NULL, O_TOKTRUST },
	{ "prompt-batch-size", required_argument, NULL, 'b' },
	{ "batch-size-text", required_argument, NULL, 'b' },
	{ "inputs-json", required_argument, NULL, O_INPUTS },
	{ "shard", required_argument, NULL, O_SHARD },
	{ "corpus", required_argument, NULL, O_CORPUS },
	{ "session-turns-mean", required_argument, NULL, O_TURNS },
	{ "conversation-turn-mean", required_argument, NULL, O_TURNS },
	{ "session-turns-stddev", required_argument, NULL, O_TURNSSD },
	{ "conversation-turn-stddev", required_argument, NULL, O_TURNSSD },
	{ "session-turn-delay-mean", required_argument, NULL, O_DELAY },
	{ "conversation-turn-delay-mean", required_argument, NULL, O_DELAY },
	{ "session-turn-delay-stddev", required_argument, NULL, O_DELAYSD },
	{ "conversation-turn-delay-stddev", required_argument, NULL, O_DELAYSD },
	{ "session-delay-ratio", required_argument, NULL, O_DELAYRATIO },
	{ "conversation-turn-delay-ratio", required_argument, NULL, O_DELAYRATIO },
	{ "request-rate", required_argument, NULL, O_RATE },
	{ "arrival-pattern", required_argument, NULL, O_PATTERN },
	{ "arrival-smoothness", required_argument, NULL, O_SMOOTH },
	{ "warmup-request-rate", required_argument, NULL, O_WRATE },
	{ "warmup-arrival-pattern", required_argument, NULL, O_WPATTERN },
	{ "request-rate-ramp-duration", required_argument, NULL, O_RAMP },
	{ "user-centric-rate", required_argument, NULL, O_UCRATE },
	{ "num-users", required_argument, NULL, O_USERS },
	{ "warmup-duration", required_argument, NULL, O_WDUR },
	{ "num-warmup-sessions", required_argument, NULL, O_WSESS },
	{ "num-warmup-conversations", required_argument, NULL, O_WSESS },
	{ "warmup-grace-period", required_argument, NULL, O_WGRACE },
	{ "warmup-request-rate-ramp-duration", required_argument, NULL, O_WRAMP },
	{ "request-cancellation-rate", required_argument, NULL, O_CRATE },
	{ "request-cancellation-delay", required_argument, NULL, O_CDELAY },
	{ "input-file", required_argument, NULL, O_FILE },
	{ "custom-dataset-type", required_argument, NULL, O_CTYPE },
	{ "isl-block-size", required_argument, NULL, O_BLOCK },
	{ "synthetic-input-tokens-block-size", required_argument, NULL, O_BLOCK },
	{ "prompt-input-tokens-block-size", required_argument, NULL, O_BLOCK },
	{ "fixed-schedule", no_argument, NULL, O_FIXED },
	{ "no-fixed-schedule", no_argument, NULL, O_NOFIXED },
	{ "fixed-schedule-auto-offset", no_argument, NULL, O_AUTOOFF },
	{ "fixed-schedule-start-offset", required_argument, NULL, O_STARTOFF },
	{ "fixed-schedule-end-offset", required_argument, NULL, O_ENDOFF },
	{ "print-timing-mode", no_argument, NULL, O_PRINTMODE },
	{ "help", no_argument, NULL, O_HELP },
	{ "version", no_argument, NULL, O_VERSION },
	{ NULL, 0, NULL, 0 },
};

/* --model takes a comma-separated list (the original's parse_str_or_list). */
static void
add_models(struct gen_opts *o, const char *arg)
{
	for (const char *p = arg;;) {
		size_t n = strcspn(p, ",");
		const char *s = pystr_strip(p, &n);

		if (!n)
			die_usage("invalid value for --model: '%s'", arg);
		o->models = xreallocarray(o->models, o->nmodels + 1,
					  sizeof(*o->models));
		o->models[o->nmodels++] = xstrndup(s, n);
		p += strcspn(p, ",");
		if (!*p++)
			return;
	}
}

static void
set_endpoint_type(struct gen_opts *o, const char *arg)
{
	if (!strcmp(arg, "chat"))
		o->ep = EP_CHAT;
	else if (!strcmp(arg, "completions"))
		o->ep = EP_COMPLETIONS;
	else if (!strcmp(arg, "embeddings"))
		o->ep = EP_EMBEDDINGS;
	else
		die_usage("unsupported --endpoint-type '%s' "
			  "(chat, completions, embeddings)", arg);
	o->endpoint_type = arg;
}

static void
set_shard(struct gen_opts *o, const char *arg)
{
	size_t n = strcspn(arg, "/");
	char *k;

	if (!arg[n])
		die_usage("invalid value for --shard: '%s' (want K/N)", arg);
	k = xstrndup(arg, n);
	o->shard_n = opt_int("--shard", arg + n + 1, 1, 1000000);
	o->shard_k = opt_int("--shard", k, 1, o->shard_n);
	free(k);
}

static void
set_extra(struct gen_opts *o, const char *arg)
{
	char err[512];

	if (extras_parse(&o->extras, arg, err, sizeof(err)))
		die_usage("invalid value for --extra-inputs: %s", err);
}

static int
pattern_arg(const char *opt, const char *a)
{
	int p = sched_pattern(a);

	if (p < 0)
		die_usage("invalid value for %s: '%s' (constant, poisson, "
			  "gamma, concurrency_burst)", opt, a);
	return p;
}

/* Dataset file options. Returns 0 if c is not one. */
static int
parse_file_opt(struct gen_opts *o, int c, const char *a)
{
	switch (c) {
	case O_FILE: o->input_file = a; break;
	case O_CTYPE: o->custom_type = a; break;
	case O_BLOCK: o->block_size = opt_int("--isl-block-size", a, 1, INT32_MAX); break;
	case O_FIXED: o->fixed_schedule = 1; break;
	case O_NOFIXED: o->no_fixed_schedule = 1; break;
	case O_AUTOOFF: o->auto_offset = 1; break;
	case O_STARTOFF: o->start_offset = opt_int("--fixed-schedule-start-offset", a, 0, LLONG_MAX / 2); break;
	case O_ENDOFF: o->end_offset = opt_int("--fixed-schedule-end-offset", a, 0, LLONG_MAX / 2); break;
	case O_PRINTMODE: o->print_mode = 1; break;
	default: return 0;
	}
	return 1;
}

/* --warmup-grace-period: seconds >= 0 or inf. */
static double
grace_arg(const char *a)
{
	if (!strcmp(a, "inf") || !strcmp(a, "infinity"))
		return INFINITY;
	return opt_double("--warmup-grace-period", a, 0, 1e12);
}

/* Session and load options (issue 4's modes). Returns 0 if c is not one. */
static int
parse_load_opt(struct gen_opts *o, int c, const char *a)
{
	switch (c) {
	case O_TURNS: o->turns_mean = opt_double("--session-turns-mean", a, 1, 1e6); break;
	case O_TURNSSD: o->turns_stddev = opt_double("--session-turns-stddev", a, 0, 1e6); break;
	case O_DELAY: o->delay_mean = opt_double("--session-turn-delay-mean", a, 0, 1e12); break;
	case O_DELAYSD: o->delay_stddev = opt_double("--session-turn-delay-stddev", a, 0, 1e12); break;
	case O_DELAYRATIO: o->delay_ratio = opt_double("--session-delay-ratio", a, 0, 1e6); break;
	case O_RATE: o->sched.rate = opt_double("--request-rate", a, 1e-9, 1e9); break;
	case O_PATTERN: o->sched.pattern = pattern_arg("--arrival-pattern", a); break;
	case O_SMOOTH: o->sched.smoothness = opt_double("--arrival-smoothness", a, 1e-9, 1e9); break;
	case O_WRATE: o->warmup_sched.rate = opt_double("--warmup-request-rate", a, 1e-9, 1e9); break;
	case O_WPATTERN: o->warmup_sched.pattern = pattern_arg("--warmup-arrival-pattern", a); break;
	case O_CRATE: o->cancel_rate = opt_double("--request-cancellation-rate", a, 0, 100); break;
	case O_CDELAY: o->cancel_delay = opt_double("--request-cancellation-delay", a, 0, 1e9); break;
	case O_RAMP: o->sched.ramp = opt_double("--request-rate-ramp-duration", a, 1e-9, 1e9); o->ramp_set = 1; break;
	case O_UCRATE: o->uc_rate = opt_double("--user-centric-rate", a, 1e-9, 1e9); break;
	case O_USERS: o->num_users = opt_int("--num-users", a, 1, 100000000); break;
	case O_WDUR: o->warmup_sched.duration = opt_double("--warmup-duration", a, 1e-9, 1e12); break;
	case O_WSESS: o->warmup_sessions = opt_int("--num-warmup-sessions", a, 1, LLONG_MAX / 2); break;
	case O_WGRACE: o->warmup_grace = grace_arg(a); break;
	case O_WRAMP: o->warmup_sched.ramp = opt_double("--warmup-request-rate-ramp-duration", a, 1e-9, 1e9); break;
	default: return 0;
	}
	return 1;
}

static void
parse_opt(struct gen_opts *o, int c, const char *a)
{
	if (parse_load_opt(o, c, a) || parse_file_opt(o, c, a))
		return;
	switch (c) {
	case 'm': add_models(o, a); break;
	case 'b': o->batch_size = opt_int("--prompt-batch-size", a, 1, 1000000); break;
	case O_STRATEGY:
		if (strcmp(a, "round_robin") && strcmp(a, "random"))
			die_usage("invalid value for --model-selection-strategy: '%s'", a);
		o->model_random = !strcmp(a, "random");
		break;
	case O_ETYPE: set_endpoint_type(o, a); break;
	case O_ENDPOINT: o->path = a; break;
	case O_STREAMING: o->streaming = 1; break;
	case O_ISL: o->isl = opt_int("--isl", a, 1, 100000000); break;
	case O_ISLSD: o->isl_stddev = opt_double("--isl-stddev", a, 0, 1e9); break;
	case O_OSL: o->osl = opt_int("--osl", a, 1, 100000000); break;
	case O_OSLSD: o->osl_stddev = opt_double("--osl-stddev", a, 0, 1e9); break;
	case O_LEGACY: o->legacy_max_tokens = 1; break;
	case O_SERVERTOK: o->server_token_count = 1; break;
	case O_ENTRIES: o->num_entries = opt_int("--num-dataset-entries", a, 1, 100000000); break;
	case O_COUNT: o->request_count = opt_int("--request-count", a, 1, LLONG_MAX / 2); break;
	case O_CONC: o->concurrency = opt_int("--concurrency", a, 1, 100000000); break;
	case O_WARMUP: o->warmup_count = opt_int("--warmup-request-count", a, 1, LLONG_MAX / 2); break;
	case O_SEED: o->seed = (uint64_t)opt_int("--random-seed", a, 0, LLONG_MAX); o->has_seed = 1; break;
	case O_EXTRA: set_extra(o, a); break;
	case O_TOK: o->tokenizer = a; break;
	case O_TOKREV: o->revision = a; break;
	case O_TOKTRUST: o->trust_remote_code = 1; break;
	case O_INPUTS: o->inputs_json = a; break;
	case O_SHARD: set_shard(o, a); break;
	case O_CORPUS: o->corpus = a; break;
	case O_HELP: usage(stdout, 0);
	case O_VERSION: printf("aiperf-gen %s\n", AIPERF_VERSION); exit(0);
	default: usage(stderr, 2);
	}
}

static void
parse_args(struct gen_opts *o, int argc, char **argv)
{
	int c;

	*o = (struct gen_opts){ .endpoint_type = "chat", .isl = 550,
				.osl = -1, .num_entries = 100,
				.request_count = -1, .concurrency = 1,
				.batch_size = 1, .turns_mean = 1,
				.delay_ratio = 1, .cancel_delay = -1,
				.sched.pattern = -1,
				.warmup_sched.pattern = -1,
				.block_size = -1, .start_offset = -1,
				.end_offset = -1, .warmup_grace = -1 };
	while ((c = getopt_long(argc, argv, "m:b:", longopts, NULL)) != -1)
		parse_opt(o, c, optarg);
	if (optind < argc)
		die_usage("unexpected argument '%s'", argv[optind]);
	if (!o->nmodels)
		die_usage("--model is required");
	sched_check_opts(o);
	trace_check_opts(o);
	sched_check_mode(o);
	if (!o->path)
		o->path = o->ep == EP_CHAT ? "/v1/chat/completions" :
			  o->ep == EP_COMPLETIONS ? "/v1/completions" :
						   "/v1/embeddings";
	if (o->streaming && o->ep == EP_EMBEDDINGS)
		warn("--endpoint-type embeddings does not stream; "
		     "ignoring --streaming");
}

static uint64_t
random_root(void)
{
	uint64_t v = 0;
	int fd = open("/dev/urandom", O_RDONLY);

	if (fd < 0 || read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		die("cannot read '/dev/urandom':");
	close(fd);
	return v >> 1;	/* a non-negative Python int, as seeds are */
}

static struct tok *
load_tokenizer(const struct gen_opts *o)
{
	char err[512];
	const char *spec = o->tokenizer ? o->tokenizer : o->models[0];
	struct tok *t = tok_load(spec, o->revision, err, sizeof(err));

	if (!t)
		die("cannot load tokenizer '%s': %s", spec, err);
	return t;
}

static char *
corpus_path(const struct gen_opts *o)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	if (o->corpus)
		return xstrdup(o->corpus);
	buf_addf(&b, "%s/corpus/tinyshakespeare.txt", toksrc_datadir());
	return buf_detach(&b, NULL);
}

static void
opts_release(struct gen_opts *o)
{
	extras_release(&o->extras);
	for (size_t i = 0; i < o->nmodels; i++)
		free(o->models[i]);
	free(o->models);
}

/* --print-timing-mode: the mode the options and the dataset select. */
static int
print_mode(struct gen_opts *o)
{
	puts(o->fixed ? "fixed_schedule" :
	     o->uc_rate > 0 ? "user_centric_rate" :
	     o->sched.rate > 0 ? "request_rate" : "concurrency");
	opts_release(o);
	return util_fshut(stdout, "stdout") ? 1 : 0;
}

int
main(int argc, char **argv)
{
	struct gen_opts o;
	struct dataset d = { 0 };
	static char obuf[1 << 20];
	uint64_t root;
	struct tok *t;
	struct prompt *p;
	char *cpath;
	int rc = 0;

	util_setprogname(argv[0]);
	signal(SIGPIPE, SIG_IGN);
	parse_args(&o, argc, argv);
	if (o.print_mode)
		return print_mode(&o);
	root = o.has_seed ? o.seed : random_root();
	t = load_tokenizer(&o);
	cpath = corpus_path(&o);
	p = prompt_new(t, cpath, root);
	if (o.input_file)
		trace_dataset_build(&d, &o, p, root);
	else
		dataset_build(&d, &o, p, root);
	if (o.inputs_json && inputs_json_write(&d, o.inputs_json))
		rc = 1;
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	if (!rc && records_emit(&d, &o, root) && errno != EPIPE) {
		error("cannot write records:");
		rc = 1;
	}
	if (rc)
		fclose(stdout);
	else if (util_fshut(stdout, "stdout"))
		rc = 1;
	dataset_free(&d);
	prompt_free(p);
	tok_free(t);
	free(cpath);
	opts_release(&o);
	return rc;
}
