#!/bin/sh
# aiperf-gen --num-sessions (--conversation-num, --num-conversations): no
# new session after N started, started sessions send all their turns, in
# every timing mode and for synthetic and trace datasets; the original's
# validation.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

CORPUS=$TOP/data/corpus/tinyshakespeare.txt
[ -f "$CORPUS" ] || CORPUS=$SHARED/data/corpus/tinyshakespeare.txt
G="aiperf-gen -m m --tokenizer builtin --corpus $CORPUS --isl 8 --num-dataset-entries 4 --random-seed 42"

# sessions FILE: one line per session of FILE's records (phase, correlation
# id, turns written, num_turns, its turn indexes), in first-seen order.
cat >"$TMP/sessions.py" <<'EOF'
import json, sys
seen = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    k = (r["phase"], r["x_correlation_id"])
    s = seen.setdefault(k, [r["conversation_id"], r["num_turns"], []])
    s[2].append(r["turn_index"])
for (phase, _), (conv, n, ks) in seen.items():
    print(phase, conv, len(ks), n, ",".join(map(str, ks)))
EOF
sessions() {
	python3 "$TMP/sessions.py" "$1"
}
# complete FILE: every session wrote turns 0 .. num_turns-1 in order.
complete() {
	sessions "$1" | awk '{ want = ""; for (i = 0; i < $4; i++)
		want = want (i ? "," : "") i; if ($3 != $4 || $5 != want) exit 1 }'
}

test_expect_success 'synthetic: N sessions, each with all its turns' '
	$G --session-turns-mean 3 --session-turns-stddev 2 --num-sessions 5 >out &&
	sessions out >s && test "$(wc -l <s)" -eq 5 && complete out &&
	test "$(grep -c "\"turn_index\":0," out)" -eq 5 &&
	test "$(wc -l <out)" -eq "$(awk "{ n += \$3 } END { print n }" s)"
'

test_expect_success 'sessions outnumber the dataset: the sampler wraps' '
	$G --num-sessions 9 >out && test "$(wc -l <out)" -eq 9 &&
	test "$(grep -o "\"conversation_id\":\"[^\"]*\"" out | sort -u | wc -l)" -eq 4
'

test_expect_success '--conversation-num and --num-conversations are aliases' '
	$G --session-turns-mean 2 --num-sessions 3 >a &&
	$G --session-turns-mean 2 --conversation-num 3 >b &&
	$G --session-turns-mean 2 --num-conversations 3 >c &&
	test_cmp a b && test_cmp a c && test "$(wc -l <a)" -eq 6
'

test_expect_success 'no default request count: the sessions end the phase' '
	$G --num-sessions 30 >out && test "$(wc -l <out)" -eq 30 &&
	$G --request-rate 5 --num-sessions 12 >out && test "$(wc -l <out)" -eq 12 &&
	test "$(grep -c "\"at_ns\":" out)" -eq 12
'

test_expect_success 'request rate: first turns carry at_ns, later turns follow' '
	$G --request-rate 4 --arrival-pattern constant --session-turns-mean 2 \
		--num-sessions 3 >out &&
	grep -o "\"at_ns\":[0-9]*" out | cut -d: -f2 | tr "\n" " " >got &&
	printf "250000000 500000000 750000000 " >expect && test_cmp expect got &&
	test "$(wc -l <out)" -eq 6 && complete out
'

test_expect_success 'warmup keeps its own stop condition' '
	$G --session-turns-mean 2 --num-warmup-sessions 2 --num-sessions 3 >out &&
	sessions out | cut -d" " -f1 | uniq -c | awk "{ print \$1, \$2 }" >got &&
	printf "2 warmup\n3 profiling\n" >expect && test_cmp expect got &&
	$G --warmup-request-count 3 --session-turns-mean 2 --num-sessions 1 >out &&
	test "$(grep -c "\"phase\":\"warmup\"" out)" -eq 3 &&
	test "$(grep -c "\"phase\":\"profiling\"" out)" -eq 2
'

cat >"$TMP/t.jsonl" <<'EOF'
{"session_id":"a","input_length":5,"output_length":2,"timestamp":0}
{"session_id":"b","input_length":5,"output_length":2,"timestamp":10}
{"session_id":"a","input_length":5,"output_length":2,"timestamp":20}

{"session_id":"c","input_length":5,"output_length":2,"timestamp":30}
{"session_id":"b","input_length":5,"output_length":2,"timestamp":40}
{"input_length":5,"output_length":2,"timestamp":5}
EOF

test_expect_success 'trace file: sessions in dataset order, all turns, wrapping' '
	$G --input-file t.jsonl --num-sessions 6 >out &&
	sessions out | cut -d" " -f2-4 >got &&
	printf "%s\n" "a 2 2" "b 2 2" "c 1 1" "session_000000 1 1" "a 2 2" \
		"b 2 2" >expect &&
	test_cmp expect got && complete out
'

test_expect_success 'fixed schedule: the first N sessions by first-turn time' '
	$G --input-file t.jsonl --custom-dataset-type mooncake_trace \
		--num-sessions 2 >out &&
	sessions out | cut -d" " -f2-4 >got &&
	printf "%s\n" "a 2 2" "session_000000 1 1" >expect && test_cmp expect got &&
	grep -o "\"at_ns\":[0-9]*" out | cut -d: -f2 | tr "\n" " " >got &&
	printf "0 20000000 5000000 " >expect && test_cmp expect got &&
	$G --input-file t.jsonl --fixed-schedule --num-sessions 99 >out &&
	test "$(wc -l <out)" -eq 6
'

test_expect_success 'user-centric rate: N users start, each sends its turns' '
	$G --user-centric-rate 2 --num-users 3 --session-turns-mean 3 \
		--num-sessions 5 >out &&
	sessions out >s && test "$(wc -l <s)" -eq 5 && complete out &&
	$G --user-centric-rate 2 --num-users 3 --session-turns-mean 3 \
		--num-sessions 3 >out &&
	test "$(sessions out | wc -l)" -eq 3 && complete out
'

usage_err() {
	test_expect_success "usage error: $1" "
		test_expect_code 2 $G $1 >out 2>err && test ! -s out &&
		grep -qF -- '$2' err &&
		test_expect_code 2 $G $1 --print-timing-mode >out 2>err &&
		test ! -s out && grep -qF -- '$2' err
	"
}
usage_err "--request-count 5 --num-sessions 2" \
	"aiperf-gen: Both a request-count and number of conversations are set. This can result in confusing output. Use either --request-count or --conversation-num but not both."
usage_err "--num-requests 5 --conversation-num 2" "Both a request-count"
usage_err "--concurrency 3 --num-sessions 2" \
	"aiperf-gen: Concurrency (3) cannot be greater than the number of conversations (2). Either reduce --concurrency or increase --conversation-num."
usage_err "--user-centric-rate 1 --num-users 4 --session-turns-mean 2 --num-sessions 3" \
	"aiperf-gen: --num-sessions (3) cannot be less than --num-users (4). Each user needs at least one session."
usage_err "--num-sessions 0" "--num-sessions"

test_expect_success 'concurrency equal to the sessions is fine' '
	$G --concurrency 2 --num-sessions 2 >out && test "$(wc -l <out)" -eq 2
'

test_done
