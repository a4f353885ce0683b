/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/hub/rowmedia: the media cell forms, base64, a row's {"src"} cells fetched inline, hostile cells. */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "hub/rowmedia.h"
#include "json/json.h"
#include "test.h"
#include "util.h"

static char err[1024];

static enum rowmedia_kind
kind_of(const char *s, struct rowmedia_cell *c)
{
	static struct json_doc *doc;
	const struct json *v;

	if (!doc)
		doc = json_doc_new();
	json_doc_reset(doc);
	v = json_parse(doc, s, strlen(s), err, sizeof(err));
	return rowmedia_cell_of(v, c);
}

static void
test_cells(void)
{
	struct rowmedia_cell c;

	TEST("cell: HF bytes", kind_of("{\"bytes\":\"AAEC\",\"path\":\"a.png\"}", &c) ==
	     ROWMEDIA_BYTES && c.b64len == 4 && !strcmp(c.path, "a.png"));
	TEST("cell: bytes without path", kind_of("{\"bytes\":\"AAEC\"}", &c) ==
	     ROWMEDIA_BYTES && !c.path);
	TEST("cell: path only (bytes null)", kind_of("{\"bytes\":null,\"path\":\"a.png\"}",
						     &c) == ROWMEDIA_PATH);
	TEST("cell: empty bytes, path", kind_of("{\"bytes\":\"\",\"path\":\"a\"}", &c) ==
	     ROWMEDIA_PATH);
	TEST("cell: viewer image", kind_of("{\"src\":\"https://x/i.jpg?Expires=1\","
					   "\"height\":2,\"width\":3}", &c) ==
	     ROWMEDIA_SRC && c.srclen == 25 && !c.type);
	TEST("cell: viewer audio source", kind_of("{\"src\":\"https://x/a.wav\","
						  "\"type\":\"audio/wav\"}", &c) ==
	     ROWMEDIA_SRC && !strcmp(c.type, "audio/wav"));
	TEST("cell: a URL string", kind_of("\"https://x/v.mp4\"", &c) == ROWMEDIA_STRING);
	TEST("cell: empty string", kind_of("\"\"", &c) == ROWMEDIA_NONE);
	TEST("cell: null", kind_of("null", &c) == ROWMEDIA_NONE);
	TEST("cell: a number", kind_of("3", &c) == ROWMEDIA_NONE);
	TEST("cell: bytes a number", kind_of("{\"bytes\":3,\"path\":\"a\"}", &c) ==
	     ROWMEDIA_NONE);
	TEST("cell: src not a string", kind_of("{\"src\":[1]}", &c) == ROWMEDIA_NONE);
	TEST("cell: a list is none (the caller walks it)", kind_of("[{\"src\":\"u\"}]", &c) ==
	     ROWMEDIA_NONE);
	TEST("cell: NULL", rowmedia_cell_of(NULL, &c) == ROWMEDIA_NONE);
}

static int
decodes(const char *s, const char *want, size_t wantlen)
{
	unsigned char *p;
	size_t n;
	int ok;

	if (rowmedia_b64_decode(s, strlen(s), 1 << 20, &p, &n, err, sizeof(err)) < 0)
		return 0;
	ok = n == wantlen && !memcmp(p, want, n);
	free(p);
	return ok;
}

static int
fails(const char *s, size_t max, const char *msg)
{
	unsigned char *p = (unsigned char *)"x";
	size_t n = 9;

	err[0] = '\0';
	return rowmedia_b64_decode(s, strlen(s), max, &p, &n, err, sizeof(err)) < 0 &&
	       !p && !n && strstr(err, msg);
}

static void
test_b64(void)
{
	TEST("b64: empty", decodes("", "", 0));
	TEST("b64: padded", decodes("aGk=", "hi", 2));
	TEST("b64: unpadded", decodes("aGk", "hi", 2));
	TEST("b64: two pads", decodes("aA==", "h", 1));
	TEST("b64: whole groups", decodes("AP8A", "\0\377\0", 3));
	TEST("b64: + and /", decodes("+/+/", "\373\377\277", 3));
	TEST("b64: a bad character, its offset", fails("aG*k", 99, "offset 2"));
	TEST("b64: white space is not allowed", fails("aG k", 99, "offset 2"));
	TEST("b64: a length of 4n+1", fails("aGkhY", 99, "not a valid length"));
	TEST("b64: padding inside", fails("aG=k", 99, "after the padding at offset 3"));
	TEST("b64: padding with a bad length", fails("aGk==", 99, "padding"));
	TEST("b64: three pads", fails("a===", 99, "too much padding"));
	TEST("b64: over the cap", fails("aGVsbG8=", 4, "more than 4 bytes"));
	TEST("b64: at the cap", decodes("aGVsbG8=", "hello", 5));
}

/* The fake fetcher: "bytes of URL", or failure for a URL with "bad". */
static int calls;
static int
fake_fetch(void *ud, const char *url, unsigned char **out, size_t *n, char *e,
	   size_t elen)
{
	(void)ud;
	calls++;
	if (strstr(url, "bad"))
		return util_seterr(e, elen, "HTTP 404");
	*out = (unsigned char *)xstrdup("hi");
	*n = 2;
	return 0;
}

static int
rewrites(const char *row, const char *const *cols, const char *want)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	int rc = rowmedia_rewrite(row, strlen(row), cols, fake_fetch, NULL, &b, err,
				  sizeof(err));
	int ok = want ? rc == 1 && !strcmp(buf_str(&b), want) : rc == 0 && !b.len;

	if (!ok)
		printf("# got rc %d: %s (%s)\n", rc, buf_str(&b), err);
	buf_release(&b);
	return ok;
}

static void
test_rewrite(void)
{
	const char *img[] = { "image", NULL }, *imgs[] = { "images", "audio", NULL };
	struct buf b = BUF_INIT(BUF_NOMAX);
	const char *row;

	TEST("rewrite: an image src, the query dropped from the name",
	     rewrites("{\"q\": \"x\", \"image\": {\"src\": \"http://h/a/0/1.jpg?Expires=9&S=k\","
		      " \"height\": 1, \"width\": 1}, \"n\": 1.50}", img,
		      "{\"q\":\"x\",\"image\":{\"bytes\":\"aGk=\",\"path\":\"1.jpg\"},\"n\":1.50}"));
	TEST("rewrite: a list of images, an audio's sources (the first)",
	     rewrites("{\"images\": [{\"src\": \"http://h/i0.png\"}, null, {\"bytes\": \"AA\"}],"
		      " \"audio\": [{\"src\": \"http://h/a.wav\", \"type\": \"audio/wav\"},"
		      " {\"src\": \"http://h/a.mp3\", \"type\": \"audio/mpeg\"}]}", imgs,
		      "{\"images\":[{\"bytes\":\"aGk=\",\"path\":\"i0.png\"},null,{\"bytes\":\"AA\"}],"
		      "\"audio\":{\"bytes\":\"aGk=\",\"path\":\"a.wav\"}}"));
	TEST("rewrite: a list of lists", rewrites("{\"images\": [[{\"src\": \"u/x\"}]]}", imgs,
						  "{\"images\":[[{\"bytes\":\"aGk=\",\"path\":\"x\"}]]}"));
	calls = 0;
	TEST("rewrite: deeper lists are left", rewrites("{\"images\": [[[{\"src\": \"u\"}]]]}",
							imgs, NULL) && !calls);
	TEST("rewrite: other columns are not fetched",
	     rewrites("{\"other\": {\"src\": \"http://h/x\"}}", img, NULL) && !calls);
	TEST("rewrite: HF form already: nothing to do",
	     rewrites("{\"image\": {\"bytes\": \"aGk=\", \"path\": \"a\"}}", img, NULL));
	row = "{\"image\": {\"src\": \"http://h/bad.png?Signature=secret\"}}";
	TEST("rewrite: a failed fetch names column and URL, not its query",
	     rowmedia_rewrite(row, strlen(row), img, fake_fetch, NULL, &b, err,
			      sizeof(err)) < 0 &&
	     strstr(err, "column 'image': cannot fetch 'http://h/bad.png': HTTP 404") &&
	     !strstr(err, "secret") && !b.len);
	row = "[1]";
	TEST("rewrite: not an object", rowmedia_rewrite(row, 3, img, fake_fetch, NULL, &b,
							err, sizeof(err)) < 0 &&
	     strstr(err, "JSON object"));
	row = "{\"image\": ";
	TEST("rewrite: not JSON", rowmedia_rewrite(row, strlen(row), img, fake_fetch, NULL,
						   &b, err, sizeof(err)) < 0);
	buf_release(&b);
}

static void
test_bytes(void)
{
	struct rowmedia_cell c;
	unsigned char *p;
	size_t n;

	kind_of("{\"bytes\":\"aGk=\",\"path\":\"a\"}", &c);
	TEST("bytes: decoded", rowmedia_bytes(&c, &p, &n, err, sizeof(err)) == 0 &&
	     n == 2 && !memcmp(p, "hi", 2));
	free(p);
	kind_of("{\"src\":\"u\"}", &c);
	TEST("bytes: a src cell has none", rowmedia_bytes(&c, &p, &n, err, sizeof(err)) < 0);
}

int
main(void)
{
	test_cells();
	test_b64();
	test_rewrite();
	test_bytes();
	return TEST_DONE();
}
