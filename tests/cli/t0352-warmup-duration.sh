#!/bin/sh
# Warmup by duration without a rate (gen's reissue pool, the sender repeats
# it until the duration ends), the warmup grace period, user-centric
# warmup, and profiling starting only after warmup drained.
# shellcheck disable=SC1091,SC2016,SC2034 # test bodies are eval'd strings
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/cli/send-lib.sh"
SEND_PID=
ZERO_PID=
trap '[ -n "$SEND_PID" ] && kill "$SEND_PID" 2>/dev/null; [ -n "$ZERO_PID" ] && kill "$ZERO_PID" 2>/dev/null; cleanup' EXIT

CORPUS=$TOP/data/corpus/tinyshakespeare.txt
[ -f "$CORPUS" ] || CORPUS=$SHARED/data/corpus/tinyshakespeare.txt
G="aiperf-gen -m m --tokenizer builtin --corpus $CORPUS --isl 8 --num-dataset-entries 4 --random-seed 42"

# phase_n PHASE FILE: raw records of PHASE in FILE.
phase_n() {
	count "\"benchmark_phase\":\"$1\"" "$2"
}

# drained FILE: no profiling request was issued before the last warmup
# record ended (spec 5.7).
drained() {
	we=$(jq -r 'select(.metadata.benchmark_phase == "warmup") | .metadata.request_end_ns' "$1" | sort -n | tail -1)
	ps=$(jq -r 'select(.metadata.benchmark_phase == "profiling") | .metadata.credit_issued_ns' "$1" | sort -n | head -1)
	test -n "$we" && test -n "$ps" && test "$we" -le "$ps"
}

# all_ids IN OUT: every request record of IN has its raw record in OUT, and
# no x_request_id is written twice.
all_ids() {
	jq -r .id "$1" | sort >ids.in &&
	jq -r .metadata.x_request_id "$2" | sort >ids.out &&
	test -z "$(uniq -d ids.out)" && test -z "$(comm -23 ids.in ids.out)"
}

test_expect_success 'gen: a duration without a rate writes a reissue pool' '
	$G --warmup-duration 1 --session-turns-mean 2 --request-count 2 >out &&
	test "$(count "\"phase\":\"warmup\",\"reissue\":true," out)" -eq 8 &&
	test "$(count "\"reissue\"" out)" -eq 8 &&
	test "$(count "\"phase\":\"profiling\"" out)" -eq 2 &&
	test "$(count "\"at_ns\"" out)" -eq 0 &&
	$G --warmup-duration 1 --session-turns-mean 2 --request-count 2 >out2 &&
	cmp out out2
'

test_expect_success 'gen: the pool is at most 1000 sessions' '
	$G --num-dataset-entries 1001 --isl 2 --warmup-duration 1 \
		--request-count 1 >out &&
	test "$(count "\"reissue\":true" out)" -eq 1000
'

test_expect_success 'gen: a count, sessions or a rate bound the warmup records' '
	$G --warmup-duration 1 --warmup-request-count 3 --request-count 1 >out &&
	test "$(count "\"phase\":\"warmup\"" out)" -eq 3 &&
	$G --warmup-duration 1 --num-warmup-sessions 2 --session-turns-mean 2 \
		--request-count 1 >out2 &&
	test "$(count "\"phase\":\"warmup\"" out2)" -eq 4 &&
	$G --warmup-duration 0.5 --warmup-request-rate 10 \
		--warmup-arrival-pattern constant --request-count 1 >out3 &&
	test "$(count "\"phase\":\"warmup\"" out3)" -eq 4 &&
	test "$(cat out out2 out3 | count "\"reissue\"" -)" -eq 0
'

U="--user-centric-rate 4 --num-users 2 --session-turns-mean 2"
test_expect_success 'gen: user-centric warmup is a rate or concurrency phase' '
	$G $U --warmup-request-count 3 --request-count 4 >out &&
	test "$(grep "\"phase\":\"warmup\"" out | count "\"at_ns\"" -)" -eq 0 &&
	test "$(count "\"phase\":\"warmup\"" out)" -eq 3 &&
	grep "\"phase\":\"profiling\"" out | grep -o "\"x_correlation_id\":\"[0-9]*\"" >corr &&
	test "$(wc -l <corr)" -eq 4 &&
	$G $U --warmup-duration 1 --warmup-grace-period 2 --request-count 4 >out2 &&
	test "$(count "\"phase\":\"warmup\",\"reissue\":true," out2)" -eq 8 &&
	$G $U --warmup-request-rate 10 --warmup-arrival-pattern constant \
		--warmup-duration 0.25 --request-count 4 >out3 &&
	grep "\"phase\":\"warmup\"" out3 | grep -o "\"at_ns\":[0-9]*" >at &&
	printf "\"at_ns\":%s\n" 100000000 200000000 >expect && test_cmp expect at
'

test_expect_success 'gen: user-centric checks ignore the warmup rate and pattern' '
	$G $U --warmup-request-rate 5 --warmup-arrival-pattern gamma \
		--warmup-request-count 2 >out &&
	test_expect_code 2 $G $U --arrival-pattern constant --warmup-request-count 2 >out 2>err &&
	grep -qF -- "--user-centric-rate cannot be used together with --request-rate or --arrival-pattern" err
'

start_mock --ttft-ms 0 --itl-ms 0 --output-tokens 1
ZERO=$MOCK_URL
ZERO_PID=$MOCK_PID
MOCK_PID=
start_mock --ttft-ms 5 --itl-ms 1
FAST=$MOCK_URL
test_expect_success 'send: the pool is sent again until the duration ends' '
	$G --warmup-duration 1 --session-turns-mean 2 --request-count 4 >in &&
	aiperf-send -u "$FAST" --concurrency 2 --warmup-duration 1 <in >out &&
	test "$(phase_n warmup out)" -gt 8 &&
	test "$(phase_n profiling out)" -eq 4 &&
	all_ids in out && drained out &&
	grep -q "\"x_request_id\":\"[^\"]*\.1\"" out &&
	jq -r "select(.metadata.benchmark_phase == \"warmup\") | .metadata.x_correlation_id" out |
		sort | uniq -c | awk "\$1 != 2 { exit 1 }" &&
	test -z "$(jq -r "select(.error and .metadata.benchmark_phase == \"profiling\") | 1" out)"
'

test_expect_success 'send: user-centric profiling after a warmup pool' '
	$G --user-centric-rate 20 --num-users 2 --session-turns-mean 2 \
		--warmup-duration 1 --request-count 4 >in &&
	aiperf-send -u "$FAST" --warmup-duration 1 <in >out &&
	test "$(phase_n warmup out)" -gt 8 &&
	test "$(phase_n profiling out)" -eq 4 &&
	test -z "$(jq -r "select(.error and .metadata.benchmark_phase == \"profiling\") | 1" out)" &&
	all_ids in out && drained out
'

test_expect_success 'send: without --warmup-duration the pool is sent once, with a warning' '
	aiperf-send -u "$FAST" --concurrency 2 <in >out 2>err &&
	test "$(phase_n warmup out)" -eq 8 && test "$(phase_n profiling out)" -eq 4 &&
	grep -qF "pass --warmup-duration" err
'

test_expect_success 'send: profiling waits for later warmup turns and their delays' '
	$G --num-warmup-sessions 1 --session-turns-mean 2 \
		--session-turn-delay-mean 200 --request-count 1 >in &&
	aiperf-send -u "$FAST" --concurrency 2 <in >out &&
	test "$(phase_n warmup out)" -eq 2 && drained out
'

# More profiling records than the sender reads ahead (256 first turns and
# their later turns) before the input ends.
test_expect_success 'send: a session the warmup count cut short frees its slot' '
	$G --session-turns-mean 2 --warmup-request-count 3 --request-count 600 >in &&
	timeout 60 aiperf-send -u "$ZERO" --concurrency 1 <in >out &&
	test "$(wc -l <out)" -eq 603 && test "$(phase_n warmup out)" -eq 3
'

test_expect_success 'send: usage errors' '
	test_expect_code 2 aiperf-send --warmup-grace-period 1 </dev/null >out 2>err &&
	grep -qF "warmup-grace-period can only be used when --warmup-duration is set. Set --warmup-duration." err &&
	test_expect_code 2 aiperf-send --warmup-duration 0 </dev/null >out 2>err &&
	grep -qF -- "--warmup-duration" err
'

test_expect_success 'aiperf profile: --warmup-duration reaches gen and send' '
	aiperf profile -m m --url "$FAST" --tokenizer builtin --random-seed 7 \
		--isl 8 --osl 4 --concurrency 2 --request-count 4 \
		--num-dataset-entries 3 --warmup-duration 1 --warmup-grace-period 5 \
		--export-level raw --artifact-dir art >/dev/null 2>&1 &&
	test "$(jq .request_count.avg art/profile_export_aiperf.json)" = 4 &&
	test "$(wc -l <art/profile_export.jsonl)" -eq 4 &&
	test "$(phase_n warmup art/profile_export_raw.jsonl)" -gt 3 &&
	grep -q "\"warmup_grace_period\": 5.0" art/profile_export_aiperf.json
'

# warmup_mode NAME WARMUP-RECORDS OPTIONS...: aiperf profile with a warmup,
# its raw export has that many warmup records, the metrics none of them.
warmup_mode() {
	name=$1 n=$2
	shift 2
	test_expect_success "aiperf profile: warmup by $name is left out of the metrics" "
		aiperf profile -m m --url \"\$FAST\" --tokenizer builtin --random-seed 7 \
			--isl 8 --osl 4 --request-count 4 --export-level raw \
			--artifact-dir $name $* >/dev/null 2>&1 &&
		test \"\$(phase_n warmup $name/profile_export_raw.jsonl)\" -eq $n &&
		test \"\$(phase_n profiling $name/profile_export_raw.jsonl)\" -eq 4 &&
		test \"\$(jq .request_count.avg $name/profile_export_aiperf.json)\" = 4 &&
		test \"\$(wc -l <$name/profile_export.jsonl)\" -eq 4 &&
		drained $name/profile_export_raw.jsonl
	"
}
warmup_mode count 3 --warmup-request-count 3 --concurrency 2
warmup_mode sessions 4 --num-warmup-sessions 2 --session-turns-mean 2
warmup_mode rate 2 --warmup-request-rate 10 --warmup-arrival-pattern constant \
	--warmup-duration 0.25 --warmup-grace-period 5

test_expect_success 'aiperf profile: a warmup grace period needs a warmup duration' '
	test_expect_code 2 aiperf profile -m m --url "$FAST" --tokenizer builtin \
		--warmup-request-count 2 --warmup-grace-period 3 >out 2>err &&
	test ! -e artifacts &&
	grep -qF "aiperf profile: --warmup-grace-period can only be used when --warmup-duration is set. Set --warmup-duration." err
'

test_expect_success 'aiperf profile: an infinite warmup grace period' '
	aiperf profile -m m --url "$FAST" --tokenizer builtin --random-seed 7 \
		--isl 8 --osl 4 --request-count 2 --num-dataset-entries 2 \
		--warmup-duration 0.1 --warmup-grace-period inf \
		--artifact-dir inf >/dev/null 2>&1 &&
	test "$(jq .input_config.loadgen.warmup_grace_period inf/profile_export_aiperf.json)" = null &&
	test "$(jq .request_count.avg inf/profile_export_aiperf.json)" = 2
'
stop_mock
kill "$ZERO_PID"

start_mock --ttft-ms 1500 --itl-ms 1
SLOW=$MOCK_URL
test_expect_success 'send: the grace period cancels warmup requests in flight' '
	$G --warmup-duration 0.2 --request-count 1 >in &&
	aiperf-send -u "$SLOW" --concurrency 2 --warmup-duration 0.2 \
		--warmup-grace-period 0.1 --benchmark-duration 0.1 \
		--benchmark-grace-period 0 <in >out &&
	test "$(count "warmup grace period ended" out)" -eq 2 &&
	test "$(phase_n warmup out)" -eq 4 &&
	test "$(count "\"type\":\"NotSentError\"" out)" -eq 2 &&
	test "$(phase_n profiling out)" -eq 1 && drained out
'

test_expect_success 'send: with a warmup rate the grace applies the same way' '
	$G --warmup-request-rate 20 --warmup-arrival-pattern constant \
		--warmup-duration 0.2 --request-count 1 >in &&
	test "$(count "\"phase\":\"warmup\"" in)" -eq 3 &&
	aiperf-send -u "$SLOW" --warmup-duration 0.2 --warmup-grace-period 0.1 \
		--benchmark-duration 0.1 --benchmark-grace-period 0 <in >out &&
	test "$(count "warmup grace period ended" out)" -eq 3 && drained out
'
stop_mock

start_mock --ttft-ms 300 --itl-ms 1
test_expect_success 'send: by default warmup requests in flight finish' '
	$G --warmup-duration 0.1 --request-count 1 >in &&
	aiperf-send -u "$MOCK_URL" --concurrency 2 --warmup-duration 0.1 <in >out &&
	test "$(count "\"was_cancelled\":true" out)" -eq 0 &&
	test "$(jq -r "select(.metadata.benchmark_phase == \"warmup\" and .status == 200) | .status" out | wc -l)" -eq 2 &&
	test "$(count "\"type\":\"NotSentError\"" out)" -eq 2 &&
	test "$(phase_n profiling out)" -eq 1 && drained out
'
stop_mock

# interrupt NAME LINES SEND-OPTIONS...: run aiperf-send on in-NAME, SIGINT
# once out-NAME has LINES records, keep its exit status in rc-NAME.
interrupt() {
	name=$1 lines=$2
	shift 2
	aiperf-send -u "$MOCK_URL" --shutdown-grace-period 0.1 --unbuffered "$@" \
		<"$TMP/in-$name" >"$TMP/out-$name" 2>/dev/null &
	SEND_PID=$!
	wait_lines "$TMP/out-$name" "$lines"
	kill -INT "$SEND_PID"
	wait "$SEND_PID"
	echo $? >"$TMP/rc-$name"
	SEND_PID=
}

start_mock --ttft-ms 50 --itl-ms 1
$G --warmup-duration 30 --session-turns-mean 2 --request-count 3 >"$TMP/in-pool"
interrupt pool 12 --concurrency 3 --warmup-duration 30
$G --warmup-request-count 40 --request-count 3 >"$TMP/in-count"
interrupt count 6 --concurrency 3
$G --warmup-request-rate 100 --warmup-duration 1 --request-count 3 >"$TMP/in-rate"
interrupt rate 6 --warmup-duration 1
for m in pool count rate; do
	test_expect_success "SIGINT during warmup ($m): a record for every request read or re-issued" "
		test \"\$(cat rc-$m)\" -eq 0 && all_ids in-$m out-$m &&
		test \"\$(phase_n profiling out-$m)\" -eq 3 &&
		jq -r 'select(.metadata.benchmark_phase == \"profiling\") | .error.type' out-$m >types &&
		test \"\$(sort -u types)\" = NotSentError
	"
done
test_expect_success 'SIGINT during the warmup pool: re-issued records too' '
	test "$(phase_n warmup out-pool)" -gt 8
'

test_done
