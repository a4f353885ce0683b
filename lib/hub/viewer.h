/* SPDX-License-Identifier: Apache-2.0 */
/* The hub's dataset viewer API: a split's rows, page after page, over libcurl. */
#ifndef AIPERF_VIEWER_H
#define AIPERF_VIEWER_H

#include <stddef.h>

struct rows;
struct rows_src;

#define VIEWER_ENDPOINT "https://datasets-server.huggingface.co"
#define VIEWER_PAGE_MAX ((size_t)64 << 20)	/* one page's bytes */
#define VIEWER_RETRIES 5
#define VIEWER_BACKOFF_MS 1000L
#define VIEWER_WAIT_MAX_MS 60000L	/* the longest wait between tries */

/*
 * Fill *out (from "hub") with every row of id/config/split from the
 * viewer at src->endpoint (NULL: VIEWER_ENDPOINT): GET /rows, 100 rows a
 * page, each page checked by rowpage_parse(), with src->token as a
 * Bearer token. HTTP 429, 5xx and connection failures are tried again
 * after an exponential backoff (src->backoff_ms doubled each time, at
 * most VIEWER_WAIT_MAX_MS; a Retry-After in seconds is honoured up to
 * that), src->retries times. Returns 0, or -1 with a message in err
 * (never holding the token; a 401 or 403 says how to get access).
 * Nothing is written to disk here.
 */
int viewer_rows(const struct rows_src *src, const char *id, const char *config,
		const char *split, struct rows *out, char *err, size_t errlen);

/*
 * GET url whole into *out (its cap is out->max): no token sent, followed
 * redirects, the same tries and backoff as the pages. Returns 0, or -1
 * with a message in err naming the URL ("HTTP 404 from the dataset
 * viewer" for a status: the viewer's wording).
 */
struct buf;
int viewer_get(const struct rows_src *src, const char *url, struct buf *out,
	       char *err, size_t errlen);

/* With src->max_rows set, viewer_rows() stops at that many rows (asking
 * no page for more) and sets out->prefix when the split has more. */

/* The wait before try attempt + 1 (attempt from 0): base_ms doubled
 * attempt times, or retry_after_s seconds when >= 0; both capped at
 * VIEWER_WAIT_MAX_MS. */
long viewer_backoff_ms(int attempt, long base_ms, long retry_after_s);

#endif
