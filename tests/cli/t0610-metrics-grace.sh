#!/bin/sh
# Requests still in flight when the benchmark grace period ends, or when a
# second signal stops the sender (issue #11): the original cancels them and
# records nothing. aiperf-send writes them as NotFinishedError (code 499,
# was_cancelled) so nothing read is lost; aiperf-metrics leaves them out of
# every metric and count, and aiperf-export's counts and error summary
# follow; the --tee copy of the raw records keeps them. Warmup requests
# cancelled by their own grace period are unchanged.
# shellcheck disable=SC1091,SC2016,SC2034
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/cli/send-lib.sh"
SEND_PID=
SLOW_PID=
trap '[ -n "$SEND_PID" ] && kill "$SEND_PID" 2>/dev/null
	[ -n "$SLOW_PID" ] && kill "$SLOW_PID" 2>/dev/null; cleanup' EXIT

# A fast mock and one that holds every request for 60 s: the URLs are used
# round robin per session, so with two slots the run ends with both held
# by the slow one, whatever the machine's speed.
start_mock --ttft-ms 1 --itl-ms 1
FAST=$MOCK_URL
aiperf-mock --port 0 -v --ttft-ms 60000 >"$TMP/slow.url" 2>"$TMP/slow.err" &
SLOW_PID=$!
i=0
while [ ! -s "$TMP/slow.url" ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
SLOW=$(head -1 "$TMP/slow.url")

# types FILE: "count type" for each error type (none: "ok") in FILE.
types() {
	jq -r '.error.type // "ok"' "$1" | sort | uniq -c | sed 's/^ *//'
}

reqs 40 false >"$TMP/in"
test_expect_success 'send: requests in flight at the end of the grace are NotFinishedError' '
	aiperf-send -u "$FAST" -u "$SLOW" --concurrency 2 --benchmark-duration 0.5 \
		--benchmark-grace-period 0.2 <in >raw &&
	test "$(wc -l <raw)" -eq 40 &&
	test "$(count "\"type\":\"NotFinishedError\"" raw)" -eq 2 &&
	test "$(count "\"error\":{\"code\":499,\"type\":\"NotFinishedError\",\"message\":\"Request cancelled in flight: the benchmark grace period ended\"}" raw)" -eq 2 &&
	jq -e "select(.error.type == \"NotFinishedError\") | .metadata.was_cancelled and .metadata.cancellation_time_ns > 0" raw >/dev/null &&
	! grep -q RequestCancellationError raw
'

test_expect_success 'metrics: no metric record for them, the --tee copy keeps every line' '
	aiperf-metrics --tokenizer builtin --tee tee <raw >met &&
	cmp raw tee &&
	ok=$(jq -r "select(.status == 200) | .status" raw | wc -l) &&
	test "$ok" -ge 2 && test "$(wc -l <met)" -eq "$ok" &&
	! grep -q "\"error\"" met &&
	aiperf-metrics --tokenizer builtin --threads 3 <raw >met3 && cmp met met3
'

test_expect_success 'export: request count, error count and error summary leave them out' '
	aiperf-export --artifact-dir art <met >out &&
	ok=$(wc -l <met) &&
	test "$(jq .request_count.avg art/profile_export_aiperf.json)" -eq "$ok" &&
	test "$(jq -c .error_summary art/profile_export_aiperf.json)" = "[]" &&
	test "$(jq .error_request_count art/profile_export_aiperf.json)" = null &&
	test "$(jq .was_cancelled art/profile_export_aiperf.json)" = false &&
	! grep -q "Error Summary" out
'

# A recorded error next to them: it alone is in the error summary.
test_expect_success 'export: other errors are still counted and summarised' '
	jq -c "select(.status == 200)" raw | head -1 |
		jq -c ".error = {\"code\":500,\"type\":\"Internal Server Error\",\"message\":\"boom\"} | .status = 500 | .responses = []" >err1 &&
	cat raw err1 | aiperf-metrics --tokenizer builtin | aiperf-export --artifact-dir art2 >out &&
	test "$(jq .error_request_count.avg art2/profile_export_aiperf.json)" -eq 1 &&
	test "$(jq -c "[.error_summary[] | .error_details.type, .count]" art2/profile_export_aiperf.json)" = "[\"Internal Server Error\",1]"
'

# A second signal cancels at once: the same record, its own message.
seen=$(count '"POST /v1/chat/completions ' "$TMP/slow.err")
aiperf-send -u "$SLOW" --concurrency 3 <"$TMP/in" >"$TMP/raw-int" 2>"$TMP/err-int" &
SEND_PID=$!
wait_grep $((seen + 3)) '"POST /v1/chat/completions ' "$TMP/slow.err"
kill -INT "$SEND_PID"
sleep 0.2
kill -INT "$SEND_PID" 2>/dev/null
rc=0
wait "$SEND_PID" || rc=$?
echo "$rc" >"$TMP/rc-int"
SEND_PID=
test_expect_success 'SIGINT twice: NotFinishedError, left out of the metrics too' '
	test "$(cat rc-int)" -eq 0 &&
	test "$(wc -l <raw-int)" -eq 40 &&
	test "$(count "\"message\":\"Request cancelled in flight: the run was interrupted\"" raw-int)" -eq 3 &&
	test "$(count "\"type\":\"NotSentError\"" raw-int)" -eq 37 &&
	grep -q "interrupted: 3 requests ended, 3 of them cancelled in flight; 37 read but never sent" err-int &&
	aiperf-metrics --tokenizer builtin <raw-int >met-int && test ! -s met-int
'

# The warmup grace period keeps its behaviour: warmup records, cancelled.
test_expect_success 'warmup requests cancelled by the warmup grace stay RequestCancellationError' '
	reqs 2 false ",\"phase\":\"warmup\"" | sed "s/\"phase\":\"profiling\",//" >inw &&
	reqs 1 false >>inw &&
	aiperf-send -u "$SLOW" --concurrency 2 --warmup-duration 0.1 \
		--warmup-grace-period 0.1 --benchmark-duration 0.1 \
		--benchmark-grace-period 0 <inw >raww &&
	test "$(count "warmup grace period ended" raww)" -eq 2 &&
	test "$(count "\"type\":\"RequestCancellationError\"" raww)" -eq 2
'

test_done
