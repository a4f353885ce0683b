/* SPDX-License-Identifier: Apache-2.0 */
/* GSM8K as lighteval's gsm8k_leaderboard task: openai/gsm8k main test, "Question: ...\nAnswer:", the raw answer as gold. */
#include "bench.h"
#include "row.h"

static int
gsm8k_load(const struct bench_opts *o, struct problem_set *out, char *err,
	   size_t errlen)
{
	struct split s;
	struct buf p = BUF_INIT(BUF_NOMAX), gold = BUF_INIT(BUF_NOMAX);
	int rc = 0;

	if (split_load(&s, o, "openai/gsm8k", "main", "test", err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < s.rows.n; i++) {
		buf_reset(&p);
		buf_reset(&gold);
		buf_addstr(&p, "Question: ");
		if (split_row(&s, i, err, errlen) < 0 ||
		    split_pystr(&s, "question", NULL, &p, err, errlen) < 0 ||
		    split_pystr(&s, "answer", NULL, &gold, err, errlen) < 0) {
			rc = -1;
			break;
		}
		buf_addstr(&p, "\nAnswer:");
		pset_add(out, "gsm8k", gold.s, p.s, NULL, 256);
	}
	buf_release(&p);
	buf_release(&gold);
	split_release(&s);
	return rc;
}

const struct bench bench_gsm8k = {
	.name = "gsm8k",
	.n_shots = 0,
	.max_shots = -1,
	.load = gsm8k_load,
};
