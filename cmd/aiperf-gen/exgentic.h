/* SPDX-License-Identifier: Apache-2.0 */
/* --public-dataset exgentic and exgentic_v2: recorded agent sessions replayed as chat requests. */
#ifndef AIPERF_GEN_EXGENTIC_H
#define AIPERF_GEN_EXGENTIC_H

#include <stddef.h>

struct dataset;
struct gen_opts;
struct rows;
struct hfpub_ds;

/* The original pins revisions 70036b93a04e61b0ea2706a68b962f4f26774587
 * (v1) and 4b8ad4ab198438e5a170f9171c19c6a2cf7c1814 (v2); the hub's
 * dataset viewer serves the rows of the main branch. */

/*
 * The checks the original makes before it reads a row, for v1 (v2 0) or
 * v2: the --dataset-filter pairs, the endpoint (chat) and a finite bound
 * (--num-dataset-entries, --num-conversations or --request-count).
 * Returns 0, or -1 with its message in err.
 */
int exgentic_check(const struct gen_opts *o, int v2, char *err, size_t errlen);

/*
 * hfpub's builder of kind HFPUB_EXGENTIC (ds->version 1 or 2): the
 * checks above, then the rows (the split, in row order) into d: each
 * source session whose harness, source model and (v2) benchmark match,
 * until the bound; its replayable calls in start order, each a turn of
 * the recorded messages (raw_messages), tools (raw_tools), output limit
 * (max_tokens) and controls (extra), sent without the session's
 * history (no_history). Without o->fixed_schedule one conversation a
 * session, named after it, a later call's delay its start's distance
 * from the end of the call before (0 when they overlap); with it, each
 * call its own conversation "SESSION:SPAN", its at_ns the start's
 * distance from the session's first start. The payloads are left to
 * hfpub's finalizing. Returns 0, or -1 with the original's message in
 * err (a bad row; no call matched: the combinations the rows have).
 */
int exgentic_build(struct dataset *d, const struct gen_opts *o,
		   const struct hfpub_ds *ds, struct rows *rows, char *err,
		   size_t errlen);

#endif
