/* SPDX-License-Identifier: Apache-2.0 */
/* One endpoint's easy handle: its options, stamps and body callbacks. */
#include "scrape.h"

#include <string.h>
#include <time.h>

#include "clock.h"
#include "http/redact.h"
#include "util.h"

int64_t
cpu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static size_t
cb_write(char *p, size_t size, size_t n, void *ctx)
{
	struct endpoint *e = ctx;

	e->io_ns = clock_now_ns();
	if (e->first_ns < 0)
		e->first_ns = e->io_ns;
	if (buf_add(&e->body, p, size * n) < 0) {
		e->too_big = 1;
		return 0;	/* CURLE_WRITE_ERROR stops the transfer */
	}
	return size * n;
}

static size_t
cb_header(char *p, size_t size, size_t n, void *ctx)
{
	struct endpoint *e = ctx;

	(void)p;
	if (e->first_ns < 0)
		e->first_ns = clock_now_ns();
	return size * n;
}

/* The request goes out next: a connection is ready. */
static int
cb_prereq(void *ctx, char *ip, char *local, int port, int lport)
{
	struct endpoint *e = ctx;

	(void)ip, (void)local, (void)port, (void)lport;
	e->sent_ns = clock_now_ns();
	return CURL_PREREQFUNC_OK;
}

void
endpoint_init(struct endpoint *e, const char *url, struct scraper *s)
{
	const struct options *o = s->o;
	long ms = (long)(o->timeout_ns / 1000000);

	if (!s->headers)
		s->headers = curl_slist_append(NULL, "Accept: text/plain;version=0.0.4;q=1,*/*;q=0.1");
	struct buf shown = BUF_INIT(BUF_NOMAX);

	memset(e, 0, sizeof(*e));
	e->url = url;
	redact_url(&shown, url, strlen(url));
	e->shown = buf_detach(&shown, NULL);
	buf_init(&e->body, (size_t)o->max_body);
	e->h = curl_easy_init();
	if (!e->h)
		die("cannot create a libcurl handle");
	curl_easy_setopt(e->h, CURLOPT_URL, url);
	curl_easy_setopt(e->h, CURLOPT_PRIVATE, e);
	curl_easy_setopt(e->h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e->h, CURLOPT_TIMEOUT_MS, ms > 0 ? ms : 1L);
	curl_easy_setopt(e->h, CURLOPT_CONNECTTIMEOUT_MS, ms > 0 ? ms : 1L);
	curl_easy_setopt(e->h, CURLOPT_USERAGENT, "aiperf-scrape/" AIPERF_VERSION);
	curl_easy_setopt(e->h, CURLOPT_HTTPHEADER, s->headers);
	curl_easy_setopt(e->h, CURLOPT_ERRORBUFFER, e->curl_err);
	curl_easy_setopt(e->h, CURLOPT_WRITEFUNCTION, cb_write);
	curl_easy_setopt(e->h, CURLOPT_WRITEDATA, e);
	curl_easy_setopt(e->h, CURLOPT_HEADERFUNCTION, cb_header);
	curl_easy_setopt(e->h, CURLOPT_HEADERDATA, e);
	curl_easy_setopt(e->h, CURLOPT_PREREQFUNCTION, cb_prereq);
	curl_easy_setopt(e->h, CURLOPT_PREREQDATA, e);
	curl_easy_setopt(e->h, CURLOPT_PROTOCOLS_STR, "http,https");
}

void
endpoint_release(struct endpoint *e)
{
	if (e->h)
		curl_easy_cleanup(e->h);
	buf_release(&e->body);
	free(e->shown);
	for (size_t i = 0; i < e->ndup_names; i++)
		free(e->dup_names[i]);
	e->ndup_names = 0;
	e->shown = NULL;
	e->h = NULL;
}

void
endpoint_start(struct scraper *s, struct endpoint *e)
{
	buf_reset(&e->body);
	e->curl_err[0] = '\0';
	e->too_big = 0;
	e->status = 0;
	e->cpu_ns = 0;
	e->start_ns = e->sent_ns = clock_now_ns();
	e->first_ns = e->io_ns = -1;
	e->busy = 1;
	e->scrapes++;
	s->busy++;
	if (curl_multi_add_handle(s->m, e->h) != CURLM_OK)
		die("cannot start a transfer to '%s'", e->shown);
}

void
endpoint_done(struct scraper *s, struct endpoint *e, CURLcode rc)
{
	int64_t t0 = cpu_now_ns();

	e->end_ns = rc == CURLE_OK && e->io_ns > 0 ? e->io_ns : clock_now_ns();
	curl_easy_getinfo(e->h, CURLINFO_RESPONSE_CODE, &e->status);
	curl_multi_remove_handle(s->m, e->h);
	e->busy = 0;
	s->busy--;
	e->cpu_ns += cpu_now_ns() - t0;
	record_write(s, e, rc);
}
