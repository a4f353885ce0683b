/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-gen internals shared by main.c, prompt.c, payload.c and emit.c. */
#ifndef AIPERF_GEN_H
#define AIPERF_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "rng.h"
#include "tok.h"

enum endpoint { EP_CHAT, EP_COMPLETIONS, EP_EMBEDDINGS };

/* One top-level payload member: key and its value as compact JSON text. */
struct kv {
	char *key;
	char *val;
};

/* An ordered map with Python dict.update() semantics: a key set twice
 * keeps its first position and takes the last value. */
struct kvlist {
	struct kv *v;
	size_t n, cap;
};

struct gen_opts {
	char **models;
	size_t nmodels;
	int model_random;
	enum endpoint ep;
	const char *endpoint_type;
	const char *path;
	int streaming;
	long long isl;
	double isl_stddev;
	long long osl;	/* -1: --osl not given, max_tokens left out */
	double osl_stddev;
	int legacy_max_tokens;
	int server_token_count;
	long long num_entries;
	long long request_count;	/* -1: max(10, 2 * concurrency) */
	long long concurrency;
	long long warmup_count;
	int has_seed;
	uint64_t seed;
	struct kvlist extras;
	const char *tokenizer;
	const char *revision;
	int trust_remote_code;
	long long batch_size;
	const char *inputs_json;
	long long shard_k, shard_n;	/* 1-based K of N; N = 0: no sharding */
	const char *corpus;
};

struct turn {
	char **texts;
	size_t ntexts;
	size_t model;
	long long max_tokens;	/* -1: none */
	char *payload;		/* compact JSON body */
	char *tail;		/* record text from "model" to the end of line */
	size_t tail_len;
};

struct conv {
	char *session_id;
	struct turn *turns;
	size_t nturns;
};

struct dataset {
	struct conv *convs;
	size_t n;
};

/* prompt.c: the original's PromptGenerator over a tokenized corpus. */
struct prompt;
struct prompt *prompt_new(const struct tok *t, const char *path,
			  uint64_t seed);
void prompt_free(struct prompt *p);
size_t prompt_corpus_size(const struct prompt *p);
/* generate(mean, stddev): a decoded corpus slice of a sampled length. */
char *prompt_generate(struct prompt *p, double mean, double stddev);
/* RandomGenerator.sample_positive_normal_integer. */
long long gen_pni(struct rng *r, double mean, double stddev);
/* Python str.strip() over UTF-8: returns the start, sets *n. */
const char *gen_strip(const char *s, size_t *n);

/* payload.c: extras and endpoint bodies. */
void kv_set(struct kvlist *l, const char *key, size_t klen, char *val);
void kv_release(struct kvlist *l);
/* Parse one --extra-inputs argument into l; -1 with a message in err. */
int extras_parse(struct kvlist *l, const char *arg, char *err, size_t errlen);
/* Render t->payload (the endpoint body) and t->tail (the record text
 * from "model" to the newline) from t's texts, model and max_tokens. */
void payload_render(const struct gen_opts *o, struct turn *t);

/* emit.c: dataset and record stream. */
void dataset_build(struct dataset *d, const struct gen_opts *o,
		   struct prompt *p, uint64_t root);
void dataset_free(struct dataset *d);
int inputs_json_write(const struct dataset *d, const char *path);
/* Write every request record to stdout; returns 0, or -1 on write error. */
int records_emit(const struct dataset *d, const struct gen_opts *o,
		 uint64_t root);

#endif
