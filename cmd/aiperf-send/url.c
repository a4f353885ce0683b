/* SPDX-License-Identifier: Apache-2.0 */
/* Base URLs (spec 6.1) and the table that keeps a multi-turn session on one URL. */
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

/* Sessions with turns still to come: correlation id → URL index. */
struct sess {
	struct sess *next;
	char *corr;
	size_t url;
};

#define SESS_BUCKETS 4096

static size_t
hash(const char *s)
{
	size_t h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h % SESS_BUCKETS;
}

/*
 * The URL for one request: round robin over new sessions, the same URL for
 * every later turn of a session (spec 5.8). first/last say whether this is
 * the session's first/last turn; single-turn sessions never enter the table.
 */
size_t
sess_url(struct sender *s, const char *corr, int first, int last)
{
	struct sess **tab = s->sess, **pp, *e;
	size_t n = s->o->nurls, u;

	if (n == 1)
		return 0;
	if (first && last)
		return s->url_rr++ % n;
	if (!tab)
		tab = s->sess = xcalloc(SESS_BUCKETS, sizeof(*tab));
	for (pp = &tab[hash(corr)]; (e = *pp); pp = &e->next)
		if (!strcmp(e->corr, corr))
			break;
	if (!e) {
		e = xcalloc(1, sizeof(*e));
		e->corr = xstrdup(corr);
		e->url = s->url_rr++ % n;
		e->next = NULL;
		*pp = e;
	}
	u = e->url;
	if (last) {
		*pp = e->next;
		free(e->corr);
		free(e);
	}
	return u;
}

void
sess_release(struct sender *s)
{
	struct sess **tab = s->sess;
	if (!tab)
		return;
	for (size_t i = 0; i < SESS_BUCKETS; i++)
		for (struct sess *e = tab[i], *n; e; e = n) {
			n = e->next;
			free(e->corr);
			free(e);
		}
	free(tab);
	s->sess = NULL;
}
