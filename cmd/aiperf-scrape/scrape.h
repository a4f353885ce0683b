/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-scrape internals: options, endpoints and their scrapes, sample records. */
#ifndef AIPERF_SCRAPE_H
#define AIPERF_SCRAPE_H

#include <curl/curl.h>
#include <stdint.h>

#include "buf.h"
#include "prom/prom.h"

struct options {
	int64_t interval_ns;
	int64_t timeout_ns;
	int once;
	int control_fd;		/* -1: none */
	const char *control_fifo;	/* --control-fifo, or NULL */
	const char *cue_fifo;	/* --cue-fifo, or NULL */
	const char *ack_fifo;	/* --ack-fifo, or NULL */
	int cue_fd;		/* cue_fifo, read-write; -1: none */
	long long max_body;
	long long max_series;
	int unbuffered;
	int nvml;		/* --nvml: NVML's GPUs too */
};

/*
 * One endpoint: its easy handle (kept between scrapes so the connection
 * is reused), the body of the scrape in flight, and the stamps and CPU
 * time of that scrape. The endpoint owns everything in it.
 */
struct scraper;

/* Metrics an endpoint's duplicate-series warnings name, at most. */
#define SCRAPE_DUP_NAMES 32

struct endpoint {
	const char *url;	/* points into argv */
	char *shown;		/* url as records and messages show it: no credentials */
	CURL *h;
	int busy;		/* a scrape is in flight */
	uint64_t scrapes;	/* scrapes started */
	int failing;		/* the last scrape failed (warned once) */
	int help_sent;		/* HELP texts went out in a record */
	int cue;		/* 1: a cued scrape is due; 2: the one in flight is cued */
	struct buf body;
	char curl_err[CURL_ERROR_SIZE];
	int too_big;
	int64_t start_ns, sent_ns, first_ns, io_ns, end_ns;	/* clock_now_ns */
	int64_t cpu_ns;		/* thread CPU time spent on this scrape */
	long status;
	/* the metrics whose duplicate series were warned about (record.c) */
	char *dup_names[SCRAPE_DUP_NAMES];
	size_t ndup_names;
	int dup_more;		/* the warning for the rest is out */
};

struct scraper {
	const struct options *o;
	CURLM *m;
	struct endpoint *ep;
	size_t nep;
	size_t busy;		/* scrapes in flight */
	size_t cue_left;	/* endpoints whose cued scrape has not ended */
	unsigned cues;		/* cues read, not acknowledged yet */
	int64_t mono0, wall0;	/* the wall anchor, as aiperf-send takes it */
	struct curl_slist *headers;
	struct buf out, metrics;
};

/* endpoint.c: the easy handles and their callbacks. */
void endpoint_init(struct endpoint *e, const char *url, struct scraper *s);
void endpoint_release(struct endpoint *e);
/* Start a scrape of e (it must not be busy). */
void endpoint_start(struct scraper *s, struct endpoint *e);
/* A finished transfer: stamps it, writes its record, frees it for the next. */
void endpoint_done(struct scraper *s, struct endpoint *e, CURLcode rc);

/* record.c: one sample record per scrape (man 5 aiperf-records). */
void record_write(struct scraper *s, struct endpoint *e, CURLcode rc);

/* nvml.c: --nvml, GPU telemetry from libnvidia-ml as DCGM sample records.
 * nvml_open() warns and returns -1 when there is none; nvml_scrape() then
 * writes nothing; CUE marks the record as taken on a cue ("cue": true). */
int nvml_open(void);
void nvml_scrape(const struct scraper *s, int cue);
void nvml_close(void);

/* Thread CPU time in ns (CLOCK_THREAD_CPUTIME_ID). */
int64_t cpu_now_ns(void);

#endif
