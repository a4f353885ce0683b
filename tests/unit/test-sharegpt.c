/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/dataset/sharegpt: the entries, the length filter, and the streaming loader. */
#include <stdio.h>
#include <unistd.h>

#include "dataset/sharegpt.h"
#include "test.h"

/* A words tokenizer: the number of space-separated words. */
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

/* What the loader kept: "index:prompt_tokens/completion_tokens" joined by ' '. */
struct kept {
	struct buf b;
	size_t stop_at;		/* return 5 at this index; 0: never */
	int first_ok;		/* prompt text of the first kept one checked */
};

static int
keep(void *ud, const struct sharegpt_item *it)
{
	struct kept *k = ud;

	buf_addf(&k->b, "%s%zu:%zu/%zu", k->b.len ? " " : "", it->index,
		 it->prompt_tokens, it->completion_tokens);
	if (it->prompt_len != strlen(it->prompt) ||
	    words(NULL, it->prompt, it->prompt_len) != it->prompt_tokens)
		k->first_ok = -1;
	return k->stop_at && it->index == k->stop_at ? 5 : 0;
}

static int
load(const char *doc, int threads, int skip, struct kept *k,
     struct sharegpt_stats *st, char *err, size_t errlen)
{
	struct sharegpt_opts o = { .count = words, .keep = keep, .keep_ud = k,
				   .skip_min_output = skip, .threads = threads };

	buf_reset(&k->b);
	return sharegpt_load_mem(doc, strlen(doc), &o, st, err, errlen);
}

static void
test_filter(void)
{
	TEST("4 and 4 pass", sharegpt_valid(4, 4, 0));
	TEST("a prompt of 3 fails", !sharegpt_valid(3, 100, 0));
	TEST("a prompt of 1024 passes", sharegpt_valid(1024, 1024, 0));
	TEST("a prompt of 1025 fails", !sharegpt_valid(1025, 4, 0));
	TEST("a total of 2048 passes", sharegpt_valid(1000, 1048, 0));
	TEST("a total of 2049 fails", !sharegpt_valid(1000, 1049, 0) &&
	     !sharegpt_valid(1024, 1025, 1));
	TEST("a completion of 3 fails", !sharegpt_valid(4, 3, 0));
	TEST("unless --osl is given", sharegpt_valid(4, 3, 1) && sharegpt_valid(4, 0, 1));
	TEST("--osl does not waive the prompt's minimum", !sharegpt_valid(3, 10, 1));
	TEST("a huge completion does not wrap around",
	     !sharegpt_valid(4, (size_t)-1, 0));
}

/* The pair points into the parse, valid until the next call. */
static struct json_doc *edoc;

static int
entry(const char *text, char *err, size_t errlen, struct sharegpt_pair *p)
{
	const struct json *v;

	json_doc_reset(edoc);
	v = json_parse(edoc, text, strlen(text), NULL, 0);
	return v ? sharegpt_entry(v, 3, p, err, errlen) : -9;
}

static void
test_entry(void)
{
	struct sharegpt_pair p;
	char err[256];

	edoc = json_doc_new();
	TEST("no conversations: skipped", entry("{\"id\":\"x\"}", err, sizeof(err), &p) == 0);
	TEST("null conversations: skipped",
	     entry("{\"conversations\":null}", err, sizeof(err), &p) == 0);
	TEST("an empty list: skipped",
	     entry("{\"conversations\":[]}", err, sizeof(err), &p) == 0);
	TEST("one turn: skipped",
	     entry("{\"conversations\":[{\"value\":\"a\"}]}", err, sizeof(err), &p) == 0);
	TEST("two turns: kept, whoever speaks",
	     entry("{\"conversations\":[{\"from\":\"gpt\",\"value\":\"a b\"},"
		   "{\"value\":\"c\"},{\"value\":3}]}", err, sizeof(err), &p) == 1 &&
	     p.plen == 3 && !memcmp(p.prompt, "a b", 3) && p.clen == 1);
	TEST("an element that is not an object",
	     entry("[1]", err, sizeof(err), &p) == -1 &&
	     !strcmp(err, "[3]: expected an object, not a list"));
	TEST("conversations of another type",
	     entry("{\"conversations\":\"ab\"}", err, sizeof(err), &p) == -1 &&
	     !strcmp(err, "[3].conversations: expected a list, not a string"));
	TEST("a turn that is not an object",
	     entry("{\"conversations\":[{\"value\":\"a\"},true]}", err, sizeof(err), &p) == -1 &&
	     !strcmp(err, "[3].conversations[1]: expected an object, not a boolean"));
	TEST("a turn without a value",
	     entry("{\"conversations\":[{\"from\":\"human\"},{\"value\":\"b\"}]}",
		   err, sizeof(err), &p) == -1 &&
	     !strcmp(err, "[3].conversations[0]: no \"value\""));
	TEST("a value that is not a string",
	     entry("{\"conversations\":[{\"value\":\"a\"},{\"value\":null}]}",
		   err, sizeof(err), &p) == -1 &&
	     !strcmp(err, "[3].conversations[1].value: expected a string, not null"));
	json_doc_free(edoc);
}

#define W4 "a b c d"
#define TURNS(p, c) "{\"conversations\":[{\"value\":\"" p "\"},{\"value\":\"" c "\"}]}"

static void
test_load(void)
{
	struct kept k = { .b = BUF_INIT(BUF_NOMAX) };
	struct sharegpt_stats st;
	char err[256];
	const char *doc = "[" TURNS(W4, W4) ", {\"id\":1}, " TURNS("a b c", W4) ", "
			  TURNS(W4 " e", "x y z") ", " TURNS(W4, "\\u00e9 b c d e") "]";
	int rc;

	rc = load(doc, 1, 0, &k, &st, err, sizeof(err));
	TEST("kept in file order, counts given",
	     rc == 0 && !strcmp(buf_str(&k.b), "0:4/4 4:4/5") &&
	     st.entries == 5 && st.kept == 2 && st.skipped == 3 && k.first_ok == 0);
	rc = load(doc, 1, 1, &k, &st, err, sizeof(err));
	TEST("--osl keeps the short completion",
	     rc == 0 && !strcmp(buf_str(&k.b), "0:4/4 3:5/3 4:4/5"));
	rc = load(doc, 4, 1, &k, &st, err, sizeof(err));
	TEST("the same on four threads", rc == 0 && !strcmp(buf_str(&k.b), "0:4/4 3:5/3 4:4/5"));
	k.stop_at = 3;
	rc = load(doc, 2, 1, &k, &st, err, sizeof(err));
	TEST("the callback's value stops the load, no message",
	     rc == 5 && !strcmp(buf_str(&k.b), "0:4/4 3:5/3") && err[0] == '\0');
	k.stop_at = 0;
	rc = load("[{\"a\" 1}]", 1, 0, &k, &st, err, sizeof(err));
	TEST("a parse error at its byte in the file",
	     rc == -1 && !strcmp(err, "at byte 6: [0]: expected ':'"));
	rc = load("[" TURNS(W4, W4) ",7,{\"conversations\":{}}]", 3, 0, &k, &st, err, sizeof(err));
	TEST("the first problem in file order",
	     rc == -1 && !strcmp(err, "at byte 61: [1]: expected an object, not a number") &&
	     !strcmp(buf_str(&k.b), "0:4/4"));
	rc = load("[7, {", 1, 0, &k, &st, err, sizeof(err));
	TEST("an entry's problem before the truncation after it",
	     rc == -1 && !strcmp(err, "at byte 1: [0]: expected an object, not a number"));
	rc = load("[" TURNS(W4, W4) ", {", 1, 0, &k, &st, err, sizeof(err));
	TEST("else the truncation",
	     rc == -1 && strstr(err, "truncated: element 1") && st.kept == 1);
	rc = load("{}", 1, 0, &k, &st, err, sizeof(err));
	TEST("not an array", rc == -1 && !strcmp(err, "at byte 0: not a JSON array (it starts with '{')"));
	rc = load("[]", 1, 0, &k, &st, err, sizeof(err));
	TEST("an empty array loads nothing", rc == 0 && st.entries == 0);
	buf_release(&k.b);
}

/* More entries than a batch holds, with a bad one far in: the same on
 * one thread and several, read from a file descriptor. */
static void
test_big(void)
{
	struct buf doc = BUF_INIT(BUF_NOMAX);
	struct kept k = { .b = BUF_INIT(BUF_NOMAX) };
	struct sharegpt_opts o = { .count = words, .keep = keep, .keep_ud = &k };
	struct sharegpt_stats st;
	char err[256], err1[256], path[] = "/tmp/test-sharegpt-XXXXXX";
	struct buf one = BUF_INIT(BUF_NOMAX);
	int fd, rc, rc1;

	buf_addch(&doc, '[');
	for (int i = 0; i < 20000; i++) {
		if (i)
			buf_addch(&doc, ',');
		if (i == 15000)
			buf_addstr(&doc, "{\"conversations\":[{\"value\":\"a\"},{}]}");
		else if (i == 17000)
			buf_addstr(&doc, "\"late\"");
		else
			buf_addf(&doc, TURNS("%s", "w x y z"), i % 3 ? W4 : "short");
	}
	buf_addch(&doc, ']');
	o.threads = 1;
	rc1 = sharegpt_load_mem(doc.s, doc.len, &o, &st, err1, sizeof(err1));
	buf_addstr(&one, buf_str(&k.b));
	buf_reset(&k.b);
	fd = mkstemp(path);
	TEST("a scratch file", fd >= 0 && write(fd, doc.s, doc.len) == (ssize_t)doc.len &&
	     lseek(fd, 0, SEEK_SET) == 0);
	o.threads = 5;
	rc = sharegpt_load_fd(fd, &o, &st, err, sizeof(err));
	TEST("the first bad entry, past two batches",
	     rc1 == -1 && strstr(err1, "[15000].conversations[1]: no \"value\""));
	TEST("threads and a file give the same", rc == rc1 && !strcmp(err, err1) &&
	     !strcmp(buf_str(&k.b), buf_str(&one)) && st.kept == 10000 &&
	     st.entries == 15001);
	close(fd);
	unlink(path);
	buf_release(&doc);
	buf_release(&one);
	buf_release(&k.b);
}

int
main(void)
{
	test_filter();
	test_entry();
	test_load();
	test_big();
	return TEST_DONE();
}
