/* SPDX-License-Identifier: Apache-2.0 */
/* SPEED-Bench custom datasets: a split's rows (of the type's category) as conversations, one turn a message. */
#include <errno.h>

#include "gen.h"
#include "hmap.h"
#include "lines.h"
#include "dataset/speedbench.h"
#include "rand/pystr.h"
#include "util.h"

#define LINE_MAX_BYTES ((size_t)64 << 20)
#define SESSIONS_MAX ((size_t)1 << 28)

/* The file read: --input-file, or in a directory the type's split file
 * (ours: the original opens --input-file whatever it is). */
char *
speedbench_path(const struct gen_opts *o)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	size_t n = strlen(o->input_file);

	if (!gen_is_dir(o->input_file))
		return xstrdup(o->input_file);
	buf_addstr(&b, o->input_file);
	if (n && o->input_file[n - 1] != '/')
		buf_addch(&b, '/');
	buf_addstr(&b, o->speedbench->split);
	return buf_detach(&b, NULL);
}

struct sload {
	const struct gen_opts *o;
	const char *name;
	struct dataset *d;
	size_t cap, *tcap;
	struct hmap ix;		/* question_id -> conversation */
	struct json_doc *doc;
};

/* The conversation of question id s[0..n): a row with an id seen before
 * adds its turns to that conversation (load_dataset's defaultdict). */
static struct conv *
conv_of(struct sload *l, const char *s, size_t n)
{
	struct dataset *d = l->d;
	uint64_t h[2], *slot;
	int created;

	gen_str_hash(s, n, h);
	if (!(slot = hmap_put(&l->ix, h[0], h[1], &created)))
		die("%s: too many sessions", l->name);
	if (!created)
		return &d->convs[*slot];
	if (d->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		d->convs = xreallocarray(d->convs, l->cap, sizeof(*d->convs));
		l->tcap = xreallocarray(l->tcap, l->cap, sizeof(*l->tcap));
	}
	d->convs[d->n] = (struct conv){ .session_id = xstrndup(s, n) };
	l->tcap[d->n] = 0;
	*slot = d->n;
	return &d->convs[d->n++];
}

/* SingleTurn(text=content, role=role) for each message: the loader's
 * multi_turn=True (no plugin entry sets it false, which would keep the
 * first message alone). */
static void
add_row(struct sload *l, const struct speedbench_row *r)
{
	struct conv *cv = conv_of(l, r->id, r->id_len);
	size_t *cap = &l->tcap[cv - l->d->convs];
	for (const struct json *m = r->messages->child; m; m = m->next) {
		const char *role, *text;
		size_t rl, tl;
		struct turn *u;

		if (cv->nturns == *cap) {
			*cap = *cap ? *cap * 2 : 4;
			cv->turns = xreallocarray(cv->turns, *cap, sizeof(*cv->turns));
		}
		speedbench_message(m, &role, &rl, &text, &tl);
		u = &cv->turns[cv->nturns++];
		*u = (struct turn){ .ntexts = 1, .max_tokens = -1, .delay_ms = -1,
				    .at_ns = -1, .role = xstrndup(role, rl) };
		u->texts = xcalloc(1, sizeof(*u->texts));
		u->texts[0] = xstrndup(text, tl);
	}
}

/* Line lineno, s[0..n): a row into r; returns whether it is of the
 * type's category. Exits on a line that is no row. */
static int
read_row(struct sload *l, const char *s, size_t n, size_t lineno,
	 struct speedbench_row *r)
{
	const struct json *v;
	char err[512];

	json_doc_reset(l->doc);
	if (!(v = json_parse(l->doc, s, n, err, sizeof(err))))
		die("%s:%zu: Invalid JSON in dataset file: %s", l->name, lineno, err);
	if (speedbench_parse(v, r, err, sizeof(err)) < 0)
		die("%s:%zu: %s", l->name, lineno, err);
	return speedbench_wants(l->o->speedbench, r);
}

/* Every line of the file into l, or with first set only until the
 * first row; returns the rows read. */
static size_t
read_file(struct sload *l, int first)
{
	struct speedbench_row r;
	struct lines in;
	const char *s;
	size_t n, rows = 0;
	int rc;

	if (lines_open(&in, l->name, LINE_MAX_BYTES) < 0)
		die("cannot open '%s':", l->name);
	while ((rc = lines_next(&in, &s, &n)) == 1) {
		if (pystr_isblank(s, n))
			continue;
		rows++;
		if (read_row(l, s, n, in.lineno, &r) && !first)
			add_row(l, &r);
		if (first)
			break;
	}
	if (rc < 0 && errno == ENOBUFS)
		die("%s:%zu: line longer than %zu bytes", l->name, in.lineno,
		    LINE_MAX_BYTES);
	if (rc < 0)
		die("cannot read '%s':", l->name);
	lines_close(&in);
	return rows;
}

/* _finalize_turn: model (round robin or random), then max_tokens from
 * --osl; then the payload. */
static void
finalize(struct dataset *d, const struct gen_opts *o, uint64_t root)
{
	struct rng model, max_tokens;
	size_t rr = 0;

	rng_derive(&model, root, "composer.turn.model_selection");
	rng_derive(&max_tokens, root, "composer.turn.max_tokens");
	for (size_t c = 0; c < d->n; c++)
		for (size_t k = 0; k < d->convs[c].nturns; k++) {
			struct turn *u = &d->convs[c].turns[k];

			u->model = o->model_random ?
				(size_t)rng_below(&model, o->nmodels) : rr++ % o->nmodels;
			if (o->osl >= 0)
				u->max_tokens = gen_pni(&max_tokens, (double)o->osl,
							o->osl_stddev);
			payload_render(o, u, k);
			turn_free_texts(u);
			free(u->role);
			u->role = NULL;
		}
}

void
speedbench_dataset_build(struct dataset *d, const struct gen_opts *o,
			 struct prompt *p, uint64_t root)
{
	char *path = speedbench_path(o);
	struct sload l = { .o = o, .name = path, .d = d, .doc = json_doc_new() };

	hmap_init(&l.ix, SESSIONS_MAX);
	d->lines = read_file(&l, 0);
	if (!d->lines)
		die("'%s' has no records", path);
	if (o->speedbench->category && !d->n)
		warn("SPEED-Bench category filter '%s' matched no rows in %s. Verify "
		     "the configured category exists in this dataset.",
		     o->speedbench->category, path);
	prompt_inject(p, d, o);
	finalize(d, o, root);
	hmap_release(&l.ix);
	json_doc_free(l.doc);
	free(l.tcap);
	free(path);
}

void
speedbench_check_first(const struct gen_opts *o)
{
	char *path = speedbench_path(o);
	struct sload l = { .o = o, .name = path, .doc = json_doc_new() };

	if (!read_file(&l, 1))
		die("'%s' has no records", path);
	json_doc_free(l.doc);
	free(path);
}
