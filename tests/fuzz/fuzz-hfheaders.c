/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for the HF hub's response headers (lib/tok/hfhub: hfhub_meta_line). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tok/hfhub.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A value as kept: NUL-terminated in its field, no CR/LF, no edge blanks. */
static void
check_value(const char *v, size_t cap)
{
	size_t n = strnlen(v, cap);

	if (n == cap || strpbrk(v, "\r\n"))
		abort();
	if (n && (v[0] == ' ' || v[0] == '\t' || v[n - 1] == ' ' || v[n - 1] == '\t'))
		abort();
}

static int
starts(const char *p, size_t len, const char *name)
{
	size_t k = strlen(name);

	return len > k && p[k] == ':' && !strncasecmp(p, name, k);
}

/* The input split into lines as libcurl hands them over (each with its '\n'). */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hfhub_meta m;
	const char *p = (const char *)data, *end = p + size;
	int nresp = 0, linked_seen = 0, commit_seen = 0;

	memset(&m, 0, sizeof(m));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);

		if (len >= 5 && !memcmp(p, "HTTP/", 5))
			nresp++;
		else if (starts(p, len, "x-linked-etag"))
			linked_seen = 1;
		else if (starts(p, len, "x-repo-commit"))
			commit_seen = 1;
		hfhub_meta_line(&m, p, len);
		p += len;
	}
	check_value(m.commit, sizeof(m.commit));
	check_value(m.etag, sizeof(m.etag));
	if (m.nresp != nresp || (m.linked && !linked_seen) || (m.commit[0] && !commit_seen))
		abort();
	return 0;
}
