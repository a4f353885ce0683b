/* SPDX-License-Identifier: Apache-2.0 */
/* --accuracy-problems: each record's reply graded against its problem (the original's AccuracyRecordProcessor). */
#include "metrics.h"

#include <stdio.h>
#include <string.h>

#include "accuracy/problems.h"
#include "rand/pystr.h"
#include "util.h"

struct accuracy {
	struct problem_list ps;
	grade_fn *grade;
	int verbose;
};

/* The original's grader names (plugins.yaml) and ours; the usage error
 * lists those grade_lookup() knows. */
static const char *const graders[] = {
	"exact_match", "math", "multiple_choice", "code_execution", "lighteval_expr",
	"lighteval_latex", "lighteval_gpqa", "lighteval_gsm8k", NULL,
};

static _Noreturn void
bad_grader(const char *name)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	for (size_t i = 0; graders[i]; i++)
		if (grade_lookup(graders[i]))
			buf_addf(&b, "%s%s", b.len ? ", " : "", graders[i]);
	die_usage("invalid value for --accuracy-grader: '%s' (%s)", name, buf_str(&b));
}

struct accuracy *
accuracy_new(const char *problems, const char *grader, int verbose)
{
	struct accuracy *a;
	char err[256];
	grade_fn *f;

	if (!grader)
		die_usage("--accuracy-problems needs --accuracy-grader");
	if (!(f = grade_lookup(grader)))
		bad_grader(grader);
	a = xcalloc(1, sizeof(*a));
	a->grade = f;
	a->verbose = verbose;
	if (problem_list_load(&a->ps, problems, err, sizeof(err)) < 0)
		die("--accuracy-problems '%s': %s", problems, err);
	return a;
}

void
accuracy_free(struct accuracy *a)
{
	if (!a)
		return;
	problem_list_release(&a->ps);
	free(a);
}

void
rec_reason_mark(struct rec *r)
{
	if (r->nrm && r->rm[r->nrm - 1].out_pos == r->out_text.len) {
		r->rm[r->nrm - 1].reason_end = r->reason_text.len;
		return;
	}
	if (r->nrm == r->rmcap) {
		r->rmcap = r->rmcap ? 2 * r->rmcap : 8;
		r->rm = xreallocarray(r->rm, r->rmcap, sizeof(*r->rm));
	}
	r->rm[r->nrm++] = (struct rmark){ r->out_text.len, r->reason_text.len };
}

/* The original's reply text: each response's reasoning, then its content,
 * in response order (reasoning went in where the content then ended). */
static void
reply_text(struct rec *r, struct buf *b)
{
	size_t out = 0, reason = 0;

	buf_reset(b);
	for (size_t i = 0; i < r->nrm; i++) {
		buf_add(b, r->out_text.s + out, r->rm[i].out_pos - out);
		buf_add(b, r->reason_text.s + reason, r->rm[i].reason_end - reason);
		out = r->rm[i].out_pos;
		reason = r->rm[i].reason_end;
	}
	buf_add(b, r->out_text.s + out, r->out_text.len - out);
}

/* s cut after max code points (Python's s[:max]). */
static size_t
cut(const char *s, size_t n, size_t max)
{
	size_t i = 0;

	for (size_t k = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80 && k++ == max)
			break;
	return i;
}

/* The original's "[accuracy] ..." line (its _log_grading_detail). */
static void
note(struct rec *r, int64_t session, const char *reply, size_t n)
{
	const struct grade_result *g = &r->acc.g;
	struct buf pv = BUF_INIT(BUF_NOMAX);
	size_t sn = n;
	const char *s = pystr_strip(reply, &sn);

	for (size_t i = 0; i < sn; i++)
		if (s[i] == '\n')
			buf_addstr(&pv, "\\n");
		else
			buf_addch(&pv, s[i]);
	buf_addf(&r->note, "[accuracy] session=%lld correct=%s unparsed=%s reason=",
		 (long long)session, g->correct ? "True" : "False",
		 g->unparsed ? "True" : "False");
	py_repr_str(&r->note, g->reason, strlen(g->reason));
	buf_addstr(&r->note, " extracted=");
	py_repr_str(&r->note, g->extracted, cut(g->extracted, strlen(g->extracted), 120));
	buf_addf(&r->note, " response_len=%zu response_preview=", pystr_len(reply, n));
	/* the original cuts after replacing: an escaped newline is two */
	py_repr_str(&r->note, pv.s ? pv.s : "", cut(pv.s ? pv.s : "", pv.len, 200));
	buf_addch(&r->note, '\n');
	buf_release(&pv);
}

void
rec_grade(struct rec *r, const struct opts *o, int valid)
{
	const struct accuracy *a = o->acc;
	int64_t session;

	r->acc.graded = 0;
	if (!a || json_int64(json_get(r->metadata, "session_num"), &session) < 0 || session < 0)
		return;
	if (valid)
		reply_text(r, &r->gtext);
	else
		buf_reset(&r->gtext);
	const struct problem_rec *p = &a->ps.p[(uint64_t)session % a->ps.n];
	const char *reply = r->gtext.s ? r->gtext.s : "";

	/* too long a reply is graded wrong and unparsed, as the grader says */
	(void)a->grade(reply, r->gtext.len, p->gold, &r->acc.g);
	r->acc.graded = 1;
	r->acc.index = p->index;
	r->acc.task = p->task;
	if (a->verbose)
		note(r, session, reply, r->gtext.len);
}

void
rec_write_accuracy(struct jw *w, const struct rec *r)
{
	const struct grade_result *g = &r->acc.g;

	jw_key(w, "accuracy");
	jw_obj(w);
	jw_key(w, "index");
	jw_int(w, (int64_t)r->acc.index);
	jw_key(w, "task");
	jw_str(w, r->acc.task);
	jw_key(w, "correct");
	jw_bool(w, g->correct);
	jw_key(w, "unparsed");
	jw_bool(w, g->unparsed);
	jw_key(w, "extracted");
	jw_str(w, g->extracted);
	jw_key(w, "reason");
	jw_str(w, g->reason);
	/* wrong because the equivalence the original asks sympy for could
	 * not be decided here (lib/accuracy/latexeq) */
	if (g->needs_symbolic) {
		jw_key(w, "undecided");
		jw_bool(w, 1);
	}
	jw_obj_end(w);
}
