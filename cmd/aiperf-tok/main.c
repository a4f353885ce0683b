/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-tok: encode, count or decode stdin lines with a HuggingFace or tiktoken tokenizer. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "json/json.h"
#include "lines.h"
#include "opt.h"
#include "rand/pystr.h"
#include "tok/tok.h"
#include "tok/toksrc.h"
#include "util.h"

#define MAX_LINE ((size_t)1 << 31)
#define FLUSH_AT (1u << 16)

enum mode { MODE_IDS, MODE_COUNT, MODE_DECODE };

struct options {
	const char *tokenizer;
	const char *revision;
	enum mode mode;
	int json;
	int skip_special;
};

enum {
	K_TOKENIZER = 256, K_REVISION, K_TRUST, K_JSON, K_IDS,
	K_COUNT, K_DECODE, K_SKIP, K_HELP, K_VERSION,
};

/* The options in synopsis order. */
#define TOK_OPTS(o) { \
	{ "tokenizer", K_TOKENIZER, OPT_STR, "name", OPT_TO(o->tokenizer), .flags = OPT_REQ }, \
	{ "tokenizer-revision", K_REVISION, OPT_STR, "rev", OPT_TO(o->revision) }, \
	{ "tokenizer-trust-remote-code", K_TRUST, OPT_FLAG, .flags = OPT_BR }, \
	{ "json", K_JSON, OPT_FLAG, NULL, OPT_TO(o->json) }, \
	{ "ids", K_IDS, OPT_FLAG, .flags = 0 }, \
	{ "count", K_COUNT, OPT_FLAG, .flags = OPT_OR }, \
	{ "decode", K_DECODE, OPT_FLAG, .flags = OPT_OR }, \
	{ "skip-special", K_SKIP, OPT_FLAG, NULL, OPT_TO(o->skip_special), .flags = OPT_BR }, \
	{ "help", K_HELP, OPT_HELP, .flags = OPT_HIDE }, \
	{ "version", K_VERSION, OPT_VERSION, .flags = OPT_HIDE }, \
	{ 0 }, \
}

static void
parse_args(struct options *o, int argc, char **argv)
{
	struct opt tab[] = TOK_OPTS(o);
	const struct opt_cmd cmd = { "aiperf-tok", tab, NULL, 7, NULL, NULL };
	struct opt_iter it;
	int c;

	*o = (struct options){ .mode = MODE_IDS };
	opt_init(&it, &cmd, argc, argv);
	while ((c = opt_next(&it)) != -1) {
		switch (c) {
		case K_IDS: o->mode = MODE_IDS; break;
		case K_COUNT: o->mode = MODE_COUNT; break;
		case K_DECODE: o->mode = MODE_DECODE; break;
		default: break;
		}
	}
	if (it.ind != argc)
		die_usage("unexpected argument '%s'", argv[it.ind]);
	if (!o->tokenizer)
		die_usage("--tokenizer is required");
}

struct run {
	const struct options *o;
	struct tok *t;
	struct lines in;
	struct json_doc *doc;
	struct tok_ids ids;
	struct buf out;
};

static void
flush(struct run *r, int force)
{
	if (!force && r->out.len < FLUSH_AT)
		return;
	if (r->out.len && fwrite(r->out.s, 1, r->out.len, stdout) != r->out.len)
		die_write();
	buf_reset(&r->out);
}

/* The lines before a bad one keep their output, written before the error. */
static _Noreturn void
bad_line(struct run *r, size_t lineno, const char *why)
{
	flush(r, 1);
	if (fflush(stdout) == EOF)
		die_write();
	die("-:%zu: %s", lineno, why);
}

/* Ids past the vocabulary are skipped, as the reference does; these are no ids. */
static _Noreturn void
bad_id(struct run *r, int64_t id)
{
	char why[64];

	snprintf(why, sizeof(why), "token id %lld out of range", (long long)id);
	bad_line(r, r->in.lineno, why);
}

static void
put_ids(struct run *r)
{
	size_t i;

	buf_addch(&r->out, '[');
	for (i = 0; i < r->ids.n; i++)
		buf_addf(&r->out, i ? ",%d" : "%d", (int)r->ids.v[i]);
	buf_addstr(&r->out, "]\n");
}

static void
encode_line(struct run *r, const char *s, size_t n)
{
	const struct json *v;
	char err[128];

	if (r->o->json) {
		json_doc_reset(r->doc);
		v = json_parse(r->doc, s, n, err, sizeof(err));
		if (!v || !(s = json_str(v, &n))) {
			bad_line(r, r->in.lineno, v ? "expected a JSON string" : err);
			return;
		}
	} else if (n > 0 && s[n - 1] == '\r') {
		n--;
	}
	if (r->o->mode == MODE_COUNT) {
		buf_addf(&r->out, "%zu\n", tok_count(r->t, s, n));
		return;
	}
	r->ids.n = 0;
	tok_encode(r->t, s, n, &r->ids);
	put_ids(r);
}

static void
decode_line(struct run *r, const char *s, size_t n)
{
	const struct json *v, *e;
	struct buf text = BUF_INIT(BUF_NOMAX);
	char err[128];
	int64_t id;

	json_doc_reset(r->doc);
	v = json_parse(r->doc, s, n, err, sizeof(err));
	if (!v || v->type != JSON_ARRAY) {
		bad_line(r, r->in.lineno, v ? "expected a JSON array of token ids" : err);
		return;
	}
	r->ids.n = 0;
	for (e = v->child; e; e = e->next) {
		if (json_int64(e, &id) < 0)
			bad_line(r, r->in.lineno, "expected a JSON array of token ids");
		if (id < 0 || id > INT32_MAX)
			bad_id(r, id);
		if (r->ids.n == r->ids.cap) {
			r->ids.cap = r->ids.cap ? 2 * r->ids.cap : 64;
			r->ids.v = xreallocarray(r->ids.v, r->ids.cap,
						 sizeof(*r->ids.v));
		}
		r->ids.v[r->ids.n++] = (int32_t)id;
	}
	tok_decode(r->t, r->ids.v, r->ids.n, r->o->skip_special, &text);
	json_quote(&r->out, buf_str(&text), text.len);
	buf_addch(&r->out, '\n');
	buf_release(&text);
}

static void
run(struct run *r)
{
	const char *s;
	size_t n;
	int rc;

	lines_fdopen(&r->in, 0, "-", MAX_LINE);
	while ((rc = lines_next(&r->in, &s, &n)) == 1) {
		/* JSON lines follow aiperf-records(5); a text line is text. */
		if ((r->o->json || r->o->mode == MODE_DECODE) && pystr_isblank(s, n))
			continue;
		if (r->o->mode == MODE_DECODE)
			decode_line(r, s, n);
		else
			encode_line(r, s, n);
		flush(r, 0);
	}
	if (rc < 0)
		bad_line(r, r->in.lineno + (errno != ENOBUFS),
			 errno == ENOBUFS ? "line too long" : util_strerror(errno));
	flush(r, 1);
	lines_close(&r->in);
}

int
main(int argc, char **argv)
{
	struct options o;
	struct run r;
	char err[512];

	util_setprogname(argv[0]);
	signal(SIGPIPE, SIG_IGN);
	parse_args(&o, argc, argv);
	memset(&r, 0, sizeof(r));
	r.o = &o;
	r.t = tok_load(o.tokenizer, o.revision, err, sizeof(err));
	if (!r.t)
		die("%s", err);
	r.doc = json_doc_new();
	buf_init(&r.out, BUF_NOMAX);
	run(&r);
	buf_release(&r.out);
	tok_ids_release(&r.ids);
	json_doc_free(r.doc);
	tok_free(r.t);
	return util_fshut(stdout, "stdout") ? 1 : 0;
}
