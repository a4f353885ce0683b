/* SPDX-License-Identifier: Apache-2.0 */
/* A strict, bounded parser of the Prometheus text exposition format. */
#ifndef AIPERF_PROM_H
#define AIPERF_PROM_H

#include <stddef.h>
#include <stdint.h>

/*
 * prom_parse() reads one whole exposition (a /metrics body) into a
 * struct prom, which owns every string and array in it; prom_release()
 * frees them all and re-inits. The caller owns the struct itself.
 *
 * Syntax errors (a malformed line, a bad escape in a label value, a bad
 * number, an unknown # TYPE, a line or body past its limit) reject the
 * whole body, as Prometheus rejects a scrape: prom_parse() returns -1 with
 * "line N: what" in err. Problems of meaning (a duplicate series, a sample
 * that does not fit its family's type, a summary, a histogram without its
 * +Inf bucket, more series than max_series) are warnings: the sample is
 * dropped, the rest is kept, and the first PROM_MAX_WARN messages are in
 * warn[] with nwarn counting them all. A sample that repeats one of the
 * same series (the same name and labels, or a histogram's bucket with the
 * same le) is a duplicate: the first one is kept, the family's dups counts
 * the others, and one warning says so for the family, however many.
 *
 * Series of a histogram (name_bucket{le}, name_sum, name_count) with the
 * same labels (le aside) are one series of type PROM_HISTOGRAM. Labels of
 * a series are sorted by name. Exemplars ("# {...} v ts" after a value)
 * and timestamps are accepted; a timestamp is kept, an exemplar dropped.
 */
enum prom_type {
	PROM_UNTYPED,
	PROM_COUNTER,
	PROM_GAUGE,
	PROM_HISTOGRAM,
	PROM_SUMMARY,
	PROM_INFO,
	PROM_STATESET,
	PROM_GAUGEHISTOGRAM,
};

#define PROM_MAX_WARN 16

struct prom_limits {
	size_t max_body;	/* bytes of the whole exposition */
	size_t max_line;	/* bytes of one line */
	size_t max_series;	/* series kept; more are dropped with a warning */
	size_t max_labels;	/* labels of one sample */
};

/* The defaults: 16 MiB, 64 KiB, 100000 series, 64 labels. */
extern const struct prom_limits prom_default_limits;

struct prom_label {
	char *name;
	char *value;
};

struct prom_bucket {
	double le;
	char *le_text;	/* the le label as written, e.g. "0.005", "+Inf" */
	double count;
};

struct prom_family {
	char *name;
	char *help;		/* NULL without # HELP */
	enum prom_type type;
	size_t dups;		/* samples dropped as repeats of one read before */
};

enum prom_have {
	PROM_HAVE_VALUE = 1 << 0,
	PROM_HAVE_SUM = 1 << 1,
	PROM_HAVE_COUNT = 1 << 2,
	PROM_HAVE_TS = 1 << 3,
};

struct prom_series {
	size_t family;		/* index into prom.fam */
	struct prom_label *labels;
	size_t nlabels;
	unsigned have;		/* enum prom_have */
	double value;		/* counter, gauge, untyped, info */
	double ts;		/* the timestamp as written (ms in the text format) */
	/* histogram: buckets sorted by le, cumulative counts */
	struct prom_bucket *buckets;
	size_t nbuckets, bcap;
	double sum, count;
	char *key;		/* internal: family and labels, for duplicates */
};

struct prom {
	struct prom_family *fam;
	size_t nfam, famcap;
	struct prom_series *ser;
	size_t nser, sercap;
	char *warn[PROM_MAX_WARN];
	size_t nwarn;		/* all warnings, also those not kept */
	void *index;		/* internal lookup tables */
};

void prom_init(struct prom *p);
void prom_release(struct prom *p);

/*
 * Parse text[0..len) with limits lim (NULL: prom_default_limits) into p,
 * which must be freshly initialized. Returns 0, or -1 with a message in err
 * (p then holds what was read before the error; release it either way).
 */
int prom_parse(struct prom *p, const char *text, size_t len,
	       const struct prom_limits *lim, char *err, size_t errlen);

/* "counter", "gauge", ... as # TYPE writes it. */
const char *prom_type_name(enum prom_type t);

/* The series' family name. */
static inline const char *
prom_series_name(const struct prom *p, const struct prom_series *s)
{
	return p->fam[s->family].name;
}

#endif
