/* SPDX-License-Identifier: Apache-2.0 */
/* Alibaba bailian traces: the sessions of chat_id/parent_chat_id chains. */
#ifndef AIPERF_BAILIAN_H
#define AIPERF_BAILIAN_H

#include <stddef.h>
#include <stdint.h>

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
