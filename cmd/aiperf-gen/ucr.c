/* SPDX-License-Identifier: Apache-2.0 */
/* User-centric rate (strategies/user_centric_rate.py) as at_ns of every turn. */
#include <math.h>

#include "gen.h"
#include "util.h"

/*
 * One pending event: a user's turn k at t, or (c == NULL) the spawn of a
 * replacement user at t. Ties go in push order (seq).
 */
struct ev {
	double t;
	unsigned long long seq;
	const struct conv *c;
	size_t k, max;
	long long id;
};

struct ucr {
	struct ev *v;
	size_t n, cap;
	unsigned long long seq;
	double gap, stagger;
	long long next_id;
};

static int
ev_less(const struct ev *a, const struct ev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void
push(struct ucr *u, struct ev e)
{
	size_t i;

	if (u->n == u->cap) {
		u->cap = u->cap ? 2 * u->cap : 64;
		u->v = xreallocarray(u->v, u->cap, sizeof(*u->v));
	}
	e.seq = u->seq++;
	for (i = u->n++; i > 0 && ev_less(&e, &u->v[(i - 1) / 2]); i = (i - 1) / 2)
		u->v[i] = u->v[(i - 1) / 2];
	u->v[i] = e;
}

static struct ev
pop(struct ucr *u)
{
	struct ev top = u->v[0], last = u->v[--u->n];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < u->n) {
		if (c + 1 < u->n && ev_less(&u->v[c + 1], &u->v[c]))
			c++;
		if (!ev_less(&u->v[c], &last))
			break;
		u->v[i] = u->v[c];
		i = c;
	}
	if (u->n)
		u->v[i] = last;
	return top;
}

/* _find_alternate_spacing_step: the smallest step >= 2 coprime with n. */
static long long
gcd(long long a, long long b)
{
	while (b) {
		long long t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static long long
alt_step(long long n)
{
	for (long long step = 2; step < n; step++)
		if (gcd(n, step) == 1)
			return step;
	return 1;
}

/* _generate_next_user: the next id and conversation, max turns capped by
 * the conversation's length (0: all of them). */
static struct ev
new_user(struct ucr *u, struct stream *s, double t, size_t max)
{
	const struct conv *c = stream_next_conv(s);
	struct ev e = { .t = t, .c = c, .id = u->next_id++ };

	e.max = max && max < c->nturns ? max : c->nturns;
	return e;
}

/* An initial user: its first turn at order * stagger, its replacement when
 * its turns are over. */
static void
add_initial(struct ucr *u, struct stream *s, size_t max, long long order)
{
	struct ev e = new_user(u, s, 0.0 + (double)order * u->stagger, max);

	push(u, e);
	push(u, (struct ev){ .t = e.t + (double)e.max * u->gap });
}

/* setup_phase: the virtual history of spec 5.5. */
static void
setup(struct ucr *u, struct stream *s, long long users)
{
	double sum = 0;
	long long turns, life, step = 1;
	int alt;

	for (size_t i = 0; i < s->d->n; i++)
		sum += (double)s->d->convs[i].nturns;
	turns = (long long)nearbyint(s->d->n ? sum / (double)s->d->n : 0);
	life = turns - 1 > 1 ? turns - 1 : 1;
	alt = gcd(users, life) > 1;
	if (alt)
		step = alt_step(users);
	for (long long i = 0; i < users; i++) {
		long long age = (users - i) * life;
		long long left = life - age / users;
		long long slot = alt ? (i * step) % users : age % users;

		if (left <= 0) {
			u->next_id++;
			continue;
		}
		add_initial(u, s, (size_t)left, users - slot);
	}
	add_initial(u, s, 0, 0);
}

static long long
at_ns(double t)
{
	return llround(t * 1e9);
}

/* Emit one turn; queue the user's next one a turn gap later. */
static int
turn(struct ucr *u, struct stream *s, struct ev e, long long num)
{
	char corr[24];

	snprintf(corr, sizeof(corr), "%lld", e.id);
	stream_session(s, (unsigned long long)e.id);
	if (stream_put(s, e.c, e.k, e.max, corr, "profiling", num, at_ns(e.t)))
		return -1;
	if (e.k + 1 < e.max) {
		e.k++;
		e.t += u->gap;
		push(u, e);
	}
	return 0;
}

/*
 * execute_phase as data: turns and spawns in time order until count
 * requests. A spawned user sends its first turn at once and is replaced
 * max_turns turn gaps later; a later turn is due a turn gap after the
 * previous one was due (the sender sends it then, or when the previous
 * turn returns if later). Each user is a session: once sessions users
 * have started, no user starts or spawns, and the started ones finish.
 */
int
ucr_emit(struct stream *s, long long count, long long sessions)
{
	const struct gen_opts *o = s->o;
	struct ucr u = { .gap = (double)o->num_users / o->uc_rate,
			 .stagger = 1 / o->uc_rate, .next_id = 1 };
	long long num = 0, started = 0;
	int rc = 0;

	setup(&u, s, o->num_users);
	while (!rc && num < count && u.n) {
		struct ev e = pop(&u);
		int full = sessions && started >= sessions;

		if (!e.c && full)
			continue;
		if (!e.c) {
			struct ev n = new_user(&u, s, e.t, 0);

			push(&u, (struct ev){ .t = e.t + (double)n.max * u.gap });
			e = n;
		}
		/* a conversation without turns sends nothing */
		if (!e.max || (!e.k && full))
			continue;
		started += !e.k;
		rc = turn(&u, s, e, num++);
	}
	free(u.v);
	return rc;
}
