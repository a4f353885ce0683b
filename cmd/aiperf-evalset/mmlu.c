/* SPDX-License-Identifier: Apache-2.0 */
/* MMLU: lighteval/mmlu, one config a subject; lighteval's prompt, its balanced few-shot choice, the chat turns it sends. */
#include "bench.h"
#include "row.h"

#include "rand/pyrandom.h"
#include "util.h"

#define MMLU_ID "lighteval/mmlu"
#define MMLU_GENERATION_SIZE 5
#define NSUBJECTS (sizeof(subjects) / sizeof(subjects[0]))

static const char *const subjects[] = {
	"abstract_algebra", "anatomy", "astronomy", "business_ethics",
	"clinical_knowledge", "college_biology", "college_chemistry",
	"college_computer_science", "college_mathematics", "college_medicine",
	"college_physics", "computer_security", "conceptual_physics",
	"econometrics", "electrical_engineering", "elementary_mathematics",
	"formal_logic", "global_facts", "high_school_biology",
	"high_school_chemistry", "high_school_computer_science",
	"high_school_european_history", "high_school_geography",
	"high_school_government_and_politics", "high_school_macroeconomics",
	"high_school_mathematics", "high_school_microeconomics",
	"high_school_physics", "high_school_psychology",
	"high_school_statistics", "high_school_us_history",
	"high_school_world_history", "human_aging", "human_sexuality",
	"international_law", "jurisprudence", "logical_fallacies",
	"machine_learning", "management", "marketing", "medical_genetics",
	"miscellaneous", "moral_disputes", "moral_scenarios", "nutrition",
	"philosophy", "prehistory", "professional_accounting",
	"professional_law", "professional_medicine",
	"professional_psychology", "public_relations", "security_studies",
	"sociology", "us_foreign_policy", "virology", "world_religions",
};

static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
/* The original's CHOICES: the gold answer as the model should continue. */
static const char *const gold_text[] = { " A", " B", " C", " D" };

/* One few-shot example: its question, its "\nA. ..." lines, its gold. */
struct shot {
	char *question, *choices;
	const char *answer;
};

struct shots {
	struct shot *v;
	size_t n;
};

/* Python's seq[i] for a sequence of n: -n <= i < n, else IndexError. */
static int
py_index(long long i, size_t n, size_t *out)
{
	if (i < 0)
		i += (long long)n;
	if (i < 0 || (unsigned long long)i >= n)
		return -1;
	*out = (size_t)i;
	return 0;
}

/*
 * The row's gold index: answer as an int, or a str looked up with
 * ascii_uppercase.index() (a substring search, so "" is 0).
 */
static int
gold_ix(const struct split *s, long long *ix, char *err, size_t errlen)
{
	const struct json *a = json_get(s->row, "answer");
	int64_t v;

	if (!a)
		return split_err(s, err, errlen, "no column 'answer'");
	if (a->type == JSON_STRING) {
		const char *p = a->len <= 26 && !memchr(a->str, '\0', a->len) ?
					strstr(letters, a->str) : NULL;

		if (!p)
			return split_err(s, err, errlen, "answer '%s' is not a letter A-Z",
					 a->str);
		*ix = p - letters;
		return 0;
	}
	if (json_int64(a, &v) < 0)
		return split_err(s, err, errlen, "answer is neither an integer nor a letter");
	*ix = v;
	return 0;
}

/* The choices array of the current row. */
static const struct json *
choices_of(const struct split *s, char *err, size_t errlen)
{
	const struct json *c = json_get(s->row, "choices");

	if (!c || c->type != JSON_ARRAY)
		split_err(s, err, errlen, c ? "column 'choices' is not a list" :
			  "no column 'choices'");
	return c && c->type == JSON_ARRAY ? c : NULL;
}

/* The "\nA. text\nB. text" lines (zip with ascii_uppercase: 26 at most). */
static int
choice_lines(const struct split *s, struct buf *out, char *err, size_t errlen)
{
	const struct json *c = choices_of(s, err, errlen), *v;
	size_t k = 0;

	if (!c)
		return -1;
	for (v = c->child; v && k < 26; v = v->next, k++) {
		buf_addf(out, "\n%c. ", letters[k]);
		if (py_str(v, out) < 0)
			return split_err(s, err, errlen, "choice %zu is not text", k);
	}
	return 0;
}

/* CHOICES[gold_ix]: the gold as the prompt writes it (" A" .. " D"). */
static const char *
gold_of(const struct split *s, char *err, size_t errlen)
{
	long long ix;
	size_t i;

	if (gold_ix(s, &ix, err, errlen) < 0)
		return NULL;
	if (py_index(ix, 4, &i) < 0) {
		split_err(s, err, errlen, "answer %lld is not one of the four choices", ix);
		return NULL;
	}
	return gold_text[i];
}


/* str(choices[gold_ix]) of a few-shot row: the label the sampler balances. */
static int
row_label(const struct split *s, struct buf *out, char *err, size_t errlen)
{
	const struct json *c = choices_of(s, err, errlen);
	long long ix;
	size_t i;

	if (!c || gold_ix(s, &ix, err, errlen) < 0)
		return -1;
	if (py_index(ix, c->len, &i) < 0)
		return split_err(s, err, errlen, "answer %lld is past the choices", ix);
	if (py_str(json_at(c, i), out) < 0)
		return split_err(s, err, errlen, "choice %zu is not text", i);
	return 0;
}

/* A label and its rows, in row order (the original's label_to_indices). */
struct label {
	char *text;
	size_t len;
	size_t *pool, n;
};

static int
label_cmp(const struct label *a, const struct label *b)
{
	int c = memcmp(a->text, b->text, a->len < b->len ? a->len : b->len);

	return c ? c : (a->len > b->len) - (a->len < b->len);
}

/* (label, row) pairs sorted by label then row: the groups, in order. */
static int
by_label_row(const void *pa, const void *pb)
{
	const struct label *a = pa, *b = pb;
	int c = label_cmp(a, b);

	return c ? c : (a->pool[0] > b->pool[0]) - (a->pool[0] < b->pool[0]);
}

/* Groups by count, most first, then by label (counts_to_labels). */
static int
by_count(const void *pa, const void *pb)
{
	const struct label *a = *(const struct label *const *)pa;
	const struct label *b = *(const struct label *const *)pb;

	if (a->n != b->n)
		return a->n < b->n ? 1 : -1;
	return label_cmp(a, b);
}

/* Each row's label, as a group of one; then merged into groups sorted by label. */
static int
collect_labels(struct split *s, struct label **out, size_t *nout, char *err,
	       size_t errlen)
{
	struct label *v = xcalloc(s->rows.n ? s->rows.n : 1, sizeof(*v));
	struct buf b = BUF_INIT(BUF_NOMAX);
	size_t n = 0;

	for (size_t i = 0; i < s->rows.n; i++) {
		buf_reset(&b);
		if (split_row(s, i, err, errlen) < 0 || row_label(s, &b, err, errlen) < 0) {
			for (size_t j = 0; j < i; j++)
				free(v[j].text), free(v[j].pool);
			free(v);
			buf_release(&b);
			return -1;
		}
		v[i].len = b.len;
		v[i].text = xstrndup(buf_str(&b), b.len);
		v[i].pool = xmalloc(sizeof(size_t));
		v[i].pool[0] = i;
		v[i].n = 1;
	}
	buf_release(&b);
	qsort(v, s->rows.n, sizeof(*v), by_label_row);
	for (size_t i = 0; i < s->rows.n; i++) {
		if (n && !label_cmp(&v[n - 1], &v[i])) {
			struct label *g = &v[n - 1];

			g->pool = xreallocarray(g->pool, g->n + 1, sizeof(size_t));
			g->pool[g->n++] = v[i].pool[0];
			free(v[i].text);
			free(v[i].pool);
			continue;
		}
		v[n++] = v[i];
	}
	*out = v;
	*nout = n;
	return 0;
}

/*
 * lighteval's FewShotSampler "balanced" with variance_seed 0, as the
 * original reimplements it: labels most frequent first (each run of one
 * count shuffled by random.Random(0)), cycled, a random row popped from
 * each, until n_shots + 1 rows (or every row) are taken; the first n_shots
 * of them, into idx. Returns how many.
 */
static size_t
balanced(struct label *g, size_t ng, size_t nrows, int n_shots, size_t *idx)
{
	struct label **order = xreallocarray(NULL, ng ? ng : 1, sizeof(*order));
	size_t remaining = nrows < (size_t)n_shots + 1 ? nrows : (size_t)n_shots + 1;
	size_t got = 0, k = 0;
	struct rng r;

	for (size_t i = 0; i < ng; i++)
		order[i] = &g[i];
	qsort(order, ng, sizeof(*order), by_count);
	pyrandom_seed(&r, 0);
	for (size_t i = 0, j; i < ng; i = j) {
		for (j = i; j < ng && order[j]->n == order[i]->n; j++)
			;
		pyrandom_shuffle(&r, order + i, j - i, sizeof(*order));
	}
	while (remaining > 0 && ng) {
		struct label *l = order[k++ % ng];
		int64_t at;

		if (!l->n)
			continue;
		pyrandom_randrange(&r, 0, (int64_t)l->n, 1, &at);
		if (got < (size_t)n_shots)
			idx[got++] = l->pool[at];
		memmove(l->pool + at, l->pool + at + 1, (l->n - (size_t)at - 1) * sizeof(size_t));
		l->n--;
		remaining--;
	}
	free(order);
	return got;
}

/* _format_example: the question, the choice lines, the gold. */
static int
shot_of(struct split *s, size_t i, struct shot *sh, char *err, size_t errlen)
{
	struct buf q = BUF_INIT(BUF_NOMAX), c = BUF_INIT(BUF_NOMAX);

	if (split_row(s, i, err, errlen) < 0 ||
	    split_pystr(s, "question", NULL, &q, err, errlen) < 0 ||
	    choice_lines(s, &c, err, errlen) < 0 ||
	    !(sh->answer = gold_of(s, err, errlen))) {
		buf_release(&q);
		buf_release(&c);
		return -1;
	}
	sh->question = buf_detach(&q, NULL);
	sh->choices = buf_detach(&c, NULL);
	return 0;
}

static void
shots_release(struct shots *sh)
{
	for (size_t i = 0; i < sh->n; i++) {
		free(sh->v[i].question);
		free(sh->v[i].choices);
	}
	free(sh->v);
	*sh = (struct shots){ 0 };
}

/* The subject's few-shot examples, from its dev split. */
static int
load_shots(const struct bench_opts *o, const char *subject, struct shots *sh,
	   char *err, size_t errlen)
{
	struct split s;
	struct label *g = NULL;
	size_t ng = 0, *idx, n;
	int rc = -1;

	*sh = (struct shots){ 0 };
	if (split_load(&s, o, MMLU_ID, subject, "dev", err, errlen) < 0)
		return -1;
	idx = xreallocarray(NULL, (size_t)o->n_shots + 1, sizeof(*idx));
	if (collect_labels(&s, &g, &ng, err, errlen) < 0)
		goto out;
	n = balanced(g, ng, s.rows.n, o->n_shots, idx);
	sh->v = xcalloc(n ? n : 1, sizeof(*sh->v));
	for (; sh->n < n; sh->n++)
		if (shot_of(&s, idx[sh->n], &sh->v[sh->n], err, errlen) < 0)
			goto out;
	rc = 0;
out:
	if (rc < 0)
		shots_release(sh);
	for (size_t i = 0; i < ng; i++)
		free(g[i].text), free(g[i].pool);
	free(g);
	free(idx);
	split_release(&s);
	return rc;
}

static void
message(struct jw *w, const char *role, const char *content, size_t n)
{
	jw_obj(w);
	jw_key(w, "role");
	jw_str(w, role);
	jw_key(w, "content");
	jw_strn(w, content, n);
	jw_obj_end(w);
}

/* The test row's query: "Question: q\nA. ...\nAnswer:" (CoT: the trigger before Answer:). */
static int
query_of(struct split *s, int cot, struct buf *out, char *err, size_t errlen)
{
	buf_addstr(out, "Question: ");
	if (split_pystr(s, "question", NULL, out, err, errlen) < 0 ||
	    choice_lines(s, out, err, errlen) < 0)
		return -1;
	buf_addstr(out, cot ? "\nLet's think step by step.\nAnswer:" : "\nAnswer:");
	return 0;
}

/* The flat prompt: instruction, the shots each with its gold, the query. */
static void
flat_prompt(const char *instr, const struct shots *sh, const struct buf *query,
	    struct buf *out)
{
	buf_addstr(out, instr);
	for (size_t i = 0; i < sh->n; i++)
		buf_addf(out, "%sQuestion: %s%s\nAnswer:%s", i ? "\n\n" : "",
			 sh->v[i].question, sh->v[i].choices, sh->v[i].answer);
	if (sh->n)
		buf_addstr(out, "\n\n");
	buf_add(out, query->s, query->len);
}

/* lighteval's chat form: a user turn and an assistant turn a shot (the
 * instruction in the first user turn), then the query. */
static void
chat_messages(const char *instr, const struct shots *sh, const struct buf *query,
	      struct buf *out)
{
	struct buf t = BUF_INIT(BUF_NOMAX);
	struct jw w;

	jw_init(&w, out, 0);
	jw_arr(&w);
	for (size_t i = 0; i < sh->n; i++) {
		buf_reset(&t);
		buf_addf(&t, "%sQuestion: %s%s\nAnswer:", i ? "" : instr,
			 sh->v[i].question, sh->v[i].choices);
		message(&w, "user", t.s, t.len);
		message(&w, "assistant", sh->v[i].answer, strlen(sh->v[i].answer));
	}
	buf_reset(&t);
	if (!sh->n)
		buf_addstr(&t, instr);
	buf_add(&t, buf_str(query), query->len);
	message(&w, "user", t.s, t.len);
	jw_arr_end(&w);
	buf_release(&t);
}

/* "... about abstract algebra.\n\n": subject.replace('_', ' '). */
static char *
instruction(const char *subject)
{
	char *s = xstrfmt("The following are multiple choice questions (with answers) "
			  "about %s.\n\n", subject);

	for (char *p = s; *p; p++)
		if (*p == '_')
			*p = ' ';
	return s;
}

static int
subject_problems(const struct bench_opts *o, const char *subject,
		 struct problem_set *out, char *err, size_t errlen)
{
	struct shots sh = { 0 };
	struct split t = { 0 };
	struct buf q = BUF_INIT(BUF_NOMAX), p = BUF_INIT(BUF_NOMAX), m = BUF_INIT(BUF_NOMAX);
	char *instr = instruction(subject);
	int rc = -1;

	if (o->n_shots > 0 && load_shots(o, subject, &sh, err, errlen) < 0)
		goto out;
	if (split_load(&t, o, MMLU_ID, subject, "test", err, errlen) < 0)
		goto out;
	for (size_t i = 0; i < t.rows.n; i++) {
		const char *gold;

		buf_reset(&q);
		buf_reset(&p);
		buf_reset(&m);
		if (split_row(&t, i, err, errlen) < 0 ||
		    query_of(&t, o->cot, &q, err, errlen) < 0 ||
		    !(gold = gold_of(&t, err, errlen)))
			goto out;
		flat_prompt(instr, &sh, &q, &p);
		chat_messages(instr, &sh, &q, &m);
		pset_add(out, subject, gold, p.s, m.s, MMLU_GENERATION_SIZE);
	}
	rc = 0;
out:
	free(instr);
	buf_release(&q);
	buf_release(&p);
	buf_release(&m);
	split_release(&t);
	shots_release(&sh);
	return rc;
}

static int
known(const char *name)
{
	for (size_t i = 0; i < NSUBJECTS; i++)
		if (!strcmp(name, subjects[i]))
			return 1;
	return 0;
}

static int
unknown_subject(const char *name, char *err, size_t errlen)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	int rc;

	for (size_t i = 0; i < NSUBJECTS; i++)
		buf_addf(&b, "%s%s", i ? ", " : "", subjects[i]);
	rc = util_seterr(err, errlen, "unknown MMLU subject '%s'; the %zu valid subjects: %s",
			 name, NSUBJECTS, b.s);
	buf_release(&b);
	return rc;
}

/* The subjects asked for, in the order asked (all of them, in the list's
 * order, when none is named or one of the names is "all"). */
static int
mmlu_load(const struct bench_opts *o, struct problem_set *out, char *err,
	  size_t errlen)
{
	int all = !o->tasks || !o->ntasks;

	for (size_t i = 0; i < o->ntasks && !all; i++)
		all = !strcmp(o->tasks[i], "all");
	if (all) {
		for (size_t i = 0; i < NSUBJECTS; i++)
			if (subject_problems(o, subjects[i], out, err, errlen) < 0)
				return -1;
		return 0;
	}
	for (size_t i = 0; i < o->ntasks; i++)
		if (!known(o->tasks[i]))
			return unknown_subject(o->tasks[i], err, errlen);
	for (size_t i = 0; i < o->ntasks; i++)
		if (subject_problems(o, o->tasks[i], out, err, errlen) < 0)
			return -1;
	return 0;
}

const struct bench bench_mmlu = {
	.name = "mmlu",
	.n_shots = 5,
	.max_shots = -1,
	.cot = false,
	.system_prompt = NULL,
	.load = mmlu_load,
};
