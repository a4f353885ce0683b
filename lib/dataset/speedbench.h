/* SPDX-License-Identifier: Apache-2.0 */
/* SPEED-Bench: the 32 custom dataset types and their JSONL rows. */
#ifndef AIPERF_SPEEDBENCH_H
#define AIPERF_SPEEDBENCH_H

#include <stddef.h>

#include "json/json.h"

/*
 * One of the original's speed_bench_* custom_dataset_loader entries
 * (plugins.yaml): the split file it reads from a prepared directory
 * (prepare.py's names) and the category its plugin metadata keeps
 * (NULL: every row). The table is static; nothing here is freed.
 */
struct speedbench_type {
	const char *name;
	const char *split;	/* "qualitative.jsonl", "throughput_1k.jsonl", ... */
	const char *category;	/* "coding", "low_entropy", ... or NULL */
};

/* The types in plugins.yaml order, NULL-name terminated (32 of them). */
extern const struct speedbench_type speedbench_types[];

/* The type named s[0..n), or NULL. */
const struct speedbench_type *speedbench_lookup(const char *s, size_t n);

/* The most turns (messages) a row may hold. */
#define SPEEDBENCH_MAX_MESSAGES 4096

/*
 * A row validated as SpeedBenchRow.model_validate does: question_id a
 * string of exactly 32 characters (code points), category a non-empty
 * string, messages a non-empty list of objects whose role and content
 * are strings that are not blank (str.strip()) and whose content is not
 * the placeholder prepare.py leaves when the data was not fetched. Other
 * members are allowed. The pointers borrow from the row's JSON.
 */
struct speedbench_row {
	const char *id, *category;
	size_t id_len, category_len;
	const struct json *messages;	/* the array */
	size_t nmessages;
};

/* The text prepare.py leaves in place of data it did not fetch. */
#define SPEEDBENCH_PLACEHOLDER \
	"FULL BENCHMARK DATA SHOULD BE FETCHED FROM THE SOURCE USING SPECDEC_BENCH"

/*
 * Read v as a row into r. Returns 0, or -1 with the field and the
 * reason (pydantic's words: "question_id: String should have at least
 * 32 characters") in err.
 */
int speedbench_parse(const struct json *v, struct speedbench_row *r,
		     char *err, size_t errlen);

/* One message of a parsed row (an element of r->messages): its role and
 * content (borrowed). */
void speedbench_message(const struct json *m, const char **role,
			size_t *role_len, const char **content,
			size_t *content_len);

/* Whether type t loads row r (its category filter). */
int speedbench_wants(const struct speedbench_type *t,
		     const struct speedbench_row *r);

#endif
