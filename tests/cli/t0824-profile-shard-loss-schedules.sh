#!/bin/sh
# aiperf profile --from-records, the loss report's scheduled multi-turn
# sessions beyond t0823's rate mode (aiperf(7), Several hosts): later
# turns that carry their own send time (a mooncake trace's timestamps in
# fixed-schedule mode: aiperf-send sends turn k+1 at its time, or when
# turn k returned if that is later), and warmup sessions in rate mode (a
# warmup turn without a record was sent, and lost, once profiling has a
# record: profiling waits for the warmup's last turns), and the phase
# start that a rate's later turns bound only from above. Cut record files
# of real one-worker runs (one edited), no timing-dependent kills.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null || test_skip_all "no jq"
# 1 s a turn
start_mock --ttft-ms 1000 --itl-ms 1 || test_skip_all "aiperf-mock did not start"

# Three sessions, every turn with its time (ms): a at 0, 900 and 5000, b
# at 500 and 3500, c at 3000. With 1 s turns, from the phase start: a's
# turns 0-1, 1-2 (when its first returned, after its 0.9 s) and 5-6,
# b's 0.5-1.5 and 3.5-4.5, c's 3-4. aiperf-gen gives a later turn at_ns
# and delay_ns (its gap to the turn before), sessions in the order of
# their first turns: requests 1-3 a, 4-5 b, 6 c.
cat >"$TMP/trace.jsonl" <<'EOF'
{"session_id":"a","timestamp":0,"input_length":8,"output_length":4}
{"session_id":"a","timestamp":900,"input_length":8,"output_length":4}
{"session_id":"a","timestamp":5000,"input_length":8,"output_length":4}
{"session_id":"b","timestamp":500,"input_length":8,"output_length":4}
{"session_id":"b","timestamp":3500,"input_length":8,"output_length":4}
{"session_id":"c","timestamp":3000,"input_length":8,"output_length":4}
EOF
TGEN="-m m --tokenizer builtin --random-seed 76 --input-file trace.jsonl
	--custom-dataset-type mooncake_trace --fixed-schedule"
TOPTS="$TGEN --export-level raw --ui-type none --workers-max 1"

# shellcheck disable=SC2086 # TGEN, TOPTS: words
test_expect_success 'fixed schedule on cut records: a later turn due at its own time, or when the turn before ended' '
	aiperf-gen $TGEN --shard 1/1 >tgen.jsonl &&
	jq -r .id tgen.jsonl >ids &&
	test "$(jq -c "[.turn_index, .num_turns, .at_ns, .delay_ns]" tgen.jsonl | tr "\n" " ")" = \
		"[0,3,0,null] [1,3,900000000,900000000] [2,3,5000000000,4100000000] [0,2,500000000,null] [1,2,3500000000,3000000000] [0,1,3000000000,null] " &&
	test "$(jq -r .x_correlation_id tgen.jsonl | uniq | wc -l)" = 3 &&
	aiperf profile $TOPTS --url "$MOCK_URL" --shard 1 --artifact-dir t1 >t1.out 2>t1.err &&
	test "$(wc -l <t1/profile_export_raw.jsonl)" = 6 &&
	# a and b'"'"'s first turns (the last record ends at 1.5 s): a'"'"'s second
	# turn was sent when its first returned (1 s, past its 0.9 s), not its
	# 0.9 s delay later (1.9 s), lost; its third waited on it; b'"'"'s second
	# (3.5 s) and c'"'"'s (3 s) were not due
	cut_records t1 1 4 && test "$(merge_cut kr $TOPTS)" = "2 1 3" &&
	# and a'"'"'s second turn (the last record ends at 2 s): b'"'"'s second turn
	# was due at its own 3.5 s, not when b'"'"'s first returned (1.5 s)
	cut_records t1 1 2 4 && test "$(merge_cut kr $TOPTS)" = "3 0 3" &&
	# and c'"'"'s turn (the last ends at 4 s): b'"'"'s second turn due at 3.5 s,
	# lost, not 3 s after b'"'"'s first returned (4.5 s); a'"'"'s third (5 s) not
	cut_records t1 1 2 4 6 && test "$(merge_cut kr $TOPTS)" = "4 1 1" &&
	# a'"'"'s last turn only (ends at 6 s): a'"'"'s turns before were sent, b'"'"'s
	# and c'"'"'s first turns due and lost, b'"'"'s second waited on its first
	cut_records t1 3 && test "$(merge_cut kr $TOPTS)" = "1 4 1" &&
	grep -q "^aiperf profile: worker_0: 1 requests ended, 4 lost in flight" err
'

# Rate mode with two warmup sessions (requests 1-3 and 4-6, 3 turns each,
# first turns at 0.25 and 0.5 s) before the three profiling sessions
# (7-8, 9-12, 13-17: 2, 4 and 5 turns, first turns at 0.25, 0.5 and
# 0.75 s of the profiling phase, which starts once the warmup drained).
WOPTS="-m m --tokenizer builtin --random-seed 76 --isl 8 --osl 4
	--conversation-num 3 --conversation-turn-mean 3 --conversation-turn-stddev 1
	--request-rate 4 --arrival-pattern constant --num-warmup-sessions 2"
WROPTS="$WOPTS --export-level raw --ui-type none --workers-max 1"

# shellcheck disable=SC2086 # WOPTS, WROPTS: words
test_expect_success 'rate-mode warmup sessions on cut records: a missing warmup turn lost once profiling has a record' '
	aiperf-gen $WOPTS --shard 1/1 >wgen.jsonl &&
	jq -r .id wgen.jsonl >ids &&
	test "$(jq -c "[.phase, .turn_index, .at_ns]" wgen.jsonl | tr "\n" " ")" = "[\"warmup\",0,250000000] [\"warmup\",1,null] [\"warmup\",2,null] [\"warmup\",0,500000000] [\"warmup\",1,null] [\"warmup\",2,null] [\"profiling\",0,250000000] [\"profiling\",1,null] [\"profiling\",0,500000000] [\"profiling\",1,null] [\"profiling\",2,null] [\"profiling\",3,null] [\"profiling\",0,750000000] [\"profiling\",1,null] [\"profiling\",2,null] [\"profiling\",3,null] [\"profiling\",4,null] " &&
	aiperf profile $WROPTS --url "$MOCK_URL" --shard 1 --artifact-dir w1 >w1.out 2>w1.err &&
	test "$(wc -l <w1/profile_export_raw.jsonl)" = 17 &&
	# warmup records only, the first session'"'"'s first turn (ends at
	# 1.25 s) and the second'"'"'s second (the last, 1.5-2.5 s): the first
	# session'"'"'s second turn was sent when its first returned (no delay),
	# lost, its third waited; the second'"'"'s first turn was sent, its third
	# due when its second ended, both lost; no profiling turn was sent
	# (profiling waits for the warmup)
	cut_records w1 1 5 && test "$(merge_cut kr $WROPTS)" = "2 3 12" &&
	# the first session'"'"'s second turn alone (1.25-2.25 s), no record
	# with a send time: the phase start is known only from above, that
	# turn'"'"'s session'"'"'s first (due at 0.25 s) having gone out at or after
	# it plus 0.25 s, before the turn (at once, no delay): so it was at
	# 1 s at the latest, the second session'"'"'s first turn due by 1.5 s,
	# lost (input order alone: never sent); the first'"'"'s first and third
	# (due when the second ended) lost
	cut_records w1 2 && test "$(merge_cut kr $WROPTS)" = "1 3 13" &&
	# that turn as if it had gone out 0.95 s later (2.2-2.25 s): the
	# record fits a phase start at 0 s and a first turn of 1.95 s (the
	# second session'"'"'s first turn sent at 0.5 s) as well as one at
	# 1.95 s and a first turn of no time (not due before 2.45 s, after
	# the last record ended): undecided, counted never sent (a floor)
	/usr/bin/python3 -c "if 1:
		import json
		r = json.loads(open(\"cut.jsonl\").read())
		r[\"metadata\"][\"request_start_ns\"] += 950000000
		open(\"cut.jsonl\", \"w\").write(json.dumps(r, separators=(\",\", \":\")) + \"\\n\")" &&
	test "$(merge_cut kr $WROPTS)" = "1 2 14" &&
	# a warmup turn and profiling'"'"'s first: the warmup'"'"'s five missing
	# turns were all sent (the sessions rule alone: two), lost; in
	# profiling, the first session'"'"'s second turn (due when its first
	# ended, the last record) and the other two sessions'"'"' first turns
	# (0.5 and 0.75 s) lost, their later turns never sent
	cut_records w1 1 7 && test "$(merge_cut kr $WROPTS)" = "2 8 7" &&
	grep -q "^aiperf profile: worker_0: 2 requests ended, 8 lost in flight" err
'

test_done
