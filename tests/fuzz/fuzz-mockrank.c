/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for aiperf-mock's rankings routes: any request body is refused with a reason or answered with valid JSON of the route's shape. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mock.h"
#include "json/json.h"
#include "util.h"
#include "fuzztool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The answer must parse and be an object with the route's list, or a list. */
static void
check(enum route rt, const struct buf *b, long n)
{
	static const char *const key[] = {
		[ROUTE_NIM_RANKING] = "rankings", [ROUTE_COHERE_RERANK] = "results",
	};
	struct json_doc *d = json_doc_new();
	char err[128];
	/* object bodies go without their final '}': the sender adds it */
	struct buf w = BUF_INIT(BUF_NOMAX);
	const struct json *v, *l;

	buf_add(&w, b->s, b->len);
	if (rt != ROUTE_TEI_RERANK)
		buf_addch(&w, '}');
	v = json_parse(d, w.s, w.len, err, sizeof(err));
	if (!v)
		abort();
	l = rt == ROUTE_TEI_RERANK ? v : json_get(v, key[rt]);
	if (!l || l->type != JSON_ARRAY || (long)l->len > n)
		abort();
	buf_release(&w);
	json_doc_free(d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum route rts[] = {
		ROUTE_NIM_RANKING, ROUTE_COHERE_RERANK, ROUTE_TEI_RERANK,
	};
	struct json_doc *d = json_doc_new();
	const struct json *root = json_parse(d, (const char *)data, size, NULL, 0);

	for (size_t k = 0; root && root->type == JSON_OBJECT && k < 3; k++) {
		const struct json *q = NULL, *l;
		const char *why = NULL;
		struct buf b = BUF_INIT(BUF_NOMAX);
		double *score;
		long n, i = 0;
		int64_t top = 0;

		l = fmt_rankings_request(rts[k], root, &q, &why);
		if (!l) {
			if (!why || !*why)
				abort();
			continue;
		}
		n = (long)l->len;
		score = calloc((size_t)n, sizeof(*score));
		if (!score)
			abort();
		for (const struct json *e = l->child; e; e = e->next, i++) {
			if (!fmt_passage_text(rts[k], e))
				abort();
			score[i] = (double)(i % 7) / 7;
		}
		json_int64(json_get(root, "top_n"), &top);
		fmt_rankings(&b, rts[k], score, n, top > n ? n : (long)top, 3, 1);
		check(rts[k], &b, n);
		buf_release(&b);
		free(score);
	}
	json_doc_free(d);
	return 0;
}
