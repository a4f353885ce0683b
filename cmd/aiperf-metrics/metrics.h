/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-metrics internals: one raw record parsed, its responses, token counts and metric values. */
#ifndef AIPERF_METRICS_H
#define AIPERF_METRICS_H

#include <stdint.h>
#include "accuracy/grade.h"
#include "buf.h"
#include "endpoint.h"
#include "json/json.h"

/*
 * A struct rec is reused for every input line: rec_reset() keeps its memory.
 * Every json pointer borrows from rec->doc and lives until the next reset.
 */
enum etype {
	ET_CHAT,
	ET_COMPLETIONS,
	ET_EMBEDDINGS,
	ET_RESPONSES,	/* OpenAI Responses API */
	/* parse_endpoints.c */
	ET_CHAT_EMBEDDINGS,	/* chat request, embeddings response */
	ET_HF_GENERATE,	/* Hugging Face TGI */
	ET_SOLIDO_RAG,
	ET_NIM_RANKINGS,	/* {"rankings": [...]} */
	ET_COHERE_RANKINGS,	/* {"results": [{"index", "relevance_score"}]} */
	ET_HF_TEI_RANKINGS,	/* [{"index", "score"}] or {"results": [...]} */
	ET_TEMPLATE,	/* parse_template.c */
	ET_IMAGE_GENERATION,	/* {"b64_json"} events or {"data": [...]} */
	ET_IMAGE_RETRIEVAL,	/* NIM /v1/infer: {"data": ...} */
	ET_VIDEO,	/* video_generation job objects (parse_endpoints.c) */
	ET_OTHER,	/* unknown: latency metrics only */
};

struct resp {
	int64_t perf_ns;
	int data;		/* a content response (text, reasoning, tool call) */
	int output;		/* data with non-empty output text (TTFO) */
	const struct json *usage;
};

/* fastresp.c: a response as the fast path found it in the line. */
struct fresp {
	int64_t perf_ns;
	int packets;		/* a "packets" array: its data values are spans */
	size_t first, ndata;	/* rec->fs[first..first + ndata) */
	const char *s;		/* else the "text" string, quoted, or NULL */
	size_t n;
};

struct fspan {
	const char *s;		/* a data packet's value, quoted and escaped */
	size_t n;
	size_t pick;		/* its fpick (fastresp.c) + 1, or 0: none */
};
struct fpick;
struct fmemo;

/* Where reasoning text went in among the content text (accuracy.c). */
struct rmark {
	size_t out_pos;		/* out_text's length when it was added */
	size_t reason_end;	/* reason_text's length after it */
};

/* --accuracy-problems: the grade of one record (accuracy.c). */
struct racc {
	int graded;
	size_t index;		/* the problem: session_num mod n */
	const char *task;	/* borrowed from the problems */
	struct grade_result g;
};

struct opts;
struct mstate;

struct rec {
	struct json_doc *doc;
	const struct json *root, *metadata, *payload, *error, *aiperf, *trace;
	const char *meta_raw;	/* metadata's text in the line when it is already */
	size_t meta_len;	/* what jw_value() would write, else NULL */
	int64_t start_perf_ns;
	int has_start;
	int warmup;
	int unrecorded;		/* NotSentError or NotFinishedError: the original
				 * records neither; no metric record */
	int stream;
	enum etype et;		/* its response parser */
	unsigned caps;		/* its type's enum endpoint_flags; 0: unknown */
	struct resp *r;
	size_t nr, cap;
	size_t nraw;		/* responses in the record */
	int bad_perf;		/* a response perf_ns outside (0, 2^63-1) */
	struct buf out_text, reason_text;
	int has_out, has_reason;	/* some output / reasoning text seen */
	/* error raised while parsing responses (the original's exceptions) */
	struct buf etype_s, emsg;
	int perr;
	struct buf in;		/* input text for the token count */
	struct mstate *ms;	/* metric values (compute.c) */
	struct tmplfield *tf;	/* template: the compiled response field cache */
	struct tmplfield *tfield;	/* tf when this record has a response_field */
	/* video_generation: the first response's inference_time_s, peak_memory_mb */
	double vinf_s, vmem_mb;
	int has_vinf, has_vmem;
	/* fastresp.c: the responses as fastresp_scan() found them */
	int fr_on;		/* it took the last "responses" member */
	int slow;		/* no fast path for this struct (tests) */
	struct fresp *fr;
	size_t nfr, frcap;
	struct fspan *fs;
	size_t nfs, fscap;
	struct fpick *fp;
	size_t nfp, fpcap;
	struct fmemo *fm;	/* where the last packet's members start */
	int fr_want;		/* the last record's kind suits the fast path */
	size_t nfast;		/* packets fastresp_packet() read (tests) */
	struct buf fscratch;
	/* accuracy.c */
	struct rmark *rm;
	size_t nrm, rmcap;
	struct racc acc;
	struct buf gtext;	/* the reply as the original grades it */
	struct buf note;	/* --accuracy-verbose: the record's line */
};

struct opts {
	const char *endpoint_type;	/* NULL: from the record */
	int server_tokens;
	int streaming;
	int export_trace;
	int drop_warmup;
	int keep_going;
	int unbuffered;
	int threads;
	struct tokenizer *tok;
	struct progress *progress;	/* --progress-fd (progress.h), or NULL */
	struct status *status;		/* --status-fd (status.h), or NULL */
	const struct accuracy *acc;	/* --accuracy-problems, or NULL */
};

struct progress;
/* The progress line's count of r (progress.h), written or not; what it
 * counts of r (its start, its last response, whether it failed). */
void rec_progress(const struct rec *r, const struct opts *o);
void rec_progress_of(const struct rec *r, int64_t *start_ns, int64_t *end_ns, int *error);
/* The status stream's count of r (status.h), after rec_emit() unless r is
 * a dropped warmup record. */
void rec_status(const struct rec *r, const struct opts *o);

void rec_init(struct rec *r);
void rec_reset(struct rec *r);
void rec_release(struct rec *r);

/* parse.c: read one raw record line into r. Returns 0, or -1 with a
 * message in why (the line is malformed: not a raw record). */
int rec_parse(struct rec *r, const struct opts *o, const char *s, size_t n,
	      char *why, size_t whylen);

/*
 * fastresp.c: the fast path for the common shapes of the responses.
 * fastresp_scan() is the json_hook for "responses" (ctx: the struct rec);
 * fastresp_packet() reads one data packet (its JSON, escaped, was read
 * as fastresp_scan() passed) of a chat or completions record, returning 1 with what parse.c's
 * parse_one() finds (its text added to the record), or 0, having done
 * nothing, when parse_one() must read it.
 */
size_t fastresp_scan(void *ctx, const char *s, size_t n);
/* A quoted JSON string of r's line (a span fastresp_scan() kept) decoded,
 * in r's document; "" when it is not one. */
const char *rec_unquote(const struct rec *r, const char *s, size_t n, size_t *len);
int fastresp_packet(struct rec *r, const struct fspan *sp, int *data, int *output,
		    const struct json **usage);

/* compute.c: metric value storage for one rec; metrics_init() builds the
 * computation orders and must run before threads call rec_emit(). */
struct mstate *mstate_new(void);
void mstate_free(struct mstate *m);
void metrics_init(void);

/* compute.c: write the metric record for r to out (a line with '\n').
 * Returns 0, or 1 when the record yields no line. */
int rec_emit(struct rec *r, const struct opts *o, struct buf *out);

/* health.c: write r's "aiperf" object (schedule lateness, latency from the
 * intended send, observation delays, sender CPU, and last its accuracy
 * grade) when its raw record has the inputs or r was graded; valid says
 * whether r is a valid record. */
void health_write(struct jw *w, const struct rec *r, int valid);

/* tokens.c: client-side token counts. With a spec (--tokenizer) one
 * tokenizer serves every record; without, each record's payload model gets
 * its own, loaded on first use (a local path or the HF cache, else builtin).
 * Loading failures die(). Safe to share between threads. */
struct tokenizer *tokenizer_open(const char *spec, const char *revision);
void tokenizer_free(struct tokenizer *t);
/* Token count of s[0..n) for r's model, or -1 when t is NULL. */
int64_t tokenizer_count(struct tokenizer *t, const struct rec *r, const char *s, size_t n);
/* Input sequence length of r's request, or -1 when it has no text. */
int64_t tokens_input(struct tokenizer *t, struct rec *r);

/* pool.c: --threads; lines are copied, computed in batches, written in order. */
struct pool;
struct pool *pool_new(const struct opts *o, int threads);
void pool_add(struct pool *p, const char *name, size_t lineno, const char *s, size_t n);
void pool_flush(struct pool *p);
/* Frees p; returns the number of malformed lines skipped (--keep-going). */
size_t pool_free(struct pool *p);

/*
 * follow.c: --follow FILE. follow_start() starts a thread that copies FILE
 * (waiting for it to appear) into a pipe as it grows, until standard input
 * ends and FILE has been read to its end, then closes the pipe; read the
 * pipe at follow_fd(). Once that read sees the pipe's end, follow_end()
 * waits for the thread and die()s with its failure (FILE unreadable or
 * truncated, data on stdin); it may be called again. follow_free() ends
 * and frees f and the pipe (NULL is fine). Setup failures die().
 */
struct follow;
struct follow *follow_start(const char *const *paths, size_t n);
int follow_fd(const struct follow *f);
void follow_end(struct follow *f);
void follow_free(struct follow *f);

/* parse.c: a parser exception as the original records it (class name,
 * repr of the message); the first one of a record wins. */
void rec_throw(struct rec *r, const char *cls, const char *msg);
/* A truthy JSON value that is not an object: AttributeError on .get(). */
void rec_not_object(struct rec *r, const struct json *v);
/* The response being parsed nests deeper than JSON_MAX_DEPTH. */
void rec_too_deep(struct rec *r);

/* usage.c: the usage block metrics read (the last response's with one),
 * or NULL; rec_check_usage() fails r (InvalidUsageError) when that block
 * holds a count no server could have sent (not a whole number from 0 to
 * 10^9) or, with --use-server-token-count, counts that contradict each
 * other or the response (a total under prompt and completion, no
 * completion tokens for output text). */
const struct json *rec_usage(const struct rec *r);
void rec_check_usage(struct rec *r, const struct opts *o);

/* parse_endpoints.c: chat_embeddings, huggingface_generate, solido_rag,
 * the rankings types. */
/* The parser of type t (NULL: unknown, ET_OTHER), and that of the type a
 * record's endpoint_type names (endpoint_find_record: any case, '-' for
 * '_', older names too). */
enum etype etype_parser(const struct endpoint_type *t);
enum etype etype_named(const char *s);
/* Is et one of parse_endpoints.c's? */
int etype_extra(enum etype et);
/* Is et one of the rankings types? */
int etype_rankings(enum etype et);
/* parse_images.c: one image_generation or image_retrieval response (1:
 * it carries data); the image parts in r's request body (num_images). */
int parse_image_body(struct rec *r, const struct json *v);
int64_t rec_count_images(const struct rec *r);
/* One response's JSON value (any type) for those endpoints: returns 1 when
 * it carries data; output: it carries output text. */
int parse_endpoint_body(struct rec *r, const struct json *v, int *output);

/* parse_template.c: --endpoint-type template. tfield_begin() takes the
 * record's aiperf.response_field (a jq program, compiled once per thread
 * while records repeat it); tfield_body() parses one response (1: it
 * carries data); tfield_end() raises the first response_field miss when
 * no response carried data. */
struct tmplfield;
void tfield_begin(struct rec *r);
int tfield_body(struct rec *r, const char *s, size_t n, int *output);
void tfield_end(struct rec *r);
void tfield_free(struct tmplfield *f);

/*
 * accuracy.c: --accuracy-problems, --accuracy-grader, --accuracy-verbose.
 * accuracy_new() loads the problems (usage errors die()); the struct is
 * read-only after, shared by threads. rec_reason_mark() is called after
 * each append to r->reason_text, so that rec_grade() can rebuild the
 * original's text: every content response's get_text() (its reasoning,
 * then its content) joined. rec_grade() grades r when o->acc is set
 * (valid: whether r is a valid record; an error record's reply is "", as
 * the original parses no response of it), filling r->acc and r->note;
 * rec_write_accuracy() writes the "accuracy" member.
 */
struct accuracy;
struct accuracy *accuracy_new(const char *problems, const char *grader, int verbose);
void accuracy_free(struct accuracy *a);
void rec_reason_mark(struct rec *r);
void rec_grade(struct rec *r, const struct opts *o, int valid);
void rec_write_accuracy(struct jw *w, const struct rec *r);
/* main.c: write a record's note (r->note) to stderr. */
void rec_note(const char *s, size_t n);

/* Python repr() of a str, appended to b. */
void py_repr_str(struct buf *b, const char *s, size_t n);

#endif
