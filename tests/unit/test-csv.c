/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/dataset/csv (RFC 4180 records), field (bounds, int(), float()) and burst (BurstGPT rows). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "csvfield.h"
#include "test.h"
#include "dataset/burst.h"
#include "dataset/csv.h"
#include "dataset/field.h"
#include "util.h"

/* Feed text (split at '\n' as lines(3) splits) and join each record's
 * fields as "a|b|c;" into out; a failed feed appends "!E<errno>@line;"
 * and the end "!end". Returns out. */
static const char *records(const char *text, size_t len, size_t max,
			   size_t max_fields, char *out, size_t cap)
{
	struct csv c;
	size_t at = 0, lineno = 0, used = 0;

	out[0] = '\0';
	csv_init(&c, max, max_fields);
	while (at < len) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
		int rc = csv_feed(&c, text + at, n, ++lineno);

		if (rc < 0)
			used += (size_t)snprintf(out + used, cap - used, "!E%d@%zu;",
						 errno, c.lineno);
		for (size_t k = 0; rc == 1 && k < c.nf; k++)
			used += (size_t)snprintf(out + used, cap - used, "%s%s",
						 c.f[k], k + 1 < c.nf ? "|" : ";");
		at += n + (nl != NULL);
	}
	if (csv_end(&c) < 0)
		used += (size_t)snprintf(out + used, cap - used, "!end%d@%zu",
					 errno, c.lineno);
	csv_release(&c);
	return out;
}

static const char *rec(const char *text, char *out)
{
	return records(text, strlen(text), 1024, 16, out, 4096);
}

static void test_grammar(void)
{
	char out[4096];

	TEST_STR("plain fields", rec("a,b,c\nd,e,f\n", out), "a|b|c;d|e|f;");
	TEST_STR("empty fields", rec(",a,,\n", out), "|a||;");
	TEST_STR("quoted comma and quote", rec("\"a,b\",\"say \"\"hi\"\"\"\n", out),
		 "a,b|say \"hi\";");
	TEST_STR("quoted line break", rec("x,\"one\ntwo\",y\nz\n", out),
		 "x|one\ntwo|y;z;");
	TEST_STR("quoted CRLF kept", rec("\"a\r\nb\"\r\nc\r\n", out), "a\r\nb;c;");
	TEST_STR("CRLF line ends", rec("a,b\r\nc\r\n", out), "a|b;c;");
	TEST_STR("a bare CR inside is text", rec("a\rb,c\n", out), "a\rb|c;");
	TEST_STR("quote inside an unquoted field is text", rec("ab\"c,d\n", out),
		 "ab\"c|d;");
	TEST_STR("text after a closing quote is kept (Python)",
		 rec("\"ab\"cd,e\n", out), "abcd|e;");
	TEST_STR("space before a quote: unquoted", rec(" \"a\",b\n", out),
		 " \"a\"|b;");
	TEST_STR("empty quoted field", rec("\"\",x\n", out), "|x;");
	TEST_STR("blank lines between records skipped", rec("a\n\n  \r\nb\n", out),
		 "a;b;");
	TEST_STR("blank lines inside quotes kept", rec("\"a\n\n\"\n", out),
		 "a\n\n;");
	TEST_STR("a last line without a line break", rec("a,b", out), "a|b;");
	TEST_STR("a UTF-8 BOM dropped", rec("\xEF\xBB\xBFTimestamp,x\n1,2\n", out),
		 "Timestamp|x;1|2;");
	TEST_STR("a BOM later is text", rec("a\n\xEF\xBB\xBF" "b\n", out),
		 "a;\xEF\xBB\xBF" "b;");
	TEST_STR("an unclosed quote at the end", rec("a\n\"b,c\nd\n", out),
		 "a;!end84@2");
	TEST_STR("a doubled quote at the end of a line goes on",
		 rec("\"a\"\"\nb\"\n", out), "a\"\nb;");
}

static void test_bounds(void)
{
	char out[4096], big[300];

	memset(big, 'x', sizeof(big));
	memcpy(big + 200, "\ny,z\n", 5);
	TEST_STR("a record past max bytes, then the next",
		 records(big, 205, 64, 16, out, sizeof(out)), "!E105@1;y|z;");
	TEST_STR("more than max fields, then the next",
		 records("a,b,c,d,e\nf\n", 12, 64, 4, out, sizeof(out)), "!E7@1;f;");
	TEST_STR("exactly max fields", records("a,b,c,d\n", 8, 64, 4, out, sizeof(out)),
		 "a|b|c|d;");
	/* a runaway quote: reported once, where it started; memory stays bounded */
	memset(big, 'q', sizeof(big));
	big[0] = '"';
	for (int i = 20; i < 300; i += 20)
		big[i] = '\n';
	TEST_STR("a runaway quoted field: one error",
		 records(big, sizeof(big), 64, 16, out, sizeof(out)), "!E105@1;");
	TEST_STR("a NUL byte", records("a\0b,c\nd\n", 8, 64, 16, out, sizeof(out)),
		 "!E22@1;d;");
}

static void test_many_columns(void)
{
	struct csv c;
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct burst bu;
	char err[128];

	for (int i = 0; i < 100000; i++)
		buf_addf(&b, "c%d,", i);
	buf_addstr(&b, "Timestamp,\"Request tokens\",Response tokens");
	csv_init(&c, CSV_RECORD_MAX, CSV_FIELDS_MAX);
	TEST("100003 columns: one record", csv_feed(&c, b.s, b.len, 1) == 1 &&
	     c.nf == 100003);
	TEST("the required columns after 100000 others",
	     burst_header(&bu, &c, err, sizeof(err)) == 0 && bu.col[0] == 100000 &&
	     bu.col[2] == 100002);
	TEST("the last of a name counts", csv_feed(&c, "a,b,a", 5, 2) == 1 &&
	     csv_column(&c, "a") == 2 && csv_column(&c, "z") == -1);
	csv_release(&c);
	buf_release(&b);
}

/* Records written by csv_field() (Python's QUOTE_MINIMAL writer) read
 * back as they were, for random fields of commas, quotes, CR and LF. */
static int round_trip(unsigned seed)
{
	static const char alphabet[] = "ab ,\"\r\n";
	char field[8][12], *text = NULL, out[4096], want[4096] = "";
	size_t len = 0, used = 0;
	FILE *f = open_memstream(&text, &len);
	int nf, ok;

	srand(seed);
	nf = 1 + rand() % 8;
	for (int k = 0; k < nf; k++) {
		int n = rand() % 11;

		for (int i = 0; i < n; i++)
			field[k][i] = alphabet[rand() % 7];
		field[k][n] = '\0';
		csv_field(f, field[k], k == 0);
		used += (size_t)snprintf(want + used, sizeof(want) - used, "%s%s",
					 field[k], k + 1 < nf ? "|" : ";");
	}
	fputc('\n', f);
	fclose(f);
	/* a record of one blank field is no record (blank lines are skipped) */
	ok = (nf == 1 && strspn(field[0], " \r\n") == strlen(field[0])) ||
	     !strcmp(records(text, len, 1024, 16, out, sizeof(out)), want);
	if (!ok)
		printf("#   seed %u: got '%s', want '%s'\n", seed, out, want);
	free(text);
	return ok;
}

static void test_round_trip(void)
{
	unsigned seed = 1;

	while (seed <= 3000 && round_trip(seed))
		seed++;
	TEST("csv_field() records read back (3000 random)", seed > 3000);
}

static void test_field(void)
{
	int64_t v = 0;
	double d = 0;

	TEST("int: spaces and sign", field_int(" +12 ", &v) == 0 && v == 12);
	TEST("int: negative", field_int("-7", &v) == 0 && v == -7);
	TEST("int: no digits", field_int("+", &v) < 0 && field_int("", &v) < 0 &&
	     field_int("  ", &v) < 0);
	TEST("int: no double sign", field_int("+-5", &v) < 0 && field_int("--5", &v) < 0);
	TEST("int: no float", field_int("1.5", &v) < 0 && field_int("1e3", &v) < 0);
	TEST("int: past int64 saturates",
	     field_int("99999999999999999999999", &v) == 0 && v == INT64_MAX &&
	     field_int("-99999999999999999999999", &v) == 0 && v == INT64_MIN);
	TEST("int: int64 limits", field_int("9223372036854775807", &v) == 0 &&
	     v == INT64_MAX && field_int("-9223372036854775808", &v) == 0 &&
	     v == INT64_MIN);
	TEST("float: decimal and exponent", field_float(" 1.5e3\t", &d) == 0 && d == 1500);
	TEST("float: inf and nan parse", field_float("inf", &d) == 0 &&
	     field_float("NaN", &d) == 0);
	TEST("float: no hex, no junk", field_float("0x10", &d) < 0 &&
	     field_float("1.5s", &d) < 0 && field_float("", &d) < 0 &&
	     field_float("nan(1)", &d) < 0);
	TEST("float: 1e999 is inf", field_float("1e999", &d) == 0 &&
	     field_check(FIELD_SECONDS, d) != NULL);

	TEST_STR("tokens: negative", field_check(FIELD_TOKENS, -3), "must not be negative");
	TEST_STR("tokens: too many", field_check(FIELD_TOKENS, 1e8 + 1),
		 "must be at most 100000000");
	TEST("tokens: 0 and the max", !field_check(FIELD_TOKENS, 0) &&
	     !field_check(FIELD_TOKENS, 1e8));
	TEST_STR("ms: 1e300", field_check(FIELD_MS, 1e300),
		 "must be at most 9000000000000 (ms, about 285 years)");
	TEST("ms: the max fits int64 ns", !field_check(FIELD_MS, 9e12) &&
	     9e12 * 1e6 < 9223372036854775807.0);
	TEST_STR("ms: nan", field_check(FIELD_MS, NAN), "must be finite");
	TEST_STR("seconds: 1e308", field_check(FIELD_SECONDS, 1e308),
		 "must be at most 9000000000 (seconds, about 285 years)");
	TEST_STR("seconds: -inf", field_check(FIELD_SECONDS, -INFINITY), "must be finite");
	TEST("seconds: -0 is 0", !field_check(FIELD_SECONDS, -0.0));
}

static char ts_text[32];

static int row(const char *line, struct burst_row *r, char *err)
{
	struct csv c;
	struct burst b;
	int rc;
	const char *h = "Timestamp,Model,Request tokens,Response tokens";

	csv_init(&c, 1024, 16);
	rc = csv_feed(&c, h, strlen(h), 1) == 1 ? burst_header(&b, &c, err, 128) : -9;
	if (rc == 0 && (rc = csv_feed(&c, line, strlen(line), 2)) == 1)
		rc = burst_row(&b, &c, r, err, 128);
	if (rc == 1)
		snprintf(ts_text, sizeof(ts_text), "%s", r->ts_text);
	csv_release(&c);
	return rc;
}

static void test_burst(void)
{
	struct burst_row r;
	char err[128] = "";

	TEST("a row", row("1.5,m,3,4", &r, err) == 1 && r.ts == 1.5 && r.in == 3 &&
	     r.out == 4 && !strcmp(ts_text, "1.5"));
	TEST("unparsable rows are skipped", row("x,m,3,4", &r, err) == 0 &&
	     row("1,m,3.5,4", &r, err) == 0 && row("1,m,3", &r, err) == 0);
	TEST("a negative count is an error", row("1,m,-3,4", &r, err) == -1);
	TEST_STR("naming the column", err, "'Request tokens': must not be negative");
	TEST("a timestamp of 1e308 is an error", row("1e308,m,3,4", &r, err) == -1);
	TEST_STR("naming the column and the bound", err,
		 "'Timestamp': must be at most 9000000000 (seconds, about 285 years)");
	TEST("inf is an error, not skipped", row("inf,m,3,4", &r, err) == -1);
	TEST("a huge count is an error, not skipped",
	     row("1,m,3,99999999999999999999", &r, err) == -1);
	TEST_STR("its column", err, "'Response tokens': must be at most 100000000");
}

int main(void)
{
	test_grammar();
	test_bounds();
	test_many_columns();
	test_round_trip();
	test_field();
	test_burst();
	return TEST_DONE();
}
