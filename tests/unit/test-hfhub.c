/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for hfhub_meta_line: the hub's response headers, as libcurl hands them over. */
#include "tok/hfhub.h"

#include <string.h>

#include "test.h"

static void
feed(struct hfhub_meta *m, const char *text, size_t n)
{
	const char *p = text, *end = text + n;

	memset(m, 0, sizeof(*m));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
		hfhub_meta_line(m, p, len);
		p += len;
	}
}

#define FEED(m, lit) feed((m), (lit), sizeof(lit) - 1)

int
main(void)
{
	struct hfhub_meta m;

	FEED(&m, "HTTP/1.1 302 Found\r\nX-Repo-Commit: abc123\r\n"
		 "X-Linked-Etag: \"linked\"\r\nETag: \"first\"\r\n\r\n"
		 "HTTP/1.1 200 OK\r\nETag: \"cdn\"\r\nX-Repo-Commit: other\r\n\r\n");
	TEST("two responses", m.nresp == 2);
	TEST_STR("the first X-Repo-Commit wins", m.commit, "abc123");
	TEST_STR("X-Linked-Etag beats any ETag", m.etag, "\"linked\"");
	TEST("linked", m.linked == 1);

	FEED(&m, "HTTP/2 200\r\netag:   \"w/ spaced\"  \t\r\n");
	TEST_STR("the first response's ETag, blanks trimmed", m.etag, "\"w/ spaced\"");
	FEED(&m, "HTTP/2 302\r\nLocation: x\r\n\r\nHTTP/2 200\r\nETag: \"late\"\r\n");
	TEST_STR("a later response's ETag is not the hub's", m.etag, "");

	FEED(&m, "HTTP/1.1 200 OK\r\nX-Repo-Commit: "
		 "0123456789012345678901234567890123456789012345678901234567890123456789abcdefghij\r\n");
	TEST_STR("a commit too long for its field is empty, not cut", m.commit, "");
	FEED(&m, "HTTP/1.1 200 OK\r\nETag: \"a\0b\"\r\n");
	TEST_STR("a value holding a NUL is empty", m.etag, "");
	FEED(&m, "HTTP/1.1 200 OK\r\nETagX: nope\r\nX-Repo-Commitment: no\r\n");
	TEST("names match whole", !m.etag[0] && !m.commit[0]);
	return TEST_DONE();
}
