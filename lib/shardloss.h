/* SPDX-License-Identifier: Apache-2.0 */
/* The requests of each shard of a multi-host run without a record: lost in flight or never sent. */
#ifndef AIPERF_SHARDLOSS_H
#define AIPERF_SHARDLOSS_H

#include <stddef.h>
#include <stdint.h>

/*
 * aiperf profile --from-records (aiperf(7), Several hosts) merges the raw
 * records of N shards, shard k sent by worker_k (k from 0) with the
 * requests that aiperf-gen --shard k+1/N emits. A struct shardloss is fed
 * each shard's requests in input order (shardloss_request()), then the
 * records of every shard in any order (shardloss_record()), and tells per
 * shard how many requests ended (have a record), were lost in flight (sent,
 * no record) or never sent (shardloss_count()), by the sender's rules
 * (cmd/aiperf-send: sched.c, sess.c, warmup.c), written out in
 * shardloss.c. Records whose worker and request id name no request of a
 * shard are strays (shardloss_stray()).
 *
 * The struct owns everything it keeps: the lines passed in are only read
 * during the call, strings are copied. Lines are parsed with lib/json;
 * the caller bounds their length (lib/lines.h). Functions that take err
 * write a message there on failure ("at byte 12: expected ':'").
 */
struct shardloss;

/* A report of nshards shards (at least 1): one slot each, no ramp. */
struct shardloss *shardloss_new(size_t nshards);
void shardloss_free(struct shardloss *sl);

/* Shard k's part of --concurrency and of --warmup-concurrency (how many
 * requests of each phase it held in flight at most). */
void shardloss_slots(struct shardloss *sl, size_t k, uint64_t slots,
		     uint64_t warmup_slots);
/* --concurrency-ramp-duration and --warmup-concurrency-ramp-duration, ns
 * (0: none): the slots grow from 1 over it, from the phase's first record. */
void shardloss_ramps(struct shardloss *sl, int64_t ramp_ns,
		     int64_t warmup_ramp_ns);

/*
 * One request record line (aiperf-records(5)) of shard k, in the order
 * aiperf-gen emitted them; what counts of it is id, phase, at_ns,
 * num_turns, x_correlation_id, turn_index and delay_ns. A blank line or
 * one without a string "id" is skipped. Returns 0, or -1 when the line is
 * not JSON, repeats an id of the shard, holds a 17th phase name, or comes
 * after a record.
 */
int shardloss_request(struct shardloss *sl, size_t k, const char *s, size_t n,
		      char *err, size_t errlen);

/*
 * One raw record line (aiperf-records(5)): metadata.x_request_id,
 * worker_id, request_start_ns and request_end_ns, start_perf_ns,
 * aiperf.intended_perf_ns and error.type count. A line without a string
 * metadata.x_request_id is skipped; a number that is not an integer from
 * 0 to 2^63-1 counts as absent; a second record of one request is
 * ignored. Returns 0, or -1 when the line is not JSON.
 */
int shardloss_record(struct shardloss *sl, const char *s, size_t n, char *err,
		     size_t errlen);

struct shardloss_count {
	uint64_t ended;		/* requests with a record */
	uint64_t lost;		/* sent, without a record */
	uint64_t never;		/* never sent */
};

/* Shard k's counts from what was fed so far (lost + never are the
 * requests without a record). */
void shardloss_count(struct shardloss *sl, size_t k, struct shardloss_count *c);

/*
 * The i-th worker (in order of first appearance) with records of no
 * request of a shard: its worker_id ("?" when the record has none; bytes
 * as given, not NUL-free, len set) and how many records. NULL past the
 * last.
 */
const char *shardloss_stray(const struct shardloss *sl, size_t i, size_t *len,
			    uint64_t *n);

#endif
