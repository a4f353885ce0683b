/* SPDX-License-Identifier: Apache-2.0 */
/* An incremental HTTP/1.x request-head parser and chunked-body decoder for servers. */
#include "http/httpreq.h"

#include <string.h>

/* RFC 9110 tchar. */
static int
is_tchar(unsigned char c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9'))
		return 1;
	return c && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

int
httpreq_is(const char *tok, size_t len, const char *want)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!want[i] || lower((unsigned char)tok[i]) != lower((unsigned char)want[i]))
			return 0;
	return want[i] == '\0';
}

/* Find the next line in s[*pos..n): sets *len (without CR LF) and advances
 * *pos past the LF. Returns 0 when no LF is present yet. */
static int
next_line(const char *s, size_t n, size_t *pos, const char **line, size_t *len)
{
	const char *lf = memchr(s + *pos, '\n', n - *pos);

	if (!lf)
		return 0;
	*line = s + *pos;
	*len = (size_t)(lf - *line);
	if (*len && (*line)[*len - 1] == '\r')
		(*len)--;
	*pos = (size_t)(lf - s) + 1;
	return 1;
}

static int
fail(struct httpreq *r, int status)
{
	r->status = status;
	return -1;
}

static int
parse_request_line(struct httpreq *r, const char *l, size_t n)
{
	size_t i = 0, t;

	while (i < n && is_tchar((unsigned char)l[i]))
		i++;
	if (i == 0 || i >= n || l[i] != ' ')
		return fail(r, 400);
	r->method = l;
	r->method_len = i;
	t = ++i;
	while (i < n && (unsigned char)l[i] > ' ' && l[i] != 0x7f)
		i++;
	if (i == t || i >= n || l[i] != ' ')
		return fail(r, 400);
	r->target = l + t;
	r->target_len = i - t;
	const char *q = memchr(r->target, '?', r->target_len);
	r->path_len = q ? (size_t)(q - r->target) : r->target_len;
	i++;
	if (n - i != 8 || memcmp(l + i, "HTTP/", 5) || l[i + 6] != '.' ||
	    l[i + 5] < '0' || l[i + 5] > '9' || l[i + 7] < '0' || l[i + 7] > '9')
		return fail(r, 400);
	if (l[i + 5] != '1')
		return fail(r, 505);
	r->minor = l[i + 7] - '0';
	if (r->minor >= 1)
		r->flags |= HTTPREQ_KEEPALIVE;
	return 0;
}

static int
parse_length(struct httpreq *r, const char *v, size_t n)
{
	int64_t x = 0;
	size_t i;

	if (n == 0 || n > 18)
		return fail(r, 400);
	for (i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9')
			return fail(r, 400);
		x = x * 10 + (v[i] - '0');
	}
	if (r->content_length >= 0 && r->content_length != x)
		return fail(r, 400);
	r->content_length = x;
	return 0;
}

/* Connection: a comma-separated list of tokens. */
static void
parse_connection(struct httpreq *r, const char *v, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t j = i;
		while (j < n && v[j] != ',')
			j++;
		size_t a = i, b = j;
		while (a < b && (v[a] == ' ' || v[a] == '\t'))
			a++;
		while (b > a && (v[b - 1] == ' ' || v[b - 1] == '\t'))
			b--;
		if (httpreq_is(v + a, b - a, "close"))
			r->flags &= ~(unsigned)HTTPREQ_KEEPALIVE;
		else if (httpreq_is(v + a, b - a, "keep-alive"))
			r->flags |= HTTPREQ_KEEPALIVE;
		i = j + 1;
	}
}

static int
parse_field_value(struct httpreq *r, const char *name, size_t nlen,
		  const char *v, size_t n)
{
	if (httpreq_is(name, nlen, "content-length"))
		return parse_length(r, v, n);
	if (httpreq_is(name, nlen, "transfer-encoding")) {
		if (!httpreq_is(v, n, "chunked"))
			return fail(r, 501);
		r->flags |= HTTPREQ_CHUNKED;
	} else if (httpreq_is(name, nlen, "connection")) {
		parse_connection(r, v, n);
	} else if (httpreq_is(name, nlen, "expect")) {
		if (!httpreq_is(v, n, "100-continue"))
			return fail(r, 417);
		r->flags |= HTTPREQ_EXPECT;
	}
	return 0;
}

static int
parse_field(struct httpreq *r, const char *l, size_t n)
{
	size_t i = 0;

	while (i < n && is_tchar((unsigned char)l[i]))
		i++;
	if (i == 0 || i >= n || l[i] != ':')
		return fail(r, 400);	/* also rejects obs-fold lines */
	size_t a = i + 1, b = n;
	while (a < b && (l[a] == ' ' || l[a] == '\t'))
		a++;
	while (b > a && (l[b - 1] == ' ' || l[b - 1] == '\t'))
		b--;
	for (size_t k = a; k < b; k++)
		if ((unsigned char)l[k] < ' ' && l[k] != '\t')
			return fail(r, 400);
	return parse_field_value(r, l, i, l + a, b - a);
}

int
httpreq_parse_head(struct httpreq *r, const char *s, size_t n, size_t max_head)
{
	size_t pos = 0, len;
	const char *line;
	int got_start = 0;

	memset(r, 0, sizeof(*r));
	r->content_length = -1;
	while (next_line(s, n, &pos, &line, &len)) {
		if (pos > max_head)
			return fail(r, 431);
		if (!got_start) {
			if (len == 0 && pos <= 4)
				continue;	/* stray CRLF before a request */
			if (parse_request_line(r, line, len) < 0)
				return -1;
			got_start = 1;
		} else if (len == 0) {
			r->head_len = pos;
			if ((r->flags & HTTPREQ_CHUNKED) && r->content_length >= 0)
				return fail(r, 400);
			return 1;
		} else if (parse_field(r, line, len) < 0) {
			return -1;
		}
	}
	return n >= max_head ? fail(r, 431) : 0;
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = lower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Parse a chunk-size line: returns 1 with *size, 0 for more, -1 on error. */
static int
chunk_size(const char *s, size_t n, size_t *pos, size_t *size)
{
	const char *line;
	size_t len, i = 0;
	uint64_t x = 0;

	if (!next_line(s, n, pos, &line, &len))
		return n - *pos > 1024 ? -1 : 0;
	while (i < len && hexval((unsigned char)line[i]) >= 0) {
		if (i >= 15)
			return -1;
		x = x * 16 + (uint64_t)hexval((unsigned char)line[i++]);
	}
	if (i == 0 || (i < len && line[i] != ';' && line[i] != ' ' &&
		       line[i] != '\t'))
		return -1;
	*size = (size_t)x;
	return 1;
}

/* Skip trailer fields up to the empty line. */
static int
trailers(const char *s, size_t n, size_t *pos)
{
	const char *line;
	size_t len;

	for (;;) {
		if (!next_line(s, n, pos, &line, &len))
			return 0;
		if (len == 0)
			return 1;
	}
}

/* The data of one chunk and its line end: 1 done, 0 more, -1 bad. */
static int
chunk_data(const char *s, size_t n, size_t *pos, size_t size, struct buf *out)
{
	const char *e;
	size_t end = 1;

	if (size > out->max - out->len)
		return -1;
	if (n - *pos <= size)
		return 0;
	e = s + *pos + size;
	if (*e == '\r') {
		if (n - *pos - size < 2)
			return 0;
		if (e[1] != '\n')
			return -1;
		end = 2;
	} else if (*e != '\n') {
		return -1;
	}
	if (buf_add(out, s + *pos, size) < 0)
		return -1;
	*pos += size + end;
	return 1;
}

int
httpreq_dechunk(const char *s, size_t n, struct buf *out, size_t *used)
{
	size_t pos = 0, size = 0, start = out->len;
	int rc;

	for (;;) {
		rc = chunk_size(s, n, &pos, &size);
		if (rc == 1 && size == 0) {
			rc = trailers(s, n, &pos);
			if (rc == 1)
				break;
		} else if (rc == 1) {
			rc = chunk_data(s, n, &pos, size, out);
		}
		if (rc != 1) {
			out->len = start;
			if (out->s)
				out->s[start] = '\0';
			return rc;
		}
	}
	*used = pos;
	return 1;
}
