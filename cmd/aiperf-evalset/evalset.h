/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-evalset: an accuracy benchmark's problems, its prompts built as the original builds them. */
#ifndef AIPERF_EVALSET_H
#define AIPERF_EVALSET_H

#include <stdbool.h>
#include <stddef.h>

#include "hub/rows.h"

/*
 * One problem: what is sent for it and what it is graded against. The
 * strings are owned by the struct problem_set holding it (pset_add copies
 * them). messages is the chat form as a JSON array text
 * ([{"role":"user","content":"..."}, ...]: the original's
 * BenchmarkProblem.raw_messages), or NULL when the chat form is the one
 * user message holding prompt. prompt is the flat text the completions
 * endpoint sends. The system prompt is not in either: the tool adds it
 * to both for every benchmark alike (the original's
 * AccuracyDatasetLoader), after load().
 */
struct problem {
	char *task;
	char *gold;		/* the ground truth handed to the grader */
	char *prompt;
	char *messages;		/* JSON array text, or NULL */
	long long max_tokens;	/* the benchmark's generation_size; -1:
				 * the original's default (100) */
};

/* The most bytes one prompt or gold answer may have (a row itself is
 * bounded by lib/hub/rows: ROWS_MAX_LINE). */
#define EVALSET_TEXT_MAX ((size_t)512 << 20)

struct problem_set {
	struct problem *v;
	size_t n, cap;
};

/* Append a problem (every string copied; messages may be NULL). */
void pset_add(struct problem_set *p, const char *task, const char *gold,
		  const char *prompt, const char *messages,
		  long long max_tokens);
void pset_release(struct problem_set *p);

/* What a benchmark's load() is asked for: the options after the
 * benchmark's defaults are applied (n_shots and cot resolved), and where
 * its rows come from. */
struct bench_opts {
	const char *const *tasks;	/* --accuracy-tasks; NULL: all */
	size_t ntasks;
	int n_shots;
	bool cot;
	const struct rows_src *src;
};

/*
 * A benchmark as the original registers it (plugins.yaml metadata and its
 * benchmarks/<name>.py): its name (its default grader is
 * lib/accuracy's grade_default(name), the one table of them), default n-shots and
 * CoT, the most shots it takes (-1: the options' 32), its default system
 * prompt (NULL: none) and load(), which appends its problems in the
 * original's order and returns 0, or -1 with a message in err (an unknown
 * task names the known ones; a row that lacks a column names the split
 * and the row).
 */
struct bench {
	const char *name;
	int n_shots;
	int max_shots;
	bool cot;
	const char *system_prompt;
	int (*load)(const struct bench_opts *o, struct problem_set *out,
		    char *err, size_t errlen);
};

#endif
