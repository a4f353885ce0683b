/* SPDX-License-Identifier: Apache-2.0 */
/* An incremental HTTP/1.x response parser for clients (RFC 9112 message framing). */
#include "http/h1.h"

#include <string.h>

enum {
	ST_STATUS, ST_HEADER, ST_BODY, ST_UNTIL_CLOSE, ST_CHUNK_SIZE,
	ST_CHUNK_DATA, ST_CHUNK_END, ST_TRAILER, ST_DONE, ST_ERROR,
};

/* Private flags: what the header fields said, applied at the head's end. */
enum { F_CLOSE = 1 << 8, F_KA = 1 << 9, F_TE = 1 << 10 };

#define MAX_CHUNK_LINE 4096

void
h1_init(struct h1 *h, size_t max_line, size_t max_head, h1_line_fn on_line,
	h1_body_fn on_body, void *ctx)
{
	memset(h, 0, sizeof(*h));
	h->max_line = max_line;
	h->max_head = max_head;
	h->on_line = on_line;
	h->on_body = on_body;
	h->ctx = ctx;
	/* room for the longest line either kind may have (chunk sizes too) */
	buf_init(&h->line, (max_line > MAX_CHUNK_LINE ? max_line : MAX_CHUNK_LINE) + 2);
	h1_reset(h);
}

void
h1_reset(struct h1 *h)
{
	h->state = ST_STATUS;
	h->flags = 0;
	h->status = 0;
	h->minor = 0;
	h->clen = -1;
	h->left = 0;
	h->head_bytes = 0;
	h->nbytes = 0;
	h->err = NULL;
	buf_reset(&h->line);
}

void
h1_release(struct h1 *h)
{
	buf_release(&h->line);
}

int
h1_started(const struct h1 *h)
{
	return h->nbytes > 0 || h->line.len > 0;
}

static int
fail(struct h1 *h, const char *why)
{
	h->err = why;
	return -1;
}

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int
eq_ci(const char *p, size_t n, const char *lit)
{
	size_t k = strlen(lit);

	if (n != k)
		return 0;
	for (size_t i = 0; i < k; i++)
		if (lower((unsigned char)p[i]) != lit[i])
			return 0;
	return 1;
}

static int
tchar(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* No control bytes but HTAB: NUL, bare CR, DEL and the rest are junk. */
static int
clean(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return 0;
	}
	return 1;
}

/*
 * The next line of p[0..n): 1 with lp and ll set (CR LF or LF stripped), 0
 * when p ended first (kept in h->line), -1 past cap. *used is what it took.
 */
static int
get_line(struct h1 *h, const char *p, size_t n, size_t cap, const char **lp,
	 size_t *ll, size_t *used)
{
	const char *nl = memchr(p, '\n', n);
	size_t take = nl ? (size_t)(nl - p) + 1 : n;

	*used = take;
	if (h->line.len + take > cap + 2)
		return fail(h, "line too long");
	if (!nl) {
		if (buf_add(&h->line, p, take) < 0)
			return fail(h, "line too long");
		return 0;
	}
	if (h->line.len) {
		if (buf_add(&h->line, p, take - 1) < 0)
			return fail(h, "line too long");
		*lp = h->line.s;
		*ll = h->line.len;
	} else {
		*lp = p;
		*ll = take - 1;
	}
	if (*ll && (*lp)[*ll - 1] == '\r')
		(*ll)--;
	if (*ll > cap)
		return fail(h, "line too long");
	return 1;
}

/* "HTTP/1.1 200 OK": version, three digits, an optional reason. */
static int
status_line(struct h1 *h, const char *p, size_t n)
{
	if (n < 12 || memcmp(p, "HTTP/1.", 7) || (p[7] != '0' && p[7] != '1') ||
	    p[8] != ' ')
		return fail(h, "malformed status line");
	int st = 0;
	for (int i = 9; i < 12; i++) {
		if (p[i] < '0' || p[i] > '9')
			return fail(h, "malformed status line");
		st = st * 10 + (p[i] - '0');
	}
	if (st < 100 || (n > 12 && p[12] != ' ') || !clean(p, n))
		return fail(h, "malformed status line");
	h->minor = p[7] - '0';
	h->status = st;
	h->state = ST_HEADER;
	return 0;
}

static void
trim(const char **v, size_t *n)
{
	while (*n && (**v == ' ' || **v == '\t'))
		(*v)++, (*n)--;
	while (*n && ((*v)[*n - 1] == ' ' || (*v)[*n - 1] == '\t'))
		(*n)--;
}

static int
content_length(struct h1 *h, const char *v, size_t n)
{
	int64_t len = 0;

	if (!n)
		return fail(h, "malformed Content-Length");
	for (size_t i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9')
			return fail(h, "malformed Content-Length");
		if (len > (INT64_MAX - 9) / 10)
			return fail(h, "Content-Length too large");
		len = len * 10 + (v[i] - '0');
	}
	if (h->clen >= 0 && h->clen != len)
		return fail(h, "conflicting Content-Length");
	h->clen = len;
	return 0;
}

/* Each comma-separated token of v, trimmed, to fn; for Connection and Transfer-Encoding. */
static void
tokens(struct h1 *h, const char *v, size_t n, int te)
{
	while (n) {
		const char *c = memchr(v, ',', n);
		size_t k = c ? (size_t)(c - v) : n;
		const char *t = v;
		size_t tn = k;
		trim(&t, &tn);
		if (te && tn) {
			if (eq_ci(t, tn, "chunked"))
				h->flags |= H1_CHUNKED;
			else
				h->flags = (h->flags & ~(unsigned)H1_CHUNKED) | F_TE;
		} else if (eq_ci(t, tn, "close")) {
			h->flags |= F_CLOSE;
		} else if (eq_ci(t, tn, "keep-alive")) {
			h->flags |= F_KA;
		}
		v += c ? k + 1 : k;
		n -= c ? k + 1 : k;
	}
}

static int
field(struct h1 *h, const char *p, size_t n, int trailer)
{
	size_t k = 0;

	if (p[0] == ' ' || p[0] == '\t')
		return fail(h, "obsolete line folding");
	while (k < n && tchar((unsigned char)p[k]))
		k++;
	if (k == 0 || k == n || p[k] != ':' || !clean(p, n))
		return fail(h, "malformed header line");
	if (trailer)
		return 0;
	const char *v = p + k + 1;
	size_t vn = n - k - 1;
	trim(&v, &vn);
	if (eq_ci(p, k, "content-length"))
		return content_length(h, v, vn);
	if (eq_ci(p, k, "transfer-encoding")) {
		h->flags &= ~(unsigned)F_TE;
		tokens(h, v, vn, 1);
		if (h->flags & F_TE)
			return fail(h, "unsupported transfer coding");
	} else if (eq_ci(p, k, "connection")) {
		tokens(h, v, vn, 0);
	}
	return 0;
}

/* The empty line: an interim response ends, or the body's framing is set. */
static int
head_end(struct h1 *h)
{
	unsigned ka = h->minor >= 1 ? !(h->flags & F_CLOSE) : !!(h->flags & F_KA);

	if (h->status < 200) {
		if (h->status == 101)
			return fail(h, "unexpected 101 Switching Protocols");
		h->state = ST_STATUS;
		h->flags = 0;
		h->clen = -1;
		h->head_bytes = 0;
		return 0;
	}
	h->flags = (h->flags & H1_CHUNKED) | H1_HEAD_DONE;
	if (ka)
		h->flags |= H1_KEEPALIVE;
	if (h->status == 204 || h->status == 304) {
		h->state = ST_DONE;
	} else if (h->flags & H1_CHUNKED) {
		if (h->clen >= 0)	/* both: chunked wins, and the connection goes */
			h->flags &= ~(unsigned)H1_KEEPALIVE;
		h->state = ST_CHUNK_SIZE;
	} else if (h->clen >= 0) {
		h->left = (uint64_t)h->clen;
		h->state = h->left ? ST_BODY : ST_DONE;
	} else {
		h->flags = (h->flags & ~(unsigned)H1_KEEPALIVE) | H1_UNTIL_CLOSE;
		h->state = ST_UNTIL_CLOSE;
	}
	if (h->state == ST_DONE)
		h->flags |= H1_DONE;
	return 0;
}

/* A line of the head, the chunk framing or the trailers. */
static int
line(struct h1 *h, const char *p, size_t n)
{
	switch (h->state) {
	case ST_STATUS:
		if (status_line(h, p, n) < 0)
			return -1;
		break;
	case ST_HEADER:
		if (n && field(h, p, n, 0) < 0)
			return -1;
		break;
	case ST_TRAILER:
		if (!n) {
			h->state = ST_DONE;
			h->flags |= H1_DONE;
			return 0;
		}
		return field(h, p, n, 1);
	default:
		return 0;
	}
	if (h->on_line && h->on_line(h->ctx, p, n) < 0) {
		h->flags |= H1_ABORTED;
		return fail(h, "stopped by the line callback");
	}
	return n || h->state != ST_HEADER ? 0 : head_end(h);
}

static int
chunk_size(struct h1 *h, const char *p, size_t n)
{
	uint64_t v = 0;
	size_t i = 0;

	for (; i < n; i++) {
		int c = lower((unsigned char)p[i]), d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else
			break;
		if (v > (uint64_t)INT64_MAX >> 4)
			return fail(h, "chunk size too large");
		v = v << 4 | (uint64_t)d;
	}
	if (i == 0)
		return fail(h, "malformed chunk size");
	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	if ((i < n && p[i] != ';') || !clean(p, n))
		return fail(h, "malformed chunk size");
	h->left = v;
	h->state = v ? ST_CHUNK_DATA : ST_TRAILER;
	h->head_bytes = 0;
	return 0;
}

static long
body(struct h1 *h, const char *p, size_t n)
{
	size_t k = n;

	if (h->state != ST_UNTIL_CLOSE && h->left < k)
		k = (size_t)h->left;
	if (h->on_body && h->on_body(h->ctx, p, k) < 0) {
		h->flags |= H1_ABORTED;
		return fail(h, "stopped by the body callback");
	}
	if (h->state == ST_UNTIL_CLOSE)
		return (long)k;
	h->left -= k;
	if (!h->left) {
		h->state = h->state == ST_BODY ? ST_DONE : ST_CHUNK_END;
		if (h->state == ST_DONE)
			h->flags |= H1_DONE;
	}
	return (long)k;
}

/* One step over a line or a run of body bytes: bytes used, or -1. */
static long
step(struct h1 *h, const char *p, size_t n)
{
	const char *lp;
	size_t ll, used;
	int head = h->state == ST_STATUS || h->state == ST_HEADER ||
		   h->state == ST_TRAILER;
	size_t cap = head ? h->max_line : MAX_CHUNK_LINE;

	if (h->state == ST_BODY || h->state == ST_CHUNK_DATA ||
	    h->state == ST_UNTIL_CLOSE)
		return body(h, p, n);
	int rc = get_line(h, p, n, cap, &lp, &ll, &used);
	if (rc < 0)
		return -1;
	if (head && (h->head_bytes += used) > h->max_head)
		return fail(h, "response head too large");
	if (rc == 0)
		return (long)used;
	if (h->state == ST_CHUNK_SIZE)
		rc = chunk_size(h, lp, ll);
	else if (h->state == ST_CHUNK_END && ll)
		rc = fail(h, "missing CRLF after chunk data");
	else if (h->state == ST_CHUNK_END)
		h->state = ST_CHUNK_SIZE;
	else
		rc = line(h, lp, ll);
	buf_reset(&h->line);
	return rc < 0 ? -1 : (long)used;
}

long
h1_feed(struct h1 *h, const char *p, size_t n)
{
	size_t off = 0;

	if (h->state == ST_ERROR)
		return -1;
	while (off < n && h->state != ST_DONE) {
		long k = step(h, p + off, n - off);
		if (k < 0) {
			h->state = ST_ERROR;
			return -1;
		}
		off += (size_t)k;
		h->nbytes += (uint64_t)k;
	}
	return (long)off;
}

int
h1_eof(struct h1 *h)
{
	switch (h->state) {
	case ST_DONE:
		return 0;
	case ST_UNTIL_CLOSE:
		h->state = ST_DONE;
		h->flags |= H1_DONE;
		return 0;
	case ST_ERROR:
		return -1;
	case ST_STATUS:
		if (!h1_started(h))
			return fail(h, "empty reply from server");
		/* fall through */
	case ST_HEADER:
		return fail(h, "connection closed in the response head");
	case ST_BODY:
		return fail(h, "transfer closed with bytes remaining to read");
	default:
		return fail(h, "transfer closed with outstanding read data remaining");
	}
}
