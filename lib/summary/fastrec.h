/* SPDX-License-Identifier: Apache-2.0 */
/* A scanner for the compact metric records aiperf-metrics writes, read without a JSON tree. */
#ifndef AIPERF_SUMMARY_FASTREC_H
#define AIPERF_SUMMARY_FASTREC_H

#include <stddef.h>
#include <stdint.h>

/*
 * aiperf-metrics writes {"metadata":{...},"metrics":{"tag":{"value":V,
 * "unit":"u"},...}} and maybe ,"aiperf":{...} with no whitespace.
 * frec_scan() reads exactly that shape (flat metadata of plain strings,
 * numbers and literals; each V a number or an array of numbers; the
 * "aiperf" members aiperf-metrics writes) into a struct frec, with the
 * numbers converted as json_double()/json_int64() do; anything else
 * (whitespace, escapes, other keys or shapes, a metric twice, an error
 * the general path would report) is left to the JSON parser, so that
 * every result and message stays the same (tests/cli/t0703,
 * tests/fuzz/fuzz-fastrec.c).
 */
#define FR_MKEYS 32		/* metadata keys kept (more: none kept) */
#define FR_MKEY_BYTES 1024	/* and their bytes */

struct fmet {
	size_t def;		/* index into metricdefs */
	int arr;		/* the value is an array */
	double display;		/* a scalar value */
	size_t first, n;	/* its base values: base[first..first + n) (METRIC_RECORD) */
};

struct frec {
	int warmup;		/* benchmark_phase is "warmup" */
	int have_start, have_end;
	int64_t start, end;	/* request_start_ns, request_end_ns */
	struct fmet *m;
	size_t nm, capm;
	double *base;
	size_t nbase, capbase;
	size_t *at;		/* per metricdef: its member in m, valid when stamp == gen */
	unsigned *stamp, gen;
	/* the text of each metric as aiperf-metrics writes it, and the
	 * metrics of the last record read, the likely order of the next */
	char **pre, **post;	/* "tag":{"value":  and  ,"unit":"u"} */
	size_t *npre, *npost;
	size_t *order, norder;
	/* the metadata keys of the last record read, the likely keys of
	 * the next: their "key": texts one after another */
	char mkey[FR_MKEY_BYTES];
	size_t mkoff[FR_MKEYS + 1], nmkey;
	int have_aiperf, have_cpu, have_late, have_intended, have_delay;
	int64_t cpu, late, intended;
	int64_t *delay;		/* observation_delay_ns (a number or each of an array) */
	size_t ndelay, capdelay;
};

void frec_init(struct frec *fr);
void frec_release(struct frec *fr);
/* 0: s[0..n) is read into fr; -1: leave the line to the JSON parser. */
int frec_scan(struct frec *fr, const char *s, size_t n);
/* The scalar display value of metricdefs[def] in the record: 0, or -1. */
int frec_value(const struct frec *fr, size_t def, double *v);

#endif
