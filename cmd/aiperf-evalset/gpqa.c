/* SPDX-License-Identifier: Apache-2.0 */
/* GPQA Diamond: Idavidrein/gpqa gpqa_diamond, the simple-evals template, the choices in an order seeded by SHA-256 of the question. */
#include "bench.h"
#include "row.h"

#include <openssl/evp.h>

#include "rand/pyrandom.h"
#include "util.h"

static const char *const columns[4] = {
	"Correct Answer", "Incorrect Answer 1", "Incorrect Answer 2", "Incorrect Answer 3",
};

/*
 * The original's _seeded_shuffle_indices: random.Random(int(sha256(key)
 * .hexdigest(), 16) % 2**32) shuffles [0, 1, 2, 3]; the seed is the
 * digest's last four bytes, big-endian.
 */
static void
seeded_order(const char *key, size_t n, size_t order[4])
{
	unsigned char d[EVP_MAX_MD_SIZE];
	unsigned int dn = 0;
	struct rng r;

	if (!EVP_Digest(key, n, d, &dn, EVP_sha256(), NULL) || dn != 32)
		die("sha-256 failed");
	pyrandom_seed(&r, (int64_t)((uint32_t)d[28] << 24 | (uint32_t)d[29] << 16 |
				    (uint32_t)d[30] << 8 | d[31]));
	for (size_t i = 0; i < 4; i++)
		order[i] = i;
	pyrandom_shuffle(&r, order, 4, sizeof(*order));
}

/* The simple-evals prompt of the current row; *gold: the correct
 * answer's letter. */
static int
gpqa_prompt(const struct split *s, struct buf *out, char *gold, char *err,
	    size_t errlen)
{
	struct buf c[4];
	const char *q = split_str(s, "Question", err, errlen);
	size_t order[4];
	int rc = -1;

	for (int i = 0; i < 4; i++)
		buf_init(&c[i], BUF_NOMAX);
	if (!q)
		goto out;
	for (int i = 0; i < 4; i++)
		if (split_pystr(s, columns[i], NULL, &c[i], err, errlen) < 0)
			goto out;
	seeded_order(q, strlen(q), order);
	buf_addf(out, "Answer the following multiple choice question. The last line of "
		 "your response should be of the following format: 'Answer: $LETTER' "
		 "(without quotes) where LETTER is one of ABCD. Think step by step "
		 "before answering.\n\n%s\n\n", q);
	for (int i = 0; i < 4; i++) {
		buf_addf(out, "%s%c) %s", i ? "\n" : "", "ABCD"[i], buf_str(&c[order[i]]));
		if (order[i] == 0)
			*gold = "ABCD"[i];
	}
	rc = 0;
out:
	for (int i = 0; i < 4; i++)
		buf_release(&c[i]);
	return rc;
}

static int
gpqa_load(const struct bench_opts *o, struct problem_set *out, char *err,
	  size_t errlen)
{
	struct split s;
	struct buf p = BUF_INIT(BUF_NOMAX);
	int rc = 0;

	if (split_load(&s, o, "Idavidrein/gpqa", "gpqa_diamond", "train", err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < s.rows.n; i++) {
		char gold[2] = "A";

		buf_reset(&p);
		if (split_row(&s, i, err, errlen) < 0 ||
		    gpqa_prompt(&s, &p, gold, err, errlen) < 0) {
			rc = -1;
			break;
		}
		pset_add(out, "gpqa_diamond", gold, p.s, NULL, 32768);
	}
	buf_release(&p);
	split_release(&s);
	return rc;
}

const struct bench bench_gpqa = {
	.name = "gpqa_diamond",
	.n_shots = 0,
	.max_shots = -1,
	.load = gpqa_load,
};
