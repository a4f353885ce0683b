/* SPDX-License-Identifier: Apache-2.0 */
/* --threads: batches of input lines computed by worker threads, written in input order. */
#include "metrics.h"
#include "progress.h"
#include "status.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

#define BATCH_LINES 4096
#define BATCH_BYTES ((size_t)64 << 20)

struct slot {
	size_t off, len;	/* the line in batch text */
	const char *name;
	size_t lineno;
	int status;		/* 0 written, 1 nothing to write, -1 malformed */
	int counted;		/* a record the progress line counts */
	int stat;		/* a record the status stream counts */
	struct status_item item;
	int64_t start_ns, end_ns;
	int error;
	int worker;
	size_t oo, ol;		/* output in that worker's buffer */
	size_t no, nl;		/* its --accuracy-verbose note in the worker's */
	char why[200];
};

struct worker {
	pthread_t th;
	struct pool *p;
	size_t first, last;
	struct rec rec;
	struct buf out, one, notes;
};

struct pool {
	const struct opts *o;
	int n;
	struct worker *w;
	struct buf text;
	struct slot *s;
	size_t ns;
	size_t skipped;
};

struct pool *
pool_new(const struct opts *o, int n)
{
	struct pool *p = xcalloc(1, sizeof(*p));

	p->o = o;
	p->n = n;
	p->w = xcalloc((size_t)n, sizeof(*p->w));
	for (int i = 0; i < n; i++) {
		rec_init(&p->w[i].rec);
		buf_init(&p->w[i].out, BUF_NOMAX);
		buf_init(&p->w[i].one, BUF_NOMAX);
		buf_init(&p->w[i].notes, BUF_NOMAX);
		p->w[i].p = p;
	}
	buf_init(&p->text, BUF_NOMAX);
	p->s = xcalloc(BATCH_LINES, sizeof(*p->s));
	return p;
}

static void
run_slot(struct worker *w, struct slot *s, int id)
{
	const struct opts *o = w->p->o;
	int n;

	s->worker = id;
	s->status = 1;
	s->counted = 0;
	s->stat = 0;
	s->nl = 0;
	if (rec_parse(&w->rec, o, w->p->text.s + s->off, s->len, s->why, sizeof(s->why)) < 0) {
		s->status = -1;
		return;
	}
	if (w->rec.unrecorded)
		return;
	if (o->drop_warmup && w->rec.warmup) {
		if (o->status) {
			rec_status_of(&w->rec, &s->item);
			s->stat = 1;
		}
		return;
	}
	s->counted = 1;
	rec_progress_of(&w->rec, &s->start_ns, &s->end_ns, &s->error);
	n = rec_emit(&w->rec, o, &w->one);
	s->no = w->notes.len;
	s->nl = w->rec.note.len;
	buf_add(&w->notes, w->rec.note.s, w->rec.note.len);
	if (o->status) {
		rec_status_of(&w->rec, &s->item);
		s->stat = 1;
	}
	if (n == 0) {
		s->oo = w->out.len;
		s->ol = w->one.len;
		buf_add(&w->out, w->one.s, w->one.len);
		s->status = 0;
	}
}

static void *
work(void *arg)
{
	struct worker *w = arg;

	buf_reset(&w->out);
	buf_reset(&w->notes);
	for (size_t i = w->first; i < w->last; i++)
		run_slot(w, &w->p->s[i], (int)(w - w->p->w));
	return NULL;
}

static void
write_out(struct pool *p)
{
	for (size_t i = 0; i < p->ns; i++) {
		struct slot *s = &p->s[i];

		if (s->status < 0) {
			if (!p->o->keep_going)
				die("%s:%zu: %s", s->name, s->lineno, s->why);
			warn("%s:%zu: %s (skipped)", s->name, s->lineno, s->why);
			p->skipped++;
			continue;
		}
		if (s->counted && p->o->progress)
			progress_record(p->o->progress, s->start_ns, s->end_ns, s->error);
		if (s->stat)
			status_record(p->o->status, &s->item);
		if (s->status == 0) {
			if (fwrite(p->w[s->worker].out.s + s->oo, 1, s->ol, stdout) != s->ol)
				die_write();
			if (p->o->unbuffered && fflush(stdout) == EOF)
				die_write();
		}
		if (s->nl)
			rec_note(p->w[s->worker].notes.s + s->no, s->nl);
	}
}

/* Compute the pending lines on all workers, then write them in order. */
void
pool_flush(struct pool *p)
{
	size_t per = (p->ns + (size_t)p->n - 1) / (size_t)p->n;

	for (int i = 0; i < p->n; i++) {
		struct worker *w = &p->w[i];

		w->first = (size_t)i * per < p->ns ? (size_t)i * per : p->ns;
		w->last = w->first + per < p->ns ? w->first + per : p->ns;
		if (pthread_create(&w->th, NULL, work, w))
			die("cannot start a thread:");
	}
	for (int i = 0; i < p->n; i++)
		pthread_join(p->w[i].th, NULL);
	write_out(p);
	p->ns = 0;
	buf_reset(&p->text);
}

void
pool_add(struct pool *p, const char *name, size_t lineno, const char *s, size_t n)
{
	struct slot *x;

	if (p->ns == BATCH_LINES || (p->ns && p->text.len + n > BATCH_BYTES))
		pool_flush(p);
	x = &p->s[p->ns++];
	x->off = p->text.len;
	x->len = n;
	x->name = name;
	x->lineno = lineno;
	buf_add(&p->text, s, n);
	buf_addch(&p->text, '\0');
}

size_t
pool_free(struct pool *p)
{
	size_t skipped = p->skipped;

	for (int i = 0; i < p->n; i++) {
		rec_release(&p->w[i].rec);
		buf_release(&p->w[i].out);
		buf_release(&p->w[i].one);
		buf_release(&p->w[i].notes);
	}
	free(p->w);
	free(p->s);
	buf_release(&p->text);
	free(p);
	return skipped;
}
