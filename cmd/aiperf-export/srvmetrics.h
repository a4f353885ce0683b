/* SPDX-License-Identifier: Apache-2.0 */
/* --server-samples: aiperf-scrape's sample records aggregated over the profiling window. */
#ifndef AIPERF_EXPORT_SRVMETRICS_H
#define AIPERF_EXPORT_SRVMETRICS_H

#include "export.h"
#include "hmap.h"
#include "srvagg/counter.h"
#include "srvagg/gauge.h"
#include "srvagg/hist.h"

/* --server-metrics-formats bits */
enum { SRV_JSON = ARTIFACTS_SRV_BIT(ART_SRV_JSON), SRV_CSV = ARTIFACTS_SRV_BIT(ART_SRV_CSV),
       SRV_JSONL = ARTIFACTS_SRV_BIT(ART_SRV_JSONL),
       SRV_PARQUET = ARTIFACTS_SRV_BIT(ART_SRV_PARQUET) };

struct srv_ep {
	char *url;
	size_t fetches;		/* successful scrapes, duplicates included */
	int64_t first_fetch, last_fetch;
	double lat_sum;		/* ns, over fetches */
	int64_t *upd;		/* timestamps of the non-duplicate scrapes */
	size_t nupd, capupd;
	char *prev;		/* the last scrape's metrics, as text */
	size_t prevlen;
	struct srvagg_window w;
};

struct srv_metric {
	char *name, *type, *help;	/* type as scraped */
	size_t *series, nseries, cap;	/* indices into srv.ser, first seen first */
};

struct srv_series {
	size_t ep, met;
	char **lk, **lv;	/* labels, sorted by name */
	size_t nl;
	int hist, counter, ok;	/* ok: in the window, stats computed */
	size_t n, cap;
	struct srvagg_point *p;	/* gauge, counter */
	int64_t *ts;		/* histogram */
	double *sum, *count, *cum, *le;
	char **lekey;
	size_t nb;
	struct srvagg_gauge g;
	struct srvagg_counter c;
	struct srvagg_hist h;
};

struct srv {
	struct srv_ep *ep;
	size_t nep, capep;
	struct srv_metric *met;
	size_t nmet, capmet;
	struct srv_series *ser;
	size_t nser, capser;
	struct hmap idx;
	struct json_doc *doc;
	FILE *jsonl;
	int jsonl_err;
	int64_t start_ns, end_ns;
	struct scrape_span *spans;	/* every scrape, failed ones too (client health) */
	size_t nspans, capspans;
};

void srv_init(struct srv *s);
void srv_release(struct srv *s);
/* Read the sample records at path (and write each scrape to jsonl_path
 * when not NULL). A malformed line is skipped with a warning, a JSONL that
 * cannot be written is a warning; a file that cannot be opened is a
 * warning and -1. */
int srv_read(struct srv *s, const char *path, const char *jsonl_path);
/* The profiling window [start_ns, end_ns] (each endpoint's end extended
 * to its last update) and slices, then every series' statistics. */
void srv_window(struct srv *s, int64_t start_ns, int64_t end_ns, double slice_s);
void srv_compute(struct srv *s);
const char *srv_type(const struct srv *s, const struct srv_series *r);
int srv_json(FILE *f, const struct srv *s, const struct exportopts *o);
/* srvcsv.c */
int srv_csv(FILE *f, const struct srv *s, const struct exportopts *o);
/* "json csv" (space or comma separated) into SRV_* bits; -1 with why. */
int srv_formats(const char *list, unsigned *out, char *why, size_t whylen);

#endif
