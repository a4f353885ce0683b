/* SPDX-License-Identifier: Apache-2.0 */
/* Base URLs (spec 6.1): normalizing --url and joining it with a path. */
#include "send.h"

#include <string.h>
#include "util.h"

/* "host:8000/" → "http://host:8000": scheme added, trailing '/' removed. */
char *
url_base(const char *arg)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	if (!strstr(arg, "://"))
		buf_addstr(&b, "http://");
	buf_addstr(&b, arg);
	while (b.len && b.s[b.len - 1] == '/')
		b.s[--b.len] = '\0';
	return buf_detach(&b, NULL);
}

/* base + path, keeping base's query after the path and dropping a doubled "v1/". */
char *
url_join(const char *base, const char *path)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	const char *q = strchr(base, '?');
	size_t blen = q ? (size_t)(q - base) : strlen(base);

	buf_grow(&b, blen + (path ? strlen(path) : 0) + (q ? strlen(q) : 0) + 2);
	while (blen && base[blen - 1] == '/')
		blen--;
	buf_add(&b, base, blen);
	if (path && *path) {
		while (*path == '/')
			path++;
		if (blen >= 3 && !memcmp(base + blen - 3, "/v1", 3) &&
		    !strncmp(path, "v1/", 3))
			path += 3;
		buf_addch(&b, '/');
		buf_addstr(&b, path);
	}
	if (q)
		buf_addstr(&b, q);
	return buf_detach(&b, NULL);
}
