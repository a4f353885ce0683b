/* SPDX-License-Identifier: Apache-2.0 */
/* Confidence statistics across runs (the original's orchestrator/aggregation). */
#include "runagg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "csvfield.h"
#include "json/json.h"
#include "stats/numfmt.h"
#include "util.h"

/* The original's STAT_KEYS, in the order a pair's stat is looked for. */
static const char *const stat_keys[] = {
	"avg", "min", "max", "sum", "p1", "p5", "p10", "p25", "p50", "p75",
	"p90", "p95", "p99", "std",
};
#define NSTATS (sizeof(stat_keys) / sizeof(stat_keys[0]))
#define MAX_NAME 256	/* a longer member name is no metric of ours */

struct pair {
	char *metric;
	const char *stat;	/* one of stat_keys */
	char *unit;		/* from the first run that has the pair */
	double *v;		/* one a successful run that has it */
	size_t n, cap;
	double mean, std, min, max, cv, se, lo, hi, t;
};

struct run {
	char *label;
	char *error;		/* NULL: successful */
};

struct runagg {
	double level;
	struct run *runs;
	size_t nruns, capruns, nok;
	struct pair *p;
	size_t np, capp;
};

struct runagg *
runagg_new(double level)
{
	struct runagg *a = xcalloc(1, sizeof(*a));

	a->level = level;
	return a;
}

void
runagg_free(struct runagg *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nruns; i++) {
		free(a->runs[i].label);
		free(a->runs[i].error);
	}
	for (size_t i = 0; i < a->np; i++) {
		free(a->p[i].metric);
		free(a->p[i].unit);
		free(a->p[i].v);
	}
	free(a->runs);
	free(a->p);
	free(a);
}

static int
add_run(struct runagg *a, const char *label, const char *error)
{
	struct run *r;

	if (a->nruns >= RUNAGG_MAX_RUNS)
		return -1;
	if (a->nruns == a->capruns) {
		a->capruns = a->capruns ? a->capruns * 2 : 8;
		a->runs = xreallocarray(a->runs, a->capruns, sizeof(*a->runs));
	}
	r = &a->runs[a->nruns++];
	r->label = xstrdup(label);
	r->error = error ? xstrdup(error) : NULL;
	if (!error)
		a->nok++;
	return 0;
}

int
runagg_add_failed(struct runagg *a, const char *label, const char *error)
{
	return add_run(a, label, error ? error : "unknown error");
}

static struct pair *
find_pair(struct runagg *a, const char *metric, size_t mlen, const char *stat)
{
	for (size_t i = 0; i < a->np; i++) {
		struct pair *p = &a->p[i];

		if (p->stat == stat && strlen(p->metric) == mlen &&
		    !memcmp(p->metric, metric, mlen))
			return p;
	}
	return NULL;
}

static struct pair *
new_pair(struct runagg *a, const struct json *m, const char *stat)
{
	struct pair *p;
	size_t ulen = 0;
	const char *unit = json_str(json_get(m, "unit"), &ulen);

	if (a->np == a->capp) {
		a->capp = a->capp ? a->capp * 2 : 64;
		a->p = xreallocarray(a->p, a->capp, sizeof(*a->p));
	}
	p = &a->p[a->np++];
	memset(p, 0, sizeof(*p));
	p->metric = xmalloc(m->keylen + 1);
	memcpy(p->metric, m->key, m->keylen);
	p->metric[m->keylen] = '\0';
	p->stat = stat;
	p->unit = xmalloc(ulen + 1);
	if (ulen)
		memcpy(p->unit, unit, ulen);
	p->unit[ulen] = '\0';
	return p;
}

static void
pair_push(struct pair *p, double v)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 4;
		p->v = xreallocarray(p->v, p->cap, sizeof(*p->v));
	}
	p->v[p->n++] = v;
}

/* How many new pairs the run's metrics would add (bounded by the cap). */
/* A top-level member that is a metric: an object with a "unit", named
 * within MAX_NAME bytes and without NUL. */
static int
is_metric(const struct json *m)
{
	return m->type == JSON_OBJECT && json_get(m, "unit") &&
	       m->keylen <= MAX_NAME && !memchr(m->key, '\0', m->keylen);
}

static size_t
count_new(struct runagg *a, const struct json *root)
{
	size_t k = 0;

	for (const struct json *m = root->child; m; m = m->next) {
		if (!is_metric(m))
			continue;
		for (size_t s = 0; s < NSTATS; s++)
			if (json_is_num(json_get(m, stat_keys[s])) &&
			    !find_pair(a, m->key, m->keylen, stat_keys[s]))
				k++;
		if (a->np + k > RUNAGG_MAX_PAIRS)
			break;
	}
	return k;
}

/* The run's values into the pairs; returns how many it had. */
static size_t
take_values(struct runagg *a, const struct json *root)
{
	size_t got = 0;

	for (const struct json *m = root->child; m; m = m->next) {
		if (!is_metric(m))
			continue;
		for (size_t s = 0; s < NSTATS; s++) {
			const struct json *v = json_get(m, stat_keys[s]);
			struct pair *p;
			double d;

			if (json_double(v, &d) < 0 || !isfinite(d))
				continue;
			p = find_pair(a, m->key, m->keylen, stat_keys[s]);
			if (!p)
				p = new_pair(a, m, stat_keys[s]);
			pair_push(p, d);
			got++;
		}
	}
	return got;
}

int
runagg_add_json(struct runagg *a, const char *label, const char *text,
		size_t n, char *err, size_t errlen)
{
	struct json_doc *d = json_doc_new();
	const struct json *root;
	char why[200];
	int rc = -1;

	if (a->nruns >= RUNAGG_MAX_RUNS) {
		snprintf(err, errlen, "more than %d runs", RUNAGG_MAX_RUNS);
		goto out;
	}
	root = json_parse(d, text, n, why, sizeof(why));
	if (!root)
		snprintf(err, errlen, "invalid JSON: %s", why);
	else if (root->type != JSON_OBJECT)
		snprintf(err, errlen, "invalid JSON: not an object");
	else if (a->np + count_new(a, root) > RUNAGG_MAX_PAIRS)
		snprintf(err, errlen, "more than %d metric statistics",
			 RUNAGG_MAX_PAIRS);
	else if (!take_values(a, root))
		snprintf(err, errlen, "no metric in the run's JSON");
	else
		rc = 0;
	add_run(a, label, rc ? err : NULL);
out:
	json_doc_free(d);
	return rc;
}

size_t
runagg_runs(const struct runagg *a)
{
	return a->nruns;
}

size_t
runagg_successful(const struct runagg *a)
{
	return a->nok;
}

const char *
runagg_label(const struct runagg *a, size_t i, const char **error)
{
	if (i >= a->nruns)
		return NULL;
	if (error)
		*error = a->runs[i].error;
	return a->runs[i].label;
}

double
runagg_t_critical(double level, size_t n)
{
	if (n < 2)
		return NAN;
	return gsl_cdf_tdist_Pinv(1.0 - (1.0 - level) / 2.0, (double)(n - 1));
}

/* numpy's mean and std (ddof=1): pairwise sums aside, the same formulas. */
static void
pair_stats(struct pair *p, double level)
{
	double sum = 0, ss = 0;

	p->min = p->max = p->v[0];
	for (size_t i = 0; i < p->n; i++) {
		sum += p->v[i];
		p->min = fmin(p->min, p->v[i]);
		p->max = fmax(p->max, p->v[i]);
	}
	p->mean = sum / (double)p->n;
	for (size_t i = 0; i < p->n; i++)
		ss += (p->v[i] - p->mean) * (p->v[i] - p->mean);
	p->std = p->n > 1 ? sqrt(ss / (double)(p->n - 1)) : NAN;
	p->cv = p->mean != 0 ? p->std / p->mean : INFINITY;
	p->se = p->std / sqrt((double)p->n);
	p->t = runagg_t_critical(level, p->n);
	p->lo = p->mean - p->t * p->se;
	p->hi = p->mean + p->t * p->se;
}

int
runagg_finish(struct runagg *a, char *err, size_t errlen)
{
	size_t failed = a->nruns - a->nok;

	if (a->nok == 0) {
		snprintf(err, errlen, "All runs failed - cannot compute confidence "
			 "statistics. Total runs: %zu, Failed runs: %zu. Please check "
			 "the error messages in the logs and ensure your benchmark "
			 "configuration is correct.", a->nruns, failed);
		return -1;
	}
	if (a->nok < 2) {
		snprintf(err, errlen, "Insufficient successful runs for confidence "
			 "intervals. Got %zu successful run(s), but need at least 2. "
			 "Total runs: %zu, Failed runs: %zu. Consider increasing "
			 "--num-profile-runs or investigating why runs are failing.",
			 a->nok, a->nruns, failed);
		return -1;
	}
	for (size_t i = 0; i < a->np; i++)
		pair_stats(&a->p[i], a->level);
	return 0;
}

size_t
runagg_values(const struct runagg *a, const char *metric, const char *stat,
	      double *out, size_t max)
{
	for (size_t i = 0; i < a->np; i++) {
		const struct pair *p = &a->p[i];

		if (strcmp(p->metric, metric) || strcmp(p->stat, stat))
			continue;
		for (size_t k = 0; k < p->n && k < max; k++)
			out[k] = p->v[k];
		return p->n;
	}
	return 0;
}

static void
json_metadata(struct jw *w, const struct runagg *a)
{
	jw_key(w, "metadata");
	jw_obj(w);
	jw_key(w, "aggregation_type");
	jw_str(w, "confidence");
	jw_key(w, "num_profile_runs");
	jw_int(w, (int64_t)a->nruns);
	jw_key(w, "num_successful_runs");
	jw_int(w, (int64_t)a->nok);
	jw_key(w, "failed_runs");
	jw_arr(w);
	for (size_t i = 0; i < a->nruns; i++) {
		if (!a->runs[i].error)
			continue;
		jw_obj(w);
		jw_key(w, "label");
		jw_str(w, a->runs[i].label);
		jw_key(w, "error");
		jw_str(w, a->runs[i].error);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_key(w, "confidence_level");
	jw_double_py(w, a->level);
	jw_key(w, "run_labels");
	jw_arr(w);
	for (size_t i = 0; i < a->nruns; i++)
		if (!a->runs[i].error)
			jw_str(w, a->runs[i].label);
	jw_arr_end(w);
	jw_obj_end(w);
}

static void
json_pair(struct jw *w, const struct pair *p)
{
	const char *names[] = { "mean", "std", "min", "max", "cv", "se",
		"ci_low", "ci_high", "t_critical" };
	const double v[] = { p->mean, p->std, p->min, p->max, p->cv, p->se,
		p->lo, p->hi, p->t };
	char key[600];

	snprintf(key, sizeof(key), "%s_%s", p->metric, p->stat);
	jw_key(w, key);
	jw_obj(w);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		jw_key(w, names[i]);
		jw_double_py(w, v[i]);	/* infinities and NaN: null */
	}
	jw_key(w, "unit");
	jw_str(w, p->unit);
	jw_obj_end(w);
}

int
runagg_json(const struct runagg *a, const char *version, struct buf *out)
{
	struct jw w;
	size_t len0 = out->len;

	jw_init(&w, out, 2);
	jw_obj(&w);
	jw_key(&w, "schema_version");
	jw_str(&w, "1.0");
	jw_key(&w, "aiperf_version");
	jw_str(&w, version);
	json_metadata(&w, a);
	jw_key(&w, "metrics");
	jw_obj(&w);
	for (size_t i = 0; i < a->np; i++)
		json_pair(&w, &a->p[i]);
	jw_obj_end(&w);
	jw_obj_end(&w);
	/* a cap reached anywhere shows as output shorter than its brackets */
	return out->len > len0 && out->s[out->len - 1] == '}' ? 0 : -1;
}

/* Python's f"{v:.{d}f}", with "inf" and "-inf" (and "nan") as it writes them. */
static void
csv_num(FILE *f, double v, int decimals)
{
	char s[400];

	if (isnan(v))
		snprintf(s, sizeof(s), "nan");
	else if (isinf(v))
		snprintf(s, sizeof(s), "%s", v > 0 ? "inf" : "-inf");
	else
		snprintf(s, sizeof(s), "%.*f", decimals, v);
	csv_field(f, s, 0);
}

/* Python's repr() of a str, as str() of a list shows its items. */
static void
py_repr(struct buf *b, const char *s)
{
	int q = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';

	buf_addch(b, q);
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c == '\\' || *c == q)
			buf_addf(b, "\\%c", *c);
		else if (*c == '\n')
			buf_addstr(b, "\\n");
		else if (*c == '\r')
			buf_addstr(b, "\\r");
		else if (*c == '\t')
			buf_addstr(b, "\\t");
		else if (*c < 0x20 || *c == 0x7f)
			buf_addf(b, "\\x%02x", *c);
		else
			buf_addch(b, *c);
	}
	buf_addch(b, q);
}

static void
csv_metadata(const struct runagg *a, FILE *f)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	char num[64];
	int first = 1;

	fprintf(f, "Aggregation Type,confidence\r\nTotal Runs,%zu\r\n"
		"Successful Runs,%zu\r\n", a->nruns, a->nok);
	numfmt_repr(num, a->level, NUMFMT_PYREPR);
	fprintf(f, "Confidence Level,%s\r\n", num);
	buf_addch(&b, '[');
	for (size_t i = 0; i < a->nruns; i++) {
		if (a->runs[i].error)
			continue;
		if (!first)
			buf_addstr(&b, ", ");
		first = 0;
		py_repr(&b, a->runs[i].label);
	}
	buf_addch(&b, ']');
	fputs("Run Labels", f);
	csv_field(f, buf_str(&b), 0);
	fputs("\r\n", f);
	buf_release(&b);
}

void
runagg_csv(const struct runagg *a, FILE *f)
{
	fputs("metric,mean,std,min,max,cv,se,ci_low,ci_high,t_critical,unit\r\n", f);
	for (size_t i = 0; i < a->np; i++) {
		const struct pair *p = &a->p[i];
		char key[600];

		snprintf(key, sizeof(key), "%s_%s", p->metric, p->stat);
		csv_field(f, key, 1);
		csv_num(f, p->mean, 2);
		csv_num(f, p->std, 2);
		csv_num(f, p->min, 2);
		csv_num(f, p->max, 2);
		csv_num(f, p->cv, 4);
		csv_num(f, p->se, 4);
		csv_num(f, p->lo, 2);
		csv_num(f, p->hi, 2);
		csv_num(f, p->t, 4);
		csv_field(f, p->unit, 0);
		fputs("\r\n", f);
	}
	fputs("\r\n", f);
	csv_metadata(a, f);
}
