/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/json/jarr: a big JSON array's elements, fed in pieces of any size. */
#include "json/jarr.h"
#include "json/json.h"
#include "test.h"

/* What the callback saw: the elements joined by '|', with their offsets. */
struct seen {
	struct buf text;
	struct buf offs;
	size_t n;
	size_t stop_at;		/* return 7 at this index; (size_t)-1: never */
};

static int
collect(void *ud, const char *s, size_t n, size_t index, uint64_t off)
{
	struct seen *w = ud;

	if (index != w->n)
		abort();
	buf_addf(&w->text, "%s%.*s", w->n ? "|" : "", (int)n, s);
	buf_addf(&w->offs, "%s%llu", w->n ? "," : "", (unsigned long long)off);
	w->n++;
	return index == w->stop_at ? 7 : 0;
}

/* Split s into pieces of step bytes; returns feed's or finish's status,
 * the message in err. */
static int
split(const char *s, size_t step, size_t max, struct seen *w, char *err,
      size_t errlen)
{
	struct jarr a;
	size_t n = strlen(s);
	int rc = 0;

	buf_init(&w->text, BUF_NOMAX);
	buf_init(&w->offs, BUF_NOMAX);
	w->n = 0;
	err[0] = '\0';
	jarr_init(&a, max);
	for (size_t i = 0; i < n && rc == 0; i += step)
		rc = jarr_feed(&a, s + i, n - i < step ? n - i : step, collect, w,
			       err, errlen);
	if (rc == 0)
		rc = jarr_finish(&a, err, errlen);
	jarr_release(&a);
	return rc;
}

/* The same elements and result for every piece size. */
static int
same_every_step(const char *s, const char *want, int want_rc, const char *want_err)
{
	struct seen w = { .stop_at = (size_t)-1 };
	char err[256];
	int ok = 1;

	for (size_t step = 1; step <= strlen(s) + 1; step++) {
		int rc = split(s, step, 1 << 20, &w, err, sizeof(err));

		if (rc != want_rc || strcmp(buf_str(&w.text), want) ||
		    (want_err && strcmp(err, want_err))) {
			printf("#   step %zu: rc %d, '%s', '%s'\n", step, rc,
			       buf_str(&w.text), err);
			ok = 0;
		}
		buf_release(&w.text);
		buf_release(&w.offs);
		if (!ok)
			break;
	}
	return ok;
}

static void
test_splits(void)
{
	TEST("objects, arrays, strings with brackets and escapes",
	     same_every_step(" [ {\"a\":\"]}\\\"\"} ,[1,[2]],\"x\\\\\" ,\"[\" ]\n",
			     "{\"a\":\"]}\\\"\"}|[1,[2]]|\"x\\\\\"|\"[\"", 0, NULL));
	TEST("scalars end at blanks, commas and the bracket",
	     same_every_step("[1,-2.5e3 , true,null\t,false]",
			     "1|-2.5e3|true|null|false", 0, NULL));
	TEST("the empty array", same_every_step("[]", "", 0, NULL));
	TEST("blanks around", same_every_step("\r\n [\n]\t ", "", 0, NULL));
	TEST("not an array",
	     same_every_step(" {\"a\":1}", "", -1,
			     "at byte 1: not a JSON array (it starts with '{')"));
	TEST("empty input", same_every_step("", "", -1,
					    "at byte 0: empty: not a JSON array"));
	TEST("blank input", same_every_step("  \n", "", -1,
					    "at byte 3: empty: not a JSON array"));
	TEST("truncated inside an element",
	     same_every_step("[{\"a\":1},{\"b\":[1,2", "{\"a\":1}", -1,
			     "at byte 18: truncated: element 1 (from byte 9) is cut short"));
	TEST("truncated inside a string",
	     same_every_step("[\"abc", "", -1,
			     "at byte 5: truncated: element 0 (from byte 1) is cut short"));
	TEST("truncated after an element",
	     same_every_step("[1, 2 ", "1|2", -1,
			     "at byte 6: truncated: the array is not closed after 2 elements"));
	TEST("truncated after a comma",
	     same_every_step("[1,", "1", -1,
			     "at byte 3: truncated: the array is not closed after 1 elements"));
	TEST("a trailing comma",
	     same_every_step("[1,]", "1", -1, "at byte 3: expected element 1, not ']'"));
	TEST("a leading comma",
	     same_every_step("[,1]", "", -1, "at byte 1: expected element 0, not ','"));
	TEST("two commas",
	     same_every_step("[1,,2]", "1", -1, "at byte 3: expected element 1, not ','"));
	TEST("no comma between objects",
	     same_every_step("[{} {}]", "{}", -1,
			     "at byte 4: expected ',' or ']' after element 0, not '{'"));
	TEST("data after the array",
	     same_every_step("[1] x", "1", -1, "at byte 4: data after the array ('x')"));
	TEST("a second array after the first",
	     same_every_step("[][]", "", -1, "at byte 2: data after the array ('[')"));
	TEST("a control byte is named by its code",
	     same_every_step("\x01", "", -1,
			     "at byte 0: not a JSON array (it starts with byte 0x01)"));
	/* text between the brackets is not checked: json_parse does that */
	TEST("mismatched brackets close the element",
	     same_every_step("[{]]", "{]", 0, NULL));
}

static void
test_offsets_and_stop(void)
{
	struct seen w = { .stop_at = (size_t)-1 };
	char err[256];
	int rc;

	rc = split("[ {} ,\n\"ab\", 3 ]", 3, 1 << 20, &w, err, sizeof(err));
	TEST("offsets are where each element starts",
	     rc == 0 && !strcmp(buf_str(&w.offs), "2,7,13"));
	buf_release(&w.text);
	buf_release(&w.offs);
	w.stop_at = 1;
	rc = split("[1,2,3]", 2, 1 << 20, &w, err, sizeof(err));
	TEST("a callback's non-zero value stops the feed", rc == 7 && w.n == 2);
	buf_release(&w.text);
	buf_release(&w.offs);
}

static void
test_limits(void)
{
	struct seen w = { .stop_at = (size_t)-1 };
	char err[256], deep[1200];
	int rc;
	size_t k = 0;

	rc = split("[\"12345678\",\"123456789\"]", 4, 10, &w, err, sizeof(err));
	TEST("an element at the cap passes, one over it fails",
	     rc == -1 && !strcmp(buf_str(&w.text), "\"12345678\"") &&
	     !strcmp(err, "at byte 12: element 1 is larger than 10 bytes"));
	buf_release(&w.text);
	buf_release(&w.offs);
	rc = split("[\"123456789012\"]", 100, 10, &w, err, sizeof(err));
	TEST("also when it lies in one piece", rc == -1 && w.n == 0);
	buf_release(&w.text);
	buf_release(&w.offs);
	deep[k++] = '[';
	for (int i = 0; i < JSON_MAX_DEPTH + 1; i++)
		deep[k++] = '[';
	deep[k] = '\0';
	rc = split(deep, 64, 1 << 20, &w, err, sizeof(err));
	TEST("nesting deeper than json_parse takes is refused early",
	     rc == -1 && strstr(err, "nested deeper than 512 levels"));
	buf_release(&w.text);
	buf_release(&w.offs);
}

/* Every element of a valid document, split, parses to what the whole
 * document's parse has at that index. */
static void
test_agrees_with_parse(void)
{
	const char *doc = "[{\"id\":\"x\",\"conversations\":[{\"from\":\"human\","
			  "\"value\":\"a \\\"quoted\\\" ] } [ {\"}]},\"\\u00e9\",[[],{}],"
			  "-0.0e+1,{\"\":\"\\\\\"}]";
	struct json_doc *d = json_doc_new(), *e = json_doc_new();
	const struct json *whole = json_parse(d, doc, strlen(doc), NULL, 0);
	struct seen w = { .stop_at = (size_t)-1 };
	char err[256];
	int ok = whole && split(doc, 5, 1 << 20, &w, err, sizeof(err)) == 0 &&
		 w.n == whole->len;
	const char *p = buf_str(&w.text);

	for (size_t i = 0; ok && i < w.n; i++) {
		size_t n = strcspn(p, "|");
		struct buf a = BUF_INIT(BUF_NOMAX), b = BUF_INIT(BUF_NOMAX);
		struct jw jw;
		const struct json *v;

		/* '|' appears in no element of this document */
		json_doc_reset(e);
		v = json_parse(e, p, n, NULL, 0);
		ok = v != NULL;
		if (ok) {
			jw_init(&jw, &a, 0);
			jw_value(&jw, v);
			jw_init(&jw, &b, 0);
			jw_value(&jw, json_at(whole, i));
			ok = a.len == b.len && !memcmp(a.s, b.s, a.len);
		}
		buf_release(&a);
		buf_release(&b);
		p += n + (p[n] == '|');
	}
	TEST("the elements are the document's", ok);
	buf_release(&w.text);
	buf_release(&w.offs);
	json_doc_free(d);
	json_doc_free(e);
}

int
main(void)
{
	test_splits();
	test_offsets_and_stop();
	test_limits();
	test_agrees_with_parse();
	return TEST_DONE();
}
