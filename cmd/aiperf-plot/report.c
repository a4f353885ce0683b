/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-plot: one self-contained report.html (summary tables, inline SVG plots). */
#include "plot.h"

#include <math.h>
#include <string.h>

#include "util.h"

#define MAX_SVG ((size_t)64 << 20)
#define MAX_HTML ((size_t)1 << 30)

/* The rows of each run's table, in the console table's order. */
static const char *const rows[] = {
	"time_to_first_token", "time_to_second_token", "time_to_first_output_token",
	"request_latency", "inter_token_latency", "output_token_throughput_per_user",
	"output_sequence_length", "input_sequence_length", "output_token_throughput",
	"total_token_throughput", "request_throughput", "request_count",
	"error_request_count", "good_request_count", "goodput", NULL,
};

static const char *const cols[] = { "avg", "min", "max", "p50", "p90", "p99", "std", NULL };

/* Light and dark: the same page, colors from custom properties. A URL
 * fragment naming one figure (report.html#fig-pareto) shows that plot
 * alone, #plots every plot and nothing else: each at the top left, 1000
 * pixels wide, one under the other (24 pixels apart), as a screenshot
 * checks them. */
static const char css[] =
	":root{--bg:#ffffff;--fg:#1a1a1a;--muted:#555;--line:#d0d0d0;--head:#f0f0f0}\n"
	"body.dark{--bg:#121212;--fg:#e6e6e6;--muted:#aaa;--line:#3a3a3a;--head:#1e1e1e}\n"
	"body{background:var(--bg);color:var(--fg);font:14px/1.4 sans-serif;margin:16px 24px}\n"
	"h1{font-size:22px}h2{font-size:18px;border-bottom:1px solid var(--line)}\n"
	"p.meta{color:var(--muted)}a{color:inherit}\n"
	"table{border-collapse:collapse;margin:8px 0 20px}\n"
	"th,td{border:1px solid var(--line);padding:3px 8px;text-align:right}\n"
	"th{background:var(--head)}td:first-child,th:first-child{text-align:left}\n"
	"figure{margin:0 0 24px;max-width:1000px}\n"
	"figure svg{display:block;width:100%;height:auto}\n"
	"figcaption{color:var(--muted)}\n"
	"body:has(:target){margin:0}\n"
	"body:has(:target) header,body:has(:target) #summary,body:has(:target) #plots>h2,"
	"body:has(:target) figcaption,body:has(figure:target) figure:not(:target),"
	"body:has(:target) section.run>:not(figure){display:none}\n";

static void
esc(struct buf *b, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': buf_addstr(b, "&lt;"); break;
		case '>': buf_addstr(b, "&gt;"); break;
		case '&': buf_addstr(b, "&amp;"); break;
		case '"': buf_addstr(b, "&quot;"); break;
		default: buf_addch(b, *s);
		}
	}
}

static void
cell(struct buf *b, double v)
{
	if (isnan(v))
		buf_addstr(b, "<td></td>");
	else
		buf_addf(b, "<td>%.2f</td>", v);
}

static void
run_table(struct buf *b, const struct run *r)
{
	const struct json *m;
	int i, j;

	buf_addstr(b, "<h3>");
	esc(b, r->name);
	buf_addstr(b, "</h3>\n<p class=\"meta\">");
	esc(b, r->dir);
	if (r->nrecords || r->nerrors)
		buf_addf(b, ": %zu requests with records, %zu errors", r->nrecords, r->nerrors);
	else
		buf_addstr(b, ": summary only (no profile_export.jsonl)");
	if (r->concurrency >= 0)
		buf_addf(b, ", concurrency %lld", r->concurrency);
	if (r->from_stdin)
		buf_addstr(b, ". Metric records read on stdin: the summary below is computed "
			   "from them (numpy's linear percentiles, population std); no "
			   "timeslice, server or GPU plots");
	buf_addstr(b, "</p>\n");
	if (!r->agg)
		return;
	buf_addstr(b, "<table><tr><th>metric</th><th>unit</th>");
	for (j = 0; cols[j]; j++)
		buf_addf(b, "<th>%s</th>", cols[j]);
	buf_addstr(b, "</tr>\n");
	for (i = 0; rows[i]; i++) {
		if (!(m = json_get(r->agg, rows[i])) || m->type != JSON_OBJECT)
			continue;
		buf_addf(b, "<tr><td>%s</td><td>", rows[i]);
		esc(b, json_str_or(json_get(m, "unit"), ""));
		buf_addstr(b, "</td>");
		for (j = 0; cols[j]; j++)
			cell(b, run_stat(r, rows[i], cols[j]));
		buf_addstr(b, "</tr>\n");
	}
	buf_addstr(b, "</table>\n");
}

static void
compare_table(struct buf *b, struct run *const *runs, size_t n)
{
	static const struct { const char *head, *metric, *stat; } c[] = {
		{ "request/s", "request_throughput", "avg" },
		{ "output tok/s", "output_token_throughput", "avg" },
		{ "tok/s/user", "output_token_throughput_per_user", "avg" },
		{ "TTFT p50 ms", "time_to_first_token", "p50" },
		{ "TTFT p99 ms", "time_to_first_token", "p99" },
		{ "ITL p50 ms", "inter_token_latency", "p50" },
		{ "latency p50 ms", "request_latency", "p50" },
		{ "latency p99 ms", "request_latency", "p99" },
	};
	size_t i, j;

	buf_addstr(b, "<table><tr><th>run</th><th>concurrency</th>");
	for (j = 0; j < sizeof(c) / sizeof(*c); j++)
		buf_addf(b, "<th>%s</th>", c[j].head);
	buf_addstr(b, "</tr>\n");
	for (i = 0; i < n; i++) {
		buf_addstr(b, "<tr><td>");
		esc(b, runs[i]->name);
		buf_addstr(b, "</td>");
		if (runs[i]->concurrency >= 0)
			buf_addf(b, "<td>%lld</td>", runs[i]->concurrency);
		else
			buf_addstr(b, "<td></td>");
		for (j = 0; j < sizeof(c) / sizeof(*c); j++)
			cell(b, run_stat(runs[i], c[j].metric, c[j].stat));
		buf_addstr(b, "</tr>\n");
	}
	buf_addstr(b, "</table>\n");
}

/* The SVG element of dir/NAME.svg, its ids prefixed with NAME- so that
 * several plots live in one page. */
static int
inline_svg(struct buf *b, const char *dir, const char *name, const char *prefix)
{
	char *path = xstrfmt("%s/%s.svg", dir, name), *s, *p;
	static const char *const refs[] = { "id=\"", "href=\"#", "url(#", NULL };
	size_t n;
	int i;

	if (!(s = util_readfile(path, MAX_SVG, &n))) {
		error("cannot read '%s':", path);
		free(path);
		return -1;
	}
	free(path);
	for (p = strstr(s, "<svg"); p && *p;) {
		const char *hit = NULL;
		int which = -1;

		for (i = 0; refs[i]; i++) {
			const char *h = strstr(p, refs[i]);

			if (h && (!hit || h < hit)) {
				hit = h;
				which = i;
			}
		}
		if (!hit) {
			buf_addstr(b, p);
			break;
		}
		hit += strlen(refs[which]);
		buf_add(b, p, (size_t)(hit - p));
		buf_addf(b, "%s-", prefix);
		p = (char *)hit;
	}
	free(s);
	return 0;
}

/* Each figure of figs, rendered in dir/sub (sub NULL: dir itself). */
static int
figures(struct buf *b, const char *dir, const char *sub, const struct figs *figs)
{
	char *d = sub ? xstrfmt("%s/%s", dir, sub) : xstrdup(dir), *id, *pre;
	size_t i;
	int rc = 0;

	for (i = 0; i < figs->n && rc == 0; i++) {
		const struct fig *f = figs->v[i];

		pre = sub ? xstrfmt("%s/", sub) : xstrdup("");
		id = sub ? xstrfmt("%s-%s", sub, f->name) : xstrdup(f->name);
		for (char *c = id; *c; c++)	/* "runs/x-NAME" -> "runs-x-NAME" */
			if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			      (*c >= '0' && *c <= '9') || *c == '_' || *c == '-'))
				*c = '-';
		buf_addf(b, "<figure id=\"fig-%s\">\n", id);
		rc = inline_svg(b, d, f->name, id);
		buf_addstr(b, "\n<figcaption>");
		esc(b, f->title);
		buf_addstr(b, ": <a href=\"");
		esc(b, pre);
		buf_addf(b, "%s.png\">PNG</a>, <a href=\"", f->name);
		esc(b, pre);
		buf_addf(b, "%s.svg\">SVG</a>, <a href=\"", f->name);
		esc(b, pre);
		buf_addf(b, "data/%s.dat\">data</a></figcaption>\n</figure>\n", f->name);
		free(pre);
		free(id);
	}
	free(d);
	return rc;
}

/* Confidence intervals over the runs of aggregate/ (--num-profile-runs). */
static void
confidence_table(struct buf *b, const struct agg *a)
{
	static const char *const c[] = { "mean", "ci_low", "ci_high", "cv", NULL };
	const struct json *meta = json_get(a->root, "metadata"), *m;
	double level = NAN, v;
	int64_t k;
	int j;

	json_double(json_get(meta, "confidence_level"), &level);
	buf_addstr(b, "<h3>Confidence over runs</h3>\n<p class=\"meta\">");
	esc(b, a->dir);
	if (json_int64(json_get(meta, "num_successful_runs"), &k) == 0)
		buf_addf(b, ": %lld successful runs", (long long)k);
	if (json_int64(json_get(meta, "num_profile_runs"), &k) == 0)
		buf_addf(b, " of %lld", (long long)k);
	if (!isnan(level))
		buf_addf(b, ", %g%% confidence intervals", level * 100);
	buf_addstr(b, "</p>\n<table class=\"confidence\"><tr><th>metric</th>");
	for (j = 0; c[j]; j++)
		buf_addf(b, "<th>%s</th>", c[j]);
	buf_addstr(b, "<th>unit</th></tr>\n");
	for (m = json_get(a->root, "metrics")->child; m; m = m->next) {
		if (m->type != JSON_OBJECT)
			continue;
		buf_addstr(b, "<tr><td>");
		for (size_t i = 0; i < m->keylen; i++) {
			char one[2] = { m->key[i], 0 };

			esc(b, one);
		}
		buf_addstr(b, "</td>");
		for (j = 0; c[j]; j++) {
			const struct json *x = json_get(m, c[j]);

			if (json_double(x, &v) == 0)
				buf_addf(b, j == 3 ? "<td>%.4f</td>" : "<td>%.2f</td>", v);
			else	/* inf, as the CSV writes it */
				buf_addf(b, "<td>%s</td>", x && json_is_str(x) &&
					 !strcmp(json_str_or(x, ""), "inf") ? "inf" : "");
		}
		buf_addstr(b, "<td>");
		esc(b, json_str_or(json_get(m, "unit"), ""));
		buf_addstr(b, "</td></tr>\n");
	}
	buf_addstr(b, "</table>\n");
}

int
report_write(int at, const char *dir, struct run *const *runs, size_t n,
	     const struct figs *figs, const struct section *secs, const struct aggs *aggs,
	     enum theme theme, int refresh)
{
	struct buf b;
	size_t i, nplots = figs->n;
	int rc = 0;

	for (i = 0; secs && i < n; i++)
		nplots += secs[i].figs.n;
	buf_init(&b, MAX_HTML);
	buf_addstr(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
	buf_addf(&b, "<meta name=\"color-scheme\" content=\"%s\">\n",
		 theme == THEME_DARK ? "dark" : "light");
	if (refresh > 0)
		buf_addf(&b, "<meta http-equiv=\"refresh\" content=\"%d\">\n", refresh);
	buf_addf(&b, "<title>AIPerf report</title>\n<style>\n%s</style>\n</head>\n", css);
	buf_addf(&b, "<body class=\"%s\">\n<header>\n<h1>AIPerf report</h1>\n",
		 theme == THEME_DARK ? "dark" : "light");
	buf_addf(&b, "<p class=\"meta\">%zu run%s, %zu plots, made by aiperf-plot %s</p>\n"
		 "</header>\n<section id=\"summary\">\n<h2>Summary</h2>\n",
		 n, n == 1 ? "" : "s", nplots, AIPERF_VERSION);
	if (n == 0)
		buf_addstr(&b, "<p>No runs yet: waiting for profile_export_aiperf.json "
			   "in the watched folders.</p>\n");
	for (i = 0; aggs && i < aggs->n; i++)
		confidence_table(&b, &aggs->v[i]);
	if (n > 1)
		compare_table(&b, runs, n);
	for (i = 0; i < n; i++)
		run_table(&b, runs[i]);
	buf_addstr(&b, "</section>\n<section id=\"plots\">\n<h2>Plots</h2>\n");
	rc = figures(&b, dir, NULL, figs);
	for (i = 0; secs && i < n && rc == 0; i++) {
		if (!secs[i].sub)
			continue;
		buf_addf(&b, "<section class=\"run\" id=\"run-%zu\">\n<h2>Run ", i + 1);
		esc(&b, secs[i].run->name);
		buf_addstr(&b, "</h2>\n");
		run_table(&b, secs[i].run);
		rc = figures(&b, dir, secs[i].sub, &secs[i].figs);
		buf_addstr(&b, "</section>\n");
	}
	buf_addstr(&b, "</section>\n</body>\n</html>\n");
	if (rc == 0)
		rc = outdir_write(at, dir, "report.html", b.s, b.len);
	buf_release(&b);
	return rc;
}
