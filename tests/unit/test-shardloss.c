/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/shardloss: each rule of the loss report, duplicates, strays, hostile records. */
#include "shardloss.h"
#include "test.h"
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>

static char err[256];

/* Feed request line fmt... of shard k; its return. */
static int FMT(3, 4)
req(struct shardloss *sl, size_t k, const char *fmt, ...)
{
	char line[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	return shardloss_request(sl, k, line, strlen(line), err, sizeof(err));
}

/* A single-turn request of phase ph ("" for none), with at_ns at (-1: none). */
static void
single(struct shardloss *sl, size_t k, const char *id, const char *ph, long long at)
{
	char a[48] = "", p[48] = "";

	if (at >= 0)
		snprintf(a, sizeof(a), ",\"at_ns\":%lld", at);
	if (*ph)
		snprintf(p, sizeof(p), ",\"phase\":\"%s\"", ph);
	req(sl, k, "{\"id\":\"%s\",\"num_turns\":1%s%s}", id, a, p);
}

/* Turn t of n of session c; at_ns at and delay_ns d when >= 0. */
static void
turn(struct shardloss *sl, const char *id, const char *c, int t, int n, long long at,
     long long d)
{
	char a[48] = "", dl[48] = "";

	if (at >= 0)
		snprintf(a, sizeof(a), ",\"at_ns\":%lld", at);
	if (d >= 0)
		snprintf(dl, sizeof(dl), ",\"delay_ns\":%lld", d);
	req(sl, 0, "{\"id\":\"%s\",\"x_correlation_id\":\"%s\",\"turn_index\":%d,"
	    "\"num_turns\":%d,\"phase\":\"profiling\"%s%s}", id, c, t, n, a, dl);
}

static int FMT(2, 3)
rawline(struct shardloss *sl, const char *fmt, ...)
{
	char line[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	return shardloss_record(sl, line, strlen(line), err, sizeof(err));
}

/* A record of worker w, request id: started st, ended e (ns, -1: absent). */
static int
rec(struct shardloss *sl, const char *w, const char *id, long long st, long long e)
{
	return rawline(sl, "{\"metadata\":{\"x_request_id\":\"%s\",\"request_start_ns\":%lld,"
		       "\"request_end_ns\":%lld,\"worker_id\":\"%s\"}}", id, st, e, w);
}

/* The same with a send time: start_perf_ns sp, aiperf.intended_perf_ns ip. */
static int
rec_at(struct shardloss *sl, const char *id, long long st, long long e, long long sp,
       long long ip)
{
	return rawline(sl, "{\"metadata\":{\"x_request_id\":\"%s\",\"request_start_ns\":%lld,"
		       "\"request_end_ns\":%lld,\"worker_id\":\"worker_0\"},\"start_perf_ns\":%lld,"
		       "\"aiperf\":{\"intended_perf_ns\":%lld}}", id, st, e, sp, ip);
}

/* Shard k's counts as "ended lost never" (static). */
static const char *
counts(struct shardloss *sl, size_t k)
{
	static char s[96];
	struct shardloss_count c;

	shardloss_count(sl, k, &c);
	snprintf(s, sizeof(s), "%llu %llu %llu", (unsigned long long)c.ended,
		 (unsigned long long)c.lost, (unsigned long long)c.never);
	return s;
}

/* Ten single-turn profiling requests r1..r10 of one shard, slots slots. */
static struct shardloss *
ten(uint64_t slots, int64_t ramp)
{
	struct shardloss *sl = shardloss_new(1);
	char id[8];

	shardloss_slots(sl, 0, slots, slots);
	shardloss_ramps(sl, ramp, 0);
	for (int i = 1; i <= 10; i++) {
		snprintf(id, sizeof(id), "r%d", i);
		single(sl, 0, id, "profiling", -1);
	}
	return sl;
}

static void
test_concurrency(void)
{
	struct shardloss *sl = ten(2, 0);

	rec(sl, "worker_0", "r1", 100, 200);
	TEST_STR("concurrency: the shard's slots held in flight, the rest never sent",
		 counts(sl, 0), "1 2 7");
	TEST_STR("concurrency: counting twice gives the same", counts(sl, 0), "1 2 7");
	shardloss_free(sl);

	sl = ten(2, 0);
	rec(sl, "worker_0", "r5", 100, 200);
	TEST_STR("concurrency: the requests before a recorded one were sent",
		 counts(sl, 0), "1 4 5");
	shardloss_free(sl);

	sl = ten(2, 0);
	rec(sl, "worker_0", "r1", 100, 200);
	rawline(sl, "{\"error\":{\"type\":\"NotSentError\",\"message\":\"\"},\"metadata\":"
		"{\"x_request_id\":\"r2\",\"worker_id\":\"worker_0\"}}");
	TEST_STR("concurrency: a NotSentError record: the sender held none",
		 counts(sl, 0), "2 0 8");
	shardloss_free(sl);

	sl = ten(1, 0);
	TEST_STR("concurrency: a phase without a record held none", counts(sl, 0), "0 0 10");
	shardloss_free(sl);

	sl = ten(0, 0);
	rec(sl, "worker_0", "r1", 100, 200);
	TEST_STR("concurrency: no slots, none held", counts(sl, 0), "1 0 9");
	shardloss_free(sl);
}

static void
test_ramp(void)
{
	struct shardloss *sl = ten(4, 3000);

	/* one slot at the phase's first start, one more each 1000 ns */
	rec(sl, "worker_0", "r1", 100, 200);
	TEST_STR("ramp: one slot early in the ramp", counts(sl, 0), "1 1 8");
	rec(sl, "worker_0", "r2", 150, 1150);
	TEST_STR("ramp: two slots 1050 ns in", counts(sl, 0), "2 2 6");
	rec(sl, "worker_0", "r3", 150, 3100);
	TEST_STR("ramp: every slot once it is over", counts(sl, 0), "3 4 3");
	shardloss_free(sl);

	sl = ten(4, 3000);
	rec(sl, "worker_0", "r1", 500, 100);
	TEST_STR("ramp: an end before the start holds one slot", counts(sl, 0), "1 1 8");
	shardloss_free(sl);

	sl = ten(4, 3000);
	rec(sl, "worker_0", "r1", -1, -1);
	TEST_STR("ramp: no times: the ramp from 0 to 0", counts(sl, 0), "1 1 8");
	shardloss_free(sl);
}

/* Warmup requests w1-w3 and profiling p1-p3, slots 2 and warmup slots 1. */
static struct shardloss *
phases(void)
{
	struct shardloss *sl = shardloss_new(1);

	shardloss_slots(sl, 0, 2, 1);
	single(sl, 0, "w1", "warmup", -1);
	single(sl, 0, "w2", "warmup", -1);
	single(sl, 0, "w3", "warmup", -1);
	single(sl, 0, "p1", "profiling", -1);
	single(sl, 0, "p2", "profiling", -1);
	single(sl, 0, "p3", "profiling", -1);
	return sl;
}

static void
test_phases(void)
{
	struct shardloss *sl = phases();

	rec(sl, "worker_0", "w1", 100, 200);
	TEST_STR("phases: the warmup's own slots; profiling had none", counts(sl, 0), "1 1 4");
	shardloss_free(sl);

	sl = phases();
	rec(sl, "worker_0", "p1", 100, 200);
	TEST_STR("phases: profiling has a record: the warmup was all sent",
		 counts(sl, 0), "1 5 0");
	shardloss_free(sl);
}

/* Sessions a (a0-a2) and b (b0-b1), concurrency mode, slots slots. */
static struct shardloss *
sessions(uint64_t slots)
{
	struct shardloss *sl = shardloss_new(1);

	shardloss_slots(sl, 0, slots, slots);
	turn(sl, "a0", "a", 0, 3, -1, -1);
	turn(sl, "a1", "a", 1, 3, -1, -1);
	turn(sl, "a2", "a", 2, 3, -1, -1);
	turn(sl, "b0", "b", 0, 2, -1, -1);
	turn(sl, "b1", "b", 1, 2, -1, -1);
	return sl;
}

static void
test_sessions(void)
{
	struct shardloss *sl = sessions(2);

	rec(sl, "worker_0", "a0", 100, 200);
	TEST_STR("sessions: one turn a session in flight, its later ones never sent",
		 counts(sl, 0), "1 2 2");
	shardloss_free(sl);

	sl = sessions(2);
	rec(sl, "worker_0", "a2", 100, 200);
	TEST_STR("sessions: the turns before a recorded turn were sent", counts(sl, 0), "1 3 1");
	shardloss_free(sl);

	sl = sessions(1);
	rec(sl, "worker_0", "b0", 100, 200);
	TEST_STR("sessions: a later session's record proves a first turn sent",
		 counts(sl, 0), "1 1 3");
	shardloss_free(sl);

	sl = sessions(2);
	rec(sl, "worker_0", "b0", 100, 200);
	TEST_STR("sessions: and the slots one more turn", counts(sl, 0), "1 2 2");
	shardloss_free(sl);

	/* a correlation id shared by single-turn requests makes no session */
	sl = shardloss_new(1);
	req(sl, 0, "{\"id\":\"s1\",\"x_correlation_id\":\"x\",\"num_turns\":1}");
	req(sl, 0, "{\"id\":\"s2\",\"x_correlation_id\":\"x\",\"num_turns\":1}");
	req(sl, 0, "{\"id\":\"s3\",\"x_correlation_id\":\"x\",\"num_turns\":1}");
	rec(sl, "worker_0", "s3", 100, 200);
	TEST_STR("sessions: num_turns 1 is no session", counts(sl, 0), "1 2 0");
	shardloss_free(sl);
}

static void
test_schedule(void)
{
	struct shardloss *sl = shardloss_new(1);

	single(sl, 0, "r1", "profiling", 0);
	single(sl, 0, "r2", "profiling", 1000);
	single(sl, 0, "r3", "profiling", 5000);
	/* 100 ns late: the phase started at 9900 on the wall clock */
	rec_at(sl, "r1", 10000, 11000, 500, 400);
	TEST_STR("schedule: due before the last record ended: lost; after: never",
		 counts(sl, 0), "1 1 1");
	shardloss_free(sl);

	sl = shardloss_new(1);
	single(sl, 0, "r1", "profiling", 0);
	single(sl, 0, "r2", "profiling", 1000);
	single(sl, 0, "r3", "profiling", 5000);
	rec(sl, "worker_0", "r3", 10000, 11000);
	TEST_STR("schedule: no send time in the records: due by the start's bound",
		 counts(sl, 0), "1 2 0");
	shardloss_free(sl);
}

/* A rate's sessions: a (first turn at 0, then delays d, d), b at 2000. */
static struct shardloss *
rate(long long d)
{
	struct shardloss *sl = shardloss_new(1);

	turn(sl, "a0", "a", 0, 3, 0, -1);
	turn(sl, "a1", "a", 1, 3, -1, d);
	turn(sl, "a2", "a", 2, 3, -1, d);
	turn(sl, "b0", "b", 0, 2, 2000, -1);
	turn(sl, "b1", "b", 1, 2, -1, d);
	return sl;
}

static void
test_scheduled_sessions(void)
{
	struct shardloss *sl = rate(100);

	rec_at(sl, "a0", 10000, 10500, 7, 7);
	TEST_STR("scheduled sessions: a next turn due after the last record: never",
		 counts(sl, 0), "1 0 4");
	shardloss_free(sl);

	sl = rate(0);
	rec_at(sl, "a0", 10000, 10500, 7, 7);
	TEST_STR("scheduled sessions: due when its turn before ended: lost, the next waits",
		 counts(sl, 0), "1 1 3");
	shardloss_free(sl);

	sl = rate(0);
	rec_at(sl, "a0", 10000, 12500, 7, 7);
	TEST_STR("scheduled sessions: a first turn due by its own time", counts(sl, 0), "1 2 2");
	shardloss_free(sl);

	/* a trace's: later turns with a time of their own (a1 at 900) */
	sl = shardloss_new(1);
	turn(sl, "a0", "a", 0, 2, 0, -1);
	turn(sl, "a1", "a", 1, 2, 900, 900);
	rec_at(sl, "a0", 10000, 10500, 7, 7);
	TEST_STR("scheduled sessions: a later turn at its own time, not yet",
		 counts(sl, 0), "1 0 1");
	rec_at(sl, "zz", 0, 0, 0, 0);	/* a stray does not move the end */
	shardloss_free(sl);

	sl = shardloss_new(1);
	turn(sl, "a0", "a", 0, 2, 0, -1);
	turn(sl, "a1", "a", 1, 2, 300, 300);
	rec_at(sl, "a0", 10000, 10500, 7, 7);
	TEST_STR("scheduled sessions: or when the turn before ended, if later",
		 counts(sl, 0), "1 1 0");
	shardloss_free(sl);
}

/* A rate without a send time in the records: session a (a0 at 250, a1
 * at once), b (b0 at 500). */
static struct shardloss *
bounded(void)
{
	struct shardloss *sl = shardloss_new(1);

	turn(sl, "a0", "a", 0, 2, 250, -1);
	turn(sl, "a1", "a", 1, 2, -1, 0);
	turn(sl, "b0", "b", 0, 1, 500, -1);
	return sl;
}

static void
test_bounded(void)
{
	struct shardloss *sl = bounded();

	/* a1 went at 2000, no sooner than the start plus 250: the start by 1750 */
	rec(sl, "worker_0", "a1", 2000, 3000);
	TEST_STR("phase start bounded from above: a first turn due by it, lost",
		 counts(sl, 0), "1 2 0");
	shardloss_free(sl);

	sl = bounded();
	rec(sl, "worker_0", "a1", 2800, 3000);
	TEST_STR("phase start bounded from above: undecided counts as never sent",
		 counts(sl, 0), "1 1 1");
	shardloss_free(sl);
}

static void
test_duplicates(void)
{
	struct shardloss *sl = ten(2, 0);

	TEST("duplicates: a request id twice in a shard fails",
	     req(sl, 0, "{\"id\":\"r3\"}") == -1 && strstr(err, "'r3' twice"));
	rec(sl, "worker_0", "r1", 100, 200);
	rec(sl, "worker_0", "r1", 100, 900000);
	TEST_STR("duplicates: a second record of a request is ignored", counts(sl, 0), "1 2 7");
	TEST("duplicates: a request after a record fails",
	     req(sl, 0, "{\"id\":\"r11\"}") == -1 && strstr(err, "after the records"));
	shardloss_free(sl);

	sl = shardloss_new(2);
	single(sl, 0, "x", "", -1);
	single(sl, 1, "x", "", -1);
	rec(sl, "worker_1", "x", 1, 2);
	TEST_STR("duplicates: one id in two shards, each its own (0)", counts(sl, 0), "0 0 1");
	TEST_STR("duplicates: one id in two shards, each its own (1)", counts(sl, 1), "1 0 0");
	shardloss_free(sl);
}

static void
test_strays(void)
{
	struct shardloss *sl = shardloss_new(2);
	const char *w;
	size_t len;
	uint64_t n;

	single(sl, 0, "a", "", -1);
	single(sl, 1, "b", "", -1);
	rec(sl, "worker_0", "b", 1, 2);		/* another shard's request */
	rec(sl, "worker_2", "a", 1, 2);		/* no such shard */
	rec(sl, "worker_0", "zz", 1, 2);
	rec(sl, "worker_01", "a", 1, 2);	/* not as a sender writes it */
	rec(sl, "worker_", "a", 1, 2);
	rec(sl, "worker_99999999999999999999999", "a", 1, 2);
	rawline(sl, "{\"metadata\":{\"x_request_id\":\"a\"}}");
	rawline(sl, "{\"metadata\":{\"x_request_id\":\"a\",\"worker_id\":0}}");
	rawline(sl, "{\"metadata\":{\"x_request_id\":\"a\",\"worker_id\":\"w\\u0000x\"}}");
	w = shardloss_stray(sl, 0, &len, &n);
	TEST("strays: by worker, in order of first appearance",
	     w && len == 8 && !memcmp(w, "worker_0", 8) && n == 2);
	w = shardloss_stray(sl, 1, &len, &n);
	TEST("strays: a worker of no shard", w && !strcmp(w, "worker_2") && n == 1);
	w = shardloss_stray(sl, 2, &len, &n);
	TEST("strays: a leading zero is another worker", w && !strcmp(w, "worker_01"));
	w = shardloss_stray(sl, 5, &len, &n);
	TEST("strays: no worker_id (or not a string) is worker '?'",
	     w && !strcmp(w, "?") && n == 2);
	w = shardloss_stray(sl, 6, &len, &n);
	TEST("strays: a worker_id with a NUL keeps its bytes",
	     w && len == 3 && !memcmp(w, "w\0x", 3));
	TEST("strays: none past the last", !shardloss_stray(sl, 7, &len, &n));
	TEST_STR("strays: count for no shard", counts(sl, 0), "0 0 1");
	TEST_STR("strays: out of range shard counts nothing", counts(sl, 5), "0 0 0");
	shardloss_free(sl);
}

static void
test_hostile_records(void)
{
	struct shardloss *sl = ten(2, 0);
	char deep[1200];
	const char *w;
	size_t len;
	uint64_t n;

	TEST("hostile: not JSON fails with a message",
	     rawline(sl, "{\"metadata\":") == -1 && *err);
	memset(deep, '[', 600);
	memset(deep + 600, ']', 600);
	TEST("hostile: nested too deep fails",
	     shardloss_record(sl, deep, sizeof(deep), err, sizeof(err)) == -1 && errno == ELOOP);
	TEST("hostile: blank lines are skipped", rawline(sl, " \t\r") == 0);
	TEST("hostile: JSON that is no object is skipped",
	     rawline(sl, "[1]") == 0 && rawline(sl, "\"x\"") == 0 && rawline(sl, "3") == 0 &&
	     rawline(sl, "null") == 0 && rawline(sl, "{\"metadata\":[]}") == 0);
	TEST("hostile: an x_request_id that is no string is skipped",
	     rawline(sl, "{\"metadata\":{\"x_request_id\":1,\"worker_id\":\"worker_0\"}}") == 0 &&
	     rawline(sl, "{\"metadata\":{\"x_request_id\":null}}") == 0 &&
	     rawline(sl, "{\"x_request_id\":\"r1\",\"worker_id\":\"worker_0\"}") == 0);
	TEST_STR("hostile: none of those counted", counts(sl, 0), "0 0 10");
	TEST("hostile: no stray from them", !shardloss_stray(sl, 0, &len, &n));
	/* times of the wrong type or out of range count as absent */
	rawline(sl, "{\"metadata\":{\"x_request_id\":\"r1\",\"worker_id\":\"worker_0\","
		"\"request_start_ns\":\"100\",\"request_end_ns\":99999999999999999999999}}");
	rawline(sl, "{\"metadata\":{\"x_request_id\":\"r2\",\"worker_id\":\"worker_0\","
		"\"request_start_ns\":-5,\"request_end_ns\":1.5},\"start_perf_ns\":true,"
		"\"aiperf\":7,\"error\":{\"type\":[\"NotSentError\"]}}");
	TEST_STR("hostile: wrong types and huge numbers count as absent", counts(sl, 0), "2 2 6");
	rawline(sl, "{\"metadata\":{\"x_request_id\":\"r3\",\"worker_id\":\"worker_0\","
		"\"request_start_ns\":9223372036854775807,\"request_end_ns\":9223372036854775807},"
		"\"start_perf_ns\":9223372036854775807,\"aiperf\":{\"intended_perf_ns\":1}}");
	TEST_STR("hostile: the largest times", counts(sl, 0), "3 2 5");
	rawline(sl, "{\"metadata\":{\"x_request_id\":\"r4\",\"worker_id\":\"worker_0\","
		"\"x_request_id\":\"r9\"}}");
	TEST_STR("hostile: a repeated key: the last one (r9)", counts(sl, 0), "4 5 1");
	rec(sl, "worker_0", "r4", 1, 2);
	TEST_STR("hostile: r4 was still missing", counts(sl, 0), "5 4 1");
	TEST("hostile: records of a known id of an unknown worker are strays",
	     rec(sl, "worker_7", "r5", 1, 2) == 0 && (w = shardloss_stray(sl, 0, &len, &n)) &&
	     !strcmp(w, "worker_7"));
	shardloss_free(sl);
}

static void
test_hostile_requests(void)
{
	struct shardloss *sl = shardloss_new(1);
	char ph[32];
	int rc = 0;

	TEST("requests: not JSON fails", req(sl, 0, "{\"id\":") == -1 && *err);
	TEST("requests: no shard 2 of 1", req(sl, 1, "{\"id\":\"x\"}") == -1);
	TEST("requests: without a string id, skipped",
	     req(sl, 0, "{\"id\":5}") == 0 && req(sl, 0, "[]") == 0 && req(sl, 0, "%s", " ") == 0);
	for (int i = 0; i < 16 && rc == 0; i++) {
		snprintf(ph, sizeof(ph), "p%d", i);
		rc = req(sl, 0, "{\"id\":\"%s\",\"phase\":\"%s\"}", ph, ph);
	}
	TEST("requests: sixteen phases", rc == 0);
	TEST("requests: a seventeenth fails",
	     req(sl, 0, "{\"id\":\"q\",\"phase\":\"p17\"}") == -1 && strstr(err, "phases"));
	TEST("requests: a phase that is no string is '-', a seventeenth",
	     req(sl, 0, "{\"id\":\"q2\",\"phase\":3}") == -1);
	shardloss_free(sl);

	/* times near the top of int64: saturated, no overflow */
	sl = shardloss_new(1);
	req(sl, 0, "{\"id\":\"a0\",\"x_correlation_id\":\"a\",\"num_turns\":3,"
	    "\"at_ns\":9223372036854775807}");
	req(sl, 0, "{\"id\":\"a1\",\"x_correlation_id\":\"a\",\"num_turns\":3,"
	    "\"turn_index\":1,\"delay_ns\":9223372036854775807}");
	req(sl, 0, "{\"id\":\"a2\",\"x_correlation_id\":\"a\",\"num_turns\":3,"
	    "\"turn_index\":2,\"delay_ns\":9223372036854775807}");
	req(sl, 0, "{\"id\":\"b\",\"num_turns\":1,\"at_ns\":9223372036854775807}");
	rec_at(sl, "a1", 9223372036854775807LL, 9223372036854775807LL,
	       9223372036854775807LL, 1);
	TEST_STR("requests: the largest times saturate", counts(sl, 0), "1 3 0");
	shardloss_free(sl);

	sl = shardloss_new(1);
	req(sl, 0, "{\"id\":\"a0\",\"x_correlation_id\":\"a\",\"num_turns\":\"2\"}");
	req(sl, 0, "{\"id\":\"a1\",\"x_correlation_id\":\"a\",\"num_turns\":2,"
	    "\"turn_index\":-1,\"at_ns\":-4}");
	req(sl, 0, "{\"id\":\"a\\u0000b\",\"x_correlation_id\":\"a\",\"num_turns\":2}");
	TEST("requests: an id with a NUL is an id of its own",
	     req(sl, 0, "{\"id\":\"a\\u0000c\"}") == 0 && req(sl, 0, "{\"id\":\"a\"}") == 0);
	rec(sl, "worker_0", "a1", 1, 2);
	TEST_STR("requests: wrong types: no session, no time", counts(sl, 0), "1 1 3");
	shardloss_free(sl);
}

int
main(void)
{
	test_concurrency();
	test_ramp();
	test_phases();
	test_sessions();
	test_schedule();
	test_scheduled_sessions();
	test_bounded();
	test_duplicates();
	test_strays();
	test_hostile_records();
	test_hostile_requests();
	return TEST_DONE();
}
