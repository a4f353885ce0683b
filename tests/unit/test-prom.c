/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/prom: real expositions, every sample form, hostile input. */
#include "prom/prom.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include "buf.h"
#include "util.h"

static struct prom p;
static char err[256];

/* Parse s (a C string) with limits lim; 0 or -1. */
static int
parse_lim(const char *s, const struct prom_limits *lim)
{
	prom_release(&p);
	return prom_parse(&p, s, strlen(s), lim, err, sizeof(err));
}

static int
parse(const char *s)
{
	return parse_lim(s, NULL);
}

static int
parse_file(const char *path)
{
	size_t n;
	char *t = util_readfile(path, 1 << 24, &n);
	int rc;

	prom_release(&p);
	if (!t) {
		snprintf(err, sizeof(err), "cannot read '%s'", path);
		return -1;
	}
	rc = prom_parse(&p, t, n, NULL, err, sizeof(err));
	free(t);
	return rc;
}

static const char *
label(const struct prom_series *s, const char *name)
{
	for (size_t i = 0; i < s->nlabels; i++)
		if (!strcmp(s->labels[i].name, name))
			return s->labels[i].value;
	return NULL;
}

/* The first series named name whose label lname is lval (lname NULL: any). */
static const struct prom_series *
find(const char *name, const char *lname, const char *lval)
{
	for (size_t i = 0; i < p.nser; i++) {
		const struct prom_series *s = &p.ser[i];
		const char *v = lname ? label(s, lname) : NULL;
		if (!strcmp(prom_series_name(&p, s), name) &&
		    (!lname || (v && !strcmp(v, lval))))
			return s;
	}
	return NULL;
}

static enum prom_type
type_of(const struct prom_series *s)
{
	return p.fam[s->family].type;
}

static int
warned(const char *needle)
{
	for (size_t i = 0; i < p.nwarn && i < PROM_MAX_WARN; i++)
		if (strstr(p.warn[i], needle))
			return 1;
	return 0;
}

static void
test_llamacpp(void)
{
	const char *shared = getenv("SHARED");
	char path[512];

	snprintf(path, sizeof(path), "%s/data/prometheus/llamacpp-b4748.txt",
		 shared ? shared : "../shared");
	TEST("llama.cpp: parses", parse_file(path) == 0);
	TEST("llama.cpp: 12 families, 12 series, no warning",
	     p.nfam == 12 && p.nser == 12 && p.nwarn == 0);
	const struct prom_series *s = find("llamacpp:prompt_tokens_total", NULL, NULL);
	TEST("llama.cpp: prompt tokens counter 2739",
	     s && type_of(s) == PROM_COUNTER && s->value == 2739);
	s = find("llamacpp:kv_cache_usage_ratio", NULL, NULL);
	TEST("llama.cpp: kv cache gauge", s && type_of(s) == PROM_GAUGE &&
	     s->value == 0.0581055);
	TEST_STR("llama.cpp: help text", p.fam[0].help,
		 "Number of prompt tokens processed.");
}

static void
test_vllm(void)
{
	TEST("vllm: parses", parse_file("tests/data/prometheus/vllm-v0.txt") == 0);
	TEST("vllm: 19 families, 25 series, no warning",
	     p.nfam == 19 && p.nser == 25 && p.nwarn == 0);
	const struct prom_series *s = find("vllm:time_to_first_token_seconds", NULL, NULL);
	TEST("vllm: ttft is one histogram with 17 buckets",
	     s && type_of(s) == PROM_HISTOGRAM && s->nbuckets == 17 && s->nlabels == 1);
	TEST("vllm: ttft count, sum, +Inf last",
	     s && s->count == 1 && s->sum == 0.31326723098754883 &&
	     isinf(s->buckets[16].le) && !strcmp(s->buckets[16].le_text, "+Inf") &&
	     s->buckets[9].le == 0.5 && s->buckets[9].count == 1 &&
	     s->buckets[8].count == 0);
	TEST_STR("vllm: le label removed, model kept", s ? label(s, "model_name") : NULL,
		 "facebook/opt-125m");
	s = find("vllm:request_success_total", "finished_reason", "length");
	TEST("vllm: request_success counter", s && type_of(s) == PROM_COUNTER &&
	     s->value == 1);
	s = find("vllm:engine_sleep_state", "sleep_state", "awake");
	TEST("vllm: a gauge with two labels", s && s->value == 1 && s->nlabels == 2);
	s = find("process_virtual_memory_bytes", NULL, NULL);
	TEST("vllm: exponent value", s && s->value == 6.634254336e+09);
}

static void
test_sglang_tgi_dcgm(void)
{
	TEST("sglang: parses", parse_file("tests/data/prometheus/sglang.txt") == 0);
	TEST("sglang: 11 families and series", p.nfam == 11 && p.nser == 11 && !p.nwarn);
	const struct prom_series *s = find("sglang:inter_token_latency_seconds", NULL, NULL);
	TEST("sglang: itl histogram", s && s->nbuckets == 2 && s->count == 31 &&
	     s->buckets[0].le == 0.01 && s->buckets[0].count == 31);

	TEST("tgi: parses", parse_file("tests/data/prometheus/tgi.txt") == 0);
	TEST("tgi: the summary is a warning, dropped", p.nwarn == 1 &&
	     warned("summary 'tgi_request_skipped_tokens' is not supported") &&
	     !find("tgi_request_skipped_tokens", NULL, NULL));
	s = find("tgi_request_inference_duration", NULL, NULL);
	TEST("tgi: histogram of 36 buckets", s && s->nbuckets == 36 &&
	     s->count == 109 && s->buckets[23].count == 83);
	s = find("tgi_batch_inference_success", "method", "decode");
	TEST("tgi: labelled counter", s && s->value == 1509);
	TEST("tgi: 9 series", p.nser == 9);

	TEST("dcgm: parses", parse_file("tests/data/prometheus/dcgm-exporter.txt") == 0);
	TEST("dcgm: 15 series", p.nser == 15 && p.nwarn == 0);
	s = find("DCGM_FI_DEV_POWER_USAGE", "gpu", "0");
	TEST("dcgm: power gauge and identity labels", s && s->value == 8.969 &&
	     type_of(s) == PROM_GAUGE && label(s, "UUID") &&
	     !strcmp(label(s, "modelName"), "Tesla T4") &&
	     !strcmp(label(s, "Hostname"), "424773df46e0"));
	s = find("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", NULL, NULL);
	TEST("dcgm: energy counter", s && type_of(s) == PROM_COUNTER &&
	     s->value == 128996013);
	s = find("DCGM_FI_PROF_DRAM_ACTIVE", NULL, NULL);
	TEST("dcgm: kubernetes labels", s && !strcmp(label(s, "pod"), "ray-1111111"));
}

static void
test_forms(void)
{
	TEST("escapes: parses", parse("a{x=\"q\\\"b\\\\s\\nn\"} 1\n") == 0);
	TEST_STR("escapes: \\\" \\\\ \\n unescaped", p.nser ? p.ser[0].labels[0].value : NULL,
		 "q\"b\\s\nn");
	TEST("special values", parse("a NaN\nb +Inf\nc -Inf\nd -0.5e-3\n") == 0 &&
	     p.nser == 4 && isnan(p.ser[0].value) && isinf(p.ser[1].value) &&
	     p.ser[1].value > 0 && p.ser[2].value < 0 && p.ser[3].value == -0.5e-3);
	TEST("timestamp kept", parse("a 1 1712345678901\n") == 0 &&
	     (p.ser[0].have & PROM_HAVE_TS) && p.ser[0].ts == 1712345678901.0);
	TEST("exemplar tolerated", parse("# TYPE h histogram\n"
		"h_bucket{le=\"1\"} 2 # {trace_id=\"abc\"} 0.5 1712345678.1\n"
		"h_bucket{le=\"+Inf\"} 3\nh_sum 4\nh_count 3\n") == 0 &&
	     p.nser == 1 && p.ser[0].nbuckets == 2 && p.nwarn == 0);
	TEST("counter _total and info _info", parse("# TYPE c counter\nc_total 5\n"
		"# TYPE v info\nv_info{version=\"1.2\"} 1\n") == 0 &&
	     p.nser == 2 && type_of(&p.ser[0]) == PROM_COUNTER &&
	     !strcmp(prom_series_name(&p, &p.ser[0]), "c") &&
	     type_of(&p.ser[1]) == PROM_INFO);
	TEST("untyped, blank lines, comments, CRLF, trailing comma, spaces",
	     parse("\n# a comment\n  x{a=\"1\",} 2\r\n\t\ny { b = \"2\" }\t3\n") == 0 &&
	     p.nser == 2 && type_of(&p.ser[0]) == PROM_UNTYPED &&
	     p.ser[1].value == 3);
	TEST("# EOF stops, later text warned", parse("a 1\n# EOF\nb 2\n") == 0 &&
	     p.nser == 1 && warned("after # EOF"));
	TEST("# EOF alone is quiet", parse("a 1\n# EOF\n") == 0 && p.nwarn == 0);
	TEST("no final newline", parse("a 1") == 0 && p.nser == 1);
	TEST("buckets out of order are sorted", parse("# TYPE h histogram\n"
		"h_bucket{le=\"+Inf\"} 3\nh_bucket{le=\"10\"} 2\nh_bucket{le=\"1\"} 1\n") == 0 &&
	     p.ser[0].nbuckets == 3 && p.ser[0].buckets[0].le == 1 &&
	     isinf(p.ser[0].buckets[2].le));
	TEST("labels of a histogram in any order are one series",
	     parse("# TYPE h histogram\nh_bucket{a=\"1\",le=\"1\"} 1\n"
		   "h_bucket{le=\"+Inf\",a=\"1\"} 2\nh_count{a=\"1\"} 2\n") == 0 &&
	     p.nser == 1 && p.ser[0].nbuckets == 2 && (p.ser[0].have & PROM_HAVE_COUNT));
	TEST("HELP: blanks after the name skipped, \\\\ and \\n unescaped",
	     parse("# HELP a   two\\nlines \\\\ and \\x\na 1\n") == 0 &&
	     !strcmp(p.fam[0].help, "two\nlines \\ and \\x"));
	TEST("_created samples dropped", parse("# TYPE c counter\nc_total 1\n"
		"c_created 1.7e9\n") == 0 && p.nser == 1 && p.nwarn == 0);
}

static void
test_semantic_warnings(void)
{
	TEST("duplicate series: warned, first kept",
	     parse("a{x=\"1\"} 1\na{x=\"1\"} 2\n") == 0 && p.nser == 1 &&
	     p.ser[0].value == 1 && p.fam[0].dups == 1 && p.nwarn == 1 &&
	     warned("1 duplicate sample of 'a' dropped: the first of each series kept"));
	TEST("duplicate bucket warned", parse("# TYPE h histogram\n"
		"h_bucket{le=\"1\"} 1\nh_bucket{le=\"1.0\"} 2\nh_bucket{le=\"+Inf\"} 2\n") == 0 &&
	     p.ser[0].nbuckets == 2 && p.fam[0].dups == 1 &&
	     warned("1 duplicate sample of 'h' dropped"));
	TEST("duplicates: one warning a family, not one a sample",
	     parse("a 1\na 2\nb{x=\"1\"} 1\nb{x=\"1\"} 1\nb{x=\"2\"} 1\nb{x=\"2\"} 1\n"
		   "# TYPE h histogram\nh_count 1\nh_count 2\nh_bucket{le=\"+Inf\"} 1\n"
		   "h_bucket{le=\"+Inf\"} 1\nc 1\n") == 0 &&
	     p.nwarn == 3 && p.fam[0].dups == 1 && p.fam[1].dups == 2 && p.fam[2].dups == 2 &&
	     warned("2 duplicate samples of 'b' dropped") &&
	     warned("2 duplicate samples of 'h' dropped") && p.nser == 5);
	TEST("plain sample of a histogram family: wrong type warned",
	     parse("# TYPE h histogram\nh 5\n") == 0 && p.nser == 0 &&
	     warned("does not fit histogram"));
	TEST("histogram without +Inf warned", parse("# TYPE h histogram\n"
		"h_bucket{le=\"1\"} 1\n") == 0 && warned("no +Inf bucket"));
	TEST("decreasing buckets warned", parse("# TYPE h histogram\n"
		"h_bucket{le=\"1\"} 5\nh_bucket{le=\"+Inf\"} 2\n") == 0 &&
	     warned("decreasing"));
	TEST("bucket without le warned", parse("# TYPE h histogram\nh_bucket 1\n") == 0 &&
	     warned("without a numeric le"));
	TEST("bucket with a bad le warned", parse("# TYPE h histogram\n"
		"h_bucket{le=\"abc\"} 1\n") == 0 && warned("without a numeric le"));
	TEST("second TYPE warned, first kept", parse("# TYPE a gauge\n# TYPE a counter\n"
		"a 1\n") == 0 && type_of(&p.ser[0]) == PROM_GAUGE && warned("second") == 0 &&
	     warned("after its first TYPE"));
	TEST("TYPE after samples warned", parse("a 1\n# TYPE a gauge\n") == 0 &&
	     warned("after its samples"));
	TEST("second HELP warned", parse("# HELP a x\n# HELP a y\na 1\n") == 0 &&
	     !strcmp(p.fam[0].help, "x") && warned("second HELP"));
	TEST("summary warned once", parse("# TYPE s summary\ns{quantile=\"0.5\"} 1\n"
		"s_sum 2\ns_count 3\n") == 0 && p.nwarn == 1 && p.nser == 0);
}

static int
rejects(const char *s, const char *why)
{
	int rc = parse(s);

	if (rc == 0 || !strstr(err, why)) {
		printf("#   input '%s': rc %d err '%s', want '%s'\n", s, rc, err, why);
		return 0;
	}
	return 1;
}

static void
test_errors(void)
{
	TEST("bad escape", rejects("a{x=\"\\t\"} 1\n", "line 1: bad escape '\\t'"));
	TEST("truncated in a label value", rejects("a 1\nb{x=\"ab", "line 2: unterminated"));
	TEST("truncated after a name", rejects("a 1\nvllm:foo", "no value"));
	TEST("truncated in labels", rejects("a{x=\"1\"", "expected ',' or '}'"));
	TEST("bad value", rejects("a 1x\n", "bad value"));
	TEST("hex value refused", rejects("a 0x10\n", "bad value"));
	TEST("bad timestamp", rejects("a 1 zz\n", "bad timestamp"));
	TEST("text after timestamp", rejects("a 1 2 3\n", "unexpected text"));
	TEST("bad metric name", rejects("1a 1\n", "bad metric name"));
	TEST("bad label name", rejects("a{1x=\"1\"} 1\n", "bad label name"));
	TEST("label without =", rejects("a{x\"1\"} 1\n", "expected =\"value\""));
	TEST("repeated label", rejects("a{x=\"1\",x=\"2\"} 1\n", "repeated"));
	TEST("unknown type", rejects("# TYPE a widget\n", "unknown type 'widget'"));
	TEST("TYPE without type", rejects("# TYPE a\n", "unknown type"));
	prom_release(&p);
	TEST("NUL byte", prom_parse(&p, "a 1\0\n", 5, NULL, err, sizeof(err)) < 0 &&
	     strstr(err, "NUL"));
	TEST("invalid UTF-8 in a label value", rejects("a{x=\"\xff\"} 1\n", "not UTF-8"));
	TEST("overlong UTF-8", rejects("a{x=\"\xc0\xaf\"} 1\n", "not UTF-8"));
	TEST("exemplar without a blank", rejects("a 1#{}\n", "bad value"));
}

static void
test_limits(void)
{
	struct prom_limits lim = prom_default_limits;
	struct buf b = BUF_INIT(BUF_NOMAX);

	lim.max_line = 16;
	TEST("line limit", parse_lim("a{x=\"0123456789abc\"} 1\n", &lim) < 0 &&
	     strstr(err, "longer than 16 bytes"));
	lim = prom_default_limits;
	lim.max_labels = 2;
	TEST("label limit", parse_lim("a{x=\"1\",y=\"2\",z=\"3\"} 1\n", &lim) < 0 &&
	     strstr(err, "more than 2 labels"));
	lim = prom_default_limits;
	lim.max_series = 10;
	for (int i = 0; i < 50; i++)
		buf_addf(&b, "m{i=\"%d\"} %d\n", i, i);
	TEST("series limit: kept 10, one warning", parse_lim(b.s, &lim) == 0 &&
	     p.nser == 10 && p.nwarn == 1 && warned("more than 10 series"));
	buf_reset(&b);
	for (int i = 0; i < 50; i++)
		buf_addf(&b, "m%d %d\n", i, i);
	TEST("family limit bounds families too", parse_lim(b.s, &lim) == 0 &&
	     p.nser == 10 && p.nfam <= 10 + 1024);

	/* Not quadratic in one histogram's buckets (and duplicates of them). */
	buf_reset(&b);
	buf_addstr(&b, "# TYPE h histogram\n");
	for (int i = 200000; i > 0; i--)
		buf_addf(&b, "h_bucket{le=\"%d\"} %d\n", i, i);
	for (int i = 0; i < 100000; i++)
		buf_addstr(&b, "h_bucket{le=\"+Inf\"} 200001\n");
	TEST("200k buckets, 100k repeated +Inf: sorted, deduplicated",
	     parse_lim(b.s, NULL) == 0 && p.nser == 1 && p.ser[0].nbuckets == 200001 &&
	     p.ser[0].buckets[0].le == 1 && p.ser[0].buckets[199999].count == 200000 &&
	     p.nwarn == 1 && p.fam[0].dups == 99999 &&
	     warned("99999 duplicate samples of 'h' dropped"));

	buf_release(&b);

	/* A 100 MB body is refused before it is read. */
	size_t big = 100u << 20;
	char *t = xmalloc(big);
	memset(t, 'a', big);
	prom_release(&p);
	TEST("100 MB body refused", prom_parse(&p, t, big, NULL, err, sizeof(err)) < 0 &&
	     strstr(err, "larger than the limit"));
	lim = prom_default_limits;
	lim.max_body = big;
	prom_release(&p);
	TEST("100 MB line past the line limit", prom_parse(&p, t, big, &lim, err,
							   sizeof(err)) < 0 &&
	     strstr(err, "line 1: line longer"));
	free(t);
	TEST("warnings past PROM_MAX_WARN are counted, not kept",
	     parse("# TYPE h histogram\nh 1\nh 1\nh 1\nh 1\nh 1\nh 1\nh 1\nh 1\nh 1\nh 1\n"
		   "h 1\nh 1\nh 1\nh 1\nh 1\nh 1\nh 1\nh 1\nh 1\nh 1\n"
		   "h_bucket{le=\"+Inf\"} 1\n") == 0 && p.nwarn == 20 &&
	     p.warn[PROM_MAX_WARN - 1] != NULL);
}

int
main(void)
{
	prom_init(&p);
	test_llamacpp();
	test_vllm();
	test_sglang_tgi_dcgm();
	test_forms();
	test_semantic_warnings();
	test_errors();
	test_limits();
	prom_release(&p);
	return TEST_DONE();
}
