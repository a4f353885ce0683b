/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-validate: check an artifact directory: its files, their syntax, their counts, the summary against its records. */
#include "validate.h"

#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "lines.h"
#include "opt.h"
#include "rand/pystr.h"
#include "util.h"

#define MAX_LINE ((size_t)64 << 20)

enum { K_PFX = 256, K_LVL, K_GP, K_SLICE, K_HELP, K_VERSION };

static void
parse_args(int argc, char **argv, struct vrun *v)
{
	struct vopts *o = &v->o;
	struct opt tab[] = {
		{ "profile-export-prefix", K_PFX, OPT_STR, "prefix", OPT_TO(o->prefix) },
		{ "profile-export-file", K_PFX, .flags = OPT_ALIAS },
		{ "export-level", K_LVL, OPT_STR, "summary | records | raw", OPT_TO(o->level),
		  .flags = OPT_BR },
		{ "goodput", K_GP, OPT_STR, "slos", OPT_TO(o->goodput) },
		{ "slice-duration", K_SLICE, OPT_DOUBLE, "s", OPT_TO(o->slice), .lo = 1e-9,
		  .hi = 1e9, .flags = OPT_BR },
		{ "help", K_HELP, OPT_HELP, .flags = OPT_HIDE },
		{ "version", K_VERSION, OPT_VERSION, .flags = OPT_HIDE },
		{ 0 },
	};
	const struct opt_cmd cmd = { "aiperf-validate", tab, "dir", 0, NULL, NULL };
	struct opt_iter it;

	opt_init(&it, &cmd, argc, argv);
	while (opt_next(&it) != -1)
		;
	if (argc - it.ind != 1)
		die_usage("expected one artifact directory");
	v->dir = argv[it.ind];
	if (o->prefix && !artifacts_prefix_ok(o->prefix))
		die_usage("invalid value for --profile-export-prefix: '%s'", o->prefix);
	if (o->level && strcmp(o->level, "summary") && strcmp(o->level, "records") &&
	    strcmp(o->level, "raw"))
		die_usage("invalid value for --export-level: '%s' (summary, records or raw)",
			  o->level);
}

__attribute__((format(printf, 4, 5))) int
vrun_report(struct vrun *v, int st, const char *name, const char *fmt, ...)
{
	static const char *const word[] = { "FAIL", "ok", "skip" };
	va_list ap;

	printf("%s %s: ", word[st], name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	v->nchecks += st != V_SKIP;
	if (st == V_FAIL) {
		v->nfailed++;
		buf_addf(&v->failed, "%s%s", v->failed.len ? ", " : "", name);
	}
	return st;
}

/* path as the messages name it: relative to the directory checked. */
const char *
vrun_rel(const struct vrun *v, const char *path)
{
	size_t n = strlen(v->dir);

	if (!strncmp(path, v->dir, n) && path[n] == '/')
		return path + n + 1;
	return path;
}

int
vrun_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* A whole file as a JSON value in doc, or NULL with why. */
const struct json *
vrun_load_json(struct json_doc *doc, const char *path, char *why, size_t whylen)
{
	size_t n;
	char *s = util_readfile(path, MAX_TEXT, &n);

	if (!s) {
		util_seterr(why, whylen, "%s", util_strerror(errno));
		return NULL;
	}
	const struct json *j = json_parse(doc, s, n, why, whylen);
	free(s);	/* the doc copies what it keeps */
	return j;
}

double
vrun_avg(const struct json *sum, const char *tag)
{
	double v = 0;

	json_double(json_get(json_get(sum, tag), "avg"), &v);
	return v;
}

/* The configuration: options first, then the summary's input_config. */
static void
configure(struct vrun *v)
{
	static const char *const levels[] = { "summary", "records", "raw" };
	const struct json *out = json_get(v->cfg, "output");
	const char *lvl = v->o.level ? v->o.level
				     : json_str_or(json_get(out, "export_level"), "records");
	double slice = v->o.slice;

	v->lvl_from = v->o.level ? "--export-level"
		      : json_get(out, "export_level") ? "input_config" : "the default";
	v->lvl = LEVEL_RAW + 1;
	for (int i = LEVEL_SUMMARY; i <= LEVEL_RAW; i++)
		if (!strcmp(lvl, levels[i]))
			v->lvl = i;
	if (v->lvl > LEVEL_RAW) {
		v->lvl = LEVEL_RECORDS;
		vrun_report(v, V_FAIL, "config", "input_config.output.export_level is '%s' "
			    "(checked as records)", lvl);
	}
	if (!slice && json_double(json_get(out, "slice_duration"), &slice) == 0 &&
	    !(slice >= 1e-9 && slice <= 1e9)) {
		vrun_report(v, V_FAIL, "config", "input_config.output.slice_duration is %g", slice);
		slice = 0;
	}
	slices_init(&v->sl, slice);
}

/* input_config.input.goodput as --goodput text: a string, or an object's members. */
static char *
goodput_text(const struct json *g)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	if (g && g->type == JSON_STRING)
		buf_add(&b, g->str, g->len);
	for (const struct json *m = g && g->type == JSON_OBJECT ? g->child : NULL; m; m = m->next)
		buf_addf(&b, "%s%s:%.*s", b.len ? " " : "", m->key, (int)m->len,
			 m->type == JSON_NUMBER ? m->str : "?");
	return b.len ? buf_detach(&b, NULL) : (buf_release(&b), NULL);
}

static int
set_goodput(struct vrun *v)
{
	char why[512];
	const struct runcfg any = { 0 };	/* the run took them: no endpoint check */
	char *text = v->o.goodput ? xstrdup(v->o.goodput)
				  : goodput_text(json_path(v->cfg, "input.goodput"));
	int rc = 0;

	if (text && agg_goodput(&v->a, text, &any, why, sizeof(why)) < 0) {
		vrun_report(v, V_FAIL, "config", "goodput '%s': %s", text, why);
		rc = -1;
	}
	free(text);
	return rc;
}

static int
check_files(struct vrun *v)
{
	struct buf have = BUF_INIT(BUF_NOMAX), miss = BUF_INIT(BUF_NOMAX);
	static const char *const lvl[] = { "summary", "records", "raw" };

	for (int k = 0; k < ART_N; k++) {
		int want = artifacts_written(k, v->lvl, v->sl.width_ns != 0, 0);
		struct buf *b = vrun_exists(v->path[k]) ? &have : want ? &miss : NULL;
		if (b && (want || k == ART_SLICE_CSV || k == ART_SLICE_JSON))
			buf_addf(b, "%s%s", b->len ? ", " : "", vrun_rel(v, v->path[k]));
	}
	struct buf *in = vrun_exists(v->inputs) ? &have : &miss;
	buf_addf(in, "%s%s", in->len ? ", " : "", vrun_rel(v, v->inputs));
	if (miss.len)
		vrun_report(v, V_FAIL, "files", "missing %s (export level %s%s: %s)",
			    buf_str(&miss), lvl[v->lvl], v->sl.width_ns ? ", timeslices" : "",
			    v->lvl_from);
	else
		vrun_report(v, V_OK, "files", "%s (export level %s: %s)", buf_str(&have),
			    lvl[v->lvl], v->lvl_from);
	buf_release(&have);
	buf_release(&miss);
	return 0;
}

static int
check_json(struct vrun *v, const char *why)
{
	const char *name = vrun_rel(v, v->path[ART_JSON]);
	size_t n = 0;

	if (!vrun_exists(v->path[ART_JSON]))
		return vrun_report(v, V_SKIP, "json", "no %s", name);
	if (!v->sum)
		return vrun_report(v, V_FAIL, "json", "%s: %s", name, why);
	for (const struct json *m = v->sum->child; m; m = m->next)
		n += json_get(m, "unit") != NULL;
	return vrun_report(v, V_OK, "json", "%s parses (%zu metrics)", name, n);
}

static int
check_inputs(struct vrun *v)
{
	char why[256];
	struct json_doc *d = json_doc_new();
	int have = vrun_exists(v->inputs);
	const struct json *j = have ? vrun_load_json(d, v->inputs, why, sizeof(why)) : NULL;
	const struct json *data = json_get(j, "data");

	if (!have)
		vrun_report(v, V_SKIP, "inputs", "no inputs.json");
	else if (!j)
		vrun_report(v, V_FAIL, "inputs", "inputs.json: %s", why);
	else if (!data || data->type != JSON_ARRAY)
		vrun_report(v, V_FAIL, "inputs", "inputs.json has no \"data\" list");
	else
		vrun_report(v, V_OK, "inputs", "inputs.json parses (%zu sessions)", data->len);
	json_doc_free(d);
	return 0;
}

/* Read the records file into v->a (and the slices): 0, or -1 with why
 * ("N: reason", N the line). */
static int
read_records(struct vrun *v, const char *path, size_t *n, char *why, size_t whylen)
{
	struct lines l;
	const struct json *r;
	const char *s;
	size_t len;
	int rc = 0, k = 0;
	char sub[256];

	if (lines_open(&l, path, MAX_LINE) < 0)
		return util_seterr(why, whylen, " %s", util_strerror(errno));	/* "name: why" */
	while (!rc && (k = lines_next(&l, &s, &len)) == 1) {
		if (pystr_isblank(s, len))
			continue;
		int got = agg_line(&v->a, s, len, &r, sub, sizeof(sub));
		if (got == 1 && slices_add(&v->sl, &v->a, r, sub, sizeof(sub)) < 0)
			got = -1;
		if (got == 0)
			snprintf(sub, sizeof(sub), "a warmup record (the file holds profiling ones)");
		if (got != 1)
			rc = util_seterr(why, whylen, "%zu: %s", l.lineno, sub);
		*n += got == 1;
	}
	if (!rc && k < 0)
		rc = util_seterr(why, whylen, "%zu: %s", l.lineno,
				 errno == ENOBUFS ? "line too long" : util_strerror(errno));
	lines_close(&l);
	return rc;
}

static int
check_records(struct vrun *v)
{
	const char *name = vrun_rel(v, v->path[ART_RECORDS]);
	double rc = vrun_avg(v->sum, "request_count"), ec = vrun_avg(v->sum, "error_request_count");
	size_t n = 0;
	char why[512];

	if (v->lvl < LEVEL_RECORDS)
		return vrun_report(v, V_SKIP, "records", "export level summary writes none");
	if (!vrun_exists(v->path[ART_RECORDS]))
		return vrun_report(v, V_SKIP, "records", "no %s", name);
	if (read_records(v, v->path[ART_RECORDS], &n, why, sizeof(why)) < 0)
		return vrun_report(v, V_FAIL, "records", "%s:%s", name, why);
	v->have_records = 1;
	if (!v->sum)
		return vrun_report(v, V_OK, "records", "%s: %zu records", name, n);
	if ((double)v->a.valid != rc || (double)v->a.errors != ec)
		return vrun_report(v, V_FAIL, "records", "%s holds %zu valid and %zu error "
				   "records, the summary counts request_count %g, "
				   "error_request_count %g", name, v->a.valid, v->a.errors, rc, ec);
	return vrun_report(v, V_OK, "records", "%s: %zu records, as the summary counts "
			   "(request_count %g, error_request_count %g)", name, n, rc, ec);
}

static int
check_errors(struct vrun *v)
{
	const struct json *es = json_get(v->sum, "error_summary");
	double ec = vrun_avg(v->sum, "error_request_count"), total = 0, c;

	if (!v->sum)
		return vrun_report(v, V_SKIP, "errors", "no summary");
	if (!es || es->type != JSON_ARRAY)
		return vrun_report(v, V_FAIL, "errors", "the summary has no error_summary list");
	for (const struct json *g = es->child; g; g = g->next) {
		if (json_double(json_get(g, "count"), &c) < 0)
			return vrun_report(v, V_FAIL, "errors", "an error_summary entry has no count");
		total += c;
	}
	if (total != ec)
		return vrun_report(v, V_FAIL, "errors", "error_summary counts %g errors, "
				   "error_request_count %g", total, ec);
	return vrun_report(v, V_OK, "errors", "error_summary counts %g errors, as "
			   "error_request_count", total);
}

/* Each raw record parses; the profiling ones are at least the records. */
static int
check_raw(struct vrun *v)
{
	const char *name = vrun_rel(v, v->path[ART_RAW]);
	struct json_doc *d;
	size_t total = 0, prof = 0, len;
	const char *s;
	struct lines l;
	char err[128];
	int k = 0, bad = 0;

	if (v->lvl < LEVEL_RAW || !vrun_exists(v->path[ART_RAW]))
		return vrun_report(v, V_SKIP, "raw", "%s", v->lvl < LEVEL_RAW ?
				   "the export level writes none" : "no raw records file");
	if (lines_open(&l, v->path[ART_RAW], MAX_LINE) < 0)
		return vrun_report(v, V_FAIL, "raw", "%s: %s", name, util_strerror(errno));
	d = json_doc_new();
	while (!bad && (k = lines_next(&l, &s, &len)) == 1) {
		if (pystr_isblank(s, len))
			continue;
		json_doc_reset(d);
		const struct json *r = json_parse(d, s, len, err, sizeof(err));
		bad = !r ? 1 : r->type != JSON_OBJECT ? 2 : 0;
		total++;
		prof += !bad && strcmp(json_str_or(json_path(r, "metadata.benchmark_phase"), ""),
				       "warmup") != 0;
	}
	size_t line = l.lineno;
	lines_close(&l);
	json_doc_free(d);
	double want = vrun_avg(v->sum, "request_count") + vrun_avg(v->sum, "error_request_count");
	if (bad || k < 0)
		return vrun_report(v, V_FAIL, "raw", "%s:%zu: %s", name, line,
				   k < 0 ? "unreadable or too long" : bad == 1 ? err
				   : "not an object");
	if ((double)prof < want)
		return vrun_report(v, V_FAIL, "raw", "%s holds %zu profiling records, fewer "
				   "than the %g the summary counts", name, prof, want);
	return vrun_report(v, V_OK, "raw", "%s: %zu records, %zu profiling (the summary "
			   "counts %g)", name, total, prof, want);
}

static void
vrun_release(struct vrun *v)
{
	for (int k = 0; k < ART_N; k++)
		free(v->path[k]);
	free(v->inputs);
	json_doc_free(v->doc);
	agg_release(&v->a);
	slices_release(&v->sl);
	buf_release(&v->failed);
}

/* Find and parse the summary, settle the configuration. */
static int
setup(struct vrun *v, char *why, size_t whylen)
{
	struct stat st;

	errno = 0;
	int isdir = stat(v->dir, &st) == 0 && S_ISDIR(st.st_mode);

	if (!isdir) {
		vrun_report(v, V_FAIL, "dir", "'%s': %s", v->dir,
			    errno ? util_strerror(errno) : "not a directory");
		return -1;
	}
	for (int k = 0; k < ART_N; k++)
		v->path[k] = artifacts_path(v->dir, v->o.prefix, k);
	v->inputs = xstrfmt("%s/inputs.json", v->dir);
	v->doc = json_doc_new();
	if (vrun_exists(v->path[ART_JSON]))
		v->sum = vrun_load_json(v->doc, v->path[ART_JSON], why, whylen);
	if (v->sum && v->sum->type != JSON_OBJECT) {
		util_seterr(why, whylen, "not a JSON object");
		v->sum = NULL;
	}
	v->cfg = json_get(v->sum, "input_config");
	configure(v);
	set_goodput(v);
	return 0;
}

int
validate_main(int argc, char **argv)
{
	struct vrun v = { .failed = BUF_INIT(BUF_NOMAX) };
	char why[512] = "";

	agg_init(&v.a);
	slices_init(&v.sl, 0);
	parse_args(argc, argv, &v);
	if (setup(&v, why, sizeof(why)) == 0) {
		check_files(&v);
		check_json(&v, why);
		check_inputs(&v);
		check_records(&v);
		check_errors(&v);
		check_raw(&v);
		vrun_recompute(&v);
	}
	int rc = v.nfailed ? 1 : 0;
	if (util_fshut(stdout, "stdout") < 0)
		rc = 1;
	else if (v.nfailed)
		fprintf(stderr, "%s: %zu of %zu checks failed: %s\n", argv0, v.nfailed,
			v.nchecks, buf_str(&v.failed));
	vrun_release(&v);
	return rc;
}
