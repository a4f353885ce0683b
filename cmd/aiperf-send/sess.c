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
};

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
	free(e->corr);
	buf_release(&e->hist);
	free(e);
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

	if (!x || e->busy || e->due)
		return;
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

/* A later turn read from the input waits in its session. */
void
sess_park(struct sender *s, struct xfer *x)
{
	struct sess *e = sess_get(s, x->corr, 1);

	x->sess = e;
	x->next = NULL;
	if (e->ptail)
		e->ptail->next = x;
	else
		e->phead = x;
	e->ptail = x;
	s->nparked++;
	if (e->slot)
		schedule_next(s, e);
}

/* The URL index for x, and the session bookkeeping of its start. */
size_t
sess_start(struct sender *s, struct xfer *x)
{
	struct sess *e;

	if (x->num_turns <= 1) {
		s->slots++;
		return s->o->nurls == 1 ? 0 : s->url_rr++ % s->o->nurls;
	}
	e = x->sess ? x->sess : sess_get(s, x->corr, 1);
	x->sess = e;
	if (!e->slot) {
		e->slot = 1;
		s->slots++;
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

/* x returned: release its slot after the last turn, else line up the next. */
void
sess_finish(struct sender *s, struct xfer *x)
{
	struct sess *e = x->sess;

	if (x->num_turns <= 1) {
		s->slots--;
		return;
	}
	if (!e)
		return;
	x->sess = NULL;
	e->busy = 0;
	if (x->turn_index + 1 >= x->num_turns || s->stopping) {
		sess_drop(s, e);
		return;
	}
	add_history(e, x);
	e->returned_ns = clock_now_ns();
	schedule_next(s, e);
	if (!e->phead && !e->due && s->in_state != 0)
		sess_drop(s, e);	/* its next turn will never come */
}

/* End of input: sessions waiting for turns that never came give their slot back. */
void
sess_sweep(struct sender *s)
{
	if (!s->sess)
		return;
	for (size_t i = 0; i < SESS_BUCKETS; i++)
		for (struct sess *e = s->sess[i], *n; e; e = n) {
			n = e->next;
			if (!e->busy && !e->phead && !e->due && e->slot)
				sess_drop(s, e);
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
