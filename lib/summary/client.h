/* SPDX-License-Identifier: Apache-2.0 */
/* Client health (beyond the original): schedule lateness, latency from the intended send, observation delay, CPU. */
#ifndef AIPERF_SUMMARY_CLIENT_H
#define AIPERF_SUMMARY_CLIENT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "json/json.h"
#include "stats/stats.h"
#include "summary/stagecpu.h"

/*
 * struct client owns its value arrays; client_release() frees them.
 * struct clientsum holds figures only (no pointers) and is the caller's.
 */

struct frec;
struct summary;

/* From each record's "aiperf" object. */
struct client {
	struct stats_vec lateness;	/* ns: actual - intended send */
	struct stats_vec intended;	/* ns: request latency from the intended send */
	struct stats_vec delay;		/* ns: arrival - server send stamp */
	struct stats_vec late_at;	/* per lateness value its request_start_ns (NaN: none) */
	int64_t first_start, last_start;
	size_t starts;
	/* sender CPU: cpu_ns of every record, warmup included */
	int64_t cpu_min, cpu_max, cpu_end_min, cpu_end_max;
	size_t cpu_n, records;
};

/* Client health figures; a negative value (or count 0) is unknown. */
struct pmax {
	size_t n;
	double p50, p99, max;	/* ms */
};

/* One scrape of aiperf-scrape (--server-samples), wall-clock ns. */
struct scrape_span {
	int64_t start, end;	/* the scrape's send to its end */
	int64_t cpu;		/* its CPU time, ns; -1: unknown */
};

struct clientsum {
	struct pmax lateness, intended, delay;
	/* the scraper in the window: scrapes, CPU per scrape (us), and the
	 * schedule lateness of requests whose [intended, actual send] meets a
	 * scrape and of the others */
	size_t scrapes;
	double scrape_cpu_avg_us, scrape_cpu_max_us;
	struct pmax late_scraping, late_otherwise;
	double cpu_us_per_request, achieved_rate, target_rate;
	double cpu_busy;	/* sender CPU / wall time between records, or -1 */
	struct stagecpu others;	/* the other stages' CPU in the window (n 0: unknown) */
};

void client_init(struct client *c);
void client_release(struct client *c);
/* Add one profiling record's facts; -1 with why on a malformed "aiperf". */
int client_record(struct client *c, const struct json *rec, char *why, size_t whylen);
/* Add any record's sender CPU stamp (warmup too); -1 with why when malformed. */
int client_cpu(struct client *c, const struct json *rec, char *why, size_t whylen);
/* The same for a record frec_scan() read (client_fast_full() first:
 * nonzero when the JSON path must take it). */
int client_fast_full(const struct client *c, const struct frec *fr);
void client_fast_cpu(struct client *c, const struct frec *fr);
void client_fast_record(struct client *c, const struct frec *fr);
void client_summary(struct client *c, const struct summary *sm, struct clientsum *cs,
		    double cpu_seconds, double target_rate);
int client_known(const struct clientsum *cs);
void client_json(struct jw *w, const struct clientsum *cs);
/* The console's "Client Health" lines (nothing when nothing is known). */
void client_console(FILE *f, const struct clientsum *cs);
/* The scraper's share of client health from its scrapes (any order;
 * sp is reordered and overwritten). */
void client_scraper(const struct client *c, const struct summary *sm, struct scrape_span *sp,
		    size_t n, struct clientsum *cs);

#endif
