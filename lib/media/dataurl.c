/* SPDX-License-Identifier: Apache-2.0 */
/* data: URLs: base64 (OpenSSL's EVP_EncodeBlock), media type sniffed from content, URL-or-path inputs. */
#include <ctype.h>

#include <openssl/evp.h>
#include <unistd.h>

#include "buf.h"
#include "media/dataurl.h"
#include "util.h"

char *
dataurl_b64(const char *prefix, const void *bytes, size_t n)
{
	const unsigned char *p = bytes;
	size_t head = strlen(prefix), off = head;
	char *s;

	if (n > (size_t)1 << 31)
		die("media payload too large to encode (%zu bytes)", n);
	s = xmalloc(head + 4 * ((n + 2) / 3) + 1);
	memcpy(s, prefix, head);
	/* EVP_EncodeBlock takes an int length: chunks of 3 * 2^20 bytes */
	while (n > 0) {
		size_t k = n < (size_t)3 << 20 ? n : (size_t)3 << 20;

		off += (size_t)EVP_EncodeBlock((unsigned char *)s + off, p, (int)k);
		p += k;
		n -= k;
	}
	s[off] = '\0';
	return s;
}

char *
dataurl_encode(const char *mime, const unsigned char *p, size_t n)
{
	size_t len = strlen("data:") + strlen(mime) + strlen(";base64,") + 1;
	char *head = xmalloc(len), *s;

	snprintf(head, len, "data:%s;base64,", mime);
	s = dataurl_b64(head, p, n);
	free(head);
	return s;
}

const char *
dataurl_image_mime(const unsigned char *p, size_t n)
{
	if (n >= 8 && !memcmp(p, "\x89PNG\r\n\x1a\n", 8))
		return "image/png";
	if (n >= 3 && !memcmp(p, "\xff\xd8\xff", 3))
		return "image/jpeg";
	if (n >= 6 && (!memcmp(p, "GIF87a", 6) || !memcmp(p, "GIF89a", 6)))
		return "image/gif";
	if (n >= 12 && !memcmp(p, "RIFF", 4) && !memcmp(p + 8, "WEBP", 4))
		return "image/webp";
	if (n >= 2 && !memcmp(p, "BM", 2))
		return "image/bmp";
	if (n >= 4 && (!memcmp(p, "II*\0", 4) || !memcmp(p, "MM\0*", 4)))
		return "image/tiff";
	return NULL;
}

int
dataurl_is_url(const char *s)
{
	return !strncmp(s, "http://", 7) || !strncmp(s, "https://", 8) ||
	       !strncmp(s, "data:", 5);
}

char *
dataurl_image_field(const char *s, char *err, size_t errlen)
{
	FILE *f;
	int fd;
	unsigned char *p;
	size_t n = 0, cap = 1 << 16;
	const char *mime;
	char *url;

	if (dataurl_is_url(s))
		return xstrdup(s);
	/* a regular file only, its size checked first: a FIFO would block */
	if ((fd = util_openfile(s, DATAURL_FILE_MAX)) < 0 && errno == EFBIG) {
		snprintf(err, errlen, "image '%s': larger than %zu MiB", s,
			 DATAURL_FILE_MAX >> 20);
		return NULL;
	}
	if (fd < 0 || !(f = fdopen(fd, "rb"))) {
		snprintf(err, errlen, "image '%s': %s%s", s, util_strerror(errno),
			 errno == ENOENT ? " (not a file, nor an http(s) or data: URL)" : "");
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	p = xmalloc(cap);
	for (;;) {
		size_t k;

		if (n == cap) {
			if (cap >= DATAURL_FILE_MAX) {
				snprintf(err, errlen, "image '%s': larger than %zu MiB",
					 s, DATAURL_FILE_MAX >> 20);
				goto fail;
			}
			cap *= 2;
			p = xrealloc(p, cap + 1);
		}
		k = fread(p + n, 1, cap - n, f);
		n += k;
		if (k == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "image '%s': read error", s);
		goto fail;
	}
	if (!(mime = dataurl_image_mime(p, n))) {
		snprintf(err, errlen, "image '%s': not an image (PNG, JPEG, GIF, "
			 "WebP, BMP or TIFF)", s);
		goto fail;
	}
	fclose(f);
	url = dataurl_encode(mime, p, n);
	free(p);
	return url;
fail:
	fclose(f);
	free(p);
	return NULL;
}

/* A fast 128-bit fingerprint of b[0..len) (two multiply-xorshift lanes
 * over 8-byte words): the memo's key, never written anywhere. */
static void
fingerprint(const char *b, size_t len, uint64_t h[2])
{
	uint64_t x = 0x9e3779b97f4a7c15u ^ len, y = 0xc2b2ae3d27d4eb4fu + len, w;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		memcpy(&w, b + i, 8);
		x = (x ^ w) * 0xff51afd7ed558ccdu;
		x ^= x >> 32;
		y = (y + w) * 0xc4ceb9fe1a85ec53u;
		y ^= y >> 29;
	}
	for (w = 0; i < len; i++)
		w = w << 8 | (unsigned char)b[i];
	x = (x ^ w) * 0xff51afd7ed558ccdu;
	y = (y + w) * 0xc4ceb9fe1a85ec53u;
	h[0] = x ^ (x >> 33);
	h[1] = y ^ (y >> 31);
}

/* What a base64 run found: its fingerprint and, when the memo knows it,
 * its entry. */
struct run {
	uint64_t h[2];
	struct dataurl_memo_entry *e;
};

static struct dataurl_memo_entry *
memo_find(struct dataurl_memo *m, size_t len, const uint64_t h[2])
{
	for (size_t i = 0; i < DATAURL_MEMO_N; i++) {
		struct dataurl_memo_entry *e = &m->e[i];

		if (e->marker && e->len == len && e->h[0] == h[0] && e->h[1] == h[1])
			return e;
	}
	return NULL;
}

/*
 * The length of the base64 run at s up to the closing quote of s[0..n),
 * else 0. With a memo (m), the run up to the first quote is fingerprinted
 * first (r): one the memo holds was checked when it was added, so its
 * characters are not checked again.
 */
static size_t
b64_run(const char *s, size_t n, struct dataurl_memo *m, struct run *r)
{
	const char *q;
	size_t i = 0;

	r->e = NULL;
	if (m && (q = memchr(s, '"', n))) {
		fingerprint(s, (size_t)(q - s), r->h);
		if ((r->e = memo_find(m, (size_t)(q - s), r->h)))
			return (size_t)(q - s);
	}
	while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '+' ||
			 s[i] == '/' || s[i] == '='))
		i++;
	return i < n && s[i] == '"' ? i : 0;
}

/* The length of the data: URL at s (s[0..n) starting "data:") when it is
 * one, "data:<type>;base64,<b64>" up to the closing quote, else 0. */
static size_t
dataurl_span(const char *s, size_t n, size_t *b64, struct dataurl_memo *m,
	     struct run *r)
{
	size_t i = 5, k;

	while (i < n && (isalnum((unsigned char)s[i]) || strchr("/+.-", s[i])))
		i++;
	if (i == 5 || n - i < 8 || memcmp(s + i, ";base64,", 8))
		return 0;
	i += 8;
	*b64 = i;
	k = b64_run(s + i, n - i, m, r);
	return k ? i + k : 0;
}

/* Whether the string opening at s[q] is the value of a "data" key:
 * "data" then ':' before it, blanks allowed (input_audio's base64). */
static int
data_value(const char *s, size_t q)
{
	while (q > 0 && strchr(" \t\r\n", s[q - 1]))
		q--;
	if (q == 0 || s[--q] != ':')
		return 0;
	while (q > 0 && strchr(" \t\r\n", s[q - 1]))
		q--;
	return q >= 6 && !memcmp(s + q - 6, "\"data\"", 6) &&
	       (q == 6 || s[q - 7] != '\\');
}

/* The base64 b[0..len) as "<elided: N base64 chars, sha256 HEX>". */
static void
elide_new(struct buf *out, const char *b, size_t len)
{
	unsigned char *raw = xmalloc(len / 4 * 3 + 3), md[32];
	int k = EVP_DecodeBlock(raw, (const unsigned char *)b, (int)(len & ~(size_t)3));
	size_t pad = len >= 2 && b[len - 1] == '=' ? 1 + (b[len - 2] == '=') : 0;

	if (k >= 0 && (size_t)k >= pad &&
	    EVP_Digest(raw, (size_t)k - pad, md, NULL, EVP_sha256(), NULL)) {
		buf_addf(out, "<elided: %zu base64 chars, sha256 ", len);
		for (int j = 0; j < 32; j++)
			buf_addf(out, "%02x", md[j]);
		buf_addstr(out, ">");
	} else {
		buf_addf(out, "<elided: %zu base64 chars>", len);
	}
	free(raw);
}

/* elide_new() through memo m (NULL: none): a base64 run the memo knows
 * (r->e, found by b64_run) gets its marker again without being decoded
 * and hashed; a new one is added, the oldest entry making room. */
static void
elide(struct buf *out, const char *b, size_t len, struct dataurl_memo *m,
      const struct run *r)
{
	struct dataurl_memo_entry *e;
	size_t at = out->len;

	if (m && r->e) {
		m->hits++;
		buf_addstr(out, r->e->marker);
		return;
	}
	elide_new(out, b, len);
	if (!m)
		return;
	e = &m->e[m->next++ % DATAURL_MEMO_N];
	free(e->marker);
	*e = (struct dataurl_memo_entry){ .len = len, .h = { r->h[0], r->h[1] },
		.marker = xstrndup(out->s + at, out->len - at) };
}

void
dataurl_memo_release(struct dataurl_memo *m)
{
	for (size_t i = 0; i < DATAURL_MEMO_N; i++)
		free(m->e[i].marker);
	memset(m, 0, sizeof(*m));
}

void
dataurl_elide_json(struct buf *out, const char *s, size_t n, size_t min)
{
	dataurl_elide_json_memo(out, s, n, min, NULL);
}

void
dataurl_elide_json_memo(struct buf *out, const char *s, size_t n, size_t min,
			struct dataurl_memo *m)
{
	size_t i = 0;

	while (i < n) {
		const char *q = memchr(s + i, '"', n - i);
		size_t at, end, b64 = 0;
		struct run r;

		if (!q) {
			buf_add(out, s + i, n - i);
			return;
		}
		at = (size_t)(q - s) + 1;
		buf_add(out, s + i, at - i);
		i = at;
		if (q > s && q[-1] == '\\')
			continue;
		if (n - at >= 5 && !memcmp(s + at, "data:", 5) &&
		    (end = dataurl_span(s + at, n - at, &b64, m, &r)) && end > min) {
			buf_add(out, s + at, b64);
			elide(out, s + at + b64, end - b64, m, &r);
			buf_add(out, s + at + end, 1);	/* its closing quote */
			i = at + end + 1;
			continue;
		}
		if (data_value(s, at - 1) && (end = b64_run(s + at, n - at, m, &r)) &&
		    end > min) {
			elide(out, s + at, end, m, &r);
			buf_add(out, s + at + end, 1);
			i = at + end + 1;
			continue;
		}
		/* not ours: copy the string through its closing quote */
		while (i < n && s[i] != '"') {
			if (s[i] == '\\' && i + 1 < n)
				buf_add(out, s + i++, 1);
			buf_add(out, s + i++, 1);
		}
		if (i < n)
			buf_add(out, s + i++, 1);
	}
}
