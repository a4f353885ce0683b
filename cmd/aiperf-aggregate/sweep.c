/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-aggregate --sweep: each variation's runs read into its per-cell stats. */
#include "sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json/json.h"
#include "outfile.h"
#include "rundir.h"
#include "runagg.h"
#include "util.h"

#define JSON_MAX (64u << 20)	/* a run's summary JSON */

const char *const sweep_pct_names[9] = {
	"p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99",
};
struct result {			/* one run read */
	char *label, *error;	/* error NULL: successful */
	char *text;		/* its summary */
	size_t len;
};

static struct sweep_num
num_d(double d)
{
	return (struct sweep_num){ d, NULL };
}

/* v as the original's int | float field keeps it. */
static struct sweep_num
num_of(const struct json *v)
{
	struct sweep_num n = { 0, NULL };
	size_t i = v->str[0] == '-';

	(void)json_double(v, &n.d);
	while (i < v->len && v->str[i] >= '0' && v->str[i] <= '9')
		i++;
	if (i == v->len && v->len < 40)
		n.raw = xstrdup(v->str);
	if (n.raw)
		n.raw[v->len] = '\0';
	return n;
}

static void
num_free(struct sweep_num *n)
{
	free(n->raw);
}

/* A finite number member KEY of m into *d: 1, or 0. */
static int
member(const struct json *m, const char *key, double *d)
{
	const struct json *v = json_get(m, key);

	return v && v->type == JSON_NUMBER && json_double(v, d) == 0 && isfinite(*d);
}

/* The original's metric objects: members that are objects with a string unit. */
static int
is_metric(const struct json *m)
{
	return m->type == JSON_OBJECT && json_str(json_get(m, "unit"), NULL);
}

/* Why the original's executor counts summary root a failed run, or NULL. */
static const char *
summary_failure(const struct json *root, char *why, size_t n)
{
	const struct json *rc, *ec;
	double c = 0, e = 0;
	int any = 0;

	for (const struct json *m = root->child; m && !any; m = m->next)
		any = is_metric(m);
	if (!any)
		return "No metrics found in artifacts - run may have failed to complete";
	rc = json_get(root, "request_count");
	ec = json_get(root, "error_request_count");
	if (rc && is_metric(rc) && member(rc, "avg", &c) && c != 0)
		return NULL;
	if (ec && is_metric(ec) && member(ec, "avg", &e) && e > 0) {
		snprintf(why, n, "All %lld requests failed", (long long)e);
		return why;
	}
	return "No requests completed";
}

/* The run of plan run r into res: read, or failed with why. */
static void
read_run(struct result *res, const char *base, const struct sweepplan_run *r,
	 const char *export)
{
	char *dir = rundir_path(base, r->dir), *p, why[600];
	struct json_doc *d = NULL;
	const struct json *root;
	struct stat sb;
	const char *e;

	res->label = xmalloc(32);
	snprintf(res->label, 32, "run_%04zu", r->trial + 1);
	if (stat(dir, &sb) < 0 || !S_ISDIR(sb.st_mode)) {
		snprintf(why, sizeof(why), "no run directory '%s'", dir);
		goto failed;
	}
	if (rundir_failed(dir, why, sizeof(why)))
		goto failed;
	p = rundir_path(dir, export);
	res->text = util_readfile(p, JSON_MAX, &res->len);
	free(p);
	if (!res->text) {
		snprintf(why, sizeof(why), "%s %s: %s", errno == ENOENT ? "missing" :
			 "cannot read", export, util_strerror(errno));
		goto failed;
	}
	d = json_doc_new();
	root = json_parse(d, res->text, res->len, why, sizeof(why));
	if (!root || root->type != JSON_OBJECT) {
		if (root)
			snprintf(why, sizeof(why), "%s: not a JSON object", export);
		goto failed;
	}
	if ((e = summary_failure(root, why, sizeof(why)))) {
		if (e != why)
			snprintf(why, sizeof(why), "%s", e);
		goto failed;
	}
	json_doc_free(d);
	free(dir);
	return;
failed:
	warn("%s: %s", dir, why);
	res->error = xstrdup(why);
	free(res->text);
	res->text = NULL;
	json_doc_free(d);
	free(dir);
}

static struct sweep_metric *
metric_push(struct sweep_combo *c, const char *name, const char *unit)
{
	struct sweep_metric *m;

	c->m = xreallocarray(c->m, c->nm + 1, sizeof(*c->m));
	m = &c->m[c->nm++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	m->unit = xstrdup(unit);
	return m;
}

static void
point(struct sweep_metric *m, double v)
{
	m->mean = num_d(v);
	m->std = num_d(0);
	m->cv = num_d(0);
	m->lo = num_d(v);
	m->hi = num_d(v);
}

/* The original's _json_metric_to_stats: one trial's metric object m. */
static void
single_metric(struct sweep_combo *c, const struct json *m)
{
	const char *unit = json_str(json_get(m, "unit"), NULL);
	struct sweep_metric *sm;
	const struct json *v;
	double avg = 0, d;
	char *key = xmalloc(m->keylen + 1);

	memcpy(key, m->key, m->keylen);
	key[m->keylen] = '\0';
	sm = metric_push(c, key, unit);
	free(key);
	sm->single = 1;
	/* an accuracy entry has no avg (the original's has count and sum
	 * only, and its sweep reads 0 there): its ratio, ours, is the value */
	if (!member(m, "avg", &avg))
		(void)member(m, "accuracy", &avg);
	point(sm, avg);
	v = json_get(m, "min");
	sm->min = v && v->type == JSON_NUMBER ? num_of(v) : num_d(avg);
	v = json_get(m, "max");
	sm->max = v && v->type == JSON_NUMBER ? num_of(v) : num_d(avg);
	for (unsigned i = 0; i < 9; i++)
		if (member(m, sweep_pct_names[i], &d)) {
			sm->pct[i] = d;
			sm->have_pct |= 1u << i;
		}
	if ((v = json_get(m, "count")) && v->type == JSON_NUMBER) {
		sm->count = num_of(v);
		sm->have_count = 1;
	}
	if ((v = json_get(m, "sum")) && v->type == JSON_NUMBER) {
		sm->sum = num_of(v);
		sm->have_sum = 1;
	}
}

/* Combination c's metrics from one successful trial's summary. */
static void
from_summary(struct sweep_combo *c, const struct result *r)
{
	struct json_doc *d = json_doc_new();
	char err[200];
	const struct json *root = json_parse(d, r->text, r->len, err, sizeof(err));

	for (const struct json *m = root ? root->child : NULL; m; m = m->next) {
		if (is_metric(m))
			single_metric(c, m);
	}
	json_doc_free(d);
}

static void
from_runagg(struct sweep_combo *c, const struct runagg *a)
{
	struct runagg_stat st;
	char key[600];

	for (size_t i = 0; runagg_stat(a, i, &st); i++) {
		struct sweep_metric *m;

		snprintf(key, sizeof(key), "%s_%s", st.metric, st.stat);
		m = metric_push(c, key, st.unit);
		m->mean = num_d(st.mean);
		m->std = num_d(st.std);
		m->min = num_d(st.min);
		m->max = num_d(st.max);
		m->cv = num_d(st.cv);
		m->lo = num_d(st.lo);
		m->hi = num_d(st.hi);
	}
}


struct var_ctx {
	const struct sweepplan *p;
	size_t v;
};

/* The original's per-variation metadata: cooldown_seconds (the plan's,
 * 0 when it has none), variation_label, variation_values, sweep_mode. */
static void
var_metadata(struct jw *w, void *ctx)
{
	const struct var_ctx *c = ctx;
	const struct json *cd = json_get(c->p->root, "cooldown_seconds");
	double d = 0;

	if (cd && cd->type == JSON_NUMBER)
		(void)json_double(cd, &d);
	jw_key(w, "cooldown_seconds");
	jw_double_py(w, d);
	jw_key(w, "variation_label");
	jw_str(w, c->p->vars[c->v].label);
	jw_key(w, "variation_values");
	jw_obj(w);
	for (const struct json *m = c->p->vars[c->v].values->child; m; m = m->next) {
		jw_keyn(w, m->key, m->keylen);
		jw_value(w, m);
	}
	jw_obj_end(w);
	jw_key(w, "sweep_mode");
	jw_str(w, c->p->independent ? "independent" : "repeated");
}

static void
write_agg(const char *dir, const char *name, const struct runagg *a,
	  const char *version, struct var_ctx *vc)
{
	char *p = rundir_path(dir, name);
	struct outfile of;
	FILE *f = outfile_fopen(&of, AT_FDCWD, p);
	struct buf b = BUF_INIT(BUF_NOMAX);

	if (!f)
		die("cannot create '%s':", p);
	if (strstr(name, ".csv")) {
		runagg_csv(a, f);
	} else {
		runagg_json_with(a, version, &b, var_metadata, vc);
		fwrite(b.s, 1, b.len, f);
		fputc('\n', f);
	}
	if (outfile_commit(&of) < 0)
		die("cannot write '%s':", p);
	buf_release(&b);
	free(p);
}

/* The per-variation confidence aggregate of variation v, a's runs. */
static void
variation_aggregate(const struct sweep *s, size_t v, const char *base,
		    const struct runagg *a, const char *version)
{
	const char *dn = s->p->vars[v].dir_name;
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct var_ctx vc = { s->p, v };

	if (s->p->independent)
		buf_addf(&b, "%s/%s/aggregate", base, dn);
	else
		buf_addf(&b, "%s/aggregate/%s", base, dn);
	if (util_mkdirs(buf_str(&b)) < 0)
		die("cannot create '%s':", buf_str(&b));
	write_agg(buf_str(&b), "profile_export_aiperf_aggregate.json", a, version, &vc);
	write_agg(buf_str(&b), "profile_export_aiperf_aggregate.csv", a, version, &vc);
	buf_release(&b);
}

/* Variation v's runs (n of them, res) into a combination, if any is usable. */
static void
reduce(struct sweep *s, size_t v, struct result *res, size_t n,
       const char *base, const char *version)
{
	struct sweep_combo c = { v, NULL, 0 };
	struct runagg *a;
	size_t ok = 0, last = 0;
	char err[600];

	for (size_t i = 0; i < n; i++)
		if (!res[i].error)
			ok++, last = i;
	if (!ok)
		return;
	if (n == 1) {
		from_summary(&c, &res[last]);
	} else {
		a = runagg_new(s->p->level);
		runagg_allow_single(a);	/* the original's degraded single run */
		for (size_t i = 0; i < n; i++)
			if (res[i].error)
				(void)runagg_add_failed(a, res[i].label, res[i].error);
			else
				(void)runagg_add_json(a, res[i].label, res[i].text,
						      res[i].len, err, sizeof(err));
		if (runagg_finish(a, err, sizeof(err)) == 0) {
			from_runagg(&c, a);
			variation_aggregate(s, v, base, a, version);
		} else {
			warn("%s: %s", s->p->vars[v].label, err);
		}
		runagg_free(a);
	}
	s->c = xreallocarray(s->c, s->nc + 1, sizeof(*s->c));
	s->c[s->nc++] = c;
}

/* The variations with runs, in the order first met. */
static void
find_groups(struct sweep *s)
{
	unsigned char *seen = xcalloc(s->p->nvars + 1, 1);

	s->groups = xcalloc(s->p->nvars + 1, sizeof(*s->groups));
	for (size_t i = 0; i < s->p->nruns; i++) {
		size_t v = s->p->runs[i].variation;

		if (!seen[v]++)
			s->groups[s->ngroups++] = v;
	}
	free(seen);
}

static void
display_names(struct sweep *s)
{
	s->names = xcalloc(s->p->nparams + 1, sizeof(*s->names));
	for (size_t i = 0; i < s->p->nparams; i++)
		s->names[i] = xstrdup(s->p->params[i].name);
}

const char *
sweep_name_of(const struct sweep *s, const char *path)
{
	const char *dot;

	for (size_t i = 0; i < s->p->nparams; i++)
		if (s->p->params[i].path && !strcmp(s->p->params[i].path, path))
			return s->names[i];
	for (size_t i = 0; i < s->p->nparams; i++)
		if (!strcmp(s->p->params[i].name, path))
			return s->names[i];
	dot = strrchr(path, '.');
	return dot ? dot + 1 : path;
}

void
sweep_collect(struct sweep *s, const struct sweepplan *p, const char *base,
	      const char *export, const char *version)
{
	struct result *res = xcalloc(p->nruns + 1, sizeof(*res));

	memset(s, 0, sizeof(*s));
	s->p = p;
	s->nruns = p->nruns;
	find_groups(s);
	display_names(s);
	/* a variation at a time: only its runs' summaries in memory */
	for (size_t g = 0; g < s->ngroups; g++) {
		struct result *mine = xcalloc(p->nruns + 1, sizeof(*mine));
		size_t n = 0;

		for (size_t i = 0; i < p->nruns; i++) {
			if (p->runs[i].variation != s->groups[g])
				continue;
			read_run(&res[i], base, &p->runs[i], export);
			s->nok += !res[i].error;
			mine[n++] = res[i];
		}
		if (n > s->max_trials)
			s->max_trials = n;
		reduce(s, s->groups[g], mine, n, base, version);
		for (size_t i = 0; i < p->nruns; i++)
			if (p->runs[i].variation == s->groups[g]) {
				free(res[i].text);
				res[i].text = NULL;
			}
		free(mine);
	}
	s->f = xcalloc(p->nruns + 1, sizeof(*s->f));
	for (size_t i = 0; i < p->nruns; i++) {
		if (res[i].error) {
			s->f[s->nf].label = res[i].label;
			s->f[s->nf++].error = res[i].error;
		} else {
			free(res[i].label);
		}
		free(res[i].text);
	}
	free(res);
}

const struct sweep_metric *
sweep_find(const struct sweep_combo *c, const char *name)
{
	for (size_t i = 0; i < c->nm; i++)
		if (!strcmp(c->m[i].name, name))
			return &c->m[i];
	return NULL;
}

static void
metric_free(struct sweep_metric *m)
{
	free(m->name);
	free(m->unit);
	num_free(&m->min);
	num_free(&m->max);
	num_free(&m->count);
	num_free(&m->sum);
}

void
sweep_free(struct sweep *s)
{
	for (size_t i = 0; i < s->nc; i++) {
		for (size_t k = 0; k < s->c[i].nm; k++)
			metric_free(&s->c[i].m[k]);
		free(s->c[i].m);
	}
	free(s->c);
	for (size_t i = 0; i < s->nf; i++) {
		free(s->f[i].label);
		free(s->f[i].error);
	}
	free(s->f);
	for (size_t i = 0; i < s->p->nparams; i++)
		free(s->names[i]);
	free(s->names);
	free(s->groups);
}
