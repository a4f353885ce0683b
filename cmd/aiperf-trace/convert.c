/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-trace convert: BurstGPT, Azure and Alibaba bailian traces to mooncake JSONL. */
#include <math.h>

#include "buf.h"
#include "json/json.h"
#include "rand/pystr.h"
#include "tt.h"
#include "util.h"
#include "ttconv.h"

enum from { FROM_NONE, FROM_BURSTGPT, FROM_AZURE, FROM_BAILIAN };

struct csvconv {
	enum from from;
	int rebase;
	int header_seen;
	int col[3];		/* timestamp, input, output column numbers */
	int have_t0;
	int64_t t0;
	struct buf out;
};

/* Split one CSV record (RFC 4180 quoting) into fields in place. */
static int csv_split(char *s, char **f, int max)
{
	int n = 0;
	char *w;

	for (;;) {
		if (n == max)
			return n;
		f[n++] = w = s;
		if (*s == '"') {
			for (s++;; s++) {
				if (*s == '"' && s[1] == '"')
					*w++ = *s++;
				else if (*s == '"' || !*s)
					break;
				else
					*w++ = *s;
			}
			if (*s == '"')
				s++;
			while (*s && *s != ',')
				*w++ = *s++;
		} else {
			while (*s && *s != ',')
				*w++ = *s++;
		}
		if (!*s) {
			*w = '\0';
			return n;
		}
		s++;
		*w = '\0';
	}
}

static void find_columns(struct csvconv *c, char **f, int n, const char *name,
			 size_t lineno)
{
	static const char *const want[2][3] = {
		{ "Timestamp", "Request tokens", "Response tokens" },
		{ "TIMESTAMP", "ContextTokens", "GeneratedTokens" },
	};
	const char *const *w = want[c->from == FROM_AZURE];

	if (n && !strncmp(f[0], "\xEF\xBB\xBF", 3))	/* a UTF-8 BOM */
		memmove(f[0], f[0] + 3, strlen(f[0] + 3) + 1);

	for (int k = 0; k < 3; k++) {
		c->col[k] = -1;
		for (int i = 0; i < n; i++)
			if (!strcmp(tt_trim(f[i]), w[k]))
				c->col[k] = i;
		if (c->col[k] < 0)
			die("%s:%zu: missing required column '%s'", name, lineno, w[k]);
	}
	c->header_seen = 1;
}

/* Write {"timestamp": ms, "input_length": i, "output_length": o}. */
static void emit_row(struct csvconv *c, int64_t t_ns, int64_t in, int64_t out)
{
	struct jw w;

	if (!c->have_t0) {
		c->t0 = c->rebase ? t_ns : 0;
		c->have_t0 = 1;
	}
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

static void on_csv(void *ctx, const char *name, size_t lineno, const char *s,
		   size_t len)
{
	struct csvconv *c = ctx;
	char *line, *f[64];
	int n;
	int64_t t, in, out;

	if (pystr_isblank(s, len))
		return;
	line = xstrndup(s, len);
	if (len && line[len - 1] == '\r')
		line[len - 1] = '\0';
	n = csv_split(line, f, 64);
	if (!c->header_seen) {
		find_columns(c, f, n, name, lineno);
		goto out;
	}
	if (c->col[0] >= n || c->col[1] >= n || c->col[2] >= n) {
		if (c->from == FROM_AZURE)
			die("%s:%zu: too few columns", name, lineno);
		goto out;	/* BurstGPT: unparsable rows are skipped */
	}
	if (c->from == FROM_AZURE) {
		if (tt_parse_datetime(tt_trim(f[c->col[0]]), &t) < 0)
			die("%s:%zu: bad TIMESTAMP '%s'", name, lineno, f[c->col[0]]);
		if (tt_parse_int(f[c->col[1]], &in) < 0 ||
		    tt_parse_int(f[c->col[2]], &out) < 0)
			die("%s:%zu: bad token count", name, lineno);
	} else if (tt_parse_seconds(f[c->col[0]], &t) < 0 ||
		   tt_parse_int(f[c->col[1]], &in) < 0 ||
		   tt_parse_int(f[c->col[2]], &out) < 0) {
		goto out;
	}
	if (in < 0 || out < 0)
		die("%s:%zu: '%s': must not be negative", name, lineno,
		    c->from == FROM_AZURE ? (in < 0 ? "ContextTokens" : "GeneratedTokens")
					  : (in < 0 ? "Request tokens" : "Response tokens"));
	emit_row(c, t, in, out);
out:
	free(line);
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
		buf_init(&c.out, BUF_NOMAX);
		tt_each_line(argv + it.ind, argc - it.ind, on_csv, &c);
		if (!c.header_seen)
			die("no CSV header in the input");
		buf_release(&c.out);
	}
	return util_fshut(stdout, "stdout") < 0;
}
