/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-trace internals shared by the subcommands. */
#ifndef AIPERF_TT_H
#define AIPERF_TT_H

#include "opt.h"
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TT_LINE_MAX ((size_t)256 << 20)	/* longest input line */
#define TT_MAP_MAX ((size_t)1 << 32)	/* most entries in any one map */

/* One pass over the lines of files[0..n) (stdin when n == 0); fn gets
 * each line with its file name and line number and returns 0 or dies. */
typedef void (*tt_line_fn)(void *ctx, const char *name, size_t lineno,
			   const char *s, size_t len);
void tt_each_line(char **files, int n, tt_line_fn fn, void *ctx);

/* Summary of one list of values, as PrefixAnalyzer's MetricStats. */
struct tt_stats {
	int ok;			/* 0: the list was empty (null) */
	double mean, std, min, p25, median, p75, max;
};

struct tt_report {
	uint64_t total_requests, unique_prefixes, num_prefix_groups;
	double cache_hit_rate;
	int64_t min_isl, max_isl, min_osl, max_osl;
	double avg_isl, avg_osl, prefix_reuse_ratio;
	struct tt_stats isl, osl, ctx, uniq, hit;
};

void tt_report_console(FILE *f, const struct tt_report *r);
/* The pydantic model_dump_json(indent=2) text, without a final newline. */
char *tt_report_json(const struct tt_report *r);

_Noreturn void tt_usage(FILE *f, int status);
/* The whole tool's --help text, and each subcommand's option table. */
extern const char tt_usage_text[];
extern const struct opt_cmd tt_analyze_cmd, tt_synth_cmd, tt_convert_cmd;
int cmd_analyze(int argc, char **argv);
int cmd_synthesize(int argc, char **argv);
int cmd_convert(int argc, char **argv);

/* Correctly rounded num/den for a sign and 128-bit magnitude. */
__extension__ typedef unsigned __int128 tt_u128;
__extension__ typedef __int128 tt_i128;
double tt_div_round(tt_u128 num, uint64_t den);

#endif
