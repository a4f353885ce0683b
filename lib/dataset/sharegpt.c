/* SPDX-License-Identifier: Apache-2.0 */
/* ShareGPT-format files: one JSON array of conversations, read as a stream and filtered by token counts. */
#define _GNU_SOURCE	/* sched_getaffinity */
#include "dataset/sharegpt.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

#include "buf.h"
#include "json/jarr.h"
#include "util.h"

#define READ_BYTES ((size_t)1 << 20)
#define BATCH_BYTES ((size_t)8 << 20)
#define BATCH_JOBS 8192
#define MAX_THREADS 16

int
sharegpt_valid(size_t prompt, size_t completion, int skip_min_output)
{
	if (prompt < SHAREGPT_MIN_LEN || prompt > SHAREGPT_MAX_PROMPT)
		return 0;
	if (!skip_min_output && completion < SHAREGPT_MIN_LEN)
		return 0;
	return completion <= SHAREGPT_MAX_TOTAL - prompt;
}

static const char *
type_name(const struct json *v)
{
	switch (v->type) {
	case JSON_NULL: return "null";
	case JSON_FALSE:
	case JSON_TRUE: return "a boolean";
	case JSON_NUMBER: return "a number";
	case JSON_STRING: return "a string";
	case JSON_ARRAY: return "a list";
	default: return "an object";
	}
}

/* conversations[k]["value"], which must be a string. */
static int
turn_value(const struct json *c, size_t index, size_t k, const char **s,
	   size_t *n, char *err, size_t errlen)
{
	const struct json *t = json_at(c, k), *v;

	if (t->type != JSON_OBJECT)
		return util_seterr(err, errlen, "[%zu].conversations[%zu]: "
				   "expected an object, not %s", index, k,
				   type_name(t));
	if (!(v = json_get(t, "value")))
		return util_seterr(err, errlen, "[%zu].conversations[%zu]: no "
				   "\"value\"", index, k);
	if (!(*s = json_str(v, n)))
		return util_seterr(err, errlen, "[%zu].conversations[%zu].value: "
				   "expected a string, not %s", index, k,
				   type_name(v));
	return 0;
}

int
sharegpt_entry(const struct json *v, size_t index, struct sharegpt_pair *p,
	       char *err, size_t errlen)
{
	const struct json *c;

	if (v->type != JSON_OBJECT)
		return util_seterr(err, errlen, "[%zu]: expected an object, not %s",
				   index, type_name(v));
	c = json_get(v, "conversations");
	if (!c || c->type == JSON_NULL)
		return 0;
	if (c->type != JSON_ARRAY)
		return util_seterr(err, errlen, "[%zu].conversations: expected a "
				   "list, not %s", index, type_name(c));
	if (c->len < 2)
		return 0;
	if (turn_value(c, index, 0, &p->prompt, &p->plen, err, errlen) < 0 ||
	    turn_value(c, index, 1, &p->completion, &p->clen, err, errlen) < 0)
		return -1;
	return 1;
}

/* One element: where its text is in the batch, and what became of it. */
struct job {
	size_t at, n, index;
	uint64_t off;
	int rc;			/* 1 kept, 0 skipped, -1 error */
	char *prompt, *err;
	size_t plen, pt, ct;
};

struct load {
	const struct sharegpt_opts *o;
	struct sharegpt_stats *st;
	struct buf bytes;	/* the batch's element texts */
	struct job *v;
	size_t n, cap;
	int threads;
	struct json_doc *docs[MAX_THREADS];
	atomic_size_t next;
	int rc;			/* what stopped the load */
	char *err;
	size_t errlen;
};

/* A parse error "at byte K: what" inside the element, at its place in the file. */
static char *
parse_error(const char *e, const struct job *j)
{
	unsigned long long k = 0;
	int pos = 0;

	if (sscanf(e, "at byte %llu: %n", &k, &pos) == 1 && pos > 0)
		return xstrfmt("at byte %llu: [%zu]: %s",
			       (unsigned long long)j->off + k, j->index, e + pos);
	return xstrfmt("at byte %llu: [%zu]: %s", (unsigned long long)j->off,
		       j->index, e);
}

static void
run_job(struct load *L, struct job *j, struct json_doc *doc)
{
	const struct sharegpt_opts *o = L->o;
	const struct json *v;
	struct sharegpt_pair p;
	char e[256];

	json_doc_reset(doc);
	if (!(v = json_parse(doc, L->bytes.s + j->at, j->n, e, sizeof(e)))) {
		j->rc = -1;
		j->err = parse_error(e, j);
		return;
	}
	if ((j->rc = sharegpt_entry(v, j->index, &p, e, sizeof(e))) < 0) {
		j->err = xstrfmt("at byte %llu: %s", (unsigned long long)j->off, e);
		return;
	}
	if (!j->rc)
		return;
	/* a prompt out of range fails the filter whatever the completion */
	j->pt = o->count(o->count_ctx, p.prompt, p.plen);
	if (j->pt < SHAREGPT_MIN_LEN || j->pt > SHAREGPT_MAX_PROMPT) {
		j->rc = 0;
		return;
	}
	j->ct = o->count(o->count_ctx, p.completion, p.clen);
	if (!sharegpt_valid(j->pt, j->ct, o->skip_min_output)) {
		j->rc = 0;
		return;
	}
	j->prompt = xmalloc(p.plen + 1);
	memcpy(j->prompt, p.prompt, p.plen);
	j->prompt[p.plen] = '\0';
	j->plen = p.plen;
}

struct worker {
	struct load *L;
	int k;
};

static void *
work(void *arg)
{
	struct worker *w = arg;
	struct load *L = w->L;
	size_t i;

	while ((i = atomic_fetch_add(&L->next, 1)) < L->n)
		run_job(L, &L->v[i], L->docs[w->k]);
	return NULL;
}

/* Run the batch's jobs on the threads (this one among them). */
static void
run_batch(struct load *L)
{
	struct worker w[MAX_THREADS];
	pthread_t t[MAX_THREADS];
	int nt = L->threads, started = 1;

	if ((size_t)nt > L->n)
		nt = (int)L->n;
	if (nt < 1)
		nt = 1;
	atomic_store(&L->next, 0);
	for (int k = 0; k < MAX_THREADS; k++)
		w[k] = (struct worker){ L, k };
	for (int k = 0; k < nt; k++)
		if (!L->docs[k])
			L->docs[k] = json_doc_new();
	for (int k = 1; k < nt; k++, started++)
		if (pthread_create(&t[k], NULL, work, &w[k]) != 0)
			break;
	work(&w[0]);
	for (int k = 1; k < started; k++)
		pthread_join(t[k], NULL);
}

/* Process the batch: its results in file order, then empty it. Returns
 * 0, or 1 when the load stops (L->rc and L->err say why). */
static int
flush(struct load *L)
{
	size_t i;

	if (!L->n)
		return 0;
	run_batch(L);
	for (i = 0; i < L->n && !L->rc; i++) {
		struct job *j = &L->v[i];

		L->st->entries++;
		if (j->rc < 0) {
			util_seterr(L->err, L->errlen, "%s", j->err);
			L->rc = -1;
		} else if (j->rc == 0) {
			L->st->skipped++;
		} else {
			struct sharegpt_item it = { j->prompt, j->plen, j->pt,
						    j->ct, j->index };

			L->st->kept++;
			if ((L->rc = L->o->keep(L->o->keep_ud, &it)) != 0 && L->errlen)
				L->err[0] = '\0';
		}
	}
	for (i = 0; i < L->n; i++) {
		free(L->v[i].prompt);
		free(L->v[i].err);
	}
	L->n = 0;
	buf_reset(&L->bytes);
	return L->rc != 0;
}

static int
on_element(void *ud, const char *s, size_t n, size_t index, uint64_t off)
{
	struct load *L = ud;

	if (L->n == L->cap) {
		L->cap = L->cap ? L->cap * 2 : 1024;
		L->v = xreallocarray(L->v, L->cap, sizeof(*L->v));
	}
	L->v[L->n++] = (struct job){ .at = L->bytes.len, .n = n, .index = index,
				     .off = off };
	buf_add(&L->bytes, s, n);
	if (L->bytes.len >= BATCH_BYTES || L->n >= BATCH_JOBS)
		return flush(L);
	return 0;
}

/* The CPUs this process may run on (taskset, cgroup cpusets). */
static int
cpus(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		n = CPU_COUNT(&set);
	else
		n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

static void
load_init(struct load *L, const struct sharegpt_opts *o,
	  struct sharegpt_stats *st, char *err, size_t errlen)
{
	*L = (struct load){ .o = o, .st = st, .err = err, .errlen = errlen };
	*st = (struct sharegpt_stats){ 0 };
	buf_init(&L->bytes, BUF_NOMAX);
	L->threads = o->threads > 0 ? o->threads : cpus();
	if (L->threads > MAX_THREADS)
		L->threads = MAX_THREADS;
	if (errlen)
		err[0] = '\0';
}

/* The end: pending entries first, so that an earlier entry's problem is
 * the one reported; then the splitter's own (rc -1 with its message). */
static int
load_end(struct load *L, struct jarr *a, int rc, const char *jerr)
{
	if (!L->rc)
		flush(L);
	if (!L->rc && rc < 0) {
		util_seterr(L->err, L->errlen, "%s", jerr);
		L->rc = -1;
	}
	if (!L->rc && jarr_finish(a, L->err, L->errlen) < 0)
		L->rc = -1;
	for (size_t i = 0; i < L->n; i++) {
		free(L->v[i].prompt);
		free(L->v[i].err);
	}
	for (int k = 0; k < MAX_THREADS; k++)
		json_doc_free(L->docs[k]);
	free(L->v);
	buf_release(&L->bytes);
	jarr_release(a);
	return L->rc;
}

int
sharegpt_load_mem(const char *s, size_t n, const struct sharegpt_opts *o,
		  struct sharegpt_stats *st, char *err, size_t errlen)
{
	struct load L;
	struct jarr a;
	char jerr[256] = "";
	int rc;

	load_init(&L, o, st, err, errlen);
	jarr_init(&a, o->max_entry ? o->max_entry : SHAREGPT_MAX_ENTRY);
	rc = jarr_feed(&a, s, n, on_element, &L, jerr, sizeof(jerr));
	st->bytes = n;
	return load_end(&L, &a, rc, jerr);
}

int
sharegpt_load_fd(int fd, const struct sharegpt_opts *o,
		 struct sharegpt_stats *st, char *err, size_t errlen)
{
	char *chunk = xmalloc(READ_BYTES), jerr[256] = "";
	struct load L;
	struct jarr a;
	ssize_t got;
	int rc = 0;

	load_init(&L, o, st, err, errlen);
	jarr_init(&a, o->max_entry ? o->max_entry : SHAREGPT_MAX_ENTRY);
	while (rc == 0) {
		got = read(fd, chunk, READ_BYTES);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			snprintf(jerr, sizeof(jerr), "cannot read: %s", util_strerror(errno));
			rc = -1;
			break;
		}
		if (got == 0)
			break;
		st->bytes += (uint64_t)got;
		rc = jarr_feed(&a, chunk, (size_t)got, on_element, &L, jerr,
			       sizeof(jerr));
	}
	free(chunk);
	return load_end(&L, &a, rc, jerr);
}
