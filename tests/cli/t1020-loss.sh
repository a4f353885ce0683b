#!/bin/sh
# aiperf-loss, the loss report of aiperf profile --from-records (issue
# #28; aiperf-loss(1)): its lines for records of every request and for
# strays, and its own errors: usage (exit 2), a record file it cannot
# read (missing, a folder, a FIFO refused at once), a line that is not
# JSON or too long, aiperf-gen failing or not found, a write error (exit
# 1). The rules themselves are tests/unit/test-shardloss.c's and t0820,
# t0823, t0824's.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

GEN="-m m --tokenizer builtin --random-seed 11 --isl 8 --osl 4 --request-count 5"

# records K: a record of each request of shard K of 2, of worker_K-1
records() {
	# shellcheck disable=SC2086 # GEN: words
	aiperf-gen $GEN --shard "$1/2" |
		sed -n "s/^.*\"id\":\"\([^\"]*\)\".*\$/{\"metadata\":{\"x_request_id\":\"\1\",\"request_start_ns\":1,\"request_end_ns\":2,\"worker_id\":\"worker_$(($1 - 1))\"}}/p"
}

# loss FILE...: aiperf-loss of the two shards on FILE...
# shellcheck disable=SC2086 # GEN: words
loss() {
	aiperf-loss --shards 2 "$@" -- $GEN
}

test_expect_success 'every request recorded: a line a shard, exit 0' '
	records 1 >r1.jsonl && records 2 >r2.jsonl &&
	test "$(wc -l <r1.jsonl)" = 3 && test "$(wc -l <r2.jsonl)" = 2 &&
	loss r2.jsonl r1.jsonl >out 2>err &&
	cat >want <<-\EOF &&
	worker_0: 3 requests ended, 0 lost in flight (due before its last record ended), 0 never sent
	worker_1: 2 requests ended, 0 lost in flight (due before its last record ended), 0 never sent
	EOF
	test_cmp want out && test ! -s err
'

test_expect_success 'a shard without records, strays of another seed and worker: exit 3' '
	sed "s/worker_1/worker_2/" r2.jsonl >other.jsonl &&
	sed 1d r1.jsonl | sed "s/\"x_request_id\":\"/&x/" >>other.jsonl &&
	printf "\n{\"metadata\":{\"x_request_id\":\"a\",\"worker_id\":\"w\\\\nx\"}}\n" >>other.jsonl &&
	test_expect_code 3 loss r1.jsonl other.jsonl - <r1.jsonl >out 2>err &&
	cat >want <<-\EOF &&
	worker_0: 3 requests ended, 0 lost in flight (due before its last record ended), 0 never sent
	worker_1: 0 requests ended, 0 lost in flight (due before its last record ended), 2 never sent
	worker_2: 2 records of no shard of this run (another seed or other options?)
	worker_0: 2 records of no shard of this run (another seed or other options?)
	w?x: 1 records of no shard of this run (another seed or other options?)
	EOF
	test_cmp want out && test ! -s err
'

test_expect_success 'usage errors: exit 2' '
	test_expect_code 2 aiperf-loss r1.jsonl 2>err && grep -q "shards is required" err &&
	test_expect_code 2 aiperf-loss --shards 2 2>err && grep -q "no record file" err &&
	test_expect_code 2 aiperf-loss --shards 2 -- r1.jsonl 2>err && grep -q "no record file" err &&
	test_expect_code 2 aiperf-loss --shards 0 r1.jsonl 2>err &&
	grep -q "invalid value for --shards" err &&
	test_expect_code 2 aiperf-loss --shards 2 --concurrency x r1.jsonl 2>err &&
	grep -q "invalid value for --concurrency" err &&
	test_expect_code 2 aiperf-loss --shards 2 --concurrency-ramp-duration -1 r1.jsonl 2>err &&
	test_expect_code 2 aiperf-loss --shards 2 --bogus r1.jsonl 2>err &&
	grep -q "^usage: aiperf-loss" err &&
	aiperf-loss --help >out && grep -q "^usage: aiperf-loss --shards n" out
'

test_expect_success 'record files it cannot read: exit 1, before aiperf-gen runs' '
	test_expect_code 1 loss r1.jsonl nofile 2>err &&
	grep -q "^aiperf-loss: cannot open '\''nofile'\'': No such file or directory" err &&
	mkdir dir && test_expect_code 1 loss dir 2>err &&
	grep -q "cannot open '\''dir'\'': Is a directory" err &&
	mkfifo fifo && test_expect_code 1 loss fifo 2>err &&
	grep -q "cannot open '\''fifo'\'': Not a regular file" err &&
	test_expect_code 1 loss /dev/null 2>err &&
	grep -q "Not a regular file" err
'

test_expect_success 'a record line that is not JSON, or too long: exit 1, where' '
	{ cat r1.jsonl && echo "{\"metadata\":" && cat r2.jsonl; } >bad.jsonl &&
	test_expect_code 1 loss bad.jsonl >out 2>err &&
	grep -q "^aiperf-loss: bad.jsonl:4: at byte 12" err && test ! -s out &&
	pad=$(printf "%02000d" 0) &&
	{ cat r1.jsonl && echo "{\"payload\":\"$pad\"}"; } >long.jsonl &&
	AIPERF_LOSS_MAX_LINE=1000 test_expect_code 1 loss long.jsonl >out 2>err &&
	grep -q "^aiperf-loss: long.jsonl:4: line longer than 1000 bytes" err
'

test_expect_success 'aiperf profile --from-records: the loss report failing fails the merge' '
	test_expect_code 1 aiperf profile $GEN --workers-max 2 --ui-type none \
		--url http://127.0.0.1:9 --artifact-dir m --from-records bad.jsonl >out 2>err &&
	grep -q "^aiperf profile: the loss report failed: aiperf-loss: bad.jsonl:4: at byte 12" err
'

test_expect_success 'aiperf-gen failing, its lines too long, or not found: exit 1' '
	test_expect_code 1 aiperf-loss --shards 2 r1.jsonl -- --bogus >out 2>err &&
	grep -q "^aiperf-gen: " err &&
	tail -1 err | grep -q "^aiperf-loss: aiperf-gen --shard 1/2 failed (status 2)" &&
	AIPERF_LOSS_MAX_LINE=200 test_expect_code 1 loss r1.jsonl >out 2>err &&
	grep -q "^aiperf-loss: aiperf-gen --shard 1/2:1: line longer than 200 bytes" err &&
	mkdir alone && cp "$TOP/bin/aiperf-loss" alone/ &&
	PATH=/nonexistent test_expect_code 1 alone/aiperf-loss --shards 1 r1.jsonl 2>err &&
	grep -q "cannot start '\''aiperf-gen'\'': No such file or directory" err
'

test_expect_success 'a write error: exit 1' '
	test_expect_code 1 loss r1.jsonl r2.jsonl >/dev/full 2>err &&
	grep -q "No space left on device" err
'

test_done
