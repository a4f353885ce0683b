/* SPDX-License-Identifier: Apache-2.0 */
/* Alibaba bailian traces: the sessions of chat_id/parent_chat_id chains. */
#ifndef AIPERF_BAILIAN_H
#define AIPERF_BAILIAN_H

#include <stddef.h>
#include <stdint.h>

#include "json/json.h"

/*
 * One bailian_trace record (BailianTrace.model_validate): chat_id,
 * input_length and output_length integers and timestamp (seconds) a
 * number, all required; parent_chat_id (-1 when absent: a root) and turn
 * (1) integers, type a string and hash_ids a list of integers when
 * present. hash_ids points into the record's JSON (NULL: none).
 */
struct bailian_rec {
	int64_t chat, parent, turn, in, out;
	double ts;
	const struct json *hash_ids;
};

/*
 * Read object o as a record, with every dataset reader's bounds
 * (field_check(): lengths FIELD_TOKENS, the timestamp FIELD_SECONDS).
 * Returns 0; -1 when o is no bailian_trace record
 * (a field missing or of another type), or -2 when a value is out of
 * bounds, each with the reason ("input_length: must not be negative") in
 * err. aiperf-gen and aiperf-trace convert both read records with it.
 */
int bailian_parse(const struct json *o, struct bailian_rec *r, char *err,
		  size_t errlen);

/*
 * The session root of each of n records, as the original's
 * BailianTraceDatasetLoader._group_into_sessions finds it: from a
 * record's chat id, follow parent_chat_id links (the last record with a
 * chat id stands for it) until a root (parent -1), a parent that is no
 * record's chat id, a self link or a chat already walked in this search;
 * every chat on the way is cached with the root found, and a cached chat
 * answers at once. root[i] gets record i's root chat id. Returns 0, or -1
 * when a map would hold more than max entries. Allocates nothing that
 * outlives the call.
 */
int bailian_roots(const int64_t *chat, const int64_t *parent, size_t n,
		  size_t max, int64_t *root);

/*
 * bailian_roots, then each record's session: group[i] numbers record i's
 * root among the roots in order of first appearance, from 1. Returns 0,
 * -1 when the chats, or -2 when the sessions, would need more than max
 * map entries.
 */
int bailian_group(const int64_t *chat, const int64_t *parent, size_t n,
		  size_t max, int64_t *root, size_t *group);

#endif
