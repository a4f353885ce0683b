/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-gen: synthetic request records (dataset + schedule) on stdout. */
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <unistd.h>

#include "gen.h"
#include "hfpub.h"
#include "media/audio.h"
#include "media/video.h"
#include "opt.h"
#include "rand/pystr.h"
#include "tok/toksrc.h"
#include "util.h"

enum {
	O_STRATEGY = 256, O_ETYPE, O_ENDPOINT, O_STREAMING, O_ISL, O_ISLSD,
	O_OSL, O_OSLSD, O_LEGACY, O_SERVERTOK, O_ENTRIES, O_COUNT, O_CONC,
	O_WARMUP, O_SEED, O_EXTRA, O_TOK, O_TOKREV, O_TOKTRUST, O_INPUTS,
	O_SHARD, O_SHARDSEED, O_CORPUS, O_HELP, O_VERSION, O_TURNS, O_TURNSSD, O_DELAY,
	O_DELAYSD, O_DELAYRATIO, O_RATE, O_PATTERN, O_SMOOTH, O_WRATE,
	O_WPATTERN, O_CRATE, O_CDELAY, O_FILE, O_ACCPROB, O_CTYPE, O_BLOCK, O_FIXED,
	O_NOFIXED, O_AUTOOFF, O_STARTOFF, O_ENDOFF, O_PRINTMODE, O_RAMP,
	O_UCRATE, O_USERS, O_WDUR, O_WSESS, O_WGRACE, O_WRAMP, O_SESSIONS,
	O_SAMPLING, O_PUBLIC, O_PUBDIR, O_HFSUBSET, O_DSFILTER, O_PREFIXPOOL, O_PREFIXLEN, O_SYSLEN, O_CTXLEN, O_SEQDIST,
	O_RKPMEAN, O_RKPSD, O_RKPTMEAN, O_RKPTSD, O_RKQTMEAN, O_RKQTSD,
	O_IMGWM, O_IMGWSD, O_IMGHM, O_IMGHSD, O_IMGFMT, O_IMGBATCH, O_FULLMEDIA,
	O_WEIGHTS, O_IMGSRC, O_IMGSAMPLING,
	/* synthetic audio and video (av.c) */
	O_AMEAN, O_ASD, O_AFMT, O_ADEPTHS, O_ARATES, O_ACHAN, O_ABATCH,
	O_VWIDTH, O_VHEIGHT, O_VFPS, O_VDUR, O_VSYNTH, O_VFMT, O_VCODEC, O_VBATCH,
};

static const char *const image_formats[] = { "png", "jpeg", "random", NULL };
static const char *const audio_formats[] = { "wav", "mp3", NULL };
static const char *const video_formats[] = { "mp4", "webm", NULL };
static const char *const video_synths[] = { "moving_shapes", "grid_clock", "noise", NULL };

#define INTA(arg, lv, lo, hi) OPT_INT, arg, OPT_TO(lv), .min = (lo), .max = (hi)
#define INT(lv, lo, hi) INTA("n", lv, lo, hi)
#define DBL(arg, lv, l, h) OPT_DOUBLE, arg, OPT_TO(lv), .lo = (l), .hi = (h)
#define ALIAS(name, key) { name, key, .flags = OPT_ALIAS }
#define BIG (LLONG_MAX / 2)

/* The synthetic audio and video options (av.c). */
#define AV_OPTS(o) \
	{ "audio-length-mean", O_AMEAN, DBL("s", o->av.audio_mean, 0, AUDIO_MAX_SECONDS), \
	  .flags = OPT_BR }, \
	{ "audio-length-stddev", O_ASD, DBL("s", o->av.audio_stddev, 0, AUDIO_MAX_SECONDS) }, \
	{ "audio-format", O_AFMT, OPT_STR, "wav | mp3", OPT_TO(o->av.audio_format), \
	  .choices = audio_formats, .flags = OPT_LOOSE }, \
	{ "audio-depths", O_ADEPTHS, OPT_STR, "bits", .flags = OPT_BR }, \
	{ "audio-sample-rates", O_ARATES, OPT_STR, "khz", .flags = 0 }, \
	{ "audio-num-channels", O_ACHAN, INT(o->av.audio_channels, 1, 2) }, \
	{ "audio-batch-size", O_ABATCH, INT(o->av.audio_batch, 0, 1000), .flags = OPT_BR }, \
	ALIAS("batch-size-audio", O_ABATCH), \
	{ "video-width", O_VWIDTH, INT(o->av.video_width, 0, VIDEO_MAX_SIDE), .flags = OPT_BR }, \
	{ "video-height", O_VHEIGHT, INT(o->av.video_height, 0, VIDEO_MAX_SIDE) }, \
	{ "video-fps", O_VFPS, INT(o->av.video_fps, 1, VIDEO_MAX_FPS) }, \
	{ "video-duration", O_VDUR, DBL("s", o->av.video_duration, 1e-9, VIDEO_MAX_SECONDS) }, \
	{ "video-synth-type", O_VSYNTH, OPT_STR, "type", OPT_TO(o->av.video_synth), \
	  .choices = video_synths, .flags = OPT_BR | OPT_LOOSE }, \
	{ "video-format", O_VFMT, OPT_STR, "mp4 | webm", OPT_TO(o->av.video_format), \
	  .choices = video_formats, .flags = OPT_LOOSE }, \
	{ "video-codec", O_VCODEC, OPT_STR, "codec", OPT_TO(o->av.video_codec), \
	  .flags = OPT_BR }, \
	{ "video-batch-size", O_VBATCH, INT(o->av.video_batch, 0, 1000) }, \
	ALIAS("batch-size-video", O_VBATCH),

/* The options in synopsis order, each followed by its other names. */
#define GEN_OPTS(o) { \
	{ "model", 'm', OPT_STR, "model", .flags = OPT_REQ | OPT_SHORT }, \
	ALIAS("model-names", 'm'), \
	{ "prompt-batch-size", 'b', INT(o->batch_size, 1, 1000000), .flags = OPT_SHORT }, \
	ALIAS("batch-size-text", 'b'), \
	{ "concurrency", O_CONC, INT(o->concurrency, 1, 100000000) }, \
	{ "corpus", O_CORPUS, OPT_STR, "file", OPT_TO(o->corpus) }, \
	{ "endpoint", O_ENDPOINT, OPT_STR, "path", OPT_TO(o->path), .flags = OPT_BR }, \
	ALIAS("custom-endpoint", O_ENDPOINT), \
	{ "endpoint-type", O_ETYPE, OPT_STR, "type", .choices = endpoint_names(), \
	  .flags = OPT_LOOSE }, \
	{ "extra-inputs", O_EXTRA, OPT_STR, "key:value | json", .flags = OPT_BR }, \
	{ "inputs-json", O_INPUTS, OPT_STR, "file", OPT_TO(o->inputs_json) }, \
	{ "accuracy-problems", O_ACCPROB, OPT_STR, "file", OPT_TO(o->accuracy_problems), \
	  .flags = OPT_BR }, \
	{ "input-file", O_FILE, OPT_STR, "file", OPT_TO(o->input_file), .flags = OPT_BR }, \
	{ "custom-dataset-type", O_CTYPE, OPT_STR, "type", OPT_TO(o->custom_type), \
	  .choices = trace_type_list() }, \
	{ "public-dataset", O_PUBLIC, OPT_STR, "name", OPT_TO(o->public_dataset), \
	  .choices = hfpub_names(), .later = public_later }, \
	{ "public-dataset-dir", O_PUBDIR, OPT_STR, "dir", OPT_TO(o->public_dir), \
	  .flags = OPT_BR }, \
	{ "hf-subset", O_HFSUBSET, OPT_STR, "name", OPT_TO(o->hf_subset) }, \
	{ "dataset-filter", O_DSFILTER, OPT_STR, "key=value", .flags = 0 }, \
	{ "isl-block-size", O_BLOCK, INT(o->block_size, 1, INT32_MAX), .flags = OPT_BR }, \
	ALIAS("synthetic-input-tokens-block-size", O_BLOCK), \
	ALIAS("prompt-input-tokens-block-size", O_BLOCK), \
	{ "fixed-schedule", O_FIXED, OPT_FLAG, NULL, OPT_TO(o->fixed_schedule) }, \
	{ "fixed-schedule-auto-offset", O_AUTOOFF, OPT_FLAG, NULL, OPT_TO(o->auto_offset), \
	  .flags = OPT_BR }, \
	{ "fixed-schedule-start-offset", O_STARTOFF, INTA("ms", o->start_offset, 0, BIG), \
	  .flags = OPT_BR }, \
	{ "fixed-schedule-end-offset", O_ENDOFF, INTA("ms", o->end_offset, 0, BIG), \
	  .flags = OPT_BR }, \
	{ "no-fixed-schedule", O_NOFIXED, OPT_FLAG, NULL, OPT_TO(o->no_fixed_schedule) }, \
	{ "print-timing-mode", O_PRINTMODE, OPT_FLAG, NULL, OPT_TO(o->print_mode), \
	  .flags = OPT_BR | OPT_PRIVATE }, \
	{ "isl", O_ISL, INT(o->isl, 1, 100000000) }, \
	ALIAS("synthetic-input-tokens-mean", O_ISL), \
	ALIAS("prompt-input-tokens-mean", O_ISL), \
	{ "isl-stddev", O_ISLSD, DBL("x", o->isl_stddev, 0, 1e9) }, \
	ALIAS("synthetic-input-tokens-stddev", O_ISLSD), \
	ALIAS("prompt-input-tokens-stddev", O_ISLSD), \
	{ "model-selection-strategy", O_STRATEGY, OPT_STR, "round_robin | random | weighted", \
	  .flags = OPT_BR }, \
	{ "model-weights", O_WEIGHTS, OPT_STR, "w,w...", .flags = OPT_BR }, \
	{ "dataset-sampling-strategy", O_SAMPLING, OPT_STR, "sequential | random | shuffle", \
	  .flags = OPT_BR }, \
	{ "num-dataset-entries", O_ENTRIES, INT(o->num_entries, 1, 100000000), .flags = OPT_BR }, \
	ALIAS("num-prompts", O_ENTRIES), \
	{ "osl", O_OSL, INT(o->osl, 1, 100000000) }, \
	ALIAS("output-tokens-mean", O_OSL), \
	ALIAS("prompt-output-tokens-mean", O_OSL), \
	{ "osl-stddev", O_OSLSD, DBL("x", o->osl_stddev, 0, 1e9) }, \
	ALIAS("output-tokens-stddev", O_OSLSD), \
	ALIAS("prompt-output-tokens-stddev", O_OSLSD), \
	{ "prompt-prefix-pool-size", O_PREFIXPOOL, INT(o->prefix_pool, 0, 1000000), \
	  .flags = OPT_BR }, \
	ALIAS("prefix-prompt-pool-size", O_PREFIXPOOL), \
	ALIAS("num-prefix-prompts", O_PREFIXPOOL), \
	{ "prompt-prefix-length", O_PREFIXLEN, INT(o->prefix_len, 0, 100000000) }, \
	ALIAS("prefix-prompt-length", O_PREFIXLEN), \
	{ "shared-system-prompt-length", O_SYSLEN, INT(o->system_len, 1, 100000000), \
	  .flags = OPT_BR }, \
	{ "user-context-prompt-length", O_CTXLEN, INT(o->context_len, 1, 100000000), \
	  .flags = OPT_BR }, \
	{ "seq-dist", O_SEQDIST, OPT_STR, "dist", .flags = OPT_BR }, \
	ALIAS("sequence-distribution", O_SEQDIST), \
	{ "rankings-passages-mean", O_RKPMEAN, OPT_STR, "n", .flags = 0 }, \
	{ "rankings-passages-stddev", O_RKPSD, OPT_STR, "n", .flags = OPT_BR }, \
	{ "rankings-passages-prompt-token-mean", O_RKPTMEAN, OPT_STR, "n", .flags = OPT_BR }, \
	{ "rankings-passages-prompt-token-stddev", O_RKPTSD, OPT_STR, "n", .flags = OPT_BR }, \
	{ "rankings-query-prompt-token-mean", O_RKQTMEAN, OPT_STR, "n", .flags = OPT_BR }, \
	{ "rankings-query-prompt-token-stddev", O_RKQTSD, OPT_STR, "n", .flags = OPT_BR }, \
	{ "image-width-mean", O_IMGWM, DBL("px", o->img.width_mean, 0, 1e9) }, \
	{ "image-width-stddev", O_IMGWSD, DBL("px", o->img.width_stddev, 0, 1e9), .flags = OPT_BR }, \
	{ "image-height-mean", O_IMGHM, DBL("px", o->img.height_mean, 0, 1e9) }, \
	{ "image-height-stddev", O_IMGHSD, DBL("px", o->img.height_stddev, 0, 1e9), \
	  .flags = OPT_BR }, \
	{ "image-source", O_IMGSRC, OPT_STR, "noise | assets | dir", OPT_TO(o->img.source), \
	  .flags = OPT_BR }, \
	{ "image-source-sampling", O_IMGSAMPLING, OPT_STR, "random-with-replacement | " \
	  "shuffle-cycle | sequential-cycle", .flags = OPT_BR }, \
	{ "image-format", O_IMGFMT, OPT_STR, "png | jpeg | random", .choices = image_formats, \
	  .flags = OPT_BR }, \
	{ "image-batch-size", O_IMGBATCH, INT(o->image_batch, 0, 1000000), .flags = OPT_BR }, \
	ALIAS("batch-size-image", O_IMGBATCH), \
	{ "inputs-json-full-media", O_FULLMEDIA, OPT_FLAG, NULL, OPT_TO(gen_keep_media), \
	  .flags = OPT_BR }, \
	{ "random-seed", O_SEED, INT(o->seed, 0, LLONG_MAX), .flags = OPT_BR }, \
	{ "request-count", O_COUNT, INT(o->request_count, 1, BIG) }, \
	ALIAS("num-requests", O_COUNT), \
	{ "num-sessions", O_SESSIONS, INT(o->num_sessions, 1, BIG) }, \
	ALIAS("conversation-num", O_SESSIONS), \
	ALIAS("num-conversations", O_SESSIONS), \
	{ "request-rate", O_RATE, DBL("r", o->sched.rate, 1e-9, 1e9) }, \
	{ "arrival-pattern", O_PATTERN, OPT_STR, "pattern", .choices = sched_patterns, \
	  .flags = OPT_BR }, \
	{ "arrival-smoothness", O_SMOOTH, DBL("k", o->sched.smoothness, 1e-9, 1e9) }, \
	{ "request-rate-ramp-duration", O_RAMP, DBL("s", o->sched.ramp, 1e-9, 1e9), \
	  .flags = OPT_BR }, \
	{ "user-centric-rate", O_UCRATE, DBL("q", o->uc_rate, 1e-9, 1e9) }, \
	{ "num-users", O_USERS, INT(o->num_users, 1, 100000000), .flags = OPT_BR }, \
	{ "request-cancellation-rate", O_CRATE, DBL("pct", o->cancel_rate, 0, 100) }, \
	{ "request-cancellation-delay", O_CDELAY, DBL("s", o->cancel_delay, 0, 1e9), \
	  .flags = OPT_BR }, \
	{ "session-turns-mean", O_TURNS, DBL("x", o->turns_mean, 1, 1e6) }, \
	ALIAS("conversation-turn-mean", O_TURNS), \
	{ "session-turns-stddev", O_TURNSSD, DBL("x", o->turns_stddev, 0, 1e6), .flags = OPT_BR }, \
	ALIAS("conversation-turn-stddev", O_TURNSSD), \
	{ "session-turn-delay-mean", O_DELAY, DBL("ms", o->delay_mean, 0, 1e12) }, \
	ALIAS("conversation-turn-delay-mean", O_DELAY), \
	{ "session-turn-delay-stddev", O_DELAYSD, DBL("ms", o->delay_stddev, 0, 1e12), \
	  .flags = OPT_BR }, \
	ALIAS("conversation-turn-delay-stddev", O_DELAYSD), \
	{ "session-delay-ratio", O_DELAYRATIO, DBL("x", o->delay_ratio, 0, 1e6) }, \
	ALIAS("conversation-turn-delay-ratio", O_DELAYRATIO), \
	{ "shard", O_SHARD, OPT_STR, "k/n", .flags = 0 }, \
	{ "shard-seed", O_SHARDSEED, INT(o->shard_seed, 0, LLONG_MAX), .flags = OPT_BR | OPT_PRIVATE }, \
	{ "streaming", O_STREAMING, OPT_FLAG, NULL, OPT_TO(o->streaming) }, \
	{ "tokenizer", O_TOK, OPT_STR, "name", OPT_TO(o->tokenizer) }, \
	{ "tokenizer-revision", O_TOKREV, OPT_STR, "rev", OPT_TO(o->revision), .flags = OPT_BR }, \
	{ "tokenizer-trust-remote-code", O_TOKTRUST, OPT_FLAG, NULL, \
	  OPT_TO(o->trust_remote_code) }, \
	{ "use-legacy-max-tokens", O_LEGACY, OPT_FLAG, NULL, OPT_TO(o->legacy_max_tokens), \
	  .flags = OPT_BR }, \
	{ "use-server-token-count", O_SERVERTOK, OPT_FLAG, NULL, OPT_TO(o->server_token_count) }, \
	{ "warmup-request-count", O_WARMUP, INT(o->warmup_count, 1, BIG), .flags = OPT_BR }, \
	ALIAS("num-warmup-requests", O_WARMUP), \
	{ "warmup-request-rate", O_WRATE, DBL("r", o->warmup_sched.rate, 1e-9, 1e9) }, \
	{ "warmup-arrival-pattern", O_WPATTERN, OPT_STR, "pattern", .choices = sched_patterns, \
	  .flags = OPT_BR }, \
	{ "warmup-duration", O_WDUR, DBL("s", o->warmup_sched.duration, 1e-9, 1e12) }, \
	{ "num-warmup-sessions", O_WSESS, INT(o->warmup_sessions, 1, BIG), .flags = OPT_BR }, \
	ALIAS("num-warmup-conversations", O_WSESS), \
	{ "warmup-grace-period", O_WGRACE, OPT_STR, "s", .flags = 0 }, \
	{ "warmup-request-rate-ramp-duration", O_WRAMP, \
	  DBL("s", o->warmup_sched.ramp, 1e-9, 1e9), .flags = OPT_BR }, \
	AV_OPTS(o) \
	{ "help", O_HELP, OPT_HELP, .flags = OPT_HIDE }, \
	{ "version", O_VERSION, OPT_VERSION, .flags = OPT_HIDE }, \
	{ 0 }, \
}

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

/* ImageConfig's check of --image-source-sampling (usage), then, when images
 * are made, the source directory's (ImageGenerator's: exit 1), before
 * anything is written. */
static void
check_image_source(const struct gen_opts *o)
{
	char err[4200];

	if (o->img.source && !strcmp(o->img.source, "noise") &&
	    o->img.sampling != IMAGEGEN_RANDOM_WITH_REPLACEMENT)
		die_usage("images.source_sampling requires image source 'assets' or a "
			  "directory path unless it is 'random-with-replacement'; noise "
			  "has no finite source pool");
	if (gen_images_enabled(o) && imagegen_check(&o->img, err, sizeof(err)) < 0)
		die("%s", err);
}

/* --model-weights: the weights of the models, in their order (ours: the
 * original takes them from its config file's models.items[].weight). */
static void
set_weights(struct gen_opts *o, const char *a)
{
	char err[256];

	free(o->weights);
	if (gen_weights_parse(a, &o->weights, &o->nweights, err, sizeof(err)) < 0)
		die_usage("%s", err);
}

/* ModelsAdvanced.validate_weights_for_weighted_strategy: weights are
 * checked only for the weighted strategy (ignored otherwise, as the
 * original ignores them). */
static void
check_models(struct gen_opts *o)
{
	char err[256];

	if (!o->model_weighted)
		return;
	if (gen_weights_check(o->weights, o->nweights, o->nmodels, err, sizeof(err)) < 0)
		die_usage("%s", err);
	o->cum_weights = xcalloc(o->nmodels, sizeof(*o->cum_weights));
	for (size_t i = 0; i < o->nmodels; i++)
		o->cum_weights[i] = (i ? o->cum_weights[i - 1] : 0) + o->weights[i];
}

/* The option table took the value (any case, '-' for '_'): its type. */
static void
set_endpoint_type(struct gen_opts *o, const char *arg)
{
	const struct endpoint_type *t = endpoint_find(arg);

	if (!t)
		die_usage("unsupported --endpoint-type '%s'", arg);
	/* cppcheck-suppress nullPointerRedundantCheck ; die_usage() does not return */
	o->ep = t->id;
	/* cppcheck-suppress nullPointerRedundantCheck */
	o->endpoint_type = t->name;
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

	if (template_extra(o, arg))
		return;
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

/* --warmup-grace-period: seconds >= 0 or inf. */
static double
grace_arg(const char *a)
{
	if (!strcmp(a, "inf") || !strcmp(a, "infinity"))
		return INFINITY;
	return opt_double("--warmup-grace-period", a, 0, 1e12);
}

static int
sampling_arg(const char *a)
{
	static const char *const names[] = {
		[SAMPLE_SEQUENTIAL] = "sequential", [SAMPLE_RANDOM] = "random",
		[SAMPLE_SHUFFLE] = "shuffle",
	};

	for (int i = 0; i < 3; i++)
		if (util_choice_eq(a, names[i]))
			return i;
	die_usage("invalid value for --dataset-sampling-strategy: '%s' "
		  "(sequential, random, shuffle)", a);
}

static void
set_seq_dist(struct gen_opts *o, const char *a)
{
	char err[2048];

	seqdist_free(o->dist);
	if (!(o->dist = seqdist_parse(a, err, sizeof(err))))
		die_usage("%s", err);
}

/* The rankings composer's options: integers (passage counts and token
 * lengths >= 1, stddevs >= 0), only for the rankings endpoints. */
static void
set_rankings(struct gen_opts *o, int c, const char *opt, const char *a)
{
	o->rankings[c - O_RKPMEAN] = opt_int(opt, a, c == O_RKPMEAN || c == O_RKPTMEAN
					     || c == O_RKQTMEAN, 100000000);
	if (!o->rankings_opt)
		o->rankings_opt = opt;
}

/* validate_mutually_exclusive_prompt_options and
 * validate_rankings_token_options: the original's messages. (0.7 also
 * wanted --num-dataset-entries with --user-context-prompt-length; 0.11
 * draws a context prompt for each conversation as it comes, so it does
 * not.) */
static void
check_prompt_opts(const struct gen_opts *o)
{
	if ((o->system_len || o->context_len) && (o->prefix_len || o->prefix_pool))
		die_usage("Cannot use both `--shared-system-prompt-length`/"
			  "`--user-context-prompt-length` and `--prefix-prompt-length`/"
			  "`--prefix-prompt-pool-size`. These are mutually exclusive "
			  "prompt configuration modes.");
	if (o->rankings_opt && !endpoint_has(o->ep, ENDPOINT_RANKS))
		die_usage("Rankings-specific options (`--rankings-passages-mean`, "
			  "`--rankings-passages-stddev`, `--rankings-passages-prompt-token-mean`, "
			  "`--rankings-passages-prompt-token-stddev`, "
			  "`--rankings-query-prompt-token-mean`, "
			  "`--rankings-query-prompt-token-stddev`) can only be used with "
			  "rankings endpoint types Rankings endpoints: (cohere_rankings, "
			  "hf_tei_rankings, nim_rankings).");
}

/* --accuracy-problems: the benchmark's problems are the dataset, sent in
 * order (the original's DatasetManager refuses any other order). */
static void
check_accuracy_opts(struct gen_opts *o)
{
	if (!o->accuracy_problems)
		return;
	if (o->input_file || o->public_dataset)
		die_usage("--accuracy-problems cannot be used with %s",
			  o->input_file ? "--input-file" : "--public-dataset");
	if (o->fixed_schedule)
		die_usage("Accuracy mode requires sequential request order; "
			  "fixed-schedule timing is not supported in accuracy mode.");
	if (o->sampling >= 0 && o->sampling != SAMPLE_SEQUENTIAL)
		die_usage("Accuracy mode requires sequential request order; "
			  "'%s' sampling is not supported. "
			  "Set the dataset's sampling strategy to 'sequential'.",
			  o->sampling == SAMPLE_RANDOM ? "random" : "shuffle");
	o->sampling = SAMPLE_SEQUENTIAL;
}

/* What the table does not: lists, compound values, side effects. */
static void
parse_opt(struct gen_opts *o, int c, const char *a)
{
	switch (c) {
	case 'm': add_models(o, a); break;
	case O_STRATEGY:
		if (strcmp(a, "round_robin") && strcmp(a, "random") && strcmp(a, "weighted"))
			die_usage("invalid value for --model-selection-strategy: '%s'", a);
		o->model_weighted = !strcmp(a, "weighted");
		o->model_random = o->model_weighted || !strcmp(a, "random");
		break;
	case O_WEIGHTS: set_weights(o, a); break;
	case O_ETYPE: set_endpoint_type(o, a); break;
	case O_SEED: o->has_seed = 1; break;
	case O_EXTRA: set_extra(o, a); break;
	case O_SHARD: set_shard(o, a); break;
	case O_PATTERN: o->sched.pattern = pattern_arg("--arrival-pattern", a); break;
	case O_WPATTERN: o->warmup_sched.pattern = pattern_arg("--warmup-arrival-pattern", a); break;
	case O_RAMP: o->ramp_set = 1; break;
	case O_SAMPLING: o->sampling = sampling_arg(a); break;
	case O_WGRACE: o->warmup_grace = grace_arg(a); break;
	case O_ENTRIES: o->entries_set = 1; break;
	case O_SEQDIST: set_seq_dist(o, a); break;
	case O_IMGFMT: o->img.format = imagegen_format_of(a); break;
	case O_IMGSAMPLING:
		if ((o->img.sampling = imagegen_sampling_of(a)) < 0)
			die_usage("invalid value for --image-source-sampling: '%s' "
				  "(random-with-replacement, shuffle-cycle or "
				  "sequential-cycle)", a);
		break;
	case O_RKPMEAN: set_rankings(o, c, "--rankings-passages-mean", a); break;
	case O_RKPSD: set_rankings(o, c, "--rankings-passages-stddev", a); break;
	case O_RKPTMEAN: set_rankings(o, c, "--rankings-passages-prompt-token-mean", a); break;
	case O_RKPTSD: set_rankings(o, c, "--rankings-passages-prompt-token-stddev", a); break;
	case O_RKQTMEAN: set_rankings(o, c, "--rankings-query-prompt-token-mean", a); break;
	case O_RKQTSD: set_rankings(o, c, "--rankings-query-prompt-token-stddev", a); break;
	case O_ADEPTHS: av_add_depths(o, a); break;
	case O_DSFILTER: public_add_filter(o, a); break;
	case O_ARATES: av_add_rates(o, a); break;
	default: break;
	}
}

static void
parse_args(struct gen_opts *o, int argc, char **argv)
{
	struct opt tab[] = GEN_OPTS(o);
	const struct opt_cmd cmd = { "aiperf-gen", tab, NULL, 0, NULL, NULL };
	struct opt_iter it;
	int c;

	*o = (struct gen_opts){ .ep = ENDPOINT_CHAT, .isl = 550,
				.osl = -1, .num_entries = 100,
				.request_count = -1, .concurrency = 1,
				.batch_size = 1, .turns_mean = 1, .image_batch = 1,
				.delay_ratio = 1, .cancel_delay = -1,
				.sched.pattern = -1,
				.warmup_sched.pattern = -1,
				.block_size = -1, .start_offset = -1,
				.end_offset = -1, .warmup_grace = -1,
				.sampling = -1, .shard_seed = -1,
				.rankings = { 1, 0, 550, 0, 550, 0 },
				.av = { .audio_format = "wav", .audio_channels = 1,
					.audio_batch = 1, .video_fps = 4,
					.video_duration = 5.0, .video_batch = 1,
					.video_synth = "moving_shapes",
					.video_format = "webm",
					.video_codec = "libvpx-vp9" } };
	o->endpoint_type = endpoint_get(o->ep)->name;
	opt_init(&it, &cmd, argc, argv);
	while ((c = opt_next(&it)) != -1)
		parse_opt(o, c, it.arg);
	if (it.ind < argc)
		die_usage("unexpected argument '%s'", argv[it.ind]);
	if (!o->nmodels)
		die_usage("--model is required");
	check_models(o);
	check_image_source(o);
	check_prompt_opts(o);
	if (o->public_dataset && (o->prefix_pool || o->prefix_len || o->system_len ||
				  o->context_len || o->dist))
		die_usage("--public-dataset brings its own prompts: --prompt-prefix-pool-size, "
			  "--prompt-prefix-length, --shared-system-prompt-length, "
			  "--user-context-prompt-length and --seq-dist cannot be used with it");
	check_accuracy_opts(o);
	av_check_opts(o);
	sched_check_opts(o);
	public_check_opts(o);
	trace_check_opts(o);
	sched_check_mode(o);
	if (o->streaming && !endpoint_has(o->ep, ENDPOINT_STREAMS)) {
		warn("--endpoint-type %s does not stream; ignoring --streaming",
		     o->endpoint_type);
		o->streaming = 0;
	}
	if (!o->path)
		o->path = endpoint_path(endpoint_get(o->ep), o->streaming);
	if (o->ep == ENDPOINT_TEMPLATE)
		template_init(o);
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

/* The root of every draw: --random-seed, else --shard-seed (the shards of
 * one unseeded run draw alike), else fresh. */
static uint64_t
gen_root(const struct gen_opts *o)
{
	if (o->has_seed)
		return (uint64_t)o->seed;
	if (o->shard_seed >= 0)
		return (uint64_t)o->shard_seed;
	return random_root();
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
	template_free(o->tmpl);
	seqdist_free(o->dist);
	for (size_t i = 0; i < o->nmodels; i++)
		free(o->models[i]);
	free(o->models);
	for (size_t i = 0; i < o->nfilters; i++) {
		free(o->filters[i].key);
		free(o->filters[i].value);
	}
	free(o->filters);
	free(o->weights);
	free(o->cum_weights);
}

/*
 * --print-timing-mode: the mode the options and the dataset select, once
 * what a run would reject before writing is checked, cheaply: the
 * tokenizer loads (a hub download fills the cache the run then reads),
 * the corpus is readable and not blank, the file's first record loads.
 */
static int
print_mode(struct gen_opts *o)
{
	char *cpath = corpus_path(o);

	tok_free(load_tokenizer(o));
	prompt_check_corpus(cpath);
	free(cpath);
	if (o->public_dataset)
		public_check_first(o);
	if (o->input_file)
		trace_check_first(o, gen_root(o));
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
	root = gen_root(&o);
	t = load_tokenizer(&o);
	cpath = corpus_path(&o);
	/* a public dataset brings its own prompts */
	p = o.public_dataset || o.accuracy_problems ? NULL : prompt_new(t, cpath, root);
	if (p)
		prompt_pools(p, o.prefix_pool, o.prefix_len, o.system_len);
	if (o.accuracy_problems)
		accuracy_dataset_build(&d, &o, root);
	else if (o.public_dataset)
		public_dataset_build(&d, &o, t, root);
	else if (o.input_file)
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
