/* SPDX-License-Identifier: Apache-2.0 */
/* Problem records (aiperf.problem/1, aiperf-records(5)): one accuracy benchmark problem a line. */
#ifndef AIPERF_PROBLEMS_H
#define AIPERF_PROBLEMS_H

#include <stddef.h>
#include <stdint.h>

/*
 * aiperf-evalset(1) writes them; aiperf-gen(1) sends problem i mod n as
 * request i, aiperf-metrics(1) grades the reply against problem
 * session_num mod n. A struct problem_list owns every string it holds;
 * problem_list_release() frees them. Strings are NUL-terminated and hold no
 * NUL (a record with one is refused), so they can be used as C strings.
 */

/* The file's bound; more problems than any benchmark has. */
#define PROBLEMS_MAX_BYTES ((size_t)8 << 30)
#define PROBLEMS_MAX ((size_t)1 << 22)

struct problem_rec {
	size_t index;		/* its 0-based line number among the records */
	char *task;		/* BenchmarkProblem.task */
	char *gold;		/* BenchmarkProblem.ground_truth */
	char *prompt;		/* the completions endpoint's text */
	char *messages;		/* the chat form: a JSON array, compact text */
	size_t messages_len;
	int64_t max_tokens;
};

struct problem_list {
	struct problem_rec *p;
	size_t n, cap;
};

/*
 * Parse text (n bytes) into ps (zeroed first). Blank lines are skipped;
 * every other line must be a problem record with the keys of
 * aiperf-records(5): schema "aiperf.problem/1", index equal to its place,
 * task, gold and prompt strings, messages a non-empty array of objects
 * each with a string "role", max_tokens an integer from 1 to 2^31-1.
 * Unknown keys are allowed (later schema minors). Returns 0, or -1 with
 * a message naming the line ("line 3: ...") in err and ps left empty;
 * no records at all is an error too.
 */
int problem_list_parse(struct problem_list *ps, const char *text, size_t n, char *err,
		   size_t errlen);

/* problem_list_parse() of a regular file of at most PROBLEMS_MAX_BYTES;
 * -1 with the reason in err (not the path: the caller names it). */
int problem_list_load(struct problem_list *ps, const char *path, char *err, size_t errlen);

void problem_list_release(struct problem_list *ps);

#endif
