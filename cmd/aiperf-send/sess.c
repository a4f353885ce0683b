/* SPDX-License-Identifier: Apache-2.0 */
/* Multi-turn sessions: one URL, one concurrency slot, ordered turns, delays and live history. */
#include "send.h"

#include <errno.h>
#include <string.h>
#include "clock.h"
#include "json/json.h"
#include "util.h"
#include "xfer.h"

#define SESS_BUCKETS 4096

struct sess {
	struct sess *next;	/* hash chain */
	char *corr;
	size_t url;
	int busy;		/* a turn is in flight */
	int slot;		/* holds a concurrency slot */
	struct xfer *phead, *ptail;	/* later turns, read and waiting */
	struct xfer *due;	/* the next turn, on the delay heap */
	struct buf hist;	/* messages so far, as JSON array items */
	int64_t returned_ns;	/* when the previous turn returned */
	CURLSH *sh;		/* sticky-user-sessions: its own connection cache */
	struct h1conn *h1c;	/* the same for the native engine: its connection */
	/* dag_jsonl branches */
	int64_t done;		/* turns returned */
	int started;		/* its turn 0 started */
	int child;		/* a branch's child: takes no slot */
	int triggered;		/* child: its parent reached the start point */
	int fork;		/* child: seeded with the parent's history */
	char *parent;		/* child: the parent's correlation id */
	int64_t after, join;	/* child: the parent turn that starts it (-1:
				 * before turn 0), the one it releases (-1: none) */
	int64_t kids_left;	/* parent: children not read yet */
	int64_t kids_live;	/* parent: children read, not finished */
	int ended;		/* parent: its last turn returned; kept for its children */
	struct sess *waiters, *wnext;	/* children waiting for a turn of this one */
	struct snap *snaps;	/* histories kept for fork children to come */
	int64_t *joined;	/* by turn: joined children that finished */
	size_t njoined;
};

/* The history after a turn, kept for its fork children. */
struct snap {
	struct snap *next;
	int64_t turn, left;
	struct buf hist;
};

static void schedule_next(struct sender *s, struct sess *e);
static void dag_child_done(struct sender *s, struct sess *p, int64_t join);

static size_t
hash(const char *s)
{
	size_t h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h % SESS_BUCKETS;
}

/* The session of corr; created (with a round-robin URL) when create is set. */
struct sess *
sess_get(struct sender *s, const char *corr, int create)
{
	struct sess **pp, *e;

	if (!s->sess) {
		if (!create)
			return NULL;
		s->sess = xcalloc(SESS_BUCKETS, sizeof(*s->sess));
	}
	for (pp = &s->sess[hash(corr)]; (e = *pp); pp = &e->next)
		if (!strcmp(e->corr, corr))
			return e;
	if (!create)
		return NULL;
	e = xcalloc(1, sizeof(*e));
	e->corr = xstrdup(corr);
	e->url = s->url_rr++ % s->o->nurls;
	buf_init(&e->hist, BUF_NOMAX);
	*pp = e;
	return e;
}

static void
drop_parked(struct sender *s, struct sess *e)
{
	struct xfer *x;

	while ((x = e->phead)) {
		e->phead = x->next;
		s->nparked--;
		sender_not_sent(s, x);
	}
	e->ptail = NULL;
	if ((x = e->due)) {
		e->due = NULL;
		sched_remove(&s->delays, x);
		s->nparked--;
		sender_not_sent(s, x);
	}
}

static void
snap_free(struct snap *p)
{
	buf_release(&p->hist);
	free(p);
}

/*
 * A session goes: off its parent's waiting list, its waiting children
 * orphaned (their turns not sent), its join released (unless stopping).
 */
static void
dag_forget(struct sender *s, struct sess *e)
{
	struct sess *p = e->parent ? sess_get(s, e->parent, 0) : NULL;

	for (struct sess **pp = p ? &p->waiters : NULL; pp && *pp; pp = &(*pp)->wnext)
		if (*pp == e) {
			*pp = e->wnext;
			break;
		}
	if (p && !s->stopping)
		dag_child_done(s, p, e->join);
	for (struct sess *w = e->waiters, *n; w; w = n) {
		n = w->wnext;
		free(w->parent);
		w->parent = NULL;
		w->triggered = 1;
		drop_parked(s, w);
	}
	while (e->snaps) {
		struct snap *n = e->snaps->next;

		snap_free(e->snaps);
		e->snaps = n;
	}
	free(e->joined);
	free(e->parent);
}

/* Forget a session; its parked turns become NotSentError records. */
void
sess_drop(struct sender *s, struct sess *e)
{
	struct sess **pp = &s->sess[hash(e->corr)];

	while (*pp != e)
		pp = &(*pp)->next;
	*pp = e->next;
	if (e->slot)
		s->slots--;
	drop_parked(s, e);
	if (e->sh)
		curl_share_cleanup(e->sh);	/* closes its connection */
	if (e->h1c)
		h1conn_close(s, e->h1c);
	dag_forget(s, e);
	free(e->corr);
	buf_release(&e->hist);
	free(e);
}

/* x waits for more joined children than have finished. */
static int
gated(const struct sess *e, const struct xfer *x)
{
	int64_t got = (size_t)x->turn_index < e->njoined ? e->joined[x->turn_index] : 0;

	return x->dag_wait > got;
}

/*
 * Put the next turn on the delay heap. As the original's fixed schedule: a
 * turn with an intended time (at_ns) is due then, or at once if that has
 * passed; otherwise delay_ns after the previous turn returned.
 */
static void
schedule_next(struct sender *s, struct sess *e)
{
	struct xfer *x = e->phead;

	if (!x || e->busy || e->due || (!e->slot && !e->child) ||
	    (e->child && !e->triggered) || gated(e, x))
		return;	/* a first turn not started yet holds back the rest */
	e->phead = x->next;
	if (!e->phead)
		e->ptail = NULL;
	x->next = NULL;
	if (x->at_ns >= 0 && s->phase)
		x->deadline = s->phase_start + x->at_ns > e->returned_ns
				      ? s->phase_start + x->at_ns : e->returned_ns;
	else
		x->deadline = e->returned_ns + (x->delay_ns > 0 ? x->delay_ns : 0);
	e->due = x;
	sched_push(&s->delays, x);
}

/* A child's parent reached its start point: seed a fork child's history
 * from the parent's, and line up its turn 0. */
static void
trigger(struct sender *s, struct sess *c, struct sess *p)
{
	struct snap **pp = &p->snaps;

	while (c->fork && *pp && (*pp)->turn != c->after)
		pp = &(*pp)->next;
	if (c->fork && *pp) {
		struct snap *sn = *pp;

		buf_reset(&c->hist);
		buf_add(&c->hist, sn->hist.s, sn->hist.len);
		if (--sn->left <= 0) {
			*pp = sn->next;
			snap_free(sn);
		}
	}
	c->triggered = 1;
	schedule_next(s, c);
}

/* Whether the parent reached child c's start point. */
static int
reached(const struct sess *p, const struct sess *c)
{
	return c->after < 0 ? p->started : p->done > c->after;
}

/* The waiting children of p whose start point it reached. */
static void
release_waiters(struct sender *s, struct sess *p)
{
	struct sess **pp = &p->waiters;

	while (*pp) {
		struct sess *c = *pp;

		if (!reached(p, c)) {
			pp = &c->wnext;
			continue;
		}
		*pp = c->wnext;
		c->wnext = NULL;
		trigger(s, c, p);
	}
}

/* Past the end of input a parent stops waiting for children that will
 * not come: its gate opens when none is left running. */
static void
ungate(struct sender *s, struct sess *p)
{
	if (s->in_state == 0 || p->kids_live > 0)
		return;
	for (struct xfer *x = p->phead; x; x = x->next)
		x->dag_wait = 0;
	schedule_next(s, p);
}

/* A child of p finished (or went): its join counts, p may go on. */
static void
dag_child_done(struct sender *s, struct sess *p, int64_t join)
{
	p->kids_live--;
	if (join >= 0) {
		if ((size_t)join >= p->njoined) {
			size_t n = (size_t)join + 1;

			p->joined = xreallocarray(p->joined, n, sizeof(*p->joined));
			memset(p->joined + p->njoined, 0, (n - p->njoined) * sizeof(*p->joined));
			p->njoined = n;
		}
		p->joined[join]++;
	}
	schedule_next(s, p);
	ungate(s, p);
	if (p->ended && p->kids_left <= 0 && p->kids_live <= 0 && !p->busy)
		sess_drop(s, p);
}

/* A child's turn 0 read: it waits in its session until its parent (a
 * session made now when its first turn has not started yet) gets there. */
static void
attach(struct sender *s, struct sess *c, struct xfer *x)
{
	struct sess *p = sess_get(s, x->dag_parent, 1);

	c->child = 1;
	c->parent = xstrdup(x->dag_parent);
	c->after = x->dag_pre ? -1 : x->dag_after;
	c->join = x->dag_join;
	c->fork = x->dag_fork;
	p->kids_left--;
	p->kids_live++;
	if (reached(p, c)) {
		trigger(s, c, p);
		return;
	}
	c->wnext = p->waiters;
	p->waiters = c;
}

/* A later turn (or a branch child's first) read from the input waits in its session. */
void
sess_park(struct sender *s, struct xfer *x)
{
	struct sess *e = sess_get(s, x->corr, 1);

	if (x->dag_parent && !e->parent && !e->child)
		attach(s, e, x);
	x->sess = e;
	x->next = NULL;
	if (e->ptail)
		e->ptail->next = x;
	else
		e->phead = x;
	e->ptail = x;
	s->nparked++;
	if (e->slot || e->child)
		schedule_next(s, e);
}

/* The URL index for x, and the session bookkeeping of its start. */
size_t
sess_start(struct sender *s, struct xfer *x)
{
	struct sess *e;

	if (x->num_turns <= 1 && !x->dag) {
		s->slots++;
		return s->o->nurls == 1 ? 0 : s->url_rr++ % s->o->nurls;
	}
	e = x->sess ? x->sess : sess_get(s, x->corr, 1);
	x->sess = e;
	if (!e->slot && !e->child) {
		e->slot = 1;
		s->slots++;
	}
	if (x->turn_index == 0 && !e->started) {
		e->started = 1;
		e->kids_left += x->dag_children;
		release_waiters(s, e);
	}
	if (e->due == x) {
		e->due = NULL;
		s->nparked--;
	}
	e->busy = 1;
	return e->url;
}

/* x's messages and its reply (unless no memory is left for it: then x's
 * record says so) to its session's history. */
static void
add_history(struct sess *e, struct xfer *x)
{
	struct jw w;

	if (!x->own)
		return;
	if (e->hist.len && x->own[0])
		buf_addch(&e->hist, ',');
	buf_addstr(&e->hist, x->own);
	if (!x->reply.len)
		return;	/* an empty reply is skipped, as in the original */
	if (xfer_room(x, &e->hist, x->reply.s, x->reply.len, 64) < 0)
		return;
	if (e->hist.len)
		buf_addch(&e->hist, ',');
	jw_init(&w, &e->hist, 0);
	jw_obj(&w);
	jw_key(&w, "role");
	jw_str(&w, "assistant");
	jw_key(&w, "content");
	jw_strn(&w, x->reply.s, x->reply.len);
	jw_obj_end(&w);
}

/* The history after turn k, for n fork children to come. */
static void
snapshot(struct sess *e, int64_t k, int64_t n)
{
	struct snap *sn = xcalloc(1, sizeof(*sn));

	sn->turn = k;
	sn->left = n;
	buf_init(&sn->hist, BUF_NOMAX);
	buf_add(&sn->hist, e->hist.s, e->hist.len);
	sn->next = e->snaps;
	e->snaps = sn;
}

/* A session's last turn returned: a parent stays (its slot given back)
 * until its children have been read and have finished. */
static void
end_session(struct sender *s, struct sess *e)
{
	if (s->stopping || (e->kids_left <= 0 && e->kids_live <= 0)) {
		sess_drop(s, e);
		return;
	}
	e->ended = 1;
	if (e->slot) {
		e->slot = 0;
		s->slots--;
	}
}

/* x returned: release its slot after the last turn, else line up the next. */
void
sess_finish(struct sender *s, struct xfer *x)
{
	struct sess *e = x->sess;
	int last = x->turn_index + 1 >= x->num_turns;

	if (x->num_turns <= 1 && !x->dag) {
		s->slots--;
		return;
	}
	if (!e)
		return;
	x->sess = NULL;
	e->busy = 0;
	e->done = x->turn_index + 1;
	if (!last || x->dag_forks > 0)
		add_history(e, x);
	if (x->dag_forks > 0 && !s->stopping)
		snapshot(e, x->turn_index, x->dag_forks);
	if (!s->stopping)
		release_waiters(s, e);
	if (last || s->stopping) {
		end_session(s, e);
		return;
	}
	e->returned_ns = clock_now_ns();
	schedule_next(s, e);
	if (!e->phead && !e->due && s->in_state != 0 && !e->kids_live)
		sess_drop(s, e);	/* its next turn will never come */
}

/* Whether a record of session corr waits in the input queue. */
static int
queued(const struct sender *s, const char *corr)
{
	for (const struct xfer *x = s->qhead; x; x = x->next)
		if (!strcmp(x->corr, corr))
			return 1;
	return 0;
}

/* End of input and p's first turn never came: its waiting children are
 * not sent (they go with the sweep after). */
static void
orphan_waiters(struct sender *s, struct sess *p)
{
	if (!p->waiters || p->started || p->busy || queued(s, p->corr))
		return;
	for (struct sess *w = p->waiters, *n; w; w = n) {
		n = w->wnext;
		w->wnext = NULL;
		free(w->parent);
		w->parent = NULL;
		w->triggered = w->ended = 1;
		drop_parked(s, w);
	}
	p->waiters = NULL;
	p->kids_live = 0;
}

/* End of input: sessions waiting for turns that never came give their
 * slot back (a bucket is scanned again after a drop: a child's end may
 * end its parent too). */
void
sess_sweep(struct sender *s)
{
	if (!s->sess)
		return;
	for (size_t i = 0; i < SESS_BUCKETS; i++)
		for (struct sess *e = s->sess[i], *n; e; e = n) {
			n = e->next;
			orphan_waiters(s, e);
			if (!e->busy && !e->phead && !e->due && (e->slot || e->ended) &&
			    e->kids_live <= 0) {
				sess_drop(s, e);
				n = s->sess[i];
			} else if (e->kids_live <= 0 && e->phead)
				ungate(s, e);
		}
}

/* Stopping: parked turns become NotSentError records; idle sessions go. */
void
sess_stop(struct sender *s)
{
	if (!s->sess)
		return;
	for (size_t i = 0; i < SESS_BUCKETS; i++)
		for (struct sess *e = s->sess[i], *n; e; e = n) {
			n = e->next;
			if (!e->busy)
				sess_drop(s, e);
			else
				drop_parked(s, e);
		}
}

/* The warmup duration ended: warmup turns not sent become NotSentError records. */
void
sess_stop_warmup(struct sender *s)
{
	if (!s->sess)
		return;
	for (size_t i = 0; i < SESS_BUCKETS; i++)
		for (struct sess *e = s->sess[i], *n; e; e = n) {
			struct xfer *t = e->phead ? e->phead : e->due;

			n = e->next;
			if (!t || !t->warmup)
				continue;
			if (e->busy)
				drop_parked(s, e);
			else
				sess_drop(s, e);
		}
}

/* At exit: forget every session. */
void
sess_release(struct sender *s)
{
	if (!s->sess)
		return;
	if (!s->stopping)
		s->stopping = 1;	/* no joins released, no parent ended, on the way out */
	for (size_t i = 0; i < SESS_BUCKETS; i++)
		while (s->sess[i])
			sess_drop(s, s->sess[i]);
	free(s->sess);
	s->sess = NULL;
}

/* The body for x: its payload with the session's history before its messages. */
void
sess_body(struct xfer *x)
{
	struct sess *e = x->sess;
	struct buf b = BUF_INIT(BUF_NOMAX);

	if (!e || x->hist_at == (size_t)-1 || !e->hist.len)
		return;
	buf_add(&b, x->body, x->hist_at);
	buf_add(&b, e->hist.s, e->hist.len);
	if (x->own && x->own[0])
		buf_addch(&b, ',');
	buf_add(&b, x->body + x->hist_at, x->body_len - x->hist_at);
	free(x->body);
	x->body = buf_detach(&b, &x->body_len);
}

/* Append the text of a chat reply (chunk delta or whole message) to x->reply
 * (what passes its cap is left out). */
int
sess_reply(struct sender *s, struct xfer *x, const char *json, size_t n)
{
	char err[64];
	struct json *v;

	json_doc_reset(s->doc);
	if (!(v = json_parse(s->doc, json, n, err, sizeof(err))) && errno == ENOMEM) {
		xfer_nomem(x, json_doc_nomem(s->doc));
		return -1;
	}
	v = json_at(json_get(v, "choices"), 0);
	const struct json *c = json_get(json_get(v, "delta"), "content");
	if (!c)
		c = json_get(json_get(v, "message"), "content");
	size_t len;
	const char *t = json_str(c, &len);
	if (x->dag && (!t || !len) && (!x->reply.len || x->rsn_only)) {
		/* dag: reasoning when no content comes (build_assistant_turn) */
		const struct json *m = json_get(v, "delta") ? json_get(v, "delta") :
				       json_get(v, "message");
		const struct json *r = json_get(m, "reasoning_content");

		t = json_str(r ? r : json_get(m, "reasoning"), &len);
		if (t && len)
			x->rsn_only = 1;
	} else if (x->rsn_only && t && len) {
		buf_reset(&x->reply);
		x->rsn_only = 0;
	}
	if (t && buf_tryadd(&x->reply, t, len) < 0 && errno == ENOMEM) {
		xfer_nomem(x, x->reply.len + len + 1);
		return -1;
	}
	return 0;
}

/*
 * sticky-user-sessions: the connection cache of x's session, so that its
 * turns, and only they, use one connection; NULL for other strategies.
 */
CURLSH *
sess_share(struct xfer *x)
{
	struct sess *e = x->sess;

	if (x->snd->o->reuse != REUSE_STICKY || !e)
		return NULL;
	if (!e->sh) {
		if (!(e->sh = curl_share_init()) ||
		    curl_share_setopt(e->sh, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT) != CURLSHE_OK)
			die("cannot create a curl share handle");
	}
	return e->sh;
}

/* sticky-user-sessions: where x's session keeps its native connection; NULL otherwise. */
struct h1conn **
sess_conn(struct xfer *x)
{
	if (x->snd->o->reuse != REUSE_STICKY || !x->sess)
		return NULL;
	return &x->sess->h1c;
}
