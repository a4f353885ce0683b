/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-gen internals shared by main.c, prompt.c, payload.c and emit.c. */
#ifndef AIPERF_GEN_H
#define AIPERF_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "endpoint.h"
#include "json/extras.h"
#include "media/imagegen.h"
#include "rand/nprand.h"
#include "rand/rng.h"
#include "tok/tok.h"

struct gen_opts {
	char **models;
	size_t nmodels;
	int model_random;	/* random or weighted: drawn (gen_model_draw) */
	int model_weighted;
	double *weights;	/* --model-weights, nweights of them */
	size_t nweights;
	double *cum_weights;	/* weighted: their running sums, nmodels */
	enum endpoint_id ep;
	const char *endpoint_type;	/* its canonical name */
	const char *path;
	int streaming;
	long long isl;
	double isl_stddev;
	long long osl;	/* -1: --osl not given, max_tokens left out */
	double osl_stddev;
	int legacy_max_tokens;
	int server_token_count;
	long long num_entries;
	long long request_count;	/* -1: not given (see default_count) */
	long long num_sessions;	/* --num-sessions; 0: not given */
	long long concurrency;
	long long warmup_count;
	int has_seed;
	uint64_t seed;
	struct extras extras;
	const char *tokenizer;
	const char *revision;
	int trust_remote_code;
	long long batch_size;
	const char *inputs_json;
	long long shard_k, shard_n;	/* 1-based K of N; N = 0: no sharding */
	long long shard_seed;	/* --shard-seed: the root when unseeded, -1: none */
	const char *corpus;
	/* multi-turn sessions */
	double turns_mean, turns_stddev;
	double delay_mean, delay_stddev, delay_ratio;
	/* open-loop schedules (at_ns) and cancellation */
	struct sched_opts {
		int pattern;	/* enum pattern */
		double rate;	/* requests/s; 0: closed loop, no at_ns */
		double smoothness;
		double ramp;	/* --request-rate-ramp-duration s; 0: none */
		double duration;	/* --warmup-duration s; 0: none */
	} sched, warmup_sched;
	int ramp_set;		/* --request-rate-ramp-duration given */
	/* user-centric rate (spec 5.5) */
	double uc_rate;		/* --user-centric-rate; 0: not given */
	long long num_users;	/* --num-users; 0: not given */
	/* warmup stop conditions */
	long long warmup_sessions;	/* --num-warmup-sessions; 0: none */
	double warmup_grace;	/* --warmup-grace-period s; -1: not given */
	double cancel_rate;	/* percent */
	double cancel_delay;	/* seconds */
	/* trace datasets (trace.c) */
	const char *input_file;
	const char *accuracy_problems;	/* --accuracy-problems FILE, or NULL */
	const char *custom_type;	/* as given, or NULL */
	int ds_type;		/* resolved dataset type (DS_*) */
	const struct speedbench_type *speedbench;	/* DS_SPEED_BENCH: which */
	long long block_size;	/* -1: the type's default (512) */
	int fixed_schedule, no_fixed_schedule, auto_offset;
	long long start_offset, end_offset;	/* ms; -1: not given */
	int fixed;		/* resolved: fixed-schedule timing */
	int sampling;		/* enum sampling; -1: the dataset's default */
	int print_mode;
	/* public datasets (public.c) */
	const char *public_dataset;	/* --public-dataset, or NULL */
	const char *public_file;	/* its local copy (--input-file), or NULL */
	const char *public_dir;		/* --public-dataset-dir, or NULL */
	const char *hf_subset;		/* --hf-subset, or NULL */
	struct gen_filter { char *key, *value; } *filters;	/* --dataset-filter */
	size_t nfilters;
	/* prompt shaping (prompt.c, seqdist.c) */
	long long prefix_pool, prefix_len;	/* --prompt-prefix-pool-size, -length */
	long long system_len, context_len;	/* 0: not given */
	int entries_set;	/* --num-dataset-entries given */
	struct seqdist *dist;	/* --seq-dist, or NULL */
	const char *rankings_opt;	/* the first --rankings-* option given */
	/* --rankings-passages-mean, -stddev, -prompt-token-mean, -stddev,
	 * --rankings-query-prompt-token-mean, -stddev */
	long long rankings[6];
	struct template *tmpl;	/* --endpoint-type template (template.c) */
	/* synthetic images (image.c, issue #17) */
	struct imagegen_opts img;
	long long image_batch;	/* --image-batch-size */
	int keep_media;		/* --inputs-json-full-media */
	/* synthetic audio and video (av.c) */
	struct av_opts {
#define AV_MAX_LIST 32
		double audio_mean, audio_stddev;	/* seconds */
		const char *audio_format;	/* "wav" or "mp3" */
		int depths[AV_MAX_LIST];	/* --audio-depths, bits */
		size_t ndepths;
		double rates[AV_MAX_LIST];	/* --audio-sample-rates, kHz */
		size_t nrates;
		long long audio_channels, audio_batch;
		long long video_width, video_height, video_fps, video_batch;
		double video_duration;	/* seconds */
		const char *video_synth, *video_format, *video_codec;
	} av;
};

enum pattern { PAT_BURST, PAT_CONSTANT, PAT_POISSON, PAT_GAMMA };

/* --dataset-sampling-strategy: how sessions pick dataset entries. */
enum sampling { SAMPLE_SEQUENTIAL, SAMPLE_RANDOM, SAMPLE_SHUFFLE };

struct turn {
	char **texts;
	char **names;		/* per text its name ({name, contents}, the
				 * rankings composer's), or NULL for none */
	size_t ntexts;
	size_t model;
	long long max_tokens;	/* -1: none */
	double delay_ms;	/* -1: none */
	long long at_ns;	/* fixed schedule: trace time; -1: none */
	char *raw_messages;	/* mooncake messages, JSON text sent as is */
	char *raw_tools;	/* their tools, JSON text */
	int no_history;		/* message_array_with_responses */
	/* chat: the shared system prompt and the session's user context,
	 * sent before a first turn's message (borrowed; NULL: none) */
	const char *system, *context;
	/* responses: the same two on every turn of the conversation, as
	 * instructions and a leading user item (each turn goes alone) */
	const char *conv_system, *conv_context;
	char **images;		/* image URLs (data: or http(s)), owned */
	size_t nimages;
	char *role;		/* chat message role; NULL: "user" */
	char *sysmsg;		/* first turn: the conversation's own system
				 * message (a multi_turn file's), owned */
	/* audio: "format,b64" strings (or URLs), video: data: URLs or URLs;
	 * the strings are av.c's, the arrays the turn's */
	const char **audios;
	const char **videos;
	size_t naudios, nvideos;
	char *extra;		/* members merged into the body last (a compact
				 * JSON object: single_turn's and mooncake's
				 * "extra", a recorded request's controls), or NULL */
	char *headers;		/* the turn's own request headers, a compact JSON
				 * object of strings (the original's
				 * extra_headers), or NULL */
	char *payload;		/* compact JSON body */
	size_t payload_len;
	/* record text: head is "model" .. "max_tokens", mid the static
	 * "delay_ns", end "history" .. "payload": (the payload itself and
	 * the closing brace follow); at_ns goes between head and mid,
	 * cancel_after_ns between mid and end */
	char *head, *mid, *end;
	size_t head_len, mid_len, end_len;
};

struct conv {
	char *session_id;
	char *context;		/* --user-context-prompt-length: its prompt */
	struct turn *turns;
	size_t nturns;
};

struct custom_stream;
struct gen_dag;

struct dataset {
	struct conv *convs;
	size_t n;
	size_t lines;		/* trace files: non-empty lines read */
	struct custom_stream *stream;	/* set: conversations read as sampled */
	struct gen_dag *dag;	/* dag_jsonl: the branches (dag.c), or NULL */
};

/* models.c: --model-selection-strategy weighted. */
#define GEN_MODELS_MAX 4096
/* Parse "w1,w2,..." (each 0.0 to 1.0, at most GEN_MODELS_MAX) into a
 * malloc'd *out of *n; -1 with the reason in err. */
int gen_weights_parse(const char *arg, double **out, size_t *n, char *err,
		      size_t errlen);
/* ModelsAdvanced's checks of nw weights for nmodels models: one each, and
 * a sum within 1.0 +/- 0.01 (not normalized); -1 with the original's
 * message in err. */
int gen_weights_check(const double *w, size_t nw, size_t nmodels, char *err,
		      size_t errlen);
/* A drawn model's index: uniform (random), or random.choices with the
 * weights (weighted), from r. */
size_t gen_model_draw(const struct gen_opts *o, struct rng *r);

/* prompt.c: the original's PromptGenerator over a tokenized corpus. */
struct prompt;
struct prompt *prompt_new(const struct tok *t, const char *path,
			  uint64_t seed);
void prompt_free(struct prompt *p);
size_t prompt_corpus_size(const struct prompt *p);
/* generate(mean, stddev): a decoded corpus slice of a sampled length. */
char *prompt_generate(struct prompt *p, double mean, double stddev);
/* _build_token_sequence + decode: input_length n from hash id blocks of
 * size b, through the block and decoded-prompt caches. NULL with the
 * original's message in err when n, ids and b do not fit. */
char *prompt_blocks(struct prompt *p, long long n, const int64_t *ids,
		    size_t nids, long long b, char *err, size_t errlen);
/* 0 when n, ids and b fit, else -1 with that message in err. */
int prompt_blocks_fit(long long n, const int64_t *ids, size_t nids,
		      long long b, char *err, size_t errlen);
/* generate_prompt(k): a decoded corpus slice of exactly k tokens. */
char *prompt_exact(struct prompt *p, long long k);
/* __init__'s pools, in its order: pool prefix prompts of len tokens, then
 * the shared system prompt (system_len 0: none). */
void prompt_pools(struct prompt *p, long long pool, long long len,
		  long long system_len);
/* get_random_prefix_prompt (borrowed), NULL when the pool is empty. */
const char *prompt_prefix(struct prompt *p);
/* The shared system prompt (borrowed), or NULL. */
const char *prompt_system(const struct prompt *p);
/* _inject_context_prompts: each conversation's first turn gets the shared
 * system prompt and, in conversation order, a fresh user context prompt. */
void prompt_inject(struct prompt *p, struct dataset *d, const struct gen_opts *o);
/* Exits as prompt_new() would on a corpus it cannot read or that has no
 * tokens, without tokenizing it. */
void prompt_check_corpus(const char *path);
/* RandomGenerator.sample_positive_normal_integer (lib/rand/rng.h). */
#define gen_pni rng_pos_normal_int

/* seqdist.c: --seq-dist, the original's DistributionParser. */
struct seqdist;
/* The distribution of s, or NULL with the original's message in err. */
struct seqdist *seqdist_parse(const char *s, char *err, size_t errlen);
void seqdist_free(struct seqdist *d);
/* sample(): one (isl, osl) pair drawn from r ("models.sequence.distribution"). */
void seqdist_sample(const struct seqdist *d, struct rng *r, long long *isl,
		    long long *osl);

/* payload.c: endpoint bodies. */
/* Render t->payload (the endpoint body) and the record text pieces from
 * t's texts, model, max_tokens and delay; k is the turn's index. */
void payload_render(const struct gen_opts *o, struct turn *t, size_t k);
/* t's chat messages (a first turn's system and context messages first). */
char *payload_chat_messages(const struct turn *t);
/* stream_options.include_usage, added or merged into the user's object. */
void payload_stream_options(struct extras *kv);

/* payload_endpoints.c: the other endpoints' bodies. */
/* s as a JSON string, and t's non-empty texts as a JSON array of strings
 * (values for extras_set(), which takes them), for every endpoint's body. */
char *payload_quoted(const char *s);
char *payload_texts(const struct turn *t);
/* A user message's content into w: a plain string for one text, else an
 * array of parts of type part (empty texts skipped). */
struct jw;
void payload_content(struct jw *w, const struct turn *t, const char *part);
/* Fill kv with turn k's body for the endpoints payload.c does not build;
 * returns 0 when ep is one of payload.c's. */
int payload_endpoint_kv(const struct gen_opts *o, const struct turn *t,
			size_t k, struct extras *kv);

/* payload_images.c: image_generation and image_retrieval bodies into kv;
 * a turn they cannot send (no prompt, no image, a second turn) is fatal. */
void payload_image_kv(const struct gen_opts *o, const struct turn *t, size_t k,
		      struct extras *kv);

/* template.c: --endpoint-type template. */
struct template;
/* An --extra-inputs argument that is payload_template:... or
 * response_field:..., stored whole (commas too): returns 1, else 0. */
int template_extra(struct gen_opts *o, const char *arg);
/* Take payload_template and response_field out of the extras and compile
 * them into o->tmpl; exits 2 with the reason when they do not compile. */
void template_init(struct gen_opts *o);
void template_free(struct template *t);
/* The response field as a jq program, or NULL (auto-detect). */
const char *template_response_field(const struct template *t);
/* Turn k's payload members into kv, then the extras; exits 1 when the
 * program fails or gives anything but one JSON object. */
void template_kv(const struct gen_opts *o, const struct turn *t, size_t k,
		 struct extras *kv);
/* ,"input_text":... into b: the turn's texts, for the input token count
 * whatever shape the payload has. */
void template_input_text(struct buf *b, const struct turn *t);

/* sched.c: the original's interval generators as intended send times. */
struct sched {
	int pattern;
	double rate, period, shape, scale, t;
	double target, start, ramp;	/* rate ramp: start rate to target over ramp s */
	struct rng r;
};
void sched_init(struct sched *s, const struct sched_opts *so, uint64_t root);
/* Intended send time (ns from phase start) of the next new session, or -1
 * in closed-loop (concurrency burst) mode. */
long long sched_next(struct sched *s);
/* The arrival patterns by enum value, NULL-terminated (the option table lists them). */
extern const char *const sched_patterns[];
int sched_pattern(const char *name);
/* validate_timing_mode and friends: exit 2 on the original's bad
 * combinations, else fill in the default patterns. */
void sched_check_opts(struct gen_opts *o);
/* The checks that need the resolved timing mode (after trace_check_opts),
 * then the default sampling strategy. */
void sched_check_mode(struct gen_opts *o);

/* trace.c: mooncake_trace datasets. */
enum {
	DS_SYNTHETIC, DS_MOONCAKE, DS_SINGLE_TURN, DS_MULTI_TURN, DS_RANDOM_POOL,
	DS_BAILIAN, DS_BURST_GPT, DS_SPEED_BENCH,
	DS_RAW_PAYLOAD, DS_INPUTS_JSON, DS_SAGEMAKER, DS_DAG,
};
/* The --custom-dataset-type names, NULL-terminated (static). */
const char *const *trace_type_list(void);
/* The dataset type of o->input_file (exits on an unsupported one) and
 * whether its first non-empty line has a timestamp. */
int trace_type(const struct gen_opts *o, int *has_timestamp);
/* The original's input validators for these options (exit 2), then the
 * resolved fixed-schedule mode, sampler and block size. */
void trace_check_opts(struct gen_opts *o);
void trace_dataset_build(struct dataset *d, const struct gen_opts *o,
			 struct prompt *p, uint64_t root);
/* Exits as trace_dataset_build() would on the file's first record alone
 * (after trace_check_opts), without reading further. */
void trace_check_first(const struct gen_opts *o, uint64_t root);
/* The session id of the i-th generated conversation. */
char *gen_session_id(const struct gen_opts *o, size_t i, struct rng *ids);
void gen_uuid4(struct rng *r, char out[37]);

/* replay.c: raw_payload, inputs_json and sagemaker_data_capture (bodies
 * or captured messages replayed as they were). */
void replay_dataset_build(struct dataset *d, const struct gen_opts *o,
			  uint64_t root);
/* The record pieces of t->payload, a verbatim body (t->model and
 * t->delay_ms set): the body's model, stream and token limit, and
 * "history":false. */
void replay_record(const struct gen_opts *o, struct turn *t);
/* Exits as replay_dataset_build() would (it reads the whole input). */
void replay_check_first(const struct gen_opts *o);

/* public.c: --public-dataset sharegpt, and the hub's (hfpub.c). */
/* The original's names not built here, with what to say of them. */
extern const char *const public_later[];
/* --dataset-filter KEY=VALUE: the original's checks (exit 2). */
void public_add_filter(struct gen_opts *o, const char *arg);
/* The option checks of a public dataset (before trace_check_opts): it
 * takes --input-file as its local copy and the sequential sampler. */
void public_check_opts(struct gen_opts *o);
/* The ShareGPT file found or downloaded, streamed, filtered with t. */
void public_dataset_build(struct dataset *d, const struct gen_opts *o,
			  const struct tok *t, uint64_t root);
/* --print-timing-mode: exits as the build would on the file's first entry
 * (finding or downloading the file first). */
void public_check_first(const struct gen_opts *o);

/* accuracy.c: --accuracy-problems: problem i is conversation i. */
void accuracy_dataset_build(struct dataset *d, const struct gen_opts *o, uint64_t root);

/* speedbench.c: the speed_bench_* types (lib/dataset/speedbench). */
/* The file read: --input-file, or in a directory the type's split file
 * (malloc'd). */
char *speedbench_path(const struct gen_opts *o);
/* The rows of the type's category, one conversation a question_id, one
 * turn a message; exits on a line that is not a row. */
void speedbench_dataset_build(struct dataset *d, const struct gen_opts *o,
			      struct prompt *p, uint64_t root);
/* Exits as speedbench_dataset_build() would on the first row alone. */
void speedbench_check_first(const struct gen_opts *o);

/* custom.c: single_turn, multi_turn and random_pool datasets. */
void custom_dataset_build(struct dataset *d, const struct gen_opts *o,
			  struct prompt *p, uint64_t root);
/* A streamed dataset's next conversation (sequential, wrapping around),
 * valid until the next call; custom_stream_free() ends it. */
const struct conv *custom_stream_next(struct custom_stream *cs);
void custom_stream_free(struct custom_stream *cs);
/* Exits as custom_dataset_build() would on the first record alone. */
void custom_check_first(const struct gen_opts *o);
/* The number of files of directory dir whose first record is a
 * random_pool record, or -1 with "file:line: why" in err when one's is
 * not (RandomPoolDatasetLoader._validate_path). */
int custom_pool_dir(const char *dir, char *err, size_t errlen);
/* Whether path is a directory. */
int gen_is_dir(const char *path);
/* Two 64-bit hashes of s[0..n) (hmap keys). */
void gen_str_hash(const char *s, size_t n, uint64_t h[2]);

/* emit.c: dataset and record stream. */
struct stream {
	const struct dataset *d;
	const struct gen_opts *o;
	struct nprand shuffle;	/* dataset.sampler.shuffle (numpy) */
	struct rng random;	/* dataset.sampler.random */
	size_t *order, pos;
	struct rng ids;		/* x_request_id, x_correlation_id */
	struct rng cancel;	/* timing.request.cancellation */
	struct sched sched;
	int reissue;		/* mark records "reissue":true (warmup pool) */
	unsigned long long index;	/* session index across phases, for --shard */
	int mine;		/* the current session is this shard's (--shard) */
	struct buf line;
};
/* A new session starts (key: its index, or its user number): whether its
 * turns are this shard's (--shard). */
void stream_session(struct stream *s, unsigned long long key);
/* The sampler's next conversation, or NULL for an empty dataset. */
const struct conv *stream_next_conv(struct stream *s);
/* Write turn k of c as a request record (nturns: the session's turns to
 * send; at: at_ns or -1); returns 0, or -1 on write error. */
int stream_put(struct stream *s, const struct conv *c, size_t k, size_t nturns,
	       const char *corr, const char *phase, long long num, long long at);
/* Free t's texts and their names, and its media arrays (none left). */
void turn_free_texts(struct turn *t);
void dataset_build(struct dataset *d, const struct gen_opts *o,
		   struct prompt *p, uint64_t root);
void dataset_free(struct dataset *d);
int inputs_json_write(const struct dataset *d, const char *path);
/* Write every request record to stdout; returns 0, or -1 on write error. */
int records_emit(const struct dataset *d, const struct gen_opts *o,
		 uint64_t root);

/* dag.c: dag_jsonl datasets (conversations with FORK and SPAWN branches). */
/* Load and check the file (exits 1 with the loader's message); one conv a
 * DAG conversation, in file order, the branches in d->dag. */
void dag_dataset_build(struct dataset *d, const struct gen_opts *o);
/* Exits as dag_dataset_build() would, without building. */
void dag_check_first(const struct gen_opts *o);
void dag_free(struct gen_dag *g);
/* Its roots (conversations no branch names). */
size_t dag_roots(const struct gen_dag *g);
/* The profiling phase: whole trees, roots in file order, until sessions
 * roots or count records (between trees); 0, or -1 on write error. */
int dag_emit(struct stream *s, long long count, long long sessions, uint64_t root);

/* image.c: synthetic images and image dataset fields (issue #17). */
/* Whether the size options ask for synthetic images (both means > 0). */
int gen_images_enabled(const struct gen_opts *o);
/* Start the generator (before the first turn); no-op when disabled. */
void gen_images_init(const struct gen_opts *o, uint64_t root);
/* A synthetic turn's --image-batch-size images into t->images. */
void gen_images_turn(const struct gen_opts *o, struct turn *t);
/* Append image URL or file path s to t (a file read and encoded); exits
 * with "where: reason" when it is not readable or not an image. */
void gen_image_field(struct turn *t, const char *s, size_t n, const char *where);
void gen_images_free(struct turn *t);
void gen_images_done(void);
/* Whether inputs.json keeps data: URLs whole (--inputs-json-full-media). */
extern int gen_keep_media;
/* av.c: synthetic audio and video inputs. */
/* --audio-depths and --audio-sample-rates values (repeatable; commas,
 * spaces and brackets separate values). */
void av_add_depths(struct gen_opts *o, const char *arg);
void av_add_rates(struct gen_opts *o, const char *arg);
/* The defaults of the lists, then the original's checks (exit 2). */
void av_check_opts(struct gen_opts *o);
/* Whether synthetic turns carry audio (length mean > 0) and video
 * (width and height > 0). */
int av_audio_on(const struct gen_opts *o);
int av_video_on(const struct gen_opts *o);
/* A synthetic turn's audio (drawn from audio) and video items; exits 1
 * when they cannot be generated (ffmpeg missing or failing). */
void av_turn(struct turn *t, const struct gen_opts *o, struct rng *audio,
	     struct nprand *video_noise);
void av_turn_free(struct turn *t);
/* Content s[0..n) of a dataset file's audio(s) (kind 'a') or video(s)
 * ('v') field as t's next item: a local file read and encoded once
 * (exits when it cannot be, or is not a regular file: the message starts
 * with where, "file:line: "), a URL (or "format,b64" audio) passed
 * through. */
void av_add_file_media(struct turn *t, int kind, const char *s, size_t n,
		       const char *where);
/* from's audio and video items after u's. */
void av_copy_media(struct turn *u, const struct turn *from);
/* The input_audio and video_url parts of t's content. */
void av_content(struct jw *w, const struct turn *t);

/* ucr.c: user-centric rate (spec 5.5). */
/* Turns in time order until count requests; no user starts after sessions
 * users started (0: no limit), whose turns all follow. */
int ucr_emit(struct stream *s, long long count, long long sessions);

#endif
