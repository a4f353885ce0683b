/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/hub: the viewer's page parser, hostile pages, the backoff, names, the cache on disk, the environment. */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "hub/rowcache.h"
#include "hub/rowpage.h"
#include "hub/rows.h"
#include "hub/viewer.h"
#include "test.h"
#include "util.h"

static char err[1024];

/* Parse s at offset; returns rowpage_parse()'s result, the page in *p. */
static int
parse(const char *s, uint64_t offset, struct rowpage *p)
{
	err[0] = '\0';
	return rowpage_parse(s, strlen(s), offset, p, err, sizeof(err));
}

static int
row_is(const struct rowpage *p, size_t i, const char *want)
{
	return i < p->n && p->len[i] == strlen(want) &&
	       !memcmp(p->row[i], want, p->len[i]);
}

static void
test_page(void)
{
	struct rowpage p;
	const char *page =
		"{\"features\":[{\"feature_idx\":0,\"name\":\"q\"}],\"rows\":["
		"{\"row_idx\":100,\"row\":{\"q\":\"a\\\"}\",\"n\":1.50},\"truncated_cells\":[]},"
		" { \"truncated_cells\" : [ ] , \"row\" : {\"z\":[1,{\"}\":\"]\"}],\"a\":null} ,"
		"\"row_idx\" : 101 }],\"num_rows_total\":102,\"partial\":false}";

	TEST("page: parsed", parse(page, 100, &p) == 0);
	TEST("page: 2 rows, total 102", p.n == 2 && p.total == 102);
	TEST("page: row text as served (escapes, number text)",
	     row_is(&p, 0, "{\"q\":\"a\\\"}\",\"n\":1.50}"));
	TEST("page: row text with brackets in strings, any member order",
	     row_is(&p, 1, "{\"z\":[1,{\"}\":\"]\"}],\"a\":null}"));
	rowpage_release(&p);
	TEST("page: empty rows past the end",
	     parse("{\"rows\":[],\"num_rows_total\":5}", 5, &p) == 0 && p.n == 0 &&
	     p.total == 5);
	rowpage_release(&p);
	TEST("page: an escaped key \"row\" is the row",
	     parse("{\"rows\":[{\"row_idx\":0,\"\\u0072ow\":{\"k\":1}}],"
		   "\"num_rows_total\":1}", 0, &p) == 0 && row_is(&p, 0, "{\"k\":1}"));
	rowpage_release(&p);
	TEST("page: a duplicate \"row\": the last, as the tree has it",
	     parse("{\"rows\":[{\"row\":{\"a\":1},\"row_idx\":0,\"row\":{\"b\":2}}],"
		   "\"num_rows_total\":1}", 0, &p) == 0 && row_is(&p, 0, "{\"b\":2}"));
	rowpage_release(&p);
}

/* Each hostile page fails with a message holding want. */
static void
hostile(const char *name, const char *page, uint64_t offset, const char *want)
{
	struct rowpage p;
	int rc = parse(page, offset, &p);

	TEST(name, rc < 0 && strstr(err, want) && p.n == 0 && !p.row);
	if (rc == 0 || !strstr(err, want))
		printf("#   err '%s'\n", err);
}

static void
test_hostile(void)
{
	hostile("hostile: not JSON", "<html>502 Bad Gateway</html>", 0, "not JSON");
	hostile("hostile: empty", "", 0, "not JSON");
	hostile("hostile: truncated", "{\"rows\":[{\"row_idx\":0,\"row\":{", 0, "not JSON");
	hostile("hostile: an array", "[]", 0, "not a JSON object");
	hostile("hostile: no num_rows_total", "{\"rows\":[]}", 0, "num_rows_total");
	hostile("hostile: num_rows_total a string",
		"{\"rows\":[],\"num_rows_total\":\"5\"}", 0, "num_rows_total");
	hostile("hostile: num_rows_total negative",
		"{\"rows\":[],\"num_rows_total\":-1}", 0, "num_rows_total");
	hostile("hostile: num_rows_total huge",
		"{\"rows\":[],\"num_rows_total\":123456789012345678901234567890}", 0,
		"num_rows_total");
	hostile("hostile: num_rows_total a fraction",
		"{\"rows\":[],\"num_rows_total\":1.5}", 0, "num_rows_total");
	hostile("hostile: rows not an array",
		"{\"rows\":{\"row_idx\":0},\"num_rows_total\":1}", 0, "not an array");
	hostile("hostile: rows missing", "{\"num_rows_total\":1}", 0, "not an array");
	hostile("hostile: a row not an object",
		"{\"rows\":[1],\"num_rows_total\":1}", 0, "row 0: not a JSON object");
	hostile("hostile: row not an object",
		"{\"rows\":[{\"row_idx\":0,\"row\":[1]}],\"num_rows_total\":1}", 0,
		"\"row\" is not a JSON object");
	hostile("hostile: row missing",
		"{\"rows\":[{\"row_idx\":0}],\"num_rows_total\":1}", 0,
		"\"row\" is not a JSON object");
	hostile("hostile: wrong row_idx",
		"{\"rows\":[{\"row_idx\":1,\"row\":{}}],\"num_rows_total\":2}", 0,
		"row_idx is not 0");
	hostile("hostile: row_idx not following the offset",
		"{\"rows\":[{\"row_idx\":0,\"row\":{}}],\"num_rows_total\":200}", 100,
		"row_idx is not 100");
	hostile("hostile: row_idx huge",
		"{\"rows\":[{\"row_idx\":1e400,\"row\":{}}],\"num_rows_total\":1}", 0,
		"row_idx");
	hostile("hostile: row_idx negative",
		"{\"rows\":[{\"row_idx\":-0,\"row\":{}},{\"row_idx\":-1,\"row\":{}}],"
		"\"num_rows_total\":2}", 0, "row 1: row_idx");
	hostile("hostile: a cut cell names the column",
		"{\"rows\":[{\"row_idx\":0,\"row\":{\"q\":\"ab\"},"
		"\"truncated_cells\":[\"q\\n\\u0000x\"]}],\"num_rows_total\":1}", 0,
		"column 'q??x'");
	hostile("hostile: truncated_cells not an array",
		"{\"rows\":[{\"row_idx\":0,\"row\":{},\"truncated_cells\":\"q\"}],"
		"\"num_rows_total\":1}", 0, "truncated_cells is not an array");
	hostile("hostile: data after the object",
		"{\"rows\":[],\"num_rows_total\":0} {}", 0, "not JSON");
}

static void
test_too_many(void)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct rowpage p;

	buf_addstr(&b, "{\"num_rows_total\":1000,\"rows\":[");
	for (int i = 0; i <= ROWPAGE_MAX_ROWS; i++)
		buf_addf(&b, "%s{\"row_idx\":%d,\"row\":{}}", i ? "," : "", i);
	buf_addstr(&b, "]}");
	TEST("hostile: more than 100 rows in a page",
	     rowpage_parse(b.s, b.len, 0, &p, err, sizeof(err)) < 0 &&
	     strstr(err, "more than 100"));
	buf_release(&b);
}

static void
test_backoff(void)
{
	TEST("backoff: doubles", viewer_backoff_ms(0, 1000, -1) == 1000 &&
	     viewer_backoff_ms(1, 1000, -1) == 2000 &&
	     viewer_backoff_ms(3, 1000, -1) == 8000);
	TEST("backoff: capped", viewer_backoff_ms(40, 1000, -1) == VIEWER_WAIT_MAX_MS);
	TEST("backoff: Retry-After honoured", viewer_backoff_ms(5, 1000, 3) == 3000 &&
	     viewer_backoff_ms(0, 1000, 0) == 0);
	TEST("backoff: Retry-After capped",
	     viewer_backoff_ms(0, 1000, 86400) == VIEWER_WAIT_MAX_MS);
}

static void
test_names(void)
{
	char *p;

	TEST("names: ids", rows_valid_part("cais/mmlu", 1) &&
	     rows_valid_part("gsm8k", 1) && !rows_valid_part("../x", 1) &&
	     !rows_valid_part("a/b/c", 1) && !rows_valid_part("/a", 1) &&
	     !rows_valid_part("a/", 1) && !rows_valid_part("a/.b", 1) &&
	     !rows_valid_part("a b", 1) && !rows_valid_part("", 1));
	TEST("names: config and split", rows_valid_part("abstract_algebra", 0) &&
	     !rows_valid_part("a/b", 0) && !rows_valid_part("..", 0) &&
	     !rows_valid_part(".x", 0) && !rows_valid_part("x..y", 0));
	p = rows_path("R", "o/d", "c", "s");
	TEST_STR("names: the layout", p, "R/o/d/c/s.jsonl");
	free(p);
	TEST("names: no path for a bad part", !rows_path("R", "o/d", "..", "s"));
}

static void
test_cache(void)
{
	char tmpl[] = "/tmp/test-hubrows-XXXXXX", *root = mkdtemp(tmpl), *p;
	struct rows r = { 0 }, back;
	int fd;

	rows_add(&r, "{\"a\":1}", 7);
	rows_add(&r, "{\"b\":2}", 7);
	TEST("cache: absent", rowcache_open(root, "o/d", "c", "s", err, sizeof(err)) == -2);
	TEST("cache: stored", rowcache_store(root, "o/d", "c", "s", &r, err, sizeof(err)) == 0);
	p = rows_path(root, "o/d", "c", "s");
	TEST("cache: read back", rows_read_file(p, &back, 0, err, sizeof(err)) == 0 &&
	     back.n == 2 && !strcmp(back.v[1], "{\"b\":2}"));
	rows_free(&back);
	fd = rowcache_open(root, "o/d", "c", "s", err, sizeof(err));
	TEST("cache: opened", fd >= 0);
	if (fd >= 0)
		close(fd);
	unlink(p);
	TEST("cache: a symlink is not followed", symlink("/etc/passwd", p) == 0 &&
	     rowcache_open(root, "o/d", "c", "s", err, sizeof(err)) == -1 &&
	     strstr(err, "never followed"));
	TEST("cache: nor replaced", rowcache_store(root, "o/d", "c", "s", &r, err,
						   sizeof(err)) == -1);
	unlink(p);
	TEST("cache: a FIFO is not opened", mkfifo(p, 0600) == 0 &&
	     rowcache_open(root, "o/d", "c", "s", err, sizeof(err)) == -1 &&
	     rowcache_store(root, "o/d", "c", "s", &r, err, sizeof(err)) == -1);
	unlink(p);
	free(p);
	p = xstrfmt("%s/o/d/c", root);
	rmdir(p);
	TEST("cache: a linked folder is not followed", symlink("/tmp", p) == 0 &&
	     rowcache_store(root, "o/d", "c", "s", &r, err, sizeof(err)) == -1 &&
	     rowcache_open(root, "o/d", "c", "s", err, sizeof(err)) == -1);
	unlink(p);
	free(p);
	p = xstrfmt("rm -rf '%s'", root);
	if (system(p) != 0)
		printf("# cannot remove %s\n", root);
	free(p);
	rows_free(&r);
}

static void
test_env(void)
{
	struct rows_src src;
	struct rows_env e;

	setenv("AIPERF_CACHE_DIR", "/c", 1);
	setenv("HF_TOKEN", " tok \n", 1);
	setenv("AIPERF_HUB_ROWS_URL", "http://h:1//", 1);
	setenv("HF_DATASETS_OFFLINE", "yes", 1);
	unsetenv("HF_HUB_OFFLINE");
	rows_src_env(&src, &e);
	TEST_STR("env: cache", src.cache, "/c/datasets");
	TEST_STR("env: token", src.token, "tok");
	TEST_STR("env: endpoint", src.endpoint, "http://h:1");
	TEST("env: offline", src.offline && !src.dir);
	unsetenv("AIPERF_CACHE_DIR");
	unsetenv("HF_TOKEN");
	unsetenv("AIPERF_HUB_ROWS_URL");
	unsetenv("HF_DATASETS_OFFLINE");
	setenv("XDG_CACHE_HOME", "/x", 1);
	setenv("HF_HOME", "/nonexistent", 1);
	rows_src_env(&src, &e);
	TEST_STR("env: XDG cache", src.cache, "/x/aiperf/datasets");
	TEST("env: no token, online, default endpoint",
	     !src.token && !src.offline && !src.endpoint);
}

static void
test_get(void)
{
	struct rows_src src = { .offline = 1 };
	struct rows r;

	TEST("get: a bad name", rows_get(&src, "../x", "c", "s", &r, err, sizeof(err)) < 0 &&
	     strstr(err, "not a valid"));
	TEST("get: offline, no cache", rows_get(&src, "o/d", "c", "s", &r, err,
						sizeof(err)) < 0 && strstr(err, "offline"));
	TEST("get_file: not NAME.jsonl", rows_get_file(&src, "o/d", NULL, "x.json", &r,
						       err, sizeof(err)) < 0);
	TEST("get_file: a folder in the name", rows_get_file(&src, "o/d", NULL,
							     "a/x.jsonl", &r, err,
							     sizeof(err)) < 0);
}

static int
parse_rows(const char *s, size_t n, struct rows *r, size_t max)
{
	err[0] = '\0';
	return rows_parse(s, n, "f", r, max, err, sizeof(err));
}

static void
test_parse(void)
{
	struct rows r;
	const char nul[] = "{\"a\":1}\n\0\n";

	TEST("parse: rows, blank lines and CRLF ends", parse_rows(
	     "{\"a\":1}\r\n\n  \t\n{\"b\":[2]}", 23, &r, 0) == 0 && r.n == 2 &&
	     !strcmp(r.v[0], "{\"a\":1}") && !strcmp(r.v[1], "{\"b\":[2]}"));
	rows_free(&r);
	TEST("parse: empty text, no rows", parse_rows("", 0, &r, 0) == 0 && r.n == 0);
	TEST("parse: an array is no row", parse_rows("{}\n[1]\n", 8, &r, 0) < 0 &&
	     strstr(err, "f:2: a row must be a JSON object") && r.n == 0);
	TEST("parse: invalid JSON, its line", parse_rows("{}\n{}\n{\"a\":", 12, &r, 0) < 0 &&
	     strstr(err, "f:3: "));
	TEST("parse: a NUL byte", parse_rows(nul, sizeof(nul) - 1, &r, 0) < 0 &&
	     strstr(err, "f:2"));
	TEST("parse: two values on a line", parse_rows("{} {}", 5, &r, 0) < 0);
	TEST("parse: a string is no row", parse_rows("\"x\"", 3, &r, 0) < 0);
	TEST("parse: the byte cap", parse_rows("{\"a\":1}\n{\"b\":2}\n", 16, &r, 10) < 0 &&
	     strstr(err, "more than 10 bytes"));
}

/* A file of rows r0 .. r(n-1) at path, the folders made. */
static void
write_rows(const char *root, const char *split, int n)
{
	struct rows r = { 0 };
	char row[32];

	for (int i = 0; i < n; i++) {
		int k = snprintf(row, sizeof(row), "{\"i\":%d}", i);

		rows_add(&r, row, (size_t)k);
	}
	if (rowcache_store(root, "o/d", "c", split, &r, err, sizeof(err)) < 0)
		printf("# %s\n", err);
	rows_free(&r);
}

static void
test_prefix(void)
{
	char tmpl[] = "/tmp/test-hubrows-XXXXXX", *root = mkdtemp(tmpl), *p;
	struct rows_src src = { .offline = 1, .max_rows = 3 };
	struct rows r;

	write_rows(root, "s", 5);
	src.dir = root;
	TEST("prefix: a folder's first rows, more there", rows_get(&src, "o/d", "c", "s", &r,
	     err, sizeof(err)) == 0 && r.n == 3 && r.prefix && !strcmp(r.v[2], "{\"i\":2}"));
	rows_free(&r);
	src.max_rows = 5;
	TEST("prefix: all of them, no more", rows_get(&src, "o/d", "c", "s", &r, err,
	     sizeof(err)) == 0 && r.n == 5 && !r.prefix);
	rows_free(&r);
	src.dir = NULL;
	src.cache = root;
	src.max_rows = 2;
	TEST("prefix: the whole split in the cache, its first rows", rows_get(&src, "o/d", "c",
	     "s", &r, err, sizeof(err)) == 0 && r.n == 2 && r.prefix &&
	     !strcmp(r.from, "cache"));
	rows_free(&r);
	write_rows(root, "t.head", 4);
	TEST("prefix: a head long enough", rows_get(&src, "o/d", "c", "t", &r, err,
	     sizeof(err)) == 0 && r.n == 2 && r.prefix);
	rows_free(&r);
	src.max_rows = 9;
	TEST("prefix: a head too short, offline: what there is", rows_get(&src, "o/d", "c",
	     "t", &r, err, sizeof(err)) == 0 && r.n == 4 && r.prefix);
	rows_free(&r);
	src.max_rows = 0;
	TEST("prefix: a head is not the whole split", rows_get(&src, "o/d", "c", "t", &r,
	     err, sizeof(err)) < 0 && strstr(err, "offline"));
	TEST("url: offline, from the cache", rows_get_url(&src, "http://127.0.0.1:1/x",
	     "o/d", "c", "s", &r, err, sizeof(err)) == 0 && r.n == 5);
	rows_free(&r);
	TEST("url: offline, not cached", rows_get_url(&src, "http://127.0.0.1:1/x",
	     "o/d", "c", "u", &r, err, sizeof(err)) < 0 && strstr(err, "offline"));
	src.offline = 0;
	src.retries = -1;
	TEST("url: nothing listening", rows_get_url(&src, "http://127.0.0.1:1/x",
	     "o/d", "c", "u", &r, err, sizeof(err)) < 0 && strstr(err, "127.0.0.1:1/x"));
	TEST("url: a bad name", rows_get_url(&src, "http://127.0.0.1:1/x", "o/../d", "c",
	     "u", &r, err, sizeof(err)) < 0 && strstr(err, "not a valid"));
	p = xstrfmt("rm -rf '%s'", root);
	if (system(p) != 0)
		printf("# cannot remove %s\n", root);
	free(p);
}

int
main(void)
{
	test_parse();
	test_prefix();
	test_page();
	test_hostile();
	test_too_many();
	test_backoff();
	test_names();
	test_cache();
	test_env();
	test_get();
	return TEST_DONE();
}
