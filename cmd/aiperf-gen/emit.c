/* SPDX-License-Identifier: Apache-2.0 */
/* The synthetic dataset, inputs.json and the request-record stream. */
#include <errno.h>
#include <limits.h>
#include <math.h>

#include "gen.h"
#include "json/json.h"
#include "media/dataurl.h"
#include "rand/nprand.h"
#include "util.h"

#define INPUTS_MAX ((size_t)1 << 34)

/* A uuid4 string from four 32-bit draws (version and variant bits set). */
void
gen_uuid4(struct rng *r, char out[37])
{
	unsigned char b[16];

	for (int i = 0; i < 4; i++) {
		uint32_t v = rng_u32(r);

		for (int k = 0; k < 4; k++)
			b[4 * i + k] = (unsigned char)(v >> (24 - 8 * k));
	}
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
	snprintf(out, 37,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9],
		 b[10], b[11], b[12], b[13], b[14], b[15]);
}

/* SessionIDGenerator: session_000000... when seeded, else uuid4. */
char *
gen_session_id(const struct gen_opts *o, size_t i, struct rng *ids)
{
	char s[40];

	if (o->has_seed)
		snprintf(s, sizeof(s), "session_%06zu", i);
	else
		gen_uuid4(ids, s);
	return xstrdup(s);
}

struct rngs {
	struct rng turns;	/* composer.conversation.turn_count */
	struct rng model;	/* composer.turn.model_selection */
	struct rng max_tokens;	/* composer.turn.max_tokens */
	struct rng delay;	/* composer.conversation.turn_delay */
	struct rng ids;		/* uuid4 session ids when not seeded */
	struct rng dist;	/* models.sequence.distribution */
	struct rng audio;	/* dataset.audio (av.c) */
	struct nprand video_noise;	/* dataset.video.noise (av.c) */
	size_t rr;		/* round-robin turn counter */
};

/* A first turn's text behind a prompt drawn from the prefix pool. */
static char *
with_prefix(struct prompt *p, char *text)
{
	const char *pre = prompt_prefix(p);
	struct buf b = BUF_INIT(BUF_NOMAX);

	if (!pre)
		die("Attempted to sample a prefix prompt but the prefix prompts "
		    "pool is empty. Please ensure that the prefix prompts pool "
		    "is initialized.");
	buf_addf(&b, "%s %s", pre, text);
	free(text);
	return buf_detach(&b, NULL);
}

/* _create_turn: the turn's (isl, osl) pair from --seq-dist, texts (length
 * then corpus draws, a first turn's behind a pool prefix), the delay of a
 * later turn, then _finalize_turn: model (round robin or choice), then
 * max_tokens: the pair's osl, else drawn when --osl is given. */
static void
make_turn(struct turn *t, size_t k, const struct gen_opts *o,
	  struct prompt *p, struct rngs *r)
{
	long long isl = o->isl, osl = -1;

	if (o->dist)
		seqdist_sample(o->dist, &r->dist, &isl, &osl);
	t->ntexts = (size_t)o->batch_size;
	t->texts = xcalloc(t->ntexts, sizeof(*t->texts));
	for (size_t i = 0; i < t->ntexts; i++) {
		t->texts[i] = prompt_generate(p, (double)isl,
					      o->dist ? 0 : o->isl_stddev);
		if (k == 0 && o->prefix_len > 0)
			t->texts[i] = with_prefix(p, t->texts[i]);
	}
	gen_images_turn(o, t);
	t->delay_ms = -1;
	t->at_ns = -1;
	if (k > 0 && o->delay_mean > 0)
		t->delay_ms = (double)gen_pni(&r->delay, o->delay_mean,
					      o->delay_stddev) * o->delay_ratio;
	if (o->model_random)
		t->model = gen_model_draw(o, &r->model);
	else
		t->model = r->rr++ % o->nmodels;
	t->max_tokens = osl;
	if (!o->dist && o->osl >= 0)
		t->max_tokens = gen_pni(&r->max_tokens, (double)o->osl,
					o->osl_stddev);
}

void
turn_free_texts(struct turn *t)
{
	for (size_t i = 0; i < t->ntexts; i++) {
		free(t->texts[i]);
		if (t->names)
			free(t->names[i]);
	}
	free(t->texts);
	free(t->names);
	free(t->extra);
	t->texts = t->names = NULL;
	t->extra = NULL;
	t->ntexts = 0;
	av_turn_free(t);
}

/* _finalize_turn: the model (round robin or choice), then max_tokens. */
static void
finalize_turn(struct turn *t, const struct gen_opts *o, struct rngs *r)
{
	long long isl;

	if (o->model_random)
		t->model = gen_model_draw(o, &r->model);
	else
		t->model = r->rr++ % o->nmodels;
	t->max_tokens = -1;
	if (o->dist)
		seqdist_sample(o->dist, &r->dist, &isl, &t->max_tokens);
	else if (o->osl >= 0)
		t->max_tokens = gen_pni(&r->max_tokens, (double)o->osl, o->osl_stddev);
}

/*
 * SyntheticRankingsDatasetComposer: per entry the passage count from
 * dataset.rankings.passages, the session id, the query, then each
 * passage (lengths drawn as every prompt's, from dataset.prompt.length),
 * texts named "query" and "passages", then _finalize_turn.
 */
static void
rankings_build(struct dataset *d, const struct gen_opts *o, struct prompt *p,
	       struct rngs *r, uint64_t root)
{
	const long long *rk = o->rankings;
	struct rng passages;

	rng_derive(&passages, root, "dataset.rankings.passages");
	d->n = (size_t)o->num_entries;
	d->convs = xcalloc(d->n, sizeof(*d->convs));
	for (size_t i = 0; i < d->n; i++) {
		struct conv *c = &d->convs[i];
		size_t n = (size_t)gen_pni(&passages, (double)rk[0], (double)rk[1]);
		struct turn *t;

		c->session_id = gen_session_id(o, i, &r->ids);
		c->nturns = 1;
		c->turns = t = xcalloc(1, sizeof(*c->turns));
		t->ntexts = n + 1;
		t->texts = xcalloc(n + 1, sizeof(*t->texts));
		t->names = xcalloc(n + 1, sizeof(*t->names));
		t->texts[0] = prompt_generate(p, (double)rk[4], (double)rk[5]);
		t->names[0] = xstrdup("query");
		for (size_t k = 1; k <= n; k++) {
			t->texts[k] = prompt_generate(p, (double)rk[2], (double)rk[3]);
			t->names[k] = xstrdup("passages");
		}
		t->delay_ms = -1;
		t->at_ns = -1;
		finalize_turn(t, o, r);
		payload_render(o, t, 0);
	}
}

void
dataset_build(struct dataset *d, const struct gen_opts *o, struct prompt *p,
	      uint64_t root)
{
	struct rngs r = { .rr = 0 };

	rng_derive(&r.turns, root, "composer.conversation.turn_count");
	rng_derive(&r.model, root, "composer.turn.model_selection");
	rng_derive(&r.max_tokens, root, "composer.turn.max_tokens");
	rng_derive(&r.delay, root, "composer.conversation.turn_delay");
	rng_derive(&r.ids, root, "aiperf.gen.session_id");
	rng_derive(&r.dist, root, "models.sequence.distribution");
	gen_images_init(o, root);
	rng_derive(&r.audio, root, "dataset.audio");
	nprand_seed(&r.video_noise, rng_child_seed(root, "dataset.video.noise"));
	if (endpoint_has(o->ep, ENDPOINT_RANKS)) {
		rankings_build(d, o, p, &r, root);
		return;
	}
	d->n = (size_t)o->num_entries;
	d->convs = xcalloc(d->n, sizeof(*d->convs));
	for (size_t i = 0; i < d->n; i++) {
		struct conv *c = &d->convs[i];

		c->session_id = gen_session_id(o, i, &r.ids);
		c->nturns = (size_t)gen_pni(&r.turns, o->turns_mean,
					    o->turns_stddev);
		c->turns = xcalloc(c->nturns, sizeof(*c->turns));
		for (size_t k = 0; k < c->nturns; k++)
			make_turn(&c->turns[k], k, o, p, &r);
		for (size_t k = 0; k < c->nturns; k++)
			av_turn(&c->turns[k], o, &r.audio, &r.video_noise);
	}
	prompt_inject(p, d, o);
	for (size_t i = 0; i < d->n; i++)
		for (size_t k = 0; k < d->convs[i].nturns; k++) {
			payload_render(o, &d->convs[i].turns[k], k);
			gen_images_free(&d->convs[i].turns[k]);	/* in the payload now */
		}
}

void
dataset_free(struct dataset *d)
{
	for (size_t i = 0; i < d->n; i++) {
		struct conv *c = &d->convs[i];

		for (size_t k = 0; k < c->nturns; k++) {
			struct turn *t = &c->turns[k];

			turn_free_texts(t);
			gen_images_free(t);
			free(t->payload);
			free(t->headers);
			free(t->raw_messages);
			free(t->raw_tools);
			free(t->role);
			free(t->sysmsg);
			free(t->head);
			free(t->mid);
			free(t->end);
		}
		free(c->turns);
		free(c->session_id);
		free(c->context);
	}
	free(d->convs);
	dag_free(d->dag);
	if (d->stream)
		custom_stream_free(d->stream);
	gen_images_done();
	memset(d, 0, sizeof(*d));
}

/* Conversation i of d: held, or the stream's next (each once, in order). */
static const struct conv *
conv_at(const struct dataset *d, size_t i)
{
	return d->stream ? custom_stream_next(d->stream) : &d->convs[i];
}

/* orjson OPT_INDENT_2 of {"data":[{"session_id","payloads":[...]}]},
 * written as it is made (a streamed dataset is read through once). */
int
inputs_json_write(const struct dataset *d, const char *path)
{
	struct buf b = BUF_INIT(INPUTS_MAX);
	struct json_doc *doc;
	size_t n = d->stream ? d->lines : d->n;
	struct jw w;
	FILE *f;
	int rc = 0;

	if (!(f = fopen(path, "w")))
		return error("cannot open '%s':", path);
	doc = json_doc_new();
	jw_init(&w, &b, 2);
	jw_obj(&w);
	jw_key(&w, "data");
	jw_arr(&w);
	for (size_t i = 0; i < n && !rc; i++) {
		const struct conv *c = conv_at(d, i);

		jw_obj(&w);
		jw_key(&w, "session_id");
		jw_str(&w, c->session_id);
		jw_key(&w, "payloads");
		jw_arr(&w);
		for (size_t k = 0; k < c->nturns; k++) {
			const char *s = c->turns[k].payload;
			struct buf e = BUF_INIT(BUF_NOMAX);

			/* base64 media (data: URLs, input_audio data) as type,
			 * length and digest (issue #17) */
			if (!gen_keep_media && strstr(s, "\"data")) {
				dataurl_elide_json(&e, s, strlen(s), 256);
				s = e.s;
			}
			json_doc_reset(doc);
			jw_value(&w, json_parse(doc, s, strlen(s), NULL, 0));
			buf_release(&e);
		}
		jw_arr_end(&w);
		jw_obj_end(&w);
		if (b.len >= ((size_t)1 << 20) && fwrite(b.s, 1, b.len, f) != b.len)
			rc = -1;
		else if (b.len >= ((size_t)1 << 20))
			buf_reset(&b);
	}
	jw_arr_end(&w);
	jw_obj_end(&w);
	json_doc_free(doc);
	if (rc || fwrite(b.s, 1, b.len, f) != b.len || util_fshut(f, path)) {
		if (rc)
			fclose(f);
		rc = error("cannot write '%s':", path);
	}
	buf_release(&b);
	return rc;
}

/*
 * dataset_samplers.py, next_conversation_id: random is choice() (with
 * replacement); sequential walks the list and wraps; shuffle walks a
 * permutation and reshuffles after each full pass. NULL for an empty
 * dataset.
 */
const struct conv *
stream_next_conv(struct stream *s)
{
	if (s->d->stream)
		return custom_stream_next(s->d->stream);
	if (!s->d->n)
		return NULL;
	if (s->o->sampling == SAMPLE_RANDOM)
		return &s->d->convs[rng_below(&s->random, s->d->n)];
	if (s->pos >= s->d->n) {
		if (s->o->sampling == SAMPLE_SHUFFLE)
			nprand_shuffle(&s->shuffle, s->order, s->d->n);
		s->pos = 0;
	}
	return &s->d->convs[s->order[s->pos++]];
}

/* Credit cancellation: profiling only, one Bernoulli draw per request. */
static long long
cancel_after(struct stream *s, const char *phase)
{
	if (s->o->cancel_rate <= 0 || strcmp(phase, "profiling"))
		return -1;
	if (rng_random(&s->cancel) < s->o->cancel_rate / 100.0)
		return (long long)(s->o->cancel_delay * 1e9);
	return -1;
}

/*
 * --shard K/N: whole sessions go to one shard, session i (counted across
 * the phases, in emission order) to shard i mod N + 1, so that sticky
 * sessions and later turns stay on one sender. Every shard draws every
 * id and time, so each record is the one an unsharded run writes.
 */
void
stream_session(struct stream *s, unsigned long long key)
{
	s->mine = !s->o->shard_n ||
		  key % (unsigned long long)s->o->shard_n ==
			  (unsigned long long)(s->o->shard_k - 1);
}

int
stream_put(struct stream *s, const struct conv *c, size_t k, size_t nturns,
	   const char *corr, const char *phase, long long num, long long at)
{
	const struct turn *t = &c->turns[k];
	long long cancel = cancel_after(s, phase);
	char id[37];

	gen_uuid4(&s->ids, id);
	if (!s->mine)
		return 0;
	buf_reset(&s->line);
	buf_addf(&s->line, "{\"schema\":\"aiperf.request/1\",\"id\":\"%s\","
		 "\"session_num\":%lld,\"conversation_id\":", id, num);
	json_quote(&s->line, c->session_id, strlen(c->session_id));
	buf_addf(&s->line, ",\"x_correlation_id\":\"%s\",\"turn_index\":%zu,"
		 "\"num_turns\":%zu,\"phase\":\"%s\",", corr, k, nturns,
		 phase);
	if (s->reissue)
		buf_addstr(&s->line, "\"reissue\":true,");
	buf_add(&s->line, t->head, t->head_len);
	if (at >= 0)
		buf_addf(&s->line, ",\"at_ns\":%lld", at);
	buf_add(&s->line, t->mid, t->mid_len);
	if (cancel >= 0)
		buf_addf(&s->line, ",\"cancel_after_ns\":%lld", cancel);
	buf_add(&s->line, t->end, t->end_len);
	buf_add(&s->line, t->payload, t->payload_len);
	buf_add(&s->line, "}\n", 2);
	if (fwrite(s->line.s, 1, s->line.len, stdout) != s->line.len)
		return -1;
	return 0;
}

/* Warmup requests: the count, else unbounded when sessions or a duration
 * end the phase, else none. */
static long long
warmup_count(const struct gen_opts *o)
{
	if (o->warmup_count)
		return o->warmup_count;
	if (o->warmup_sessions || o->warmup_sched.duration > 0)
		return LLONG_MAX;
	return 0;
}

/*
 * One phase: sessions in sampler order, every turn counts as a request;
 * a new session's first turn takes the next intended send time. It stops
 * at count requests, after sessions sessions (0: no limit; started
 * sessions finish), or at the first send time at or past dur_ns (0: none).
 */
static int
emit_phase(struct stream *s, const char *phase, long long count,
	   long long sessions, const struct sched_opts *so, uint64_t root)
{
	long long num = 0, started = 0;
	long long dur_ns = so->duration > 0 ? llround(so->duration * 1e9) : 0;

	sched_init(&s->sched, so, root);
	while (num < count && (!sessions || started < sessions)) {
		long long at = sched_next(&s->sched);
		const struct conv *c;
		char corr[37];

		if (dur_ns && at >= dur_ns)
			break;
		if (!(c = stream_next_conv(s)))
			break;
		started++;
		stream_session(s, s->index++);
		gen_uuid4(&s->ids, corr);
		for (size_t k = 0; k < c->nturns && num < count; k++, num++)
			if (stream_put(s, c, k, c->nturns, corr, phase, num,
				       k ? -1 : at))
				return -1;
	}
	return 0;
}

/* Sessions in the warmup pool (see warmup_emit). */
#define POOL_SESSIONS 1000

/*
 * --warmup-duration without a warmup rate (concurrency mode): the stream
 * cannot know how many requests the sender gets through in the duration,
 * so it writes a pool, one sampler pass over the dataset (at most
 * POOL_SESSIONS sessions), marked "reissue": the sender sends the pool
 * and then again with fresh ids until the duration ends.
 */
static int
warmup_emit(struct stream *s, const struct gen_opts *o, uint64_t root)
{
	const struct sched_opts *w = &o->warmup_sched;
	long long pool = (long long)s->d->n;
	int rc;

	if (o->warmup_count || o->warmup_sessions || !(w->duration > 0) ||
	    w->rate > 0)
		return emit_phase(s, "warmup", warmup_count(o),
				  o->warmup_sessions, w, root);
	if (pool > POOL_SESSIONS)
		pool = POOL_SESSIONS;
	s->reissue = 1;
	rc = emit_phase(s, "warmup", LLONG_MAX, pool ? pool : 1, w, root);
	s->reissue = 0;
	return rc;
}

struct at_idx {
	long long at;
	size_t i;
};

static int
cmp_at(const void *x, const void *y)
{
	const struct at_idx *a = x, *b = y;

	if (a->at != b->at)
		return a->at < b->at ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

/*
 * Fixed schedule (strategies/fixed_schedule.py): every conversation once,
 * in order of its first turn's time; each turn carries its own at_ns.
 * It stops at count requests or after sessions conversations (0: all).
 */
static int
emit_fixed(struct stream *s, long long count, long long sessions)
{
	long long num = 0;
	struct at_idx *order = xcalloc(s->d->n ? s->d->n : 1, sizeof(*order));
	size_t n = s->d->n;
	int rc = 0;

	/* ties keep dataset order, as Python's stable sort */
	for (size_t i = 0; i < s->d->n; i++) {
		const struct conv *c = &s->d->convs[i];

		order[i] = (struct at_idx){ c->nturns ? c->turns[0].at_ns : -1, i };
	}
	qsort(order, s->d->n, sizeof(*order), cmp_at);
	if (sessions && (unsigned long long)sessions < s->d->n)
		n = (size_t)sessions;
	for (size_t i = 0; i < n && num < count && !rc; i++) {
		const struct conv *c = &s->d->convs[order[i].i];
		char corr[37];

		stream_session(s, s->index++);
		gen_uuid4(&s->ids, corr);
		for (size_t k = 0; k < c->nturns && num < count && !rc; k++, num++)
			rc = stream_put(s, c, k, c->nturns, corr, "profiling",
					num, c->turns[k].at_ns);
	}
	free(order);
	return rc;
}

/* validate_timing_mode's request count when none is given; with
 * --num-sessions there is none (the sessions end the phase). */
static long long
default_count(const struct dataset *d, const struct gen_opts *o)
{
	if (o->num_sessions)
		return LLONG_MAX;
	if (o->fixed)
		return (long long)d->lines;
	if (o->sched.rate > 0)
		return 10;
	if (o->uc_rate > 0)
		return o->num_users > 10 ? o->num_users : 10;
	return o->concurrency * 2 > 10 ? o->concurrency * 2 : 10;
}

/* Every sampler loop below draws conversations until enough turns are
 * written, so it needs a turn somewhere in each pass over the dataset. */
static int
has_turns(const struct dataset *d)
{
	if (d->stream)
		return 1;	/* its records each have a turn */
	for (size_t i = 0; i < d->n; i++)
		if (d->convs[i].nturns)
			return 1;
	return 0;
}

int
records_emit(const struct dataset *d, const struct gen_opts *o, uint64_t root)
{
	struct stream s = { .d = d, .o = o, .mine = 1 };
	long long count = o->request_count;
	int rc;

	if (!has_turns(d))
		return 0;
	if (count < 0)
		count = default_count(d, o);
	nprand_seed(&s.shuffle, rng_child_seed(root, "dataset.sampler.shuffle"));
	rng_derive(&s.random, root, "dataset.sampler.random");
	s.order = xcalloc(d->n ? d->n : 1, sizeof(*s.order));
	for (size_t i = 0; i < d->n; i++)
		s.order[i] = i;
	if (o->sampling == SAMPLE_SHUFFLE)
		nprand_shuffle(&s.shuffle, s.order, d->n);
	rng_derive(&s.ids, root, "aiperf.gen.request_id");
	rng_derive(&s.cancel, root, "timing.request.cancellation");
	buf_init(&s.line, BUF_NOMAX);
	rc = d->dag ? 0 : warmup_emit(&s, o, root);
	/* accuracy: profiling request k is problem k mod n (aiperf-metrics
	 * grades it against that one), whatever the warmup sent */
	if (o->accuracy_problems)
		s.pos = 0;
	if (!rc && d->dag)
		rc = dag_emit(&s, o->request_count < 0 ? LLONG_MAX : count,
			      o->num_sessions || o->request_count >= 0 ?
			      o->num_sessions : (long long)dag_roots(d->dag), root);
	else if (!rc && o->fixed)
		rc = emit_fixed(&s, count, o->num_sessions);
	else if (!rc && o->uc_rate > 0)
		rc = ucr_emit(&s, count, o->num_sessions);
	else if (!rc)
		rc = emit_phase(&s, "profiling", count, o->num_sessions,
				&o->sched, root);
	buf_release(&s.line);
	free(s.order);
	return rc;
}
