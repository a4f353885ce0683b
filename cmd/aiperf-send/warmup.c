/* SPDX-License-Identifier: Apache-2.0 */
/* Warmup by duration: the pool of warmup records sent again until the duration ends. */
#include "send.h"

#include <string.h>
#include "json/json.h"
#include "util.h"
#include "xfer.h"

#define POOL_MAX_LINES 100000
#define POOL_MAX_BYTES ((size_t)64 << 20)

/*
 * The request lines of the records marked "reissue", in input order, a
 * session's later turns after its first; each pass sends them all again
 * with ids suffixed ".pass".
 */
struct wpool {
	char **line;
	size_t *len;
	int64_t *turn;
	size_t n, cap, bytes;
	size_t next;		/* next line to send again */
	unsigned pass;
	char *corr;		/* the session of the last first turn kept */
	int full, warned;
};

static int
reissue_flag(struct sender *s, const char *line, size_t n)
{
	json_doc_reset(s->doc);
	return json_truthy(json_get(json_parse(s->doc, line, n, NULL, 0),
				    "reissue"));
}

static struct wpool *
wpool_get(struct sender *s)
{
	if (!s->wpool) {
		s->wpool = xcalloc(1, sizeof(*s->wpool));
		s->wpool->pass = 1;
	}
	return s->wpool;
}

static void
pool_add(struct wpool *p, const struct xfer *x, const char *line, size_t n)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->line = xreallocarray(p->line, p->cap, sizeof(*p->line));
		p->len = xreallocarray(p->len, p->cap, sizeof(*p->len));
		p->turn = xreallocarray(p->turn, p->cap, sizeof(*p->turn));
	}
	p->line[p->n] = xstrndup(line, n);
	p->len[p->n] = n;
	p->turn[p->n++] = x->turn_index;
	p->bytes += n;
}

/*
 * Keep x's line when it asks to be sent again. A later turn is kept only
 * after its session's first turn, so that every pass replays whole
 * sessions; past the caps the pool stops growing (whole sessions only).
 */
void
warmup_keep(struct sender *s, const struct xfer *x, const char *line, size_t n)
{
	struct wpool *p;

	if (!x->warmup || !reissue_flag(s, line, n))
		return;
	p = wpool_get(s);
	if (!s->o->warmup_ns) {
		if (!p->warned++)
			warn("warmup records ask to be sent again until the "
			     "warmup duration ends: pass --warmup-duration");
		return;
	}
	if (x->turn_index == 0) {
		free(p->corr);
		p->corr = NULL;
		if (p->full || p->n >= POOL_MAX_LINES ||
		    p->bytes + n > POOL_MAX_BYTES) {
			p->full = 1;
			return;
		}
		p->corr = xstrdup(x->corr);
	} else if (!p->corr || strcmp(p->corr, x->corr)) {
		return;
	}
	pool_add(p, x, line, n);
}

/* x's id and session as those of pass: ".pass" appended. */
static struct xfer *
renamed(struct xfer *x, unsigned pass)
{
	char *t = xstrfmt("%s.%u", x->id, pass);

	free(x->id);
	x->id = t;
	t = xstrfmt("%s.%u", x->corr, pass);
	free(x->corr);
	x->corr = t;
	return x;
}

/* Line i of the pool as a new request of this pass. */
static struct xfer *
reissue(struct sender *s, size_t i)
{
	struct wpool *p = s->wpool;
	char why[512];
	struct xfer *x = xfer_parse(s, p->line[i], p->len[i], why, sizeof(why));

	if (x)
		return renamed(x, p->pass);
	die("warmup pool: %s", why);	/* it parsed when read */
}

/*
 * Before the queue head starts: while the warmup duration runs and no
 * warmup record read is waiting (the head is a profiling record, or the
 * input ended), the pool's next session goes first in the queue, its
 * later turns to their session.
 */
void
warmup_refill(struct sender *s)
{
	struct wpool *p = s->wpool;

	if (!p || !p->n || s->phase != 1 || s->warmup_over || s->stopping)
		return;
	if (s->qhead ? s->qhead->warmup : s->in_state == 0)
		return;
	if (p->next >= p->n) {
		p->next = 0;
		p->pass++;
	}
	input_unshift(s, reissue(s, p->next++));
	while (p->next < p->n && p->turn[p->next] > 0)
		input_enqueue(s, reissue(s, p->next++));
}

/*
 * The warmup duration ended: no warmup request starts any more. Warmup
 * records waiting in the queue or in their sessions, and those read
 * later, become NotSentError records.
 */
void
warmup_stop(struct sender *s)
{
	struct xfer *x;

	s->warmup_over = 1;
	while ((x = s->qhead) && x->warmup)
		sender_not_sent(s, input_pop(s));
	sess_stop_warmup(s);
}

void
warmup_release(struct sender *s)
{
	struct wpool *p = s->wpool;

	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		free(p->line[i]);
	free(p->line);
	free(p->len);
	free(p->turn);
	free(p->corr);
	free(p);
	s->wpool = NULL;
}
