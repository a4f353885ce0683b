/* SPDX-License-Identifier: Apache-2.0 */
/* Verbatim replay datasets: raw_payload, inputs_json and sagemaker_data_capture. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <sys/stat.h>

#include "gen.h"
#include "lines.h"
#include "dataset/field.h"
#include "dataset/replay.h"
#include "util.h"

#define LINE_MAX_BYTES ((size_t)64 << 20)
#define FILE_MAX ((size_t)4 << 30)	/* a JSONL file, as stored */
#define INPUTS_FILE_MAX ((size_t)1 << 30)	/* an inputs.json file */
#define FILES_MAX ((size_t)1 << 20)	/* files of a directory (tree) */
#define DEPTH_MAX 32

struct rload {
	const struct gen_opts *o;
	struct dataset *d;
	struct rng ids;		/* generated session ids */
	struct rng model;	/* composer.turn.model_selection */
	size_t cap;
	size_t rr;		/* round-robin model */
	struct json_doc *doc;
	struct buf body;
};

/* A new conversation (its id from the file, or generated). */
static struct conv *
new_conv(struct rload *l, const char *id)
{
	struct conv *c;

	if (l->d->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->d->convs = xreallocarray(l->d->convs, l->cap, sizeof(*l->d->convs));
	}
	c = &l->d->convs[l->d->n];
	*c = (struct conv){ 0 };
	c->session_id = id ? xstrdup(id) : gen_session_id(l->o, l->d->n, &l->ids);
	l->d->n++;
	return c;
}

static struct turn *
new_turn(struct conv *c)
{
	struct turn *t;

	if ((c->nturns & (c->nturns - 1)) == 0)
		c->turns = xreallocarray(c->turns, c->nturns ? 2 * c->nturns : 1,
					 sizeof(*c->turns));
	t = &c->turns[c->nturns++];
	*t = (struct turn){ .max_tokens = -1, .delay_ms = -1, .at_ns = -1 };
	return t;
}

/* The next turn's --model: round robin, or drawn (--model-selection-strategy random). */
static size_t
next_model(struct rload *l)
{
	if (l->o->model_random)
		return (size_t)rng_below(&l->model, l->o->nmodels);
	return l->rr++ % l->o->nmodels;
}

/* A payload's integer member, or -1. */
static long long
int_member(const struct json *p, const char *key)
{
	int64_t v;

	return json_int64(json_get(p, key), &v) == 0 && v >= 0 ? v : -1;
}

/*
 * The record pieces of a verbatim body: the model and stream the body
 * says (else t's --model, and false), and "history":false, so the
 * sender posts the body as it is on every turn.
 */
void
replay_record(const struct gen_opts *o, struct turn *t)
{
	struct json_doc *doc = json_doc_new();
	const struct json *p = json_parse(doc, t->payload, t->payload_len, NULL, 0);
	const struct json *m = json_get(p, "model"), *st = json_get(p, "stream");
	struct buf b = BUF_INIT(BUF_NOMAX);
	long long mt = int_member(p, "max_tokens");

	buf_addstr(&b, "\"model\":");
	if (m && m->type == JSON_STRING)
		json_quote(&b, m->str, m->len);
	else
		json_quote(&b, o->models[t->model], strlen(o->models[t->model]));
	buf_addstr(&b, ",\"endpoint_type\":");
	json_quote(&b, o->endpoint_type, strlen(o->endpoint_type));
	buf_addstr(&b, ",\"path\":");
	json_quote(&b, o->path, strlen(o->path));
	buf_addf(&b, ",\"stream\":%s", st && st->type == JSON_TRUE ? "true" : "false");
	if (mt < 0)
		mt = int_member(p, "max_completion_tokens");
	if (mt >= 0)
		buf_addf(&b, ",\"max_tokens\":%lld", mt);
	t->head = buf_detach(&b, &t->head_len);
	if (t->delay_ms >= 0)
		buf_addf(&b, ",\"delay_ns\":%lld", llround(t->delay_ms * 1e6));
	t->mid = buf_detach(&b, &t->mid_len);
	if (!t->mid)
		t->mid = xstrdup("");
	t->end = xstrdup(",\"history\":false,\"payload\":");
	t->end_len = strlen(t->end);
	t->no_history = 1;
	json_doc_free(doc);
}

static void
add_body(struct rload *l, struct conv *c, const char *s, size_t n)
{
	struct turn *t = new_turn(c);

	t->payload = xstrndup(s, n);
	t->payload_len = n;
	t->model = next_model(l);
	replay_record(l->o, t);
}

/* Open path as a regular file of at most FILE_MAX bytes. */
static void
open_file(struct lines *in, const char *path)
{
	int fd = util_openfile(path, FILE_MAX);

	if (fd < 0 && errno == EFBIG)
		die("cannot read '%s': larger than %zu bytes", path, FILE_MAX);
	if (fd < 0)
		die("cannot open '%s':", path);
	lines_fdopen(in, fd, path, LINE_MAX_BYTES);
	in->own_fd = 1;
}

/* Each line of path to fn; dies with "path:line: why" on a bad one. */
static void
each_line(struct rload *l, const char *path,
	  int (*fn)(struct rload *, const char *, size_t, char *, size_t, void *),
	  void *ctx)
{
	struct lines in;
	const char *s;
	char err[512];
	size_t n;
	int rc;

	open_file(&in, path);
	while ((rc = lines_next(&in, &s, &n)) == 1)
		if (fn(l, s, n, err, sizeof(err), ctx) < 0)
			die("%s:%zu: %s", path, in.lineno, err);
	if (rc < 0 && errno == ENOBUFS)
		die("%s:%zu: line longer than %zu bytes", path, in.lineno + 1,
		    LINE_MAX_BYTES);
	if (rc < 0)
		die("cannot read '%s':", path);
	lines_close(&in);
}

/* ---- raw_payload ---- */

/* A raw_payload line: one more turn of *ctx (a conversation, or NULL:
 * a new conversation per line). */
static int
on_payload(struct rload *l, const char *s, size_t n, char *err, size_t el,
	   void *ctx)
{
	struct conv **c = ctx;
	int rc = replay_payload(l->doc, s, n, &l->body, err, el);

	if (rc <= 0)
		return rc;
	add_body(l, *c ? *c : new_conv(l, NULL), l->body.s, l->body.len);
	return 0;
}

/* Path names compared as Python compares Paths: part by part. */
static int
cmp_path(const void *a, const void *b)
{
	const unsigned char *x = *(const unsigned char *const *)a;
	const unsigned char *y = *(const unsigned char *const *)b;

	for (; *x && *x == *y; x++, y++)
		;
	return (*x == '/' ? 0 : *x) - (*y == '/' ? 0 : *y);
}

static int
has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);

	return n >= k && !memcmp(s + n - k, suf, k);
}

struct files {
	char **v;
	size_t n;
};

/* dir's *.jsonl (not hidden) into f; deeper when recurse (symbolic links
 * to directories are not followed, as Path.rglob does not). */
static void
find_jsonl(const char *dir, int recurse, int depth, struct files *f)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	struct stat st;

	if (!dp)
		die("cannot open '%s':", dir);
	while ((e = readdir(dp))) {
		char *path;

		if (e->d_name[0] == '.')
			continue;
		path = xstrfmt("%s/%s", dir, e->d_name);
		if (recurse && lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (depth >= DEPTH_MAX)
				die("'%s': directories nested deeper than %d", path,
				    DEPTH_MAX);
			find_jsonl(path, recurse, depth + 1, f);
		} else if (has_suffix(e->d_name, ".jsonl")) {
			if (f->n >= FILES_MAX)
				die("'%s': more than %zu .jsonl files", dir, FILES_MAX);
			f->v = xreallocarray(f->v, f->n + 1, sizeof(*f->v));
			f->v[f->n++] = path;
			continue;
		}
		free(path);
	}
	closedir(dp);
}

static void
files_free(struct files *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->v[i]);
	free(f->v);
}

/* _load_directory: one conversation per *.jsonl file, in sorted order;
 * a file with no payload line makes none. */
static void
raw_payload_dir(struct rload *l, const char *dir)
{
	struct files f = { 0 };

	find_jsonl(dir, 0, 0, &f);
	if (f.n)
		qsort(f.v, f.n, sizeof(*f.v), cmp_path);
	for (size_t i = 0; i < f.n; i++) {
		struct conv *c = new_conv(l, NULL);

		each_line(l, f.v[i], on_payload, &c);
		if (!c->nturns) {	/* take back its id: none is spent */
			free(c->session_id);
			l->d->n--;
		}
	}
	if (!l->d->n)
		die("'%s' has no .jsonl file with a raw_payload line", dir);
	files_free(&f);
}

/* ---- inputs_json ---- */

static void
inputs_json(struct rload *l, const char *path)
{
	struct replay_inputs ri;
	size_t len;
	char *s = util_readfile(path, INPUTS_FILE_MAX, &len), err[512];
	int rc;

	if (!s && errno == EFBIG)
		die("cannot read '%s': larger than %zu bytes", path, INPUTS_FILE_MAX);
	if (!s)
		die("cannot read '%s':", path);
	rc = replay_inputs_parse(s, len, &ri, err, sizeof(err));
	free(s);
	if (rc < 0)
		die("%s: %s", path, err);
	for (size_t i = 0; i < ri.n; i++) {
		struct conv *c;

		if (!ri.v[i].n)	/* a session of no turns sends nothing */
			continue;
		c = new_conv(l, ri.v[i].id);

		for (size_t k = 0; k < ri.v[i].n; k++)
			add_body(l, c, ri.v[i].payloads[k], ri.v[i].lens[k]);
	}
	replay_inputs_release(&ri);
}

/* ---- sagemaker_data_capture ---- */

struct caps {
	struct replay_capture *v;
	size_t n;
};

static int
on_capture(struct rload *l, const char *s, size_t n, char *err, size_t el,
	   void *ctx)
{
	struct caps *c = ctx;
	struct replay_capture r = { .max_tokens = -1, .input_length = -1 };
	int rc = replay_capture_parse(l->doc, s, n, &r, err, el);

	if (rc <= 0)
		return rc;
	if ((c->n & (c->n - 1)) == 0)
		c->v = xreallocarray(c->v, c->n ? 2 * c->n : 1, sizeof(*c->v));
	c->v[c->n++] = r;
	return 0;
}

static int
cmp_ts(const void *a, const void *b)
{
	const struct replay_capture *x = *(const struct replay_capture *const *)a;
	const struct replay_capture *y = *(const struct replay_capture *const *)b;

	if (x->ts_ms != y->ts_ms)
		return x->ts_ms < y->ts_ms ? -1 : 1;
	return x < y ? -1 : x > y;	/* stable: file order */
}

/* Zero-aligned, in the offsets window, sorted by time (stable). */
static struct replay_capture **
capture_order(const struct gen_opts *o, struct caps *c, size_t *n)
{
	struct replay_capture **v = xcalloc(c->n ? c->n : 1, sizeof(*v));
	double min = c->n ? c->v[0].ts_ms : 0;

	*n = 0;
	for (size_t i = 1; i < c->n; i++)
		min = c->v[i].ts_ms < min ? c->v[i].ts_ms : min;
	for (size_t i = 0; i < c->n; i++) {
		struct replay_capture *r = &c->v[i];

		r->ts_ms -= min;
		if (field_check(FIELD_MS, r->ts_ms))
			die("'%s': capture record %s is %.0f ms after the first, "
			    "past %.0f ms", o->input_file, r->event_id ? r->event_id :
			    "<unknown>", r->ts_ms, FIELD_MAX_MS);
		if (o->start_offset >= 0 && r->ts_ms < (double)o->start_offset)
			continue;
		if (o->end_offset >= 0 && r->ts_ms > (double)o->end_offset)
			continue;
		v[(*n)++] = r;
	}
	qsort(v, *n, sizeof(*v), cmp_ts);
	return v;
}

static void
sagemaker(struct rload *l, const char *path)
{
	const struct gen_opts *o = l->o;
	struct files f = { 0 };
	struct caps c = { 0 };
	struct replay_capture **v;
	size_t n;
	double zero = 0;

	if (o->ep != ENDPOINT_CHAT)
		die("sagemaker_data_capture replays chat messages: it needs "
		    "--endpoint-type chat, not '%s'", o->endpoint_type);
	if (gen_is_dir(path)) {
		find_jsonl(path, 1, 0, &f);
		if (!f.n)
			die("No .jsonl files found in directory '%s'", path);
		qsort(f.v, f.n, sizeof(*f.v), cmp_path);
	} else {
		f.v = xcalloc(1, sizeof(*f.v));
		f.v[f.n++] = xstrdup(path);
	}
	for (size_t i = 0; i < f.n; i++)
		each_line(l, f.v[i], on_capture, &c);
	files_free(&f);
	v = capture_order(o, &c, &n);
	if (o->fixed && !n)
		die("%s: No conversations with valid first-turn timestamps found", path);
	if (o->fixed && o->auto_offset)
		zero = v[0]->ts_ms;
	else if (o->fixed && o->start_offset >= 0)
		zero = (double)o->start_offset;
	for (size_t i = 0; i < n; i++) {
		struct turn *t = new_turn(new_conv(l, NULL));

		t->raw_messages = v[i]->messages;
		t->raw_tools = v[i]->tools;
		v[i]->messages = v[i]->tools = NULL;
		t->max_tokens = v[i]->max_tokens;
		t->model = next_model(l);
		if (o->fixed)
			t->at_ns = llround(fmax(v[i]->ts_ms - zero, 0) * 1e6);
		payload_render(o, t, 0);
	}
	for (size_t i = 0; i < c.n; i++)
		replay_capture_release(&c.v[i]);
	free(c.v);
	free(v);
}

void
replay_dataset_build(struct dataset *d, const struct gen_opts *o, uint64_t root)
{
	struct rload l = { .o = o, .d = d };
	const char *path = o->input_file;

	rng_derive(&l.ids, root, "aiperf.gen.session_id");
	rng_derive(&l.model, root, "composer.turn.model_selection");
	l.doc = json_doc_new();
	buf_init(&l.body, LINE_MAX_BYTES);
	if (o->fixed && o->ds_type != DS_SAGEMAKER)
		die_usage("--fixed-schedule needs timestamps: a %s dataset has none",
			  o->ds_type == DS_RAW_PAYLOAD ? "raw_payload" : "inputs_json");
	if (o->ds_type == DS_INPUTS_JSON)
		inputs_json(&l, path);
	else if (o->ds_type == DS_SAGEMAKER)
		sagemaker(&l, path);
	else if (gen_is_dir(path))
		raw_payload_dir(&l, path);
	else {
		struct conv *none = NULL;

		each_line(&l, path, on_payload, &none);
	}
	if (!d->n)
		die("'%s' has no records", path);
	d->lines = d->n;
	buf_release(&l.body);
	json_doc_free(l.doc);
}

void
replay_check_first(const struct gen_opts *o)
{
	struct dataset d = { 0 };

	replay_dataset_build(&d, o, 0);
	dataset_free(&d);
}
