/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit inference (the original's server_metrics/units.py infer_unit; the
 * display name is the unit enum's member name in lower case with
 * "_per_second" written "/s").
 *
 * In order, the first that answers wins:
 *  1. a 0-1 range in the HELP text ("(0-1)", "0.0 to 1.0", "range 0-1",
 *     "1 = 100%") gives ratio, a 0-100 range percent (so a "_percent" name
 *     whose text says 0-1 is a ratio);
 *  2. "(in UNIT)" in the text with a known, case-sensitive UNIT (MiB, W,
 *     mJ, C, %, ...), else phrases like "in seconds", "(ms)", "in GB/s",
 *     "in tokens" (case-insensitive);
 *  3. the longest matching name suffix, case-insensitive (_seconds,
 *     _milliseconds, _ms, _bytes, _tokens_total, _total = count, _perc =
 *     percent, ... "request_success" = requests), else "num_requests_"
 *     anywhere in the name = requests.
 * Quirk kept: a counter named *_total without a better suffix is "count".
 */
#include "srvagg/unit.h"

#include <pthread.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "tok/pretok.h"

struct pat {
	const char *re;
	const char *unit;
	struct pretok_re *c;
};

static struct pat ratio_re = {
	"(?i)\\(0(?:\\.0)?\\s*(?:[-\xe2\x80\x93\xe2\x80\x94]+|to)\\s*1(?:\\.0)?\\)"
	"|\\b0(?:\\.0)?\\s*(?:[-\xe2\x80\x93\xe2\x80\x94]+|to)\\s*1(?:\\.0)?\\b"
	"|\\brange\\s+0(?:\\.0)?\\s*(?:[-\xe2\x80\x93\xe2\x80\x94]+|to)\\s*1(?:\\.0)?\\b"
	"|(?:\\b|\\()1(?:\\.0)?\\s*(?:means|is|equals?|==?)\\s*100\\s*(?:%|percent)",
	"ratio", NULL,
};

static struct pat percent_re = {
	"(?i)\\(0(?:\\.0)?\\s*(?:[-\xe2\x80\x93\xe2\x80\x94]+|to)\\s*100(?:\\.0)?\\)"
	"|\\brange\\s+0\\s*(?:[-\xe2\x80\x93\xe2\x80\x94]+|to)\\s*100\\b"
	"|\\b0\\s*(?:[-\xe2\x80\x93\xe2\x80\x94]+|to)\\s*100\\s*%",
	"percent", NULL,
};

static struct pat paren_re = { "\\(in\\s+[^\\s)]+\\)", NULL, NULL };

static struct pat desc_re[] = {
	{ "(?i)(?:\\bin\\s+|\\()seconds?(?:\\b|\\))", "seconds", NULL },
	{ "(?i)(?:\\bin\\s+|\\()(?:milliseconds?|ms)(?:\\b|\\))", "milliseconds", NULL },
	{ "(?i)(?:\\bin\\s+|\\()(?:nanoseconds?|ns)(?:\\b|\\))", "nanoseconds", NULL },
	{ "(?i)(?:\\bin\\s+|\\()bytes?(?:\\b|\\))", "bytes", NULL },
	{ "(?i)(?:\\bin\\s+|\\()GB/s(?:\\b|\\))", "gb/s", NULL },
	{ "(?i)(?:\\bin\\s+|\\()MB/s(?:\\b|\\))", "mb/s", NULL },
	{ "(?i)(?:\\bin\\s+|\\()tokens?/s(?:ec(?:ond)?)?(?:\\b|\\))", "tokens/s", NULL },
	{ "(?i)(?:\\bin\\s+|\\()requests?/s(?:ec(?:ond)?)?(?:\\b|\\))", "requests/s", NULL },
	{ "(?i)\\bin\\s+tokens?\\b", "tokens", NULL },
};

/* "(in UNIT)" tags, case-sensitive. */
static const char *const tags[][2] = {
	{ "MiB", "megabytes" }, { "GiB", "gigabytes" }, { "KiB", "kilobytes" },
	{ "B", "bytes" }, { "MB", "megabytes" }, { "GB", "gigabytes" },
	{ "KB", "kilobytes" }, { "TB", "terabytes" },
	{ "C", "celsius" }, { "\xc2\xb0" "C", "celsius" },
	{ "F", "fahrenheit" }, { "\xc2\xb0" "F", "fahrenheit" },
	{ "K", "kelvin" }, { "Hz", "hertz" }, { "MHz", "megahertz" },
	{ "GHz", "gigahertz" }, { "W", "watt" }, { "mW", "milliwatt" },
	{ "J", "joule" }, { "mJ", "millijoule" }, { "MJ", "megajoule" },
	{ "s", "seconds" }, { "sec", "seconds" }, { "ms", "milliseconds" },
	{ "ns", "nanoseconds" }, { "us", "microseconds" },
	{ "\xc2\xb5s", "microseconds" }, { "GB/s", "gb/s" }, { "MB/s", "mb/s" },
	{ "%", "percent" }, { "percent", "percent" },
};

/* Name suffixes, longest first as the original sorts them. */
static const char *const suffixes[][2] = {
	{ "_error_count_total", "errors" }, { "_requests_total", "requests" },
	{ "request_success", "requests" }, { "_seconds_total", "seconds" },
	{ "_milliseconds", "milliseconds" }, { "_tokens_total", "tokens" },
	{ "_errors_total", "errors" }, { "_blocks_total", "blocks" },
	{ "_nanoseconds", "nanoseconds" }, { "_bytes_total", "bytes" },
	{ "_error_count", "errors" }, { "_block_count", "blocks" },
	{ "_kilobytes", "kilobytes" }, { "_megabytes", "megabytes" },
	{ "_gigabytes", "gigabytes" }, { "_ms_total", "milliseconds" },
	{ "_ns_total", "nanoseconds" }, { "_requests", "requests" },
	{ "_seconds", "seconds" }, { "_percent", "percent" },
	{ "_celsius", "celsius" }, { "_tokens", "tokens" },
	{ "_errors", "errors" }, { "_blocks", "blocks" },
	{ "_joules", "joule" }, { "_bytes", "bytes" }, { "_total", "count" },
	{ "_count", "count" }, { "_ratio", "ratio" }, { "_watts", "watt" },
	{ "_reqs", "requests" }, { "_gb_s", "gb/s" }, { "_perc", "percent" },
	{ "_ms", "milliseconds" }, { "_ns", "nanoseconds" },
};

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void
compile(struct pat *p)
{
	char err[128];

	p->c = pretok_re_new(p->re, strlen(p->re), err, sizeof(err));
}

static void
setup(void)
{
	compile(&ratio_re);
	compile(&percent_re);
	compile(&paren_re);
	for (size_t i = 0; i < sizeof(desc_re) / sizeof(desc_re[0]); i++)
		compile(&desc_re[i]);
}

static int
found(const struct pat *p, const char *s, size_t *b, size_t *e)
{
	size_t b0, e0;

	return p->c && pretok_re_find(p->c, s, strlen(s), 0, b ? b : &b0,
				      e ? e : &e0);
}

static const char *
paren_unit(const char *help)
{
	size_t b, e;

	if (!found(&paren_re, help, &b, &e))
		return NULL;
	b += 3;			/* "(in" */
	while (help[b] && strchr(" \t\n\r\f\v", help[b]))
		b++;
	e--;			/* ")" */
	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++)
		if (strlen(tags[i][0]) == e - b && !strncmp(tags[i][0], help + b, e - b))
			return tags[i][1];
	return NULL;
}

static const char *
from_help(const char *help)
{
	const char *u;

	if (found(&ratio_re, help, NULL, NULL))
		return ratio_re.unit;
	if (found(&percent_re, help, NULL, NULL))
		return percent_re.unit;
	if ((u = paren_unit(help)))
		return u;
	for (size_t i = 0; i < sizeof(desc_re) / sizeof(desc_re[0]); i++)
		if (found(&desc_re[i], help, NULL, NULL))
			return desc_re[i].unit;
	return NULL;
}

static int
ends_with_ci(const char *s, size_t n, const char *suf)
{
	size_t k = strlen(suf);

	return n >= k && !strncasecmp(s + n - k, suf, k);
}

static int
contains_ci(const char *s, const char *needle)
{
	size_t k = strlen(needle);

	for (; *s; s++)
		if (!strncasecmp(s, needle, k))
			return 1;
	return 0;
}

const char *
srvagg_unit(const char *name, const char *help)
{
	const char *u;
	size_t n = strlen(name);

	pthread_once(&once, setup);
	if (help && *help && (u = from_help(help)))
		return u;
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if (ends_with_ci(name, n, suffixes[i][0]))
			return suffixes[i][1];
	if (contains_ci(name, "num_requests_"))
		return "requests";
	return NULL;
}
