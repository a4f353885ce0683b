/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for ShareGPT files (lib/dataset/sharegpt, lib/json/jarr): the streaming loader against a whole-document parse. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dataset/sharegpt.h"
#include "json/jarr.h"
#include "json/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t
words(void *ctx, const char *s, size_t n)
{
	size_t k = 0;

	(void)ctx;
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && (i == 0 || s[i - 1] == ' '))
			k++;
	return k;
}

struct state {
	size_t kept, last;
	int any;
};

/* Each kept entry passes the filter, in file order, its text intact. */
static int
keep(void *ud, const struct sharegpt_item *it)
{
	struct state *s = ud;

	if (!sharegpt_valid(it->prompt_tokens, it->completion_tokens, 0) ||
	    words(NULL, it->prompt, it->prompt_len) != it->prompt_tokens ||
	    it->prompt[it->prompt_len] != '\0' || (s->any && it->index <= s->last))
		abort();
	s->any = 1;
	s->last = it->index;
	s->kept++;
	return 0;
}

static int
count_elem(void *ud, const char *s, size_t n, size_t index, uint64_t off)
{
	(void)s;
	(void)n;
	(void)index;
	(void)off;
	++*(size_t *)ud;
	return 0;
}

/* The input in pieces of 7 bytes: what the whole-document parse says. */
static void
split_agrees(const uint8_t *data, size_t size)
{
	struct json_doc *d = json_doc_new();
	const struct json *v = json_parse(d, (const char *)data, size, NULL, 0);
	struct jarr a;
	char err[256];
	size_t n = 0;
	int rc = 0;

	jarr_init(&a, (size_t)1 << 30);
	for (size_t i = 0; i < size && rc == 0; i += 7)
		rc = jarr_feed(&a, (const char *)data + i, size - i < 7 ? size - i : 7,
			       count_elem, &n, err, sizeof(err));
	if (rc == 0)
		rc = jarr_finish(&a, err, sizeof(err));
	if (v && v->type == JSON_ARRAY && (rc != 0 || n != v->len))
		abort();
	if (rc == 0 && n == 0 && !v)
		abort();	/* "[]" with blanks: the parse takes it too */
	jarr_release(&a);
	json_doc_free(d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct state s = { 0 };
	struct sharegpt_opts o = { .count = words, .keep = keep, .keep_ud = &s,
				   .threads = 1, .max_entry = 1 << 20 };
	struct sharegpt_stats st;
	char err[512];
	int rc = sharegpt_load_mem((const char *)data, size, &o, &st, err, sizeof(err));

	if (rc == 0 && (st.kept != s.kept || st.kept + st.skipped != st.entries))
		abort();
	if (rc != 0 && (rc != -1 || strncmp(err, "at byte ", 8)))
		abort();
	split_agrees(data, size);
	return 0;
}
