/* SPDX-License-Identifier: Apache-2.0 */
/* AIME: Maxwell-Jia/AIME_2024 with the trt-llm recipe's template (AIMETemplate.generate_output), its shots and CoT trigger. */
#include "bench.h"
#include "row.h"

#include "util.h"

#define AIME_ID "Maxwell-Jia/AIME_2024"
#define AIME_GENERATION_SIZE 32768

static const char header[] =
	"The following are problems from the American Invitational Mathematics "
	"Examination (AIME) 2024. AIME is a prestigious high school mathematics "
	"competition known for its challenging mathematical problems.\n\n";

/* The few-shot blocks, each "**Problem**: ...\n[**Solution**: ...\n]**Answer**: ...\n\n"
 * (the solution only with CoT), after the header: the first n_shots rows. */
static int
shots_text(struct split *s, const struct bench_opts *o, struct buf *out,
	   char *err, size_t errlen)
{
	size_t n = o->n_shots > 0 ? (size_t)o->n_shots : 0;
	struct buf sol = BUF_INIT(BUF_NOMAX), ans = BUF_INIT(BUF_NOMAX);
	int rc = 0;

	if (n > s->rows.n)
		n = s->rows.n;
	if (n)
		buf_addstr(out, header);
	for (size_t i = 0; i < n && !rc; i++) {
		const char *problem;

		buf_reset(&sol);
		buf_reset(&ans);
		if (split_row(s, i, err, errlen) < 0 ||
		    split_pystr(s, "Answer", NULL, &ans, err, errlen) < 0 ||
		    !(problem = split_str(s, "Problem", err, errlen)) ||
		    split_pystr(s, "Solution", "", &sol, err, errlen) < 0) {
			rc = -1;
			break;
		}
		buf_addf(out, "**Problem**: %s\n", problem);
		if (o->cot)
			buf_addf(out, "**Solution**: %s\n", sol.s);
		buf_addf(out, "**Answer**: %s\n\n", ans.s);
	}
	buf_release(&sol);
	buf_release(&ans);
	return rc;
}

static int
aime_load(const struct bench_opts *o, struct problem_set *out, char *err,
	  size_t errlen)
{
	struct split s;
	struct buf shots = BUF_INIT(BUF_NOMAX), p = BUF_INIT(BUF_NOMAX);
	struct buf gold = BUF_INIT(BUF_NOMAX);
	int rc = -1;

	if (split_load(&s, o, AIME_ID, "default", "train", err, errlen) < 0)
		return -1;
	if (shots_text(&s, o, &shots, err, errlen) < 0)
		goto out;
	for (size_t i = 0; i < s.rows.n; i++) {
		const char *problem;

		buf_reset(&p);
		buf_reset(&gold);
		if (split_row(&s, i, err, errlen) < 0 ||
		    !(problem = split_str(&s, "Problem", err, errlen)) ||
		    split_pystr(&s, "Answer", NULL, &gold, err, errlen) < 0)
			goto out;
		buf_addf(&p, "%s**Problem**: %s\n**Answer**: \n\n%s", buf_str(&shots),
			 problem, o->cot ? "Let's think step-by-step." :
			 "No explanation needed. Just return a number.");
		pset_add(out, "aime", gold.s, p.s, NULL, AIME_GENERATION_SIZE);
	}
	rc = 0;
out:
	buf_release(&shots);
	buf_release(&p);
	buf_release(&gold);
	split_release(&s);
	return rc;
}

const struct bench bench_aime = {
	.name = "aime",
	.n_shots = 8,
	.max_shots = 8,
	.cot = true,
	.system_prompt = "Please reason step by step, and put your final answer within \\boxed{}.",
	.load = aime_load,
};
