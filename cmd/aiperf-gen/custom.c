/* SPDX-License-Identifier: Apache-2.0 */
/* single_turn, multi_turn and random_pool datasets: the original's custom JSONL loaders. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <sys/stat.h>

#include "gen.h"
#include "hmap.h"
#include "lines.h"
#include "dataset/custom.h"
#include "util.h"

#define LINE_MAX_BYTES ((size_t)64 << 20)
#define SESSIONS_MAX ((size_t)1 << 28)
#define POOL_FILES_MAX 65536

/* Where a turn came from and when, until its times are set. */
struct cmeta {
	size_t lineno;
	int has_ts;
	double ts;
	double delay;		/* -1: none */
};

struct cload {
	const struct gen_opts *o;
	const char *name;	/* the file being read */
	struct dataset *d;
	size_t cap;
	struct cmeta **meta;	/* per conversation, per turn */
	size_t *tcap;		/* per conversation: turns allocated */
	struct hmap ix;		/* session id -> conversation */
	struct rng ids;		/* generated session ids */
	size_t gen;
	size_t lines;
	struct custom_parser cp;
};

static enum custom_kind
kind_of(int type)
{
	return type == DS_MULTI_TURN ? CUSTOM_MULTI_TURN :
	       type == DS_RANDOM_POOL ? CUSTOM_RANDOM_POOL : CUSTOM_SINGLE_TURN;
}

/* The error of one record (custom_parse's), or NULL. */
static const char *
check_record(struct custom_parser *cp, int type, const char *s, size_t n,
	     char *err, size_t errlen, int *rc)
{
	*rc = custom_parse(cp, kind_of(type), s, n, err, errlen);
	return *rc < 0 ? err : NULL;
}

/* The conversation of session id s[0..n) (NULL: a new generated one). */
static size_t
conv_of(struct cload *l, const char *s, size_t n)
{
	struct dataset *d = l->d;
	uint64_t h[2] = { 0, 0 }, *slot = NULL;
	int created = 1;

	if (s) {
		gen_str_hash(s, n, h);
		if (!(slot = hmap_put(&l->ix, h[0], h[1], &created)))
			die("%s: too many sessions", l->name);
		if (!created)
			return (size_t)*slot;
	}
	if (d->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 1024;
		d->convs = xreallocarray(d->convs, l->cap, sizeof(*d->convs));
		l->meta = xreallocarray(l->meta, l->cap, sizeof(*l->meta));
		l->tcap = xreallocarray(l->tcap, l->cap, sizeof(*l->tcap));
	}
	d->convs[d->n] = (struct conv){
		.session_id = s ? xstrndup(s, n) : gen_session_id(l->o, l->gen++, &l->ids),
	};
	l->meta[d->n] = NULL;
	l->tcap[d->n] = 0;
	if (slot)
		*slot = d->n;
	return d->n++;
}

static char *
text_of(const struct custom_text *t)
{
	return xstrndup(t->s, t->n);
}

/* Record turn k's audio and video contents as u's items (av.c); where
 * names the line for errors. */
static void
add_media(struct turn *u, const struct custom_parser *cp,
	  const struct custom_turn *k, const char *where)
{
	for (size_t i = 0; i < k->naudios; i++) {
		const struct custom_text *x = &cp->audios.v[k->audio0 + i];

		av_add_file_media(u, 'a', x->s, x->n, where);
	}
	for (size_t i = 0; i < k->nvideos; i++) {
		const struct custom_text *x = &cp->videos.v[k->video0 + i];

		av_add_file_media(u, 'v', x->s, x->n, where);
	}
}

/* u from record turn k: its texts, images (files read and encoded
 * here, before any record is written; where names the line for errors),
 * role, output_length, audio and video. */
static void
turn_of(struct turn *u, const struct custom_parser *cp, const struct custom_turn *k,
	const char *where)
{
	*u = (struct turn){ .ntexts = k->ntexts, .max_tokens = -1, .delay_ms = -1,
			    .at_ns = -1 };
	u->texts = xcalloc(k->ntexts ? k->ntexts : 1, sizeof(*u->texts));
	for (size_t i = 0; i < k->ntexts; i++) {
		const struct custom_text *x = &cp->texts.v[k->text0 + i];

		u->texts[i] = text_of(x);
		if (!x->name)
			continue;
		if (!u->names)
			u->names = xcalloc(k->ntexts, sizeof(*u->names));
		u->names[i] = xstrndup(x->name, x->name_len);
	}
	for (size_t i = 0; i < k->nimages; i++)
		gen_image_field(u, cp->images.v[k->img0 + i].s,
				cp->images.v[k->img0 + i].n, where);
	if (k->role)
		u->role = xstrndup(k->role, k->role_len);
	if (k->has & CUSTOM_OUTPUT_LENGTH)
		u->max_tokens = k->output_length;
	if (k->extra) {
		struct buf b = BUF_INIT(BUF_NOMAX);
		struct jw w;

		jw_init(&w, &b, 0);
		jw_value(&w, k->extra);
		u->extra = buf_detach(&b, NULL);
	}
	add_media(u, cp, k, where);
}

/* Turn k of the parsed record as the next turn of conversation c. */
static void
add_turn(struct cload *l, size_t c, const struct custom_turn *k, size_t lineno)
{
	struct conv *cv = &l->d->convs[c];
	struct turn *u;
	struct cmeta *m;
	char where[4200];

	if (cv->nturns == l->tcap[c]) {
		l->tcap[c] = l->tcap[c] ? l->tcap[c] * 2 : 2;
		cv->turns = xreallocarray(cv->turns, l->tcap[c], sizeof(*cv->turns));
		l->meta[c] = xreallocarray(l->meta[c], l->tcap[c], sizeof(**l->meta));
	}
	u = &cv->turns[cv->nturns];
	m = &l->meta[c][cv->nturns++];
	snprintf(where, sizeof(where), "%s:%zu: ", l->name, lineno);
	turn_of(u, &l->cp, k, where);
	*m = (struct cmeta){ .lineno = lineno, .has_ts = !!(k->has & CUSTOM_TIMESTAMP),
			     .ts = k->timestamp, .delay = -1 };
	if (k->has & CUSTOM_DELAY)
		m->delay = k->delay > 0 ? k->delay : 0;
}

/* One record: single_turn lines group by session_id; a multi_turn line's
 * turns go to its session, after those of earlier lines with its id. */
static void
on_record(struct cload *l, int type, size_t lineno)
{
	struct custom_parser *cp = &l->cp;
	size_t c;

	if (type == DS_MULTI_TURN) {
		c = conv_of(l, cp->session_id, cp->session_len);
		for (size_t i = 0; i < cp->nturns; i++)
			add_turn(l, c, &cp->turns[i], lineno);
		return;
	}
	c = conv_of(l, cp->turns[0].session_id, cp->turns[0].session_len);
	add_turn(l, c, &cp->turns[0], lineno);
}

static void pool_add(struct cload *l, struct conv *pool, size_t lineno);

/* Read every record of path (type's rules) into on_record, or with
 * on_record NULL into a random_pool (pool: its records' turns). */
static void
read_file(struct cload *l, int type, const char *path, struct conv *pool)
{
	struct lines in;
	const char *s, *why;
	char err[512];
	size_t n;
	int rc;

	l->name = path;
	if (lines_open(&in, path, LINE_MAX_BYTES) < 0)
		die("cannot open '%s':", path);
	while ((rc = lines_next(&in, &s, &n)) == 1) {
		int got;

		if ((why = check_record(&l->cp, type, s, n, err, sizeof(err), &got)))
			die("%s:%zu: %s", path, in.lineno, why);
		if (!got)
			continue;
		l->lines++;
		if (pool)
			pool_add(l, pool, in.lineno);
		else
			on_record(l, type, in.lineno);
	}
	if (rc < 0 && errno == ENOBUFS)
		die("%s:%zu: line longer than %zu bytes", path, in.lineno,
		    LINE_MAX_BYTES);
	if (rc < 0)
		die("cannot read '%s':", path);
	lines_close(&in);
}

/* A random_pool record: its texts as one more turn of the pool. */
static void
pool_add(struct cload *l, struct conv *pool, size_t lineno)
{
	const struct custom_turn *k = &l->cp.turns[0];
	char where[4200];
	struct turn *u;

	if ((pool->nturns & (pool->nturns - 1)) == 0)
		pool->turns = xreallocarray(pool->turns, pool->nturns ? pool->nturns * 2 : 1,
					    sizeof(*pool->turns));
	u = &pool->turns[pool->nturns++];
	*u = (struct turn){ .ntexts = k->ntexts };
	u->texts = xcalloc(k->ntexts ? k->ntexts : 1, sizeof(*u->texts));
	u->names = xcalloc(k->ntexts ? k->ntexts : 1, sizeof(*u->names));
	for (size_t i = 0; i < k->ntexts; i++) {
		const struct custom_text *x = &l->cp.texts.v[k->text0 + i];

		u->texts[i] = text_of(x);
		/* {name, contents} objects keep theirs, else the file's stem */
		u->names[i] = x->name ? xstrndup(x->name, x->name_len) :
					xstrdup(pool->session_id);
	}
	snprintf(where, sizeof(where), "%s:%zu: ", l->name, lineno);
	for (size_t i = 0; i < k->nimages; i++)
		gen_image_field(u, l->cp.images.v[k->img0 + i].s,
				l->cp.images.v[k->img0 + i].n, where);
	add_media(u, &l->cp, k, where);
}

/* Path.stem: the last component without its last suffix. */
static char *
path_stem(const char *path)
{
	const char *b = strrchr(path, '/'), *dot;

	b = b ? b + 1 : path;
	dot = strrchr(b, '.');
	return dot && dot != b ? xstrndup(b, (size_t)(dot - b)) : xstrdup(b);
}

static int
cmp_name(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The regular files of directory dir, sorted by name (sorted(iterdir()));
 * exits when there are none (a random_pool directory holds its pools). */
static char **
dir_files(const char *dir, size_t *n)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	struct stat st;

	*n = 0;
	if (!dp)
		die("cannot open '%s':", dir);
	while ((e = readdir(dp))) {
		char *path;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		path = xstrfmt("%s/%s", dir, e->d_name);
		if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || *n >= POOL_FILES_MAX) {
			free(path);
			continue;
		}
		v = xreallocarray(v, *n + 1, sizeof(*v));
		v[(*n)++] = path;
	}
	closedir(dp);
	if (!*n)
		die("random_pool directory '%s' has no regular files", dir);
	qsort(v, *n, sizeof(*v), cmp_name);
	return v;
}

int
gen_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Python's random.choices(population of n, k=1) index. */
static size_t
choice(struct rng *r, size_t n)
{
	size_t i = (size_t)floor(rng_random(r) * (double)n);

	return i < n ? i : n - 1;
}

/* Text i of from, with its name, as u's next text. */
static void
add_named(struct turn *u, const struct turn *from, size_t i)
{
	u->texts = xreallocarray(u->texts, u->ntexts + 1, sizeof(*u->texts));
	u->names = xreallocarray(u->names, u->ntexts + 1, sizeof(*u->names));
	u->names[u->ntexts] = from->names && from->names[i] ?
			      xstrdup(from->names[i]) : NULL;
	u->texts[u->ntexts++] = xstrdup(from->texts[i]);
}

/* Image i of from, a copy, as u's next image. */
static void
add_image(struct turn *u, const struct turn *from, size_t i)
{
	u->images = xreallocarray(u->images, u->nimages + 1, sizeof(*u->images));
	u->images[u->nimages++] = xstrdup(from->images[i]);
}

/* from's texts (with their names), images, audios and videos after u's. */
static void
merge_turn(struct turn *u, const struct turn *from)
{
	for (size_t i = 0; i < from->ntexts; i++)
		add_named(u, from, i);
	for (size_t i = 0; i < from->nimages; i++)
		add_image(u, from, i);
	av_copy_media(u, from);
}

/* batch items of from's audios (kind 'a') or videos ('v'), each sampled
 * with replacement, after u's. */
static void
sample_av(struct turn *u, const struct turn *from, int kind, long long batch,
	  struct rng *r)
{
	struct turn one = { 0 };
	size_t n = kind == 'a' ? from->naudios : from->nvideos;

	for (long long b = 0; n && b < batch; b++) {
		if (kind == 'a') {
			one.audios = &from->audios[choice(r, n)];
			one.naudios = 1;
		} else {
			one.videos = &from->videos[choice(r, n)];
			one.nvideos = 1;
		}
		av_copy_media(u, &one);
	}
}

/* Whether a batch size other than 1 asks for flat pool sampling. */
static int
batched(const struct gen_opts *o)
{
	return o->batch_size != 1 || o->image_batch != 1 ||
	       o->av.audio_batch != 1 || o->av.video_batch != 1;
}

/* _convert_to_conversations_batched: a flat pool per modality, from
 * which each conversation samples its batch (with replacement) of
 * images, then texts, then audios, then videos. */
static void
pool_batches(struct cload *l, struct conv *pools, size_t npools, size_t n,
	     struct rng *r)
{
	const struct gen_opts *o = l->o;
	struct turn flat = { 0 };

	for (size_t p = 0; p < npools; p++)
		for (size_t k = 0; k < pools[p].nturns; k++)
			merge_turn(&flat, &pools[p].turns[k]);
	for (size_t c = 0; c < n; c++) {
		struct turn *u = &l->d->convs[c].turns[0];

		for (long long b = 0; flat.nimages && b < o->image_batch; b++)
			add_image(u, &flat, choice(r, flat.nimages));
		for (long long b = 0; flat.ntexts && b < o->batch_size; b++)
			add_named(u, &flat, choice(r, flat.ntexts));
		sample_av(u, &flat, 'a', o->av.audio_batch, r);
		sample_av(u, &flat, 'v', o->av.video_batch, r);
	}
	turn_free_texts(&flat);
	gen_images_free(&flat);
}

/*
 * RandomPoolDatasetLoader.convert_to_conversations: --num-sessions (else
 * 100) conversations of one turn. All batch sizes 1: each pool (file) is
 * sampled with replacement for every conversation and the samples'
 * items are merged in pool order; else pool_batches(). Media items were
 * read and encoded once, when their record was loaded.
 */
static void
pool_convs(struct cload *l, struct conv *pools, size_t npools, uint64_t root)
{
	size_t n = l->o->num_sessions ? (size_t)l->o->num_sessions : 100;
	struct rng r;

	rng_derive(&r, root, "dataset.loader.random_pool");
	for (size_t i = 0; i < n; i++)
		conv_of(l, NULL, 0);
	for (size_t c = 0; c < n; c++) {
		struct cmeta m = { .delay = -1 };
		struct custom_turn none = { 0 };

		add_turn(l, c, &none, 0);
		l->meta[c][0] = m;
	}
	if (batched(l->o)) {
		pool_batches(l, pools, npools, n, &r);
		return;
	}
	for (size_t p = 0; p < npools; p++)
		for (size_t c = 0; c < n; c++)
			merge_turn(&l->d->convs[c].turns[0],
				   &pools[p].turns[choice(&r, pools[p].nturns)]);
}

static void
pools_free(struct conv *pools, size_t n)
{
	for (size_t p = 0; p < n; p++) {
		for (size_t k = 0; k < pools[p].nturns; k++) {
			turn_free_texts(&pools[p].turns[k]);
			gen_images_free(&pools[p].turns[k]);
		}
		free(pools[p].turns);
		free(pools[p].session_id);
	}
	free(pools);
}

/* A file, one pool; a directory, one pool per file. */
static void
load_pools(struct cload *l, uint64_t root)
{
	const char *path = l->o->input_file;
	char **files = NULL, *one[1] = { (char *)l->o->input_file };
	size_t n = 1;
	struct conv *pools;

	if (gen_is_dir(path))
		files = dir_files(path, &n);
	pools = xcalloc(n, sizeof(*pools));
	for (size_t i = 0; i < n; i++) {
		pools[i].session_id = path_stem(files ? files[i] : one[0]);
		read_file(l, DS_RANDOM_POOL, files ? files[i] : one[0], &pools[i]);
		if (!pools[i].nturns)
			die("'%s' has no records", files ? files[i] : one[0]);
	}
	pool_convs(l, pools, n, root);
	pools_free(pools, n);
	for (size_t i = 0; files && i < n; i++)
		free(files[i]);
	free(files);
}

/*
 * MultiTurnDatasetLoader._try_hoist_system_message: a leading text-only
 * turn with role "system" and no timestamp, delay or output_length
 * becomes the conversation's system message (its texts joined by "\n"),
 * unless it is the conversation's only turn.
 */
static void
hoist_system(struct cload *l, size_t c)
{
	struct conv *cv = &l->d->convs[c];
	struct turn *u = &cv->turns[0];
	struct cmeta *m = &l->meta[c][0];
	struct buf b = BUF_INIT(BUF_NOMAX);

	if (cv->nturns < 2 || !u->role || strcmp(u->role, "system") || m->has_ts ||
	    m->delay >= 0 || u->max_tokens >= 0 || u->naudios || u->nvideos)
		return;
	for (size_t i = 0; i < u->ntexts; i++)
		buf_addf(&b, "%s%s", i ? "\n" : "", u->texts[i]);
	if (!b.len) {
		buf_release(&b);
		return;
	}
	turn_free_texts(u);
	free(u->role);
	memmove(cv->turns, cv->turns + 1, (cv->nturns - 1) * sizeof(*cv->turns));
	memmove(m, m + 1, (cv->nturns - 1) * sizeof(*m));
	cv->nturns--;
	cv->turns[0].sysmsg = buf_detach(&b, NULL);
}

static long long
ms_to_ns(double ms)
{
	double v = ms * 1e6;

	return v > 0 ? llround(v) : 0;
}

/* strategies/fixed_schedule.py: the zero of the schedule; every first
 * turn needs a timestamp. */
static double
schedule_zero(struct cload *l)
{
	double zero = 0;

	if (!l->d->n)
		die("%s: No conversations with valid first-turn timestamps found",
		    l->o->input_file);
	for (size_t c = 0; c < l->d->n; c++)
		if (!l->meta[c][0].has_ts)
			die("%s:%zu: First turn of %s missing timestamp_ms",
			    l->o->input_file, l->meta[c][0].lineno,
			    l->d->convs[c].session_id);
	if (l->o->auto_offset) {
		zero = l->meta[0][0].ts;
		for (size_t c = 1; c < l->d->n; c++)
			zero = l->meta[c][0].ts < zero ? l->meta[c][0].ts : zero;
	} else if (l->o->start_offset >= 0) {
		zero = (double)l->o->start_offset;
	}
	return zero;
}

/* As trace.c's set_times: fixed schedule, timestamps (and the gap to the
 * previous one as delay); otherwise later turns keep their delay. */
static void
set_times(struct cload *l, size_t c, double zero)
{
	struct conv *cv = &l->d->convs[c];
	double last = 0;

	for (size_t k = 0; k < cv->nturns; k++) {
		struct turn *u = &cv->turns[k];
		struct cmeta *m = &l->meta[c][k];

		if (l->o->fixed && m->has_ts) {
			u->at_ns = ms_to_ns(m->ts - zero);
			if (k)
				u->delay_ms = m->ts > last ? m->ts - last : 0;
			last = m->ts;
		} else if (k && m->delay >= 0) {
			u->delay_ms = m->delay;
		}
	}
}

/* _finalize_turn: model (round robin or random), then max_tokens from
 * --osl where the record gives no output_length; then the payload. */
static void
finalize(struct cload *l, uint64_t root)
{
	const struct gen_opts *o = l->o;
	struct rng model, max_tokens;
	size_t rr = 0;

	rng_derive(&model, root, "composer.turn.model_selection");
	rng_derive(&max_tokens, root, "composer.turn.max_tokens");
	for (size_t c = 0; c < l->d->n; c++)
		for (size_t k = 0; k < l->d->convs[c].nturns; k++) {
			struct turn *u = &l->d->convs[c].turns[k];

			u->model = o->model_random ?
				gen_model_draw(o, &model) : rr++ % o->nmodels;
			if (u->max_tokens < 0 && o->osl >= 0)
				u->max_tokens = gen_pni(&max_tokens, (double)o->osl,
							o->osl_stddev);
			payload_render(o, u, k);
			turn_free_texts(u);
			gen_images_free(u);	/* in the payload now */
			free(u->role);
			free(u->sysmsg);
			u->role = u->sysmsg = NULL;
		}
}

/* A single_turn file sent in order: read as the sampler asks. */
struct custom_stream {
	const struct gen_opts *o;
	uint64_t root;
	struct lines in;
	int open;
	struct custom_parser cp;
	struct rng ids, model, max_tokens;
	size_t gen, rr;
	struct conv conv;
	struct turn turn;
};

/* Back to the file's start, and the draws to theirs, so that a second
 * pass sends what the first did (as a held dataset wraps around). */
static void
stream_rewind(struct custom_stream *cs)
{
	if (cs->open)
		lines_close(&cs->in);
	if (lines_open(&cs->in, cs->o->input_file, LINE_MAX_BYTES) < 0)
		die("cannot open '%s':", cs->o->input_file);
	cs->open = 1;
	rng_derive(&cs->ids, cs->root, "aiperf.gen.session_id");
	rng_derive(&cs->model, cs->root, "composer.turn.model_selection");
	rng_derive(&cs->max_tokens, cs->root, "composer.turn.max_tokens");
	cs->gen = cs->rr = 0;
}

static void
stream_drop(struct custom_stream *cs)
{
	struct turn *u = &cs->turn;

	free(cs->conv.session_id);
	free(u->payload);
	free(u->head);
	free(u->mid);
	free(u->end);
	memset(u, 0, sizeof(*u));
	cs->conv.session_id = NULL;
}

/* The next record of the file, wrapping around at its end. */
static const struct custom_turn *
stream_record(struct custom_stream *cs)
{
	const char *s, *why;
	char err[512];
	size_t n;
	int rc, got, rewound = 0;

	for (;;) {
		if ((rc = lines_next(&cs->in, &s, &n)) == 1) {
			if ((why = check_record(&cs->cp, DS_SINGLE_TURN, s, n, err,
						sizeof(err), &got)))
				die("%s:%zu: %s", cs->o->input_file, cs->in.lineno, why);
			if (got)
				return &cs->cp.turns[0];
			continue;
		}
		if (rc < 0 && errno == ENOBUFS)
			die("%s:%zu: line longer than %zu bytes", cs->o->input_file,
			    cs->in.lineno, LINE_MAX_BYTES);
		if (rc < 0)
			die("cannot read '%s':", cs->o->input_file);
		if (rewound++)
			die("'%s' has no records", cs->o->input_file);
		stream_rewind(cs);
	}
}

const struct conv *
custom_stream_next(struct custom_stream *cs)
{
	const struct gen_opts *o = cs->o;
	const struct custom_turn *k = stream_record(cs);
	struct turn *u = &cs->turn;

	char where[4200];

	stream_drop(cs);
	cs->conv.session_id = gen_session_id(o, cs->gen++, &cs->ids);
	snprintf(where, sizeof(where), "%s:%zu: ", o->input_file, cs->in.lineno);
	turn_of(u, &cs->cp, k, where);
	u->model = o->model_random ? gen_model_draw(o, &cs->model) :
				     cs->rr++ % o->nmodels;
	if (u->max_tokens < 0 && o->osl >= 0)
		u->max_tokens = gen_pni(&cs->max_tokens, (double)o->osl, o->osl_stddev);
	payload_render(o, u, 0);
	turn_free_texts(u);
	gen_images_free(u);
	free(u->role);
	u->role = NULL;
	cs->conv.turns = u;
	cs->conv.nturns = 1;
	return &cs->conv;
}

void
custom_stream_free(struct custom_stream *cs)
{
	stream_drop(cs);
	if (cs->open)
		lines_close(&cs->in);
	custom_parser_release(&cs->cp);
	free(cs);
}

/*
 * A single_turn file without session ids, sent in file order outside a
 * fixed schedule, needs no more than the record being sent (inputs.json
 * reads it through once more): it is checked
 * whole first (so that a bad record stops the run before any output),
 * then read again as the sampler asks, in memory bounded by its longest
 * line. Returns the number of records, or 0 when it must be held whole.
 */
static size_t
streamable(const struct gen_opts *o)
{
	struct custom_parser cp;
	struct lines in;
	const char *s, *why;
	char err[512];
	size_t n, records = 0;
	int rc, got, sessions = 0;

	if (o->ds_type != DS_SINGLE_TURN || o->sampling != SAMPLE_SEQUENTIAL ||
	    o->fixed || o->uc_rate > 0 || o->system_len || o->context_len ||
	    o->warmup_sched.duration > 0 || gen_is_dir(o->input_file))
		return 0;
	if (lines_open(&in, o->input_file, LINE_MAX_BYTES) < 0)
		die("cannot open '%s':", o->input_file);
	custom_parser_init(&cp);
	while (!sessions && (rc = lines_next(&in, &s, &n)) == 1) {
		if ((why = check_record(&cp, DS_SINGLE_TURN, s, n, err, sizeof(err), &got)))
			die("%s:%zu: %s", o->input_file, in.lineno, why);
		records += got > 0;
		/* media files are read and encoded before the run (a bad
		 * one stops it before any output): held whole */
		sessions = got > 0 && (cp.turns[0].session_id || cp.turns[0].nimages ||
				       cp.turns[0].naudios || cp.turns[0].nvideos);
	}
	if (!sessions && rc < 0 && errno == ENOBUFS)
		die("%s:%zu: line longer than %zu bytes", o->input_file, in.lineno,
		    LINE_MAX_BYTES);
	if (!sessions && rc < 0)
		die("cannot read '%s':", o->input_file);
	custom_parser_release(&cp);
	lines_close(&in);
	if (!sessions && !records)
		die("'%s' has no records", o->input_file);
	return sessions ? 0 : records;
}

void
custom_dataset_build(struct dataset *d, const struct gen_opts *o, struct prompt *p,
		     uint64_t root)
{
	struct cload l = { .o = o, .d = d };
	double zero = 0;

	if ((d->lines = streamable(o))) {
		d->stream = xcalloc(1, sizeof(*d->stream));
		d->stream->o = o;
		d->stream->root = root;
		custom_parser_init(&d->stream->cp);
		stream_rewind(d->stream);
		return;
	}

	rng_derive(&l.ids, root, "aiperf.gen.session_id");
	hmap_init(&l.ix, SESSIONS_MAX);
	custom_parser_init(&l.cp);
	if (o->ds_type == DS_RANDOM_POOL)
		load_pools(&l, root);
	else
		read_file(&l, o->ds_type, o->input_file, NULL);
	if (!l.lines)
		die("'%s' has no records", o->input_file);
	d->lines = l.lines;
	for (size_t c = 0; c < d->n; c++) {
		if (o->ds_type == DS_MULTI_TURN)
			hoist_system(&l, c);
		/* grouped single_turn lines: message_array_with_responses */
		for (size_t k = 0; o->ds_type == DS_SINGLE_TURN && k < d->convs[c].nturns; k++)
			d->convs[c].turns[k].no_history = d->convs[c].nturns > 1;
	}
	if (o->fixed)
		zero = schedule_zero(&l);
	for (size_t c = 0; c < d->n; c++)
		set_times(&l, c, zero);
	/* _finalize_conversation: the shared system prompt and each
	 * session's user context before its first turn */
	prompt_inject(p, d, o);
	finalize(&l, root);
	for (size_t c = 0; c < d->n; c++)
		free(l.meta[c]);
	free(l.meta);
	free(l.tcap);
	hmap_release(&l.ix);
	custom_parser_release(&l.cp);
}

/* The first record of path, checked as loading would check it. */
static void
check_first_of(const char *path, int type)
{
	struct custom_parser cp;
	struct lines in;
	const char *s, *why;
	char err[512];
	size_t n;
	int rc, got = 0;

	if (lines_open(&in, path, LINE_MAX_BYTES) < 0)
		die("cannot open '%s':", path);
	custom_parser_init(&cp);
	while (!got && (rc = lines_next(&in, &s, &n)) == 1) {
		if ((why = check_record(&cp, type, s, n, err, sizeof(err), &got)))
			die("%s:%zu: %s", path, in.lineno, why);
	}
	if (rc < 0)
		die("cannot read '%s':", path);
	custom_parser_release(&cp);
	lines_close(&in);
}

void
custom_check_first(const struct gen_opts *o)
{
	char **files;
	size_t n;

	if (!gen_is_dir(o->input_file)) {
		check_first_of(o->input_file, o->ds_type);
		return;
	}
	files = dir_files(o->input_file, &n);
	check_first_of(files[0], o->ds_type);
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	free(files);
}

/*
 * RandomPoolDatasetLoader._validate_path on a directory: the number of
 * its files whose first record is a random_pool record (files that are
 * empty or not text count none); -1 with the file and line in err when a
 * first record is not one.
 */
int
custom_pool_dir(const char *dir, char *err, size_t errlen)
{
	struct custom_parser cp;
	size_t n;
	char **files = dir_files(dir, &n), why[256];
	int valid = 0, rc = 0;

	custom_parser_init(&cp);
	for (size_t i = 0; i < n && rc >= 0; i++) {
		struct lines in;
		const char *s;
		size_t len;
		int got = 0;

		if (lines_open(&in, files[i], LINE_MAX_BYTES) < 0)
			continue;
		while (!got && lines_next(&in, &s, &len) == 1) {
			if (memchr(s, '\0', len))
				break;	/* binary: not a pool file */
			got = custom_parse(&cp, CUSTOM_RANDOM_POOL, s, len, why,
					   sizeof(why));
			if (got < 0)
				rc = util_seterr(err, errlen, "%s:%zu: %s", files[i],
						 in.lineno, why);
		}
		valid += got > 0;
		lines_close(&in);
	}
	custom_parser_release(&cp);
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	free(files);
	return rc < 0 ? -1 : valid;
}
