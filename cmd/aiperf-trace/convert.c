/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-trace convert: BurstGPT, Azure and Alibaba bailian traces to mooncake JSONL. */
#include "buf.h"
#include "dataset/burst.h"
#include "dataset/csv.h"
#include "dataset/field.h"
#include "json/json.h"
#include "tt.h"
#include "util.h"
#include "ttconv.h"

enum from { FROM_NONE, FROM_BURSTGPT, FROM_AZURE, FROM_BAILIAN };

struct csvconv {
	enum from from;
	int rebase;
	int header_seen;
	long col[3];		/* timestamp, input, output column numbers */
	int have_t0;
	int64_t t0;
	struct csv csv;
	struct burst burst;
	const char *name;	/* the input being read */
	struct buf out;
};

static const char *const azure_cols[3] = {
	"TIMESTAMP", "ContextTokens", "GeneratedTokens",
};

static void find_columns(struct csvconv *c, const char *name)
{
	char err[256];

	c->header_seen = 1;
	if (c->from == FROM_BURSTGPT) {
		if (burst_header(&c->burst, &c->csv, err, sizeof(err)) < 0)
			die("%s:%zu: %s", name, c->csv.lineno, err);
		return;
	}
	for (int k = 0; k < 3; k++)
		if ((c->col[k] = csv_column(&c->csv, azure_cols[k])) < 0)
			die("%s:%zu: Missing required column '%s'", name,
			    c->csv.lineno, azure_cols[k]);
}

/* Write {"timestamp": ms, "input_length": i, "output_length": o}; rebased,
 * a row earlier than the first would be negative, which no reader takes. */
static void emit_row(struct csvconv *c, int64_t t_ns, int64_t in, int64_t out)
{
	struct jw w;

	if (!c->have_t0) {
		c->t0 = c->rebase ? t_ns : 0;
		c->have_t0 = 1;
	}
	if (t_ns < c->t0)
		die("%s:%zu: '%s': earlier than the first row's: rebased, it would "
		    "be negative%s", c->name, c->csv.lineno,
		    c->from == FROM_AZURE ? "TIMESTAMP" : "Timestamp",
		    c->from == FROM_AZURE ? " (the trace is not in time order)" :
		    " (--no-rebase keeps the source's times)");
	buf_reset(&c->out);
	jw_init(&w, &c->out, 0);
	jw_obj(&w);
	jw_key(&w, "timestamp");
	tt_write_ms(&w, t_ns - c->t0);
	jw_key(&w, "input_length");
	jw_int(&w, in);
	jw_key(&w, "output_length");
	jw_int(&w, out);
	jw_obj_end(&w);
	buf_addch(&c->out, '\n');
	if (fwrite(c->out.s, 1, c->out.len, stdout) != c->out.len)
		die_write();
}

/* A BurstGPT row (lib/dataset/burst: unparsable rows are skipped, as
 * aiperf-gen skips them); its timestamp's text read exactly. */
static void burst_record(struct csvconv *c, const char *name)
{
	struct burst_row r;
	char err[256];
	int64_t t;
	int rc = burst_row(&c->burst, &c->csv, &r, err, sizeof(err));

	if (rc < 0)
		die("%s:%zu: %s", name, c->csv.lineno, err);
	if (!rc)
		return;
	if (tt_parse_seconds((char *)r.ts_text, &t) < 0)
		die("%s:%zu: 'Timestamp': cannot read '%s' exactly", name,
		    c->csv.lineno, r.ts_text);
	emit_row(c, t, r.in, r.out);
}

/* A token count of an Azure row: an integer within FIELD_TOKENS. */
static int64_t azure_count(struct csvconv *c, int k, const char *name)
{
	const char *why;
	int64_t v;

	if (field_int(c->csv.f[c->col[k]], &v) < 0)
		die("%s:%zu: bad token count", name, c->csv.lineno);
	if ((why = field_check(FIELD_TOKENS, (double)v)))
		die("%s:%zu: '%s': %s", name, c->csv.lineno, azure_cols[k], why);
	return v;
}

static void azure_record(struct csvconv *c, const char *name)
{
	char **f = c->csv.f;
	const char *why;
	int64_t t, in, out;

	if ((size_t)c->col[0] >= c->csv.nf || (size_t)c->col[1] >= c->csv.nf ||
	    (size_t)c->col[2] >= c->csv.nf)
		die("%s:%zu: too few columns", name, c->csv.lineno);
	if (tt_parse_datetime(tt_trim(f[c->col[0]]), &t, &why) < 0 && !why)
		die("%s:%zu: bad TIMESTAMP '%s'", name, c->csv.lineno, f[c->col[0]]);
	if (why)
		die("%s:%zu: 'TIMESTAMP': %s", name, c->csv.lineno, why);
	in = azure_count(c, 1, name);
	out = azure_count(c, 2, name);
	emit_row(c, t, in, out);
}

static void on_csv(void *ctx, const char *name, size_t lineno, const char *s,
		   size_t len)
{
	struct csvconv *c = ctx;
	char err[256];
	int rc = csv_feed(&c->csv, s, len, lineno);

	c->name = name;
	if (rc < 0)
		die("%s:%zu: %s", name, c->csv.lineno,
		    csv_why(&c->csv, errno, err, sizeof(err)));
	if (!rc)
		return;
	if (!c->header_seen)
		find_columns(c, name);
	else if (c->from == FROM_AZURE)
		azure_record(c, name);
	else
		burst_record(c, name);
}

static enum from parse_from(const char *s)
{
	if (!strcmp(s, "burstgpt") || !strcmp(s, "burst_gpt") ||
	    !strcmp(s, "burst_gpt_trace"))
		return FROM_BURSTGPT;
	if (!strcmp(s, "azure"))
		return FROM_AZURE;
	if (!strcmp(s, "bailian") || !strcmp(s, "bailian_trace"))
		return FROM_BAILIAN;
	die_usage("invalid value for --from: '%s' (burstgpt, azure or bailian)", s);
}

enum { K_FROM = 256, K_NO_REBASE };

static const struct opt convert_opts[] = {
	{ "from", K_FROM, OPT_STR, "burstgpt|azure|bailian", .to = NULL },
	{ "no-rebase", K_NO_REBASE, OPT_FLAG, .arg = NULL },
	{ "help", 'h', OPT_HELP, .arg = NULL },
	{ 0 },
};

const struct opt_cmd tt_convert_cmd = {
	"aiperf-trace", convert_opts, "[FILE ...]", 0, tt_usage_text,
	"invalid option for convert",
};

int cmd_convert(int argc, char **argv)
{
	struct csvconv c = { .rebase = 1 };
	struct opt_iter it;
	int ch;

	opt_init(&it, &tt_convert_cmd, argc, argv);
	while ((ch = opt_next(&it)) != -1) {
		switch (ch) {
		case K_FROM: c.from = parse_from(it.arg); break;
		case K_NO_REBASE: c.rebase = 0; break;
		default: break;
		}
	}
	if (c.from == FROM_NONE)
		die_usage("convert needs --from burstgpt|azure|bailian");
	if (c.from == FROM_AZURE && !c.rebase)
		die_usage("--no-rebase applies to burstgpt and bailian only");
	if (c.from == FROM_BAILIAN) {
		tt_bailian(argv + it.ind, argc - it.ind, c.rebase);
	} else {
		char err[256];

		buf_init(&c.out, BUF_NOMAX);
		csv_init(&c.csv, CSV_RECORD_MAX, CSV_FIELDS_MAX);
		tt_each_line(argv + it.ind, argc - it.ind, on_csv, &c);
		if (csv_end(&c.csv) < 0)
			die("%s:%zu: %s", c.name, c.csv.lineno,
			    csv_why(&c.csv, errno, err, sizeof(err)));
		if (!c.header_seen)
			die("no CSV header in the input");
		csv_release(&c.csv);
		buf_release(&c.out);
	}
	return util_fshut(stdout, "stdout") < 0;
}
