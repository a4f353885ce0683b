/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-trace: analyze, synthesize and convert mooncake-style traces. */
#include <math.h>
#include <signal.h>

#include "lines.h"
#include "opt.h"
#include "tt.h"
#include "util.h"

const char tt_usage_text[] =
	"usage: aiperf-trace analyze [--input-file F] [--block-size N] [--output-file F]\n"
	"                            [--json] [FILE ...]\n"
	"       aiperf-trace synthesize [--speedup-ratio X] [--prefix-len-multiplier X]\n"
	"                               [--prefix-root-multiplier N] [--prompt-len-multiplier X]\n"
	"                               [--max-isl N] [--max-osl N] [--block-size N]\n"
	"                               [--random-seed N] [--group-sessions] [--strict]\n"
	"                               [FILE ...]\n"
	"       aiperf-trace convert --from burstgpt|azure|bailian [--no-rebase] [FILE ...]\n"
	"       aiperf-trace --help | --version\n";

_Noreturn void tt_usage(FILE *f, int status)
{
	fputs(tt_usage_text, f);
	exit(status);
}

void tt_each_line(char **files, int n, tt_line_fn fn, void *ctx)
{
	int i = 0;

	do {
		const char *path = n ? files[i] : "-";
		const char *name = strcmp(path, "-") ? path : "<stdin>";
		struct lines l;
		const char *s;
		size_t len;
		int rc;

		if (lines_open_stream(&l, path, TT_LINE_MAX) < 0)
			die("cannot open '%s':", path);
		while ((rc = lines_next(&l, &s, &len)) == 1)
			fn(ctx, name, l.lineno, s, len);
		if (rc < 0 && errno == ENOBUFS)
			die("%s:%zu: line longer than %zu bytes", name,
			    l.lineno, TT_LINE_MAX);
		if (rc < 0)
			die("cannot read '%s':", path);
		lines_close(&l);
	} while (++i < n);
}

double tt_div_round(tt_u128 num, uint64_t den)
{
	tt_u128 q = num / den, r = num % den;
	uint64_t m;
	int e = 0, sticky;

	if (q >> 54) {
		int shift = 0;

		while (q >> (54 + shift))
			shift++;
		sticky = (q & (((tt_u128)1 << shift) - 1)) != 0 || r != 0;
		m = (uint64_t)(q >> shift);
		e = shift;
	} else {
		m = (uint64_t)q;
		if (m == 0 && r == 0)
			return 0.0;
		while (m < ((uint64_t)1 << 53)) {
			r <<= 1;
			m = m * 2 + (r >= den);
			if (r >= den)
				r -= den;
			e--;
		}
		sticky = r != 0;
	}
	/* m has 54 bits: 53 of mantissa and the guard bit. */
	if ((m & 1) && (sticky || (m & 2)))
		m += 2;
	return ldexp((double)(m >> 1), e + 1);
}

int main(int argc, char **argv)
{
	const char *sub;

	util_setprogname(argv[0]);
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2)
		tt_usage(stderr, 2);
	sub = argv[1];
	if (!strcmp(sub, "--completion")) {
		static const char *const names[] = { "analyze", "synthesize", "convert" };
		static const struct opt_cmd *const subs[] = {
			&tt_analyze_cmd, &tt_synth_cmd, &tt_convert_cmd,
		};
		if (argc != 3 || strcmp(argv[2], "bash"))
			die_usage("--completion takes one argument: 'bash'");
		opt_complete_bash_subs("aiperf-trace", names, subs, 3, stdout);
		return util_fshut(stdout, "stdout") < 0;
	}
	if (!strcmp(sub, "--help") || !strcmp(sub, "-h"))
		tt_usage(stdout, 0);
	if (!strcmp(sub, "--version")) {
		printf("aiperf-trace %s\n", AIPERF_VERSION);
		return util_fshut(stdout, "stdout") < 0;
	}
	if (!strcmp(sub, "analyze") || !strcmp(sub, "analyze-trace"))
		return cmd_analyze(argc - 1, argv + 1);
	if (!strcmp(sub, "synthesize") || !strcmp(sub, "synthesize-trace"))
		return cmd_synthesize(argc - 1, argv + 1);
	if (!strcmp(sub, "convert"))
		return cmd_convert(argc - 1, argv + 1);
	die_usage("unknown subcommand '%s'", sub);
}
