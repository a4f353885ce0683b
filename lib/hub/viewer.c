/* SPDX-License-Identifier: Apache-2.0 */
/* The hub's dataset viewer: GET /rows a page at a time, tried again with backoff, each page checked. */
#include "hub/viewer.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "buf.h"
#include "hub/rowpage.h"
#include "hub/rows.h"
#include "json/json.h"
#include "util.h"

#ifndef AIPERF_VERSION
#define AIPERF_VERSION "0"
#endif

/* One split being read: the handle kept open between pages. */
struct fetch {
	const struct rows_src *src;
	const char *id, *config, *split;
	char *what;		/* "id/config/split", for messages */
	CURL *c;
	struct curl_slist *hdr;
	struct buf body;
	long retry_after;	/* seconds, -1: none */
	int toobig;
	char *err;
	size_t errlen;
};

long
viewer_backoff_ms(int attempt, long base_ms, long retry_after_s)
{
	long ms = base_ms;

	if (retry_after_s >= 0)
		return retry_after_s > VIEWER_WAIT_MAX_MS / 1000 ? VIEWER_WAIT_MAX_MS
								 : retry_after_s * 1000;
	for (int i = 0; i < attempt && ms < VIEWER_WAIT_MAX_MS; i++)
		ms *= 2;
	return ms > VIEWER_WAIT_MAX_MS ? VIEWER_WAIT_MAX_MS : ms;
}

static size_t
cb_write(char *p, size_t size, size_t n, void *ud)
{
	struct fetch *F = ud;

	n *= size;
	if (buf_tryadd(&F->body, p, n) < 0) {
		F->toobig = 1;
		return 0;
	}
	return n;
}

/* Retry-After in seconds (an HTTP date is left to the backoff). */
static size_t
cb_header(char *p, size_t size, size_t n, void *ud)
{
	struct fetch *F = ud;
	size_t len = size * n;
	long long v;
	const char *why;
	char num[16];
	size_t k = 0;

	if (len > 12 && !strncasecmp(p, "retry-after:", 12)) {
		for (size_t i = 12; i < len && k + 1 < sizeof(num); i++)
			if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r' && p[i] != '\n')
				num[k++] = p[i];
		num[k] = '\0';
		if (util_strtonum(num, 0, 86400, &v, &why) == 0)
			F->retry_after = (long)v;
	}
	return len;
}

static int
start(struct fetch *F)
{
	const struct rows_src *src = F->src;

	if (!(F->c = curl_easy_init()))
		return util_seterr(F->err, F->errlen, "%s: libcurl failed to start",
				   F->what);
	if (src->token && *src->token) {
		char *a = xstrfmt("Authorization: Bearer %s", src->token);

		F->hdr = curl_slist_append(F->hdr, a);
		free(a);
	}
	F->hdr = curl_slist_append(F->hdr, "Accept: application/json");
	curl_easy_setopt(F->c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(F->c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(F->c, CURLOPT_MAXREDIRS, 5L);
	curl_easy_setopt(F->c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(F->c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(F->c, CURLOPT_CONNECTTIMEOUT, 10L);
	curl_easy_setopt(F->c, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(F->c, CURLOPT_LOW_SPEED_TIME, 30L);
	curl_easy_setopt(F->c, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(F->c, CURLOPT_USERAGENT, "aiperf/" AIPERF_VERSION);
	curl_easy_setopt(F->c, CURLOPT_HTTPHEADER, F->hdr);
	curl_easy_setopt(F->c, CURLOPT_WRITEFUNCTION, cb_write);
	curl_easy_setopt(F->c, CURLOPT_WRITEDATA, F);
	curl_easy_setopt(F->c, CURLOPT_HEADERFUNCTION, cb_header);
	curl_easy_setopt(F->c, CURLOPT_HEADERDATA, F);
	return 0;
}

/* The viewer's own reason, {"error": "..."}, fit for a message. */
static void
reason(const struct buf *b, char *out, size_t cap)
{
	struct json_doc *doc = json_doc_new();
	char e[64];
	const struct json *v = json_parse(doc, buf_str(b), b->len, e, sizeof(e));
	size_t len, k = 0;
	const char *s = json_str(json_get(v, "error"), &len);

	out[0] = '\0';
	if (s && cap > 8) {
		memcpy(out, ": ", 2);
		k = 2;
		for (size_t i = 0; i < len && i < 200 && k + 1 < cap; i++)
			out[k++] = (unsigned char)s[i] >= 0x20 ? s[i] : ' ';
		out[k] = '\0';
	}
	json_doc_free(doc);
}

static int
status_error(struct fetch *F, long status)
{
	char why[256];

	reason(&F->body, why, sizeof(why));
	if (status == 401 || status == 403)
		return util_seterr(F->err, F->errlen, "%s: HTTP %ld from the dataset "
				   "viewer%s (a gated or private dataset: %s)",
				   F->what, status, why,
				   F->src->token && *F->src->token
				   ? "the token in HF_TOKEN has no access; accept "
				     "the dataset's terms on the hub with its account"
				   : "set HF_TOKEN to a token of an account that "
				     "accepted the dataset's terms on the hub");
	return util_seterr(F->err, F->errlen, "%s: HTTP %ld from the dataset viewer%s%s",
			   F->what, status, why, status == 404
			   ? " (check the dataset id, config and split)" : "");
}

static int
transient(CURLcode rc, long status)
{
	if (rc == CURLE_OK)
		return status == 429 || (status >= 500 && status <= 599);
	return rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST ||
	       rc == CURLE_OPERATION_TIMEDOUT || rc == CURLE_RECV_ERROR ||
	       rc == CURLE_SEND_ERROR || rc == CURLE_GOT_NOTHING ||
	       rc == CURLE_PARTIAL_FILE || rc == CURLE_HTTP2 ||
	       rc == CURLE_HTTP2_STREAM || rc == CURLE_SSL_CONNECT_ERROR;
}

static void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static const char *
why_failed(CURLcode rc, long status, const char *cerr, char *out, size_t n)
{
	if (rc == CURLE_OK)
		snprintf(out, n, "HTTP %ld", status);
	else
		snprintf(out, n, "%s", cerr[0] ? cerr : curl_easy_strerror(rc));
	return out;
}

/* GET url into F->body, trying again while it may help; offset names
 * the page in messages. */
static int
get_url(struct fetch *F, const char *url, uint64_t offset)
{
	const struct rows_src *src = F->src;
	int tries = src->retries < 0 ? 0 : src->retries ? src->retries : VIEWER_RETRIES;
	long base = src->backoff_ms > 0 ? src->backoff_ms : VIEWER_BACKOFF_MS;
	char cerr[CURL_ERROR_SIZE], last[CURL_ERROR_SIZE + 32];
	int rc = -1;

	curl_easy_setopt(F->c, CURLOPT_URL, url);
	curl_easy_setopt(F->c, CURLOPT_ERRORBUFFER, cerr);
	for (int attempt = 0;; attempt++) {
		long status = 0;
		CURLcode cc;

		buf_reset(&F->body);
		cerr[0] = '\0';
		F->toobig = 0;
		F->retry_after = -1;
		cc = curl_easy_perform(F->c);
		curl_easy_getinfo(F->c, CURLINFO_RESPONSE_CODE, &status);
		if (F->toobig) {
			util_seterr(F->err, F->errlen, "%s: the page at offset %llu is "
				    "larger than %zu bytes", F->what,
				    (unsigned long long)offset, F->body.max);
			break;
		}
		if (cc == CURLE_OK && status == 200) {
			rc = 0;
			break;
		}
		if (!transient(cc, status)) {
			if (cc == CURLE_OK)
				status_error(F, status);
			else
				util_seterr(F->err, F->errlen, "%s: cannot reach the dataset "
					    "viewer: %s", F->what,
					    why_failed(cc, status, cerr, last, sizeof(last)));
			break;
		}
		why_failed(cc, status, cerr, last, sizeof(last));
		if (attempt >= tries) {
			util_seterr(F->err, F->errlen, "%s: the dataset viewer failed %d "
				    "time%s at offset %llu, last: %s (retry later, or "
				    "work offline from a dataset folder: aiperf-hub fetch)", F->what,
				    attempt + 1, attempt ? "s" : "",
				    (unsigned long long)offset, last);
			break;
		}
		sleep_ms(viewer_backoff_ms(attempt, base, F->retry_after));
	}
	curl_easy_setopt(F->c, CURLOPT_ERRORBUFFER, NULL);
	return rc;
}

/* GET the page at offset (at most want rows) into F->body. */
static int
get_page(struct fetch *F, uint64_t offset, size_t want)
{
	const struct rows_src *src = F->src;
	char *url = xstrfmt("%s/rows?dataset=%s&config=%s&split=%s&offset=%llu"
			    "&length=%zu", src->endpoint ? src->endpoint : VIEWER_ENDPOINT,
			    F->id, F->config, F->split, (unsigned long long)offset,
			    want < ROWPAGE_MAX_ROWS ? want : (size_t)ROWPAGE_MAX_ROWS);
	int rc = get_url(F, url, offset);

	free(url);
	return rc;
}

/* Take one checked page's rows; 1 when the split is complete. */
static int
take(struct fetch *F, struct rows *out, int64_t *total, size_t *bytes,
     size_t max)
{
	struct rowpage p;
	char perr[512];

	if (rowpage_parse(F->body.s, F->body.len, out->n, &p, perr, sizeof(perr)) < 0)
		return util_seterr(F->err, F->errlen, "%s: offset %zu: %s", F->what,
				   out->n, perr);
	if (*total >= 0 && p.total != *total) {
		rowpage_release(&p);
		return util_seterr(F->err, F->errlen, "%s: num_rows_total changed from "
				   "%lld to %lld while reading", F->what,
				   (long long)*total, (long long)p.total);
	}
	*total = p.total;
	if ((uint64_t)out->n + p.n > (uint64_t)p.total || (!p.n && out->n < (uint64_t)p.total)) {
		rowpage_release(&p);
		return util_seterr(F->err, F->errlen, "%s: offset %zu: %zu rows where "
				   "num_rows_total is %lld", F->what, out->n, p.n,
				   (long long)p.total);
	}
	for (size_t i = 0; i < p.n; i++) {
		if ((*bytes += p.len[i] + 1) > max) {
			rowpage_release(&p);
			return util_seterr(F->err, F->errlen, "%s: more than %zu bytes "
					   "of rows", F->what, max);
		}
		rows_add(out, p.row[i], p.len[i]);
	}
	rowpage_release(&p);
	return (uint64_t)out->n == (uint64_t)*total;
}

static int
read_all(struct fetch *F, struct rows *out)
{
	const struct rows_src *src = F->src;
	size_t bytes = 0, max = src->max_bytes ? src->max_bytes : ROWS_MAX_BYTES;
	int64_t total = -1;
	int rc = 0;

	while (rc == 0) {
		size_t want = src->max_rows ? src->max_rows - out->n : ROWPAGE_MAX_ROWS;

		if (get_page(F, out->n, want) < 0)
			return -1;
		if ((rc = take(F, out, &total, &bytes, max)) < 0)
			return -1;
		if (src->progress)
			src->progress(src->progress_ud, F->what, out->n, (size_t)total);
		if (!rc && src->max_rows && out->n >= src->max_rows) {
			out->prefix = 1;
			break;
		}
	}
	return 0;
}

int
viewer_rows(const struct rows_src *src, const char *id, const char *config,
	    const char *split, struct rows *out, char *err, size_t errlen)
{
	struct fetch F = { src, id, config, split, NULL, NULL, NULL,
			   BUF_INIT(VIEWER_PAGE_MAX), -1, 0, err, errlen };
	int rc = -1;

	*out = (struct rows){ .from = "hub" };
	F.what = xstrfmt("%s/%s/%s", id, config, split);
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		util_seterr(err, errlen, "%s: libcurl failed to start", F.what);
		free(F.what);
		return -1;
	}
	if (start(&F) == 0)
		rc = read_all(&F, out);
	if (F.c)
		curl_easy_cleanup(F.c);
	curl_slist_free_all(F.hdr);
	curl_global_cleanup();
	buf_release(&F.body);
	free(F.what);
	if (rc < 0)
		rows_free(out);
	else
		out->from = "hub";
	return rc;
}

int
viewer_get(const struct rows_src *src, const char *url, struct buf *out,
	   char *err, size_t errlen)
{
	struct rows_src plain = *src;
	struct fetch F = { &plain, "", "", "", NULL, NULL, NULL,
			   BUF_INIT(out->max), -1, 0, err, errlen };
	int rc = -1;

	plain.token = NULL;
	F.what = xstrdup(url);
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		util_seterr(err, errlen, "%s: libcurl failed to start", url);
		free(F.what);
		return -1;
	}
	if (start(&F) == 0) {
		curl_easy_setopt(F.c, CURLOPT_HTTPHEADER, NULL);
		rc = get_url(&F, url, 0);
	}
	if (F.c)
		curl_easy_cleanup(F.c);
	curl_slist_free_all(F.hdr);
	curl_global_cleanup();
	if (rc == 0) {
		buf_release(out);
		*out = F.body;
	} else {
		buf_release(&F.body);
	}
	free(F.what);
	return rc;
}
