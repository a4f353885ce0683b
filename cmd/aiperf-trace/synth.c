/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-trace synthesize: the original's prefix-preserving trace synthesis, step for step. */
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <unistd.h>

#include "buf.h"
#include "hmap.h"
#include "json/json.h"
#include "rand/rng.h"
#include "dataset/trace.h"
#include "tt.h"
#include "util.h"

struct synth_opts {
	double speedup, prefix_mult, prompt_mult;
	int64_t root_mult, max_isl, max_osl, block;
	uint64_t seed;
	int has_seed;
	int group_sessions;
	int strict;		/* a prefix longer than its line is an error */
};

/* One kept input line, stored for the later passes. */
struct kept {
	size_t off, len;
	const char *name;
	size_t lineno;
	char *session;		/* --group-sessions: its session_id or NULL */
	size_t idx, group;
};

struct synth {
	struct synth_opts o;
	int trivial;		/* no multiplier set: filters only, as aiperf profile */
	struct trace_parser tp;
	struct buf text;	/* the kept lines, back to back */
	struct kept *lines;
	size_t n, cap;
	struct hmap count;	/* (hash id, 0) -> occurrences */
	int64_t max_hash_id;
	int64_t *ids;		/* the current trace's new hash ids */
	size_t nids, capids;
	struct rng rng;
	struct buf out;
	int counting;		/* the writing pass: count clamped lines */
	size_t clamped;		/* lines whose prefix covers their input */
};

static void push_id(struct synth *s, int64_t id)
{
	if (s->nids == s->capids) {
		s->capids = s->capids ? s->capids * 2 : 256;
		s->ids = xreallocarray(s->ids, s->capids, sizeof(*s->ids));
	}
	s->ids[s->nids++] = id;
}

static void fresh_ids(struct synth *s, int64_t n)
{
	for (int64_t i = 1; i <= n; i++)
		push_id(s, s->max_hash_id + i);
	if (n > 0)
		s->max_hash_id += n;
}

static int is_shared(const struct synth *s, int64_t h)
{
	const uint64_t *c = hmap_find(&s->count, (uint64_t)h, 0);

	return c && *c > 1;
}

/* Steps 2-5 for one trace: fills s->ids and returns the new input length. */
static int64_t apply_multipliers(struct synth *s, const struct trace_line *l,
				 const struct kept *k)
{
	int64_t B = s->o.block, plen = 0, prefix_len, prompt_len, new_prefix_len;
	int64_t new_prompt_len;
	double pm = s->o.prefix_mult;

	s->nids = 0;
	if (l->n_hash == 0)
		return l->input_length;
	while ((size_t)plen < l->n_hash && is_shared(s, l->hash_ids[plen]))
		plen++;
	prefix_len = plen * B;
	prompt_len = l->input_length - prefix_len;
	if (prompt_len < 0 && s->o.strict)
		die("%s:%zu: input_len (%" PRId64 ") < prefix_len (%" PRId64
		    "): trace has fewer tokens than its shared prefix blocks",
		    k->name, k->lineno, l->input_length, prefix_len);
	if (prompt_len < 0) {
		/* a partial last block: the prefix is the whole input */
		prefix_len = l->input_length;
		prompt_len = 0;
		s->clamped += s->counting;
	}
	if (pm > 1.0) {
		int64_t m = (int64_t)pm;

		for (int64_t i = 0; i < plen; i++)
			for (int64_t j = 0; j < m; j++)
				push_id(s, l->hash_ids[i] * m + j);
		fresh_ids(s, (int64_t)ceil((double)plen * pm) - (int64_t)s->nids);
		new_prefix_len = (int64_t)s->nids * B;
	} else if (pm < 1.0) {
		int64_t keep = (int64_t)((double)plen * pm);

		keep = keep < 1 ? 1 : keep;
		for (int64_t i = 0; i < keep && i < plen; i++)
			push_id(s, l->hash_ids[i]);
		new_prefix_len = keep * B;
	} else {
		for (int64_t i = 0; i < plen; i++)
			push_id(s, l->hash_ids[i]);
		new_prefix_len = prefix_len;
	}
	new_prompt_len = (int64_t)((double)prompt_len * s->o.prompt_mult);
	fresh_ids(s, (new_prompt_len + B - 1) / B);
	return new_prefix_len + new_prompt_len;
}

static const struct trace_line *reparse(struct synth *s, const struct kept *k)
{
	char err[256];

	if (trace_parse(&s->tp, s->text.s + k->off, k->len, err, sizeof(err)) != 1)
		die("%s:%zu: %s", k->name, k->lineno, err);
	return &s->tp.line;
}

static void put_int(struct jw *w, const char *key, int64_t v)
{
	jw_key(w, key);
	jw_int(w, v);
}

static int64_t scaled_timestamp(const struct synth *s, const struct trace_line *l,
				const struct kept *k)
{
	double t = trunc(l->timestamp / s->o.speedup);

	if (!(t > -9.2e18 && t < 9.2e18))
		die("%s:%zu: timestamp out of range", k->name, k->lineno);
	return (int64_t)t;
}

/* Write the line again with the changed fields in place (dict(trace) order). */
static void emit(struct synth *s, const struct trace_line *l, const struct kept *k,
		 int64_t isl, int synthesized)
{
	struct jw w;
	int set_isl = synthesized && !(l->has & (TRACE_TEXT_INPUT | TRACE_MESSAGES));
	int isl_done = 0;

	buf_reset(&s->out);
	jw_init(&w, &s->out, 0);
	jw_obj(&w);
	for (const struct json *m = l->root->child; m; m = m->next) {
		if (!strcmp(m->key, "hash_ids") && synthesized) {
			if (!s->nids)
				continue;
			jw_key(&w, "hash_ids");
			jw_arr(&w);
			for (size_t i = 0; i < s->nids; i++)
				jw_int(&w, s->ids[i]);
			jw_arr_end(&w);
		} else if (!strcmp(m->key, "input_length") && set_isl) {
			put_int(&w, "input_length", isl);
			isl_done = 1;
		} else if (!strcmp(m->key, "timestamp") && synthesized &&
			   (l->has & TRACE_TIMESTAMP) && s->o.speedup > 0) {
			put_int(&w, "timestamp", scaled_timestamp(s, l, k));
		} else if (!strcmp(m->key, "output_length") && s->o.max_osl >= 0 &&
			   l->output_length > s->o.max_osl) {
			put_int(&w, "output_length", s->o.max_osl);
		} else {
			jw_keyn(&w, m->key, m->keylen);
			jw_value(&w, m);
		}
	}
	if (set_isl && !isl_done)
		put_int(&w, "input_length", isl);
	jw_obj_end(&w);
	buf_addch(&s->out, '\n');
	if (fwrite(s->out.s, 1, s->out.len, stdout) != s->out.len)
		die_write();
}

static void keep_line(struct synth *s, const char *name, size_t lineno,
		      const char *line, size_t len)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 4096;
		s->lines = xreallocarray(s->lines, s->cap, sizeof(*s->lines));
	}
	s->lines[s->n] = (struct kept){ s->text.len, len, name, lineno, NULL, 0, 0 };
	s->n++;
	if (buf_add(&s->text, line, len) < 0)
		die("input too large");
}

static void on_line(void *ctx, const char *name, size_t lineno, const char *line,
		    size_t len)
{
	struct synth *s = ctx;
	const struct trace_line *l = &s->tp.line;
	char err[256];
	int rc = trace_parse(&s->tp, line, len, err, sizeof(err));
	struct kept k = { 0, len, name, lineno, NULL, 0, 0 };

	if (rc < 0)
		die("%s:%zu: %s", name, lineno, err);
	if (rc == 0)
		return;
	if (s->o.max_isl && (l->has & TRACE_INPUT_LENGTH) &&
	    l->input_length > s->o.max_isl)
		return;
	if (s->trivial) {
		emit(s, l, &k, 0, 0);
		return;
	}
	for (size_t i = 0; i < l->n_hash; i++) {
		int created;
		uint64_t *c = hmap_put(&s->count, (uint64_t)l->hash_ids[i], 0, &created);

		if (c)
			++*c;
		else
			die("too many distinct hash ids");
	}
	keep_line(s, name, lineno, line, len);
}

static int cmp_session(const void *x, const void *y)
{
	const struct kept *a = x, *b = y;
	int c = strcmp(a->session ? a->session : "", b->session ? b->session : "");

	if (!a->session || !b->session)
		c = a->session ? 1 : b->session ? -1 : 0;
	return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

static int cmp_group(const void *x, const void *y)
{
	const struct kept *a = x, *b = y;

	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	return (a->idx > b->idx) - (a->idx < b->idx);
}

/*
 * The loader's order: sessions in order of first appearance, each with its
 * lines in file order; a line without a session_id is a session of its own.
 */
static void group_sessions(struct synth *s)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct json *v = json_get(reparse(s, &s->lines[i])->root,
						"session_id");
		size_t len;
		const char *str = json_str(v, &len);

		s->lines[i].session = str && len ? xstrndup(str, len) : NULL;
		s->lines[i].idx = s->lines[i].group = i;
	}
	if (!s->n)
		return;	/* no lines array: qsort() takes no NULL */
	qsort(s->lines, s->n, sizeof(*s->lines), cmp_session);
	for (size_t i = 1; i < s->n; i++)
		if (s->lines[i].session && s->lines[i - 1].session &&
		    !strcmp(s->lines[i].session, s->lines[i - 1].session))
			s->lines[i].group = s->lines[i - 1].group;
	qsort(s->lines, s->n, sizeof(*s->lines), cmp_group);
	for (size_t i = 0; i < s->n; i++)
		free(s->lines[i].session);
}

static void init_max_hash_id(struct synth *s)
{
	size_t it = 0;
	uint64_t h, z, c;
	int64_t mx = 0, m = s->o.prefix_mult > 1.0 ? (int64_t)s->o.prefix_mult : 1;
	int any = 0;

	while (hmap_next(&s->count, &it, &h, &z, &c)) {
		if (c > 1 && (!any || (int64_t)h > mx)) {
			mx = (int64_t)h;
			any = 1;
		}
	}
	s->max_hash_id = (mx + 1) * m;
}

static void run(struct synth *s)
{
	int64_t start, offset_base;

	if (s->o.group_sessions)
		group_sessions(s);
	init_max_hash_id(s);
	start = s->max_hash_id;
	for (size_t i = 0; i < s->n; i++)	/* pass 1: the final max_hash_id */
		apply_multipliers(s, reparse(s, &s->lines[i]), &s->lines[i]);
	offset_base = s->max_hash_id + 1;
	s->max_hash_id = start;
	s->counting = 1;
	for (size_t i = 0; i < s->n; i++) {
		const struct kept *k = &s->lines[i];
		const struct trace_line *l = reparse(s, k);
		int64_t isl = apply_multipliers(s, l, k);

		if (s->nids && s->o.root_mult > 1) {
			int64_t tree = rng_randint(&s->rng, 0, s->o.root_mult - 1);

			for (size_t j = 0; tree > 0 && j < s->nids; j++)
				s->ids[j] += tree * offset_base;
		}
		if (!s->nids)
			isl = (l->has & TRACE_INPUT_LENGTH) ? l->input_length : s->o.block;
		if (s->o.max_isl && isl > s->o.max_isl)
			isl = s->o.max_isl;
		emit(s, l, k, isl, 1);
	}
	if (s->clamped)
		warn("%zu line%s with shared prefix blocks longer than their "
		     "input_length: prompt length taken as 0, the prefix as the "
		     "whole input (--strict: an error, as in the original)",
		     s->clamped, s->clamped == 1 ? "" : "s");
}

static uint64_t entropy_seed(void)
{
	uint64_t v = 0;
	int fd = open("/dev/urandom", O_RDONLY);

	if (fd < 0 || read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		die("cannot read '/dev/urandom':");
	close(fd);
	return v;
}

enum {
	K_SPEEDUP = 256, K_PREFIX_LEN, K_PREFIX_ROOT, K_PROMPT_LEN, K_MAX_ISL,
	K_MAX_OSL, K_BLOCK, K_SEED, K_GROUP, K_STRICT,
};

#define MULT(max) OPT_DOUBLE, "X", .hi = (max)

static const struct opt synth_opts[] = {
	{ "speedup-ratio", K_SPEEDUP, MULT(1e12) },
	{ "synthesis-speedup-ratio", K_SPEEDUP, .flags = OPT_ALIAS },
	{ "prefix-len-multiplier", K_PREFIX_LEN, MULT(1e6) },
	{ "synthesis-prefix-len-multiplier", K_PREFIX_LEN, .flags = OPT_ALIAS },
	{ "prefix-root-multiplier", K_PREFIX_ROOT, OPT_INT, "N", .min = 1, .max = 1 << 20 },
	{ "synthesis-prefix-root-multiplier", K_PREFIX_ROOT, .flags = OPT_ALIAS },
	{ "prompt-len-multiplier", K_PROMPT_LEN, MULT(1e6) },
	{ "synthesis-prompt-len-multiplier", K_PROMPT_LEN, .flags = OPT_ALIAS },
	{ "max-isl", K_MAX_ISL, OPT_INT, "N", .min = 1, .max = INT64_MAX },
	{ "synthesis-max-isl", K_MAX_ISL, .flags = OPT_ALIAS },
	{ "max-osl", K_MAX_OSL, OPT_INT, "N", .min = 1, .max = INT64_MAX },
	{ "synthesis-max-osl", K_MAX_OSL, .flags = OPT_ALIAS },
	{ "block-size", K_BLOCK, OPT_INT, "N", .min = 1, .max = INT32_MAX },
	{ "isl-block-size", K_BLOCK, .flags = OPT_ALIAS },
	{ "random-seed", K_SEED, OPT_INT, "N", .max = INT64_MAX },
	{ "group-sessions", K_GROUP, OPT_FLAG, .arg = NULL },
	{ "strict", K_STRICT, OPT_FLAG, .arg = NULL },
	{ "help", 'h', OPT_HELP, .arg = NULL },
	{ 0 },
};

const struct opt_cmd tt_synth_cmd = {
	"aiperf-trace", synth_opts, "[FILE ...]", 0, tt_usage_text,
	"invalid option for synthesize",
};

/* Returns the index of the first operand. */
static int parse_synth(int argc, char **argv, struct synth_opts *o)
{
	struct opt_iter it;
	int c;

	*o = (struct synth_opts){ 1.0, 1.0, 1.0, 1, 0, -1, 512, 0, 0, 0, 0 };
	opt_init(&it, &tt_synth_cmd, argc, argv);
	while ((c = opt_next(&it)) != -1) {
		switch (c) {
		case K_SPEEDUP: o->speedup = it.d; break;
		case K_PREFIX_LEN: o->prefix_mult = it.d; break;
		case K_PREFIX_ROOT: o->root_mult = it.i; break;
		case K_PROMPT_LEN: o->prompt_mult = it.d; break;
		case K_MAX_ISL: o->max_isl = it.i; break;
		case K_MAX_OSL: o->max_osl = it.i; break;
		case K_BLOCK: o->block = it.i; break;
		case K_SEED:
			o->seed = (uint64_t)it.i;
			o->has_seed = 1;
			break;
		case K_GROUP: o->group_sessions = 1; break;
		case K_STRICT: o->strict = 1; break;
		default: break;
		}
	}
	return it.ind;
}

int cmd_synthesize(int argc, char **argv)
{
	struct synth s;

	memset(&s, 0, sizeof(s));
	int ind = parse_synth(argc, argv, &s.o);

	s.trivial = s.o.speedup == 1.0 && s.o.prefix_mult == 1.0 &&
		    s.o.root_mult == 1 && s.o.prompt_mult == 1.0;
	if (s.o.has_seed)
		rng_derive(&s.rng, s.o.seed, "dataset.synthesis.synthesizer");
	else
		rng_seed(&s.rng, entropy_seed());
	trace_parser_init(&s.tp, 0);
	hmap_init(&s.count, TT_MAP_MAX);
	buf_init(&s.text, BUF_NOMAX);
	buf_init(&s.out, BUF_NOMAX);
	tt_each_line(argv + ind, argc - ind, on_line, &s);
	if (!s.trivial)
		run(&s);
	trace_parser_release(&s.tp);
	hmap_release(&s.count);
	buf_release(&s.text);
	buf_release(&s.out);
	free(s.lines);
	free(s.ids);
	return util_fshut(stdout, "stdout") < 0;
}
