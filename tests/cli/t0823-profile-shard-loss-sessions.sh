#!/bin/sh
# run.sh: long
# aiperf profile --from-records in concurrency mode with multi-turn
# sessions (issue #18; aiperf(7), Several hosts): a session holds its
# sender slot through its turns and sends turn k+1 after turn k returned,
# so of its missing turns only the first can have been in flight, and
# records of other sessions prove only first turns sent. Three shards as
# plain background processes, shard 2's sender killed mid-run, then cut
# record files for the exact rule; then the rule of rate mode (a session's
# first missing turn lost when due, its later turns never sent) on cut
# records of a rate-mode run.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null || test_skip_all "no jq"
# 1.5 s a turn, two sessions at a time a shard
start_mock --ttft-ms 1500 --itl-ms 1 || test_skip_all "aiperf-mock did not start"
SPIDS=
shard_cleanup() {
	for p in $SPIDS; do kill "$p" 2>/dev/null; done
	cleanup
}
trap shard_cleanup EXIT

# three sessions a shard, two slots: with this seed shard 1's have 3, 3
# and 6 turns (requests 1-3, 4-6, 7-12), shard 2's 2, 7 and 4 (1-2, 3-9,
# 10-13), shard 3's 2, 4 and 6
GENOPTS="-m m --tokenizer builtin --random-seed 76 --isl 8 --osl 4
	--conversation-num 9 --conversation-turn-mean 4 --conversation-turn-stddev 2"
OPTS="$GENOPTS --export-level raw --ui-type none --concurrency 6 --workers-max 3"

# records FILE N: until FILE has N lines (30 s at most, a bounded loop)
records() {
	_i=0
	while [ "$( (wc -l <"$1") 2>/dev/null || echo 0)" -lt "$2" ] && [ $_i -lt 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ "$(wc -l <"$1")" -ge "$2" ]
}

test_expect_success 'a shard killed mid-session: one turn a session lost, its later turns never sent' '
	aiperf-gen $GENOPTS --shard 2/3 | jq -r "select(.turn_index == 0) | \"\(.x_correlation_id) \(.num_turns)\"" >turns2 &&
	test "$(cut -d" " -f2 turns2 | tr "\n" " ")" = "2 7 4 " &&
	for k in 1 2 3; do
		mkdir -p tmp$k &&
		TMPDIR=$TMP/tmp$k aiperf profile $OPTS --url "$MOCK_URL" --shard $k \
			--artifact-dir k$k >k$k.out 2>k$k.err &
		SPIDS="$SPIDS $!"
	done
	# shard 2 at 4.5 s: its first session done, the second on its fourth
	# turn, the third (started at 3 s) on its second; six records (the
	# kill may land later: the counts below follow the records)
	records k2/profile_export_raw.jsonl 6 &&
	{ p=$(cat tmp2/aiperf.*/send.pid) && kill -9 "$p"; st=$?; } &&
	# the shards end before anything else, whatever became of the kill
	for p in $SPIDS; do wait "$p" || :; done
	SPIDS= && test "$st" = 0 &&
	test_expect_code 3 aiperf profile $OPTS --url "$MOCK_URL" --artifact-dir km \
		--from-records k1/profile_export_raw.jsonl k2/profile_export_raw.jsonl \
		k3/profile_export_raw.jsonl >out 2>err &&
	cat km/logs/shards.txt &&
	test "$(shard_line 0 km)" = "12 0 0" && test "$(shard_line 2 km)" = "12 0 0" &&
	set -- $(shard_line 1 km) && test $# = 3 &&
	test "$1" = "$(wc -l <k2/profile_export_raw.jsonl)" &&
	# what the records show, whenever the kill landed: each session (all
	# three begun by the sixth record) unfinished had one turn in flight,
	# its later turns waited
	jq -r .metadata.x_correlation_id k2/profile_export_raw.jsonl | sort | uniq -c >got2 &&
	awk "FNR == NR { n[\$1] = \$2; next } { c[\$2] = \$1 }
		END { for (s in n) { if (!(s in c)) exit 1; if (c[s] < n[s]) u++ }; print u + 0 }" \
		turns2 got2 >unfinished &&
	test "$2" = "$(cat unfinished)" && test "$3" = $((13 - $1 - $2)) &&
	grep -q "^aiperf profile: worker_1: $1 requests ended, $2 lost in flight" err &&
	test "$(jq .request_count.avg km/profile_export_aiperf.json)" = $((24 + $1)) &&
	# killed before 7.5 s, as meant (eight records at most), the second
	# session had three turns or more to go: the old rule counted those
	# before the third session'"'"'s record lost in flight; killed later (a
	# loaded machine), the rules agree, which the log says
	{ [ "$1" -le 8 ] || echo "killed late, $1 records: the old rule not told apart" >late; }
'
[ ! -s "$TMP/late" ] || echo "# $(cat "$TMP/late")"

# cut REC... and merged0 OPTION...: the concurrency-mode run's
cut() { cut_records k1 "$@"; }
# shellcheck disable=SC2086 # OPTS: words
merged0() { merge_cut kr $OPTS "$@"; }

test_expect_success 'the rule on cut records: a turn a session in flight, first turns proven sent' '
	aiperf-gen $GENOPTS --shard 1/3 | jq -r .id >ids &&
	test "$(wc -l <ids)" = 12 &&
	test "$(wc -l <k1/profile_export_raw.jsonl)" = 12 &&
	# the third session'"'"'s first turn, one slot (a 1,000 s ramp): the two
	# sessions before had started, their first turns lost, their later
	# turns not proven sent by the third'"'"'s record
	cut 7 && test "$(merged0 --concurrency-ramp-duration 1000)" = "1 2 9" &&
	# two sessions under way, one slot: one turn lost
	cut 1 4 && test "$(merged0 --concurrency-ramp-duration 1000)" = "2 1 9" &&
	# a turn before a recorded turn of its session was sent: lost; and
	# the two sessions not started yet held the two slots
	cut 1 3 && test "$(merged0)" = "2 3 7" &&
	# one session left, two slots: one turn in flight
	cut 1 2 3 4 5 6 7 8 && test "$(merged0)" = "8 1 3"
'

# Rate mode (--request-rate): a session's first turn is due at its send
# time, turn k+1 when turn k returned plus its delay (later turns have no
# send time), so a session's first missing turn is lost when due before
# the shard's last record ended, its later turns never sent. Shard 1 at
# 2 requests/s, constant: its first turns at 0.5, 2 and 3.5 s, no slots.
RGEN="$GENOPTS --request-rate 2 --arrival-pattern constant"
ROPTS="$RGEN --export-level raw --ui-type none --workers-max 3"

# rcut REC... and rmerged0 OPTION...: the rate-mode run's
rcut() { cut_records r1 "$@"; }
# shellcheck disable=SC2086 # ROPTS: words
rmerged0() { merge_cut rr $ROPTS "$@"; }

test_expect_success 'rate mode on cut records: the first missing turn a session due or not, the later ones never sent' '
	aiperf-gen $RGEN --shard 1/3 >rgen.jsonl &&
	jq -r .id rgen.jsonl >ids &&
	test "$(jq -c "[.turn_index, .at_ns]" rgen.jsonl | tr "\n" " ")" = "[0,500000000] [1,null] [2,null] [0,2000000000] [1,null] [2,null] [0,3500000000] [1,null] [2,null] [3,null] [4,null] [5,null] " &&
	aiperf profile $ROPTS --url "$MOCK_URL" --shard 1 --artifact-dir r1 >r1.out 2>r1.err &&
	test "$(wc -l <r1/profile_export_raw.jsonl)" = 12 &&
	# the first turns only: each session'"'"'s second turn was due when its
	# first returned, before the last record ended (the old rule counted
	# them by the slots of concurrency mode: one)
	rcut 1 4 7 && test "$(rmerged0)" = "3 3 6" &&
	# the same with a 1,000 s turn delay: no second turn was due yet
	rcut 1 4 7 && test "$(rmerged0 --conversation-turn-delay-mean 1000000)" = "3 0 9" &&
	# turns before a recorded turn were sent; then one turn a session due:
	# the first session'"'"'s third turn, the second'"'"'s second, the third'"'"'s fourth
	rcut 2 4 9 && test "$(rmerged0)" = "3 6 3" &&
	# the third session'"'"'s last turn only: its turns before were sent,
	# the first two sessions'"'"' first turns were due (before the third'"'"'s)
	# and lost, their later turns waited on them
	rcut 12 && test "$(rmerged0)" = "1 7 4" &&
	grep -q "^aiperf profile: worker_0: 1 requests ended, 7 lost in flight" err
'

test_done
