/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-validate: check an artifact directory: its files, their syntax, their counts, the summary against its records. */
#include "validate.h"

#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "opt.h"
#include "summary/runcfg.h"
#include "util.h"

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

static void
vrun_release(struct vrun *v)
{
	for (int k = 0; k < ART_N; k++)
		free(v->path[k]);
	free(v->inputs);
	json_doc_free(v->doc);
	agg_release(&v->a);
	acc_release(&v->acc);
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
main(int argc, char **argv)
{
	struct vrun v = { .failed = BUF_INIT(BUF_NOMAX) };
	char why[512] = "";

	util_setprogname(argv[0]);
	signal(SIGPIPE, SIG_IGN);
	agg_init(&v.a);
	acc_init(&v.acc);
	slices_init(&v.sl, 0);
	parse_args(argc, argv, &v);
	if (setup(&v, why, sizeof(why)) == 0) {
		vrun_check(&v, why);
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
