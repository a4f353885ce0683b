#!/bin/sh
# aiperf profile --from-records in concurrency mode (issue #18; aiperf(7),
# Several hosts): three shards run as plain background processes (one
# "host" each through --shard K), shard 2's sender killed mid-run; the
# merge reports per worker what it lost: the requests it held in flight
# (its share of --concurrency) lost, the rest never sent, the counts adding
# up to the shard's share of the requests.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null || test_skip_all "no jq"
# 1.5 s a request, two at a time a shard: ten requests a shard, five rounds
start_mock --ttft-ms 1500 --itl-ms 1 || test_skip_all "aiperf-mock did not start"
SPIDS=
shard_cleanup() {
	for p in $SPIDS; do kill "$p" 2>/dev/null; done
	cleanup
}
trap shard_cleanup EXIT

OPTS="-m m --tokenizer builtin --random-seed 11 --isl 8 --osl 4 --export-level raw
	--ui-type none --concurrency 6 --request-count 30 --workers-max 3"

test_expect_success 'a shard killed mid-run: its in-flight requests lost, the rest never sent' '
	for k in 1 2 3; do
		mkdir -p tmp$k &&
		TMPDIR=$TMP/tmp$k aiperf profile $OPTS --url "$MOCK_URL" --shard $k \
			--artifact-dir k$k >k$k.out 2>k$k.err &
		SPIDS="$SPIDS $!"
	done
	# once shard 2 has a record (the next two then in flight for 1.5 s):
	wait_raw k2 &&
	p=$(cat tmp2/aiperf.*/send.pid) && kill -9 "$p" &&
	for p in $SPIDS; do wait "$p" || :; done
	SPIDS= &&
	test_expect_code 3 aiperf profile $OPTS --url "$MOCK_URL" --artifact-dir km \
		--from-records k1/profile_export_raw.jsonl k2/profile_export_raw.jsonl \
		k3/profile_export_raw.jsonl >out 2>err &&
	cat km/logs/shards.txt &&
	test "$(shard_line 0 km)" = "10 0 0" && test "$(shard_line 2 km)" = "10 0 0" &&
	set -- $(shard_line 1 km) && test $# = 3 &&
	test "$1" = "$(wc -l <k2/profile_export_raw.jsonl)" &&
	test $(($1 + $2 + $3)) = 10 && test "$1" -lt 10 &&
	# shard 2 held two requests (6 over 3 shards) when it was killed
	test "$2" = $((10 - $1 < 2 ? 10 - $1 : 2)) &&
	grep -q "^aiperf profile: worker_1: $1 requests ended, $2 lost in flight" err &&
	test "$(jq .request_count.avg km/profile_export_aiperf.json)" = $((20 + $1))
'

test_expect_success 'shards that all ran to the end: nothing lost' '
	aiperf profile $OPTS --url "$MOCK_URL" --artifact-dir ka \
		--from-records k1/profile_export_raw.jsonl k3/profile_export_raw.jsonl \
		k1/profile_export_raw.jsonl >out 2>err || :
	cat ka/logs/shards.txt &&
	grep -qx "worker_0: 10 requests ended, 0 lost in flight (due before its last record ended), 0 never sent" ka/logs/shards.txt &&
	grep -qx "worker_1: 0 requests ended, 0 lost in flight (due before its last record ended), 10 never sent" ka/logs/shards.txt
'

# merged0 OPTION...: the merge's worker_0 line, as "ended lost never"
# shellcheck disable=SC2086 # OPTS: words
merged0() {
	st=0
	aiperf profile $OPTS --url "$MOCK_URL" --artifact-dir kr "$@" >out 2>err || st=$?
	test "$st" = 3 || return 1
	sed -n "s/^worker_0: \([0-9]*\) requests ended, \([0-9]*\) lost in flight (due before its last record ended), \([0-9]*\) never sent\$/\1 \2 \3/p" kr/logs/shards.txt
}

test_expect_success 'the rule: two slots held, one early in a ramp, none after a stop as asked' '
	head -1 k1/profile_export_raw.jsonl >first.jsonl &&
	test "$(merged0 --from-records first.jsonl)" = "1 2 7" &&
	# a 1,000 s ramp to 2 slots: one slot 1.5 s in
	test "$(merged0 --concurrency-ramp-duration 1000 --from-records first.jsonl)" = "1 1 8" &&
	# a NotSentError record: the sender wrote all it held
	sed -n 2p k1/profile_export_raw.jsonl |
		sed "s/\"metadata\":{/\"error\":{\"type\":\"NotSentError\",\"message\":\"\"},\"metadata\":{/" >>first.jsonl &&
	grep -q NotSentError first.jsonl &&
	test "$(merged0 --from-records first.jsonl)" = "2 0 8"
'

test_done
