/* SPDX-License-Identifier: Apache-2.0 */
/* The requests of each shard of a multi-host run without a record: lost in flight or never sent. */
#include "shardloss.h"

#include <math.h>

#include "hmap.h"
#include "json/json.h"
#include "util.h"

/*
 * The rules, as the sender applies them (cmd/aiperf-send) and as aiperf(7)
 * (Several hosts) states them. A missing request is lost in flight when
 * it was due (its phase's start, from the shard's records, plus its at_ns)
 * before the shard's last record ended, else never sent.
 *
 * Without a schedule (concurrency mode) the sender starts a request when
 * a slot frees: when its phase's last record ended, at most the shard's
 * share of the phase's concurrency (ramped to that moment) was in flight,
 * so that many of the phase's missing requests (at least those before a
 * later one with a record, the sender starting them in order) are lost in
 * flight, the rest never sent; none when the phase has no record, or the
 * sender stopped as asked (its NotSentError records say it wrote all it
 * held).
 *
 * Multi-turn sessions (num_turns > 1, one x_correlation_id) without a
 * schedule: the sender queues first turns (and single-turn requests) in
 * input order and starts the queue's head when a slot frees; the session
 * keeps that slot through its turns and their delays and starts turn k+1
 * only after turn k returned (sess.c). So of a session's missing turns
 * after its last record only the first can be in flight (the slots bound
 * how many), the others were never sent. A session with no record before
 * a later session (by its first line) with a record had its first turn
 * sent; a later turn is not proven sent by other sessions' records (its
 * session may be in a turn delay). A missing turn before a recorded turn
 * of its session was sent (lost), as was a warmup request when profiling
 * has a record (profiling waits for the warmup's last turns, warmup.c).
 *
 * With a schedule (the session's first turn has at_ns, sched.c) a first
 * turn goes at its at_ns and turn k+1 once turn k returned: after its
 * delay_ns when it has no at_ns, else at its at_ns, or at once when turn
 * k returned later. Of a session's missing turns after its last record
 * the first is lost when it was due before the shard's last record ended,
 * the others wait on it, never sent.
 *
 * The phase start comes from a record with a send time (intended_perf_ns
 * is the phase start plus its at_ns, on the monotonic clock; its lateness
 * start_perf_ns - intended_perf_ns carries it to request_start_ns's wall
 * clock). A phase whose records have none (a rate's later turns only) has
 * it bounded from above only: a recorded turn went out no sooner than the
 * phase start plus its least offset (lo: its session's first at_ns and the
 * delay_ns of the turns since, or its own at_ns when later). A first turn
 * due by that bound is lost, as is one before a recorded request in the
 * input; one the bound leaves undecided counts as never sent: the lost
 * count is then a floor. Records the sender had not yet written (it
 * flushes every 100 ms) are beyond these rules.
 */

#define MAX_PHASES 16
#define NONE (-1)		/* an absent time or count */

/* Strings to their index, in insertion order. */
struct key {
	char *s;
	size_t len;
	size_t next;		/* the next key of the same hash and length, + 1 */
	uint64_t val;
};

struct keys {
	struct hmap m;		/* (hash, len) -> the first key's index + 1 */
	struct key *k;
	size_t n, cap;
};

struct phase {
	char *name;
	size_t len;
	int rec;		/* it has a record */
	int64_t pe;		/* its records' last end (0 when none ended) */
	int64_t pb;		/* its records' first start, or NONE */
	int64_t ps;		/* its start, from a record with a send time, or NONE */
	int64_t psu;		/* its start at the latest (an upper bound), or NONE */
	uint64_t miss, sure;	/* shardloss_count(): unscheduled, missing */
};

/* A multi-turn session, or a single-turn request's own. */
struct sess {
	size_t pos;		/* its first request's index + 1 */
	int sched;		/* its first request has at_ns */
	int multi;
	int64_t lo;		/* the least offset of its latest request */
	int64_t lastturn;	/* its highest recorded turn_index, or NONE */
	int64_t lastend;	/* that record's end, or NONE */
	int first;		/* shardloss_count(): its first missing request seen */
};

struct req {
	size_t sess;
	size_t phase;
	int64_t at;		/* at_ns, or NONE */
	int64_t turn, delay, lo;
	int seen;		/* it has a record */
};

struct shard {
	struct keys ids;	/* request ids, index = request */
	struct req *req;
	size_t reqcap;
	struct keys sessions;	/* x_correlation_ids, val = session */
	struct sess *sess;
	size_t nsess, sesscap;
	struct phase *ph;	/* MAX_PHASES at most */
	size_t nph;
	uint64_t ended;
	size_t last;		/* the last recorded request's index + 1 */
	size_t slast;		/* the last recorded session's pos */
	int64_t end;		/* its records' last end (0 when none ended) */
	int clean;		/* a NotSentError record: the sender stopped as asked */
	uint64_t slots, wslots;
};

struct shardloss {
	struct shard *sh;
	size_t n;
	int64_t ramp, wramp;
	int records;		/* a record came: no more requests */
	struct keys strays;	/* worker_ids, val = records */
	struct json_doc *doc;
};

static int64_t
sat_add(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

static int64_t
sat_sub(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_sub_overflow(a, b, &r))
		return b < 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/* FNV-1a. */
static uint64_t
hash(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return h;
}

static void
keys_init(struct keys *k)
{
	hmap_init(&k->m, SIZE_MAX);
	k->k = NULL;
	k->n = k->cap = 0;
}

static void
keys_release(struct keys *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->k[i].s);
	free(k->k);
	hmap_release(&k->m);
}

/* The index of s[0..n), or SIZE_MAX. */
static size_t
keys_find(const struct keys *k, const char *s, size_t n)
{
	const uint64_t *head = hmap_find(&k->m, hash(s, n), n);

	for (size_t i = head ? (size_t)*head : 0; i; i = k->k[i - 1].next)
		if (!memcmp(k->k[i - 1].s, s, n))
			return i - 1;
	return SIZE_MAX;
}

/* Add s[0..n), which keys_find() did not find: its index. */
static size_t
keys_add(struct keys *k, const char *s, size_t n)
{
	int created;
	uint64_t *head = hmap_put(&k->m, hash(s, n), n, &created);
	struct key *e;

	if (k->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 64;
		k->k = xreallocarray(k->k, k->cap, sizeof(*k->k));
	}
	e = &k->k[k->n];
	e->s = xmalloc(n + 1);
	memcpy(e->s, s, n);
	e->s[n] = '\0';
	e->len = n;
	e->val = 0;
	e->next = created ? 0 : (size_t)*head;
	*head = ++k->n;
	return k->n - 1;
}

struct shardloss *
shardloss_new(size_t nshards)
{
	struct shardloss *sl = xcalloc(1, sizeof(*sl));

	sl->n = nshards ? nshards : 1;
	sl->sh = xcalloc(sl->n, sizeof(*sl->sh));
	for (size_t k = 0; k < sl->n; k++) {
		keys_init(&sl->sh[k].ids);
		keys_init(&sl->sh[k].sessions);
		sl->sh[k].slots = sl->sh[k].wslots = 1;
	}
	keys_init(&sl->strays);
	sl->doc = json_doc_new();
	return sl;
}

void
shardloss_free(struct shardloss *sl)
{
	if (!sl)
		return;
	for (size_t k = 0; k < sl->n; k++) {
		struct shard *s = &sl->sh[k];

		keys_release(&s->ids);
		keys_release(&s->sessions);
		free(s->req);
		free(s->sess);
		for (size_t p = 0; p < s->nph; p++)
			free(s->ph[p].name);
		free(s->ph);
	}
	free(sl->sh);
	keys_release(&sl->strays);
	json_doc_free(sl->doc);
	free(sl);
}

void
shardloss_slots(struct shardloss *sl, size_t k, uint64_t slots,
		uint64_t warmup_slots)
{
	if (k < sl->n) {
		sl->sh[k].slots = slots;
		sl->sh[k].wslots = warmup_slots;
	}
}

void
shardloss_ramps(struct shardloss *sl, int64_t ramp_ns, int64_t warmup_ramp_ns)
{
	sl->ramp = ramp_ns;
	sl->wramp = warmup_ramp_ns;
}

/* An integer from 0 to INT64_MAX, else NONE. */
static int64_t
nonneg(const struct json *v)
{
	int64_t x;

	return json_int64(v, &x) == 0 && x >= 0 ? x : NONE;
}

static struct json *
parse(struct shardloss *sl, const char *s, size_t n, char *err, size_t errlen)
{
	json_doc_reset(sl->doc);
	return json_parse(sl->doc, s, n, err, errlen);
}

static int
is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return 0;
	return 1;
}

/* The index of shard s's phase named p[0..n) (absent: "-"), added when
 * new; SIZE_MAX past MAX_PHASES. */
static size_t
phase_of(struct shard *s, const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < s->nph; i++)
		if (s->ph[i].len == n && !memcmp(s->ph[i].name, p, n))
			return i;
	if (s->nph == MAX_PHASES)
		return SIZE_MAX;
	s->ph = xreallocarray(s->ph, s->nph + 1, sizeof(*s->ph));
	s->ph[i] = (struct phase){ .len = n, .pb = NONE, .ps = NONE, .psu = NONE };
	s->ph[i].name = xmalloc(n + 1);
	memcpy(s->ph[i].name, p, n);
	s->ph[i].name[n] = '\0';
	return s->nph++;
}

static size_t
sess_new(struct shard *s, size_t pos, int multi, int64_t at)
{
	if (s->nsess == s->sesscap) {
		s->sesscap = s->sesscap ? 2 * s->sesscap : 64;
		s->sess = xreallocarray(s->sess, s->sesscap, sizeof(*s->sess));
	}
	s->sess[s->nsess] = (struct sess){ .pos = pos, .sched = at != NONE, .multi = multi,
					   .lastturn = NONE, .lastend = NONE };
	return s->nsess++;
}

/* Request r's session (a multi-turn one by its x_correlation_id), and the
 * least offset from its phase's start that r can have gone out at. */
static void
join_session(struct shard *s, struct req *r, const struct json *v, size_t pos)
{
	size_t n, i = SIZE_MAX;
	const char *c = json_str(json_get(v, "x_correlation_id"), &n);
	int64_t turns = nonneg(json_get(v, "num_turns"));

	if (turns > 1 && c && (i = keys_find(&s->sessions, c, n)) != SIZE_MAX) {
		struct sess *se = &s->sess[s->sessions.k[i].val];

		/* after the turn before returned (sent at its own least) plus
		 * its delay_ns; at its at_ns, if later */
		r->sess = s->sessions.k[i].val;
		if (r->at == NONE)
			r->lo = sat_add(se->lo, r->delay);
		else
			r->lo = r->at > se->lo ? r->at : se->lo;
		se->lo = r->lo;
		return;
	}
	r->sess = sess_new(s, pos, turns > 1 && c, r->at);
	if (turns > 1 && c) {
		i = keys_add(&s->sessions, c, n);
		s->sessions.k[i].val = r->sess;
	}
	r->lo = r->at == NONE ? 0 : r->at;
	s->sess[r->sess].lo = r->lo;
}

int
shardloss_request(struct shardloss *sl, size_t k, const char *s, size_t n,
		  char *err, size_t errlen)
{
	const struct json *v, *ph;
	struct shard *sh;
	size_t idlen, plen = 1;
	const char *id, *p = "-";

	if (k >= sl->n)
		return util_seterr(err, errlen, "no shard %zu of %zu", k + 1, sl->n);
	if (sl->records)
		return util_seterr(err, errlen, "a request after the records");
	if (is_blank(s, n))
		return 0;
	if (!(v = parse(sl, s, n, err, errlen)))
		return -1;
	if (!(id = json_str(json_get(v, "id"), &idlen)))
		return 0;
	sh = &sl->sh[k];
	if (keys_find(&sh->ids, id, idlen) != SIZE_MAX)
		return util_seterr(err, errlen, "request id '%.64s' twice", id);
	if ((ph = json_get(v, "phase")) && json_is_str(ph))
		p = json_str(ph, &plen);
	size_t pi = phase_of(sh, p, plen);
	if (pi == SIZE_MAX)
		return util_seterr(err, errlen, "more than %d phases", MAX_PHASES);
	size_t i = keys_add(&sh->ids, id, idlen);
	if (i == sh->reqcap) {
		sh->reqcap = sh->reqcap ? 2 * sh->reqcap : 64;
		sh->req = xreallocarray(sh->req, sh->reqcap, sizeof(*sh->req));
	}
	struct req *r = &sh->req[i];
	*r = (struct req){ .phase = pi, .at = nonneg(json_get(v, "at_ns")) };
	r->turn = nonneg(json_get(v, "turn_index"));
	r->delay = nonneg(json_get(v, "delay_ns"));
	r->turn = r->turn == NONE ? 0 : r->turn;
	r->delay = r->delay == NONE ? 0 : r->delay;
	join_session(sh, r, v, i + 1);
	return 0;
}

/* Shard k when w[0..n) is "worker_K" as the senders write it, else SIZE_MAX. */
static size_t
shard_of(const struct shardloss *sl, const char *w, size_t n)
{
	size_t k = 0, i;

	if (n < 8 || memcmp(w, "worker_", 7) || (w[7] == '0' && n > 8))
		return SIZE_MAX;
	for (i = 7; i < n; i++) {
		if (w[i] < '0' || w[i] > '9' || k > SIZE_MAX / 10 - 1)
			return SIZE_MAX;
		k = 10 * k + (size_t)(w[i] - '0');
	}
	return k < sl->n ? k : SIZE_MAX;
}

static void
stray(struct shardloss *sl, const char *w, size_t n)
{
	size_t i = keys_find(&sl->strays, w, n);

	if (i == SIZE_MAX)
		i = keys_add(&sl->strays, w, n);
	sl->strays.k[i].val++;
}

/* What record v of request r (its index i) tells of shard s. */
static void
take(struct shard *s, size_t i, const struct json *v)
{
	const struct json *md = json_get(v, "metadata");
	struct req *r = &s->req[i];
	struct sess *se = &s->sess[r->sess];
	struct phase *p = &s->ph[r->phase];
	int64_t e = nonneg(json_get(md, "request_end_ns"));
	int64_t st = nonneg(json_get(md, "request_start_ns"));
	int64_t sp = nonneg(json_get(v, "start_perf_ns"));
	int64_t ip = nonneg(json_path(v, "aiperf.intended_perf_ns"));

	r->seen = 1;
	s->ended++;
	s->last = i + 1 > s->last ? i + 1 : s->last;
	s->slast = se->pos > s->slast ? se->pos : s->slast;
	if (se->lastturn == NONE || r->turn > se->lastturn) {
		se->lastturn = r->turn;
		se->lastend = e;
	}
	s->end = e > s->end ? e : s->end;
	p->rec = 1;
	p->pe = e > p->pe ? e : p->pe;
	if (st > 0 && (p->pb == NONE || st < p->pb))
		p->pb = st;
	if (!strcmp(json_str_or(json_path(v, "error.type"), ""), "NotSentError"))
		s->clean = 1;
	else if (st > 0 && se->sched && (p->psu == NONE || st - r->lo < p->psu))
		p->psu = st - r->lo;	/* one sent went at or after it plus its lo */
	/* the phase start on the wall clock: intended = start - lateness */
	if (st > 0 && sp > 0 && ip > 0 && r->at != NONE && p->ps == NONE)
		p->ps = sat_sub(sat_sub(st, sp - ip), r->at);
}

int
shardloss_record(struct shardloss *sl, const char *s, size_t n, char *err,
		 size_t errlen)
{
	const struct json *v, *md;
	const char *id, *w;
	size_t idlen, wlen, k, i;

	sl->records = 1;
	if (is_blank(s, n))
		return 0;
	if (!(v = parse(sl, s, n, err, errlen)))
		return -1;
	md = json_get(v, "metadata");
	if (!(id = json_str(json_get(md, "x_request_id"), &idlen)))
		return 0;
	if (!(w = json_str(json_get(md, "worker_id"), &wlen)))
		w = "?", wlen = 1;
	if ((k = shard_of(sl, w, wlen)) == SIZE_MAX ||
	    (i = keys_find(&sl->sh[k].ids, id, idlen)) == SIZE_MAX) {
		stray(sl, w, wlen);
		return 0;
	}
	if (!sl->sh[k].req[i].seen)
		take(&sl->sh[k], i, v);
	return 0;
}

/* Whether request i (at_ns a) of phase p was due before the shard's last
 * record ended: by the phase start, else by its latest (undecided: no),
 * else if a later request has a record (the sender starts them in order). */
static int
due(const struct shard *s, const struct phase *p, int64_t a, size_t i)
{
	a = a == NONE ? 0 : a;
	if (p->ps != NONE)
		return sat_add(p->ps, a) <= s->end;
	if (p->psu != NONE && sat_add(p->psu, a) <= s->end)
		return 1;
	return i + 1 < s->last;
}

/* How many of phase p shard s can have had in flight when the phase's last
 * record ended: c slots ramped from 1 over d ns. */
static uint64_t
held(const struct shard *s, const struct phase *p, uint64_t c, int64_t d)
{
	int64_t t0 = p->pb == NONE ? 0 : p->pb, t = p->pe;

	if (s->clean || !p->rec)
		return 0;
	if (d <= 0 || c <= 1 || t >= sat_add(t0, d))
		return c;
	if (t <= t0)
		return 1;
	double l = 1 + floor((double)(t - t0) / ((double)d / (double)(c - 1)));
	return l < (double)c ? (uint64_t)l : c;
}

/* A missing request r proven sent: a later turn of its session has a
 * record, or (a warmup request) profiling has one, which waited for the
 * warmup to drain. */
static int
sent(const struct shard *s, const struct req *r, const struct sess *se)
{
	const struct phase *p = &s->ph[r->phase];

	if (se->lastturn != NONE && r->turn < se->lastturn)
		return 1;
	if (p->len != 6 || memcmp(p->name, "warmup", 6))
		return 0;
	for (size_t i = 0; i < s->nph; i++)
		if (s->ph[i].rec && s->ph[i].len == 9 && !memcmp(s->ph[i].name, "profiling", 9))
			return 1;
	return 0;
}

/* A scheduled session's first missing turn r: due before the shard's last
 * record ended. */
static int
turn_due(const struct shard *s, const struct req *r, const struct sess *se, size_t i)
{
	const struct phase *p = &s->ph[r->phase];
	int64_t t;

	if (se->lastturn == NONE)	/* its first turn: its own time */
		return due(s, p, r->at, i);
	t = sat_add(se->lastend, r->delay);	/* after its last recorded turn */
	if (r->at != NONE && p->ps != NONE) {
		t = sat_add(p->ps, r->at);
		t = t < se->lastend ? se->lastend : t;
	}
	return t <= s->end;
}

/* Count missing request i of shard s into c, or into its phase's
 * unscheduled ones, decided by the slots. */
static void
count_one(struct shard *s, size_t i, struct shardloss_count *c)
{
	struct req *r = &s->req[i];
	struct sess *se = &s->sess[r->sess];
	struct phase *p = &s->ph[r->phase];

	if (se->multi && se->sched) {
		if (sent(s, r, se)) {
			c->lost++;
		} else if (se->first) {	/* waits on its first missing turn */
			c->never++;
		} else {
			se->first = 1;
			if (turn_due(s, r, se, i))
				c->lost++;
			else
				c->never++;
		}
	} else if (r->at == NONE) {	/* concurrency: by phase */
		if (sent(s, r, se))
			c->lost++;
		else if (se->first)	/* after its first missing turn */
			c->never++;
		else {
			se->first = 1;
			p->miss++;
			if (se->lastturn == NONE && se->pos < s->slast)
				p->sure++;
		}
	} else if (due(s, p, r->at, i)) {
		c->lost++;
	} else {
		c->never++;
	}
}

void
shardloss_count(struct shardloss *sl, size_t k, struct shardloss_count *c)
{
	struct shard *s;

	*c = (struct shardloss_count){ 0 };
	if (k >= sl->n)
		return;
	s = &sl->sh[k];
	for (size_t i = 0; i < s->nsess; i++)
		s->sess[i].first = 0;
	for (size_t p = 0; p < s->nph; p++)
		s->ph[p].miss = s->ph[p].sure = 0;
	for (size_t i = 0; i < s->ids.n; i++)
		if (!s->req[i].seen)
			count_one(s, i, c);
	c->ended = s->ended;
	for (size_t i = 0; i < s->nph; i++) {
		struct phase *p = &s->ph[i];
		int warm = p->len == 6 && !memcmp(p->name, "warmup", 6);
		uint64_t h = held(s, p, warm ? s->wslots : s->slots,
				  warm ? sl->wramp : sl->ramp);

		h = p->sure > h ? p->sure : h;
		h = h > p->miss ? p->miss : h;
		c->lost += h;
		c->never += p->miss - h;
	}
}

const char *
shardloss_stray(const struct shardloss *sl, size_t i, size_t *len, uint64_t *n)
{
	if (i >= sl->strays.n)
		return NULL;
	*len = sl->strays.k[i].len;
	*n = sl->strays.k[i].val;
	return sl->strays.k[i].s;
}
